package pattern

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// MaxStarCandidates bounds the processor counts Search tries on a star.
const MaxStarCandidates = 64

// MaxLocalSolves bounds the LP solves of Search's local search, and
// MaxLocalMessages the patterns it runs on.
const (
	MaxLocalSolves   = 100
	MaxLocalMessages = 64
)

// MaxChain is the number of stage counts Search's chain covers: the
// search at n is seeded with the search's result at n−1, down to
// max(n_min, n−MaxChain+1).
const MaxChain = 8

// DefaultExhaustive is the largest tree height for which Search tries
// every subset of computing layers (Options.Exhaustive).
const DefaultExhaustive = 5

// Search solves the problem with n stages over several message patterns
// and returns the best schedule: the paper's greedy prune from the full
// pattern, and the same from patterns restricted to fewer destinations —
// for trees, subsets of the layers (the others only relay: every subset
// when h <= Exhaustive, else every single layer and a greedy extension of
// the best), for a homogeneous star, the first k processors for k = m−1,
// m−2, ... A candidate whose trivial bound (closedform.SubsetBound for a
// tree, S + AV/k for k processors of a star) is not below the best
// makespan found is ruled out unsolved. Candidates that are infeasible
// with n stages (too little buffer capacity) are skipped. The greedy
// prune starts every message with its startup S paid even when it is
// empty; leaving whole destinations out is what it cannot find, and what
// this adds (issue 19's binomial example: 0.0090 greedy, 0.0015 with only
// layer 1 computing). The returned schedule's Pattern says which
// destinations won and how many candidates were tried.
//
// A schedule with fewer stages is a schedule with n stages (the others
// stay empty), so with pruning the best makespan cannot grow with n. The
// search keeps that true: it runs at every stage count from
// max(n_min, n−MaxChain+1) up to n, each seeded with the result of the
// count below (its pattern re-solved with the extra stage available), so
// its result never exceeds the one at n−1 when n−1 is in the chain.
// opt.Cache shares the chain between calls (sweeps); the results are the
// same with or without it.
//
// With opt.Engine.NoPrune the full n-stage pattern is solved as it is
// (the paper's model: every message sent, empty ones too; warm with
// opt.Warm) and Pattern says "full".
func Search(p *problem.Problem, n int, opt Options) (*schedule.Schedule, error) {
	if opt.Engine.NoPrune {
		s, err := solveFull(p, n, opt)
		if err != nil {
			return nil, err
		}
		s.Pattern = &schedule.PatternInfo{Method: "full", Candidates: 1}
		SetBound(p, s)
		return s, nil
	}
	lo := max(1, min(p.NMin(), n), n-MaxChain+1)
	c := &chain{p: p, n: n, lo: lo, opt: opt, reuse: lo < n && topReuse(p, n)}
	c.ahead = startAhead(c)
	defer c.ahead.stop()
	var prev *schedule.Schedule
	var rec *seen
	report(opt, 0, n-lo+1)
	for k := lo; k <= n; k++ {
		if err := stopped(opt); err != nil {
			return nil, err
		}
		// The value at k depends on where the chain started (lo) and, when
		// it takes the greedy prune from the top count, on n.
		s, r, err := opt.Cache.get(p, k, lo, c.topKey(), func() (*schedule.Schedule, *seen, error) {
			return c.searchAt(k, prev, rec)
		})
		report(opt, k-lo+1, n-lo+1)
		if err != nil {
			if k < n && errors.Is(err, solver.ErrInfeasible) {
				continue // n_min is an estimate; the count above may fit
			}
			return nil, err
		}
		prev, rec = s, r
	}
	out := *prev
	if out.Pattern != nil {
		info := *out.Pattern
		if lo < n {
			info.Chain = n - lo + 1
		}
		out.Pattern = &info
	}
	return &out, nil
}

// report passes the chain's progress to opt.Progress, if set.
func report(opt Options, done, total int) {
	if opt.Progress != nil {
		opt.Progress(done, total)
	}
}

// solveFull solves the full n-stage pattern without pruning, warm when
// opt.Warm certifies it, else cold.
func solveFull(p *problem.Problem, n int, opt Options) (*schedule.Schedule, error) {
	if opt.Warm != nil {
		if s, _, ok := opt.Warm.ScheduleFor(p, n); ok {
			return s, nil
		}
		defer opt.Warm.Invalidate() // the cold solve replaces the loaded model
	}
	return engine.Solve(p, n, opt.Engine)
}

// chain is one call of Search: the stage counts lo…n and, when topReuse
// holds, the greedy prune at n that the counts below take.
type chain struct {
	p     *problem.Problem
	n, lo int
	opt   Options
	reuse bool
	top   *topGreedy
	ahead *ahead // greedy prunes solved ahead (Options.Parallel), or nil
}

// topKey is the part of a cache key that says whether the chain's values
// depend on n (its greedy prune at n serves the counts below).
func (c *chain) topKey() int {
	if c.reuse {
		return c.n
	}
	return 0
}

// topFor returns the greedy prune at n when the search at count k may
// take it as its own (topReuse, and its LP optimum loads no stage above
// k), solving it on first use; nil otherwise.
func (c *chain) topFor(k int) *topGreedy {
	if !c.reuse {
		return nil
	}
	if c.top == nil {
		c.top = solveTop(c.p, c.n, c.opt.Engine)
	}
	if c.top.err != nil || c.top.last > k {
		return nil
	}
	return c.top
}

// searcher is the search at one stage count: the best schedule so far,
// the record of the candidates, and the chain's record of solved
// patterns.
type searcher struct {
	p    *problem.Problem
	n    int
	opt  Options
	c    *chain
	rec  *seen
	all  []int // the problem's destinations
	best *schedule.Schedule
	info *schedule.PatternInfo
}

// searchAt is Search at one stage count of chain c, seeded with seed (the
// result at n−1, or nil) and the record rec of the patterns the counts
// below solved: the greedy prune (and the seed's pattern), destination
// subsets, then single-message changes. It returns the count's record.
func (c *chain) searchAt(n int, seed *schedule.Schedule, rec *seen) (*schedule.Schedule, *seen, error) {
	// Every candidate starts from the basis the one before it ended with
	// (stars and ordinary trees): they are the same LP give or take some
	// messages. One Starts per stage count, so the result depends only on
	// p, n, seed and the record, as opt.Cache requires.
	opt := c.opt
	opt.Engine.Starts = &engine.Starts{}
	sr := &searcher{p: c.p, n: n, opt: opt, c: c, rec: rec.child(), all: c.p.Dests(),
		info: &schedule.PatternInfo{Method: MethodSearch, Candidates: 1}}
	if err := sr.greedyOrSeed(seed); err != nil {
		return nil, nil, err
	}
	if err := sr.destinations(); err != nil {
		return nil, nil, err
	}
	if err := sr.local(); err != nil {
		return nil, nil, err
	}
	if used := sr.best.ProcessorsUsed(); len(used) < len(sr.all) {
		sr.info.Destinations = used
	}
	if n == c.n {
		sr.report()
	}
	sr.best.Pattern = sr.info
	SetBound(c.p, sr.best)
	return sr.best, sr.rec, nil
}

// greedyOrSeed starts the count with the better of the greedy prune of
// the full n-stage pattern and the seed (the result at n−1). The seed's
// pattern needs no new solve: its LP is the same at n (seqKey), and so is
// its makespan.
func (sr *searcher) greedyOrSeed(seed *schedule.Schedule) error {
	best, err := sr.greedy()
	if seed != nil && (best == nil || seed.Cmax < best.Cmax*(1-tieTol)) {
		best, err = restamp(seed, sr.n), nil
	}
	if best == nil && err == nil {
		err = fmt.Errorf("pattern: no schedule at %d stages", sr.n)
	}
	sr.best = best
	return err
}

// greedy returns the greedy prune of the full n-stage pattern: the one of
// the chain's top count when topFor allows, else solved — at the count
// asked for exactly as MethodGreedy solves it, so that the search is never
// worse than the greedy prune. Nil without error: a lower count's prune
// reached a pattern the chain has solved (it cannot improve the best).
func (sr *searcher) greedy() (*schedule.Schedule, error) {
	if t := sr.c.topFor(sr.n); t != nil {
		for _, k := range t.keys {
			sr.rec.put(k, t.s.Cmax)
		}
		if sr.n < t.n {
			sr.rec.reused++
			return restamp(t.s, sr.n), nil
		}
		return t.s, nil
	}
	if run, ok := sr.c.ahead.take(sr.c, sr.n, sr.opt.Engine.Solver); ok {
		if s, ok := sr.usable(run); ok {
			return s, nil
		}
	}
	s, _, err := sr.solve(nil, nil, sr.n < sr.c.n)
	return s, err
}

// solve solves candidate pattern pat — nil: the full n-stage pattern on
// dests (nil: all), pruned — unless the chain has solved it before. It
// returns the schedule, or nil when the pattern was solved before or,
// with stop, when the prune reached a pattern the chain has solved
// (engine.Options.Known), and the makespan the pattern leads to: the
// schedule's, or the recorded one (+Inf: infeasible). A nil schedule
// cannot improve the best (seen).
func (sr *searcher) solve(pat formulations.Pattern, dests []int, stop bool) (*schedule.Schedule, float64, error) {
	full := pat == nil
	if full {
		pat = fullOn(sr.p, sr.n, dests)
	}
	key := keyOf(pat)
	if formulations.Capacity(sr.p, pat) < sr.p.V*(1-1e-6) {
		sr.rec.put(key, math.Inf(1))
		return nil, math.Inf(1), fmt.Errorf("pattern: %d messages cannot carry V: %w", len(pat), solver.ErrInfeasible)
	}
	if c, ok := sr.recalled(key); ok {
		sr.rec.known++
		return nil, c, nil
	}
	pending := []seqKey{key}
	halted, at := false, math.Inf(1)
	o := sr.opt.Engine
	o.Dests = dests
	o.Known = func(keep formulations.Pattern) bool {
		k := keyOf(keep)
		if c, ok := sr.recalled(k); ok && stop {
			halted, at = true, c
			return true
		}
		pending = append(pending, k)
		return false
	}
	var s *schedule.Schedule
	var err error
	if full {
		s, err = engine.Solve(sr.p, sr.n, o)
	} else {
		s, err = engine.SolveFrom(sr.p, sr.n, pat, o)
	}
	switch {
	case err == nil && halted:
		sr.rec.known++
		s = nil
	case err == nil:
		at = s.Cmax
		pending = append(pending, keyOf(patternOf(s)))
	}
	sr.record(pending, at)
	return s, at, err
}

// record notes in the chain's record that the patterns with keys keys
// led to makespan at, where it holds none of them yet.
func (sr *searcher) record(keys []seqKey, at float64) {
	for _, k := range keys {
		if _, ok := sr.rec.get(k); !ok {
			sr.rec.put(k, at)
		}
	}
}

// recalled returns the makespan the pattern with key k led to when the
// chain has solved it (never with Options.forget).
func (sr *searcher) recalled(k seqKey) (float64, bool) {
	if sr.opt.forget {
		return 0, false
	}
	return sr.rec.get(k)
}

// fullOn returns the full n-stage pattern on the destinations dests (nil:
// all), as engine.Solve builds it with Options.Dests.
func fullOn(p *problem.Problem, n int, dests []int) formulations.Pattern {
	pat := formulations.FullPattern(p, n)
	if dests == nil {
		return pat
	}
	return slices.DeleteFunc(pat, func(m formulations.Msg) bool { return !slices.Contains(dests, m.Dest) })
}

// destinations tries the patterns on fewer destinations: the first k
// processors of a homogeneous star, subsets of a tree's layers.
func (sr *searcher) destinations() error {
	p := sr.p
	switch {
	case p.Kind == topology.Star && len(p.Procs) == 0:
		return sr.stars()
	case p.Kind == topology.Star:
		sr.info.Note = "heterogeneous star: processor subsets are left to the worker order search"
	case len(p.Relay) > 0:
		sr.info.Note = "relay-only layers given: no layer subsets"
	default:
		return sr.layers()
	}
	return nil
}

// stars tries the first k processors of a homogeneous star for k = m−1,
// m−2, ... while n stages of k messages of at most D can carry V and the
// trivial bound S + AV/k is below the best makespan.
func (sr *searcher) stars() error {
	p, n := sr.p, sr.n
	for k := p.M - 1; k >= 1 && p.M-k <= MaxStarCandidates; k-- {
		if float64(n)*float64(k)*p.D < p.V*(1-1e-12) {
			break // n stages of k messages of at most D cannot carry V
		}
		trivial := p.S + p.A*p.V/float64(k)
		if trivial >= sr.best.Cmax*(1-tieTol) {
			sr.info.Skipped++
			break // fewer processors only raise the bound
		}
		if _, err := sr.try(sr.all[:k], trivial); err != nil {
			return err
		}
	}
	if p.M > MaxStarCandidates+1 {
		sr.info.Note = fmt.Sprintf("processor counts from m-1 down to m-%d at most", MaxStarCandidates)
	}
	return nil
}

// try solves the pattern on the destinations set, unless its trivial
// bound rules it out, and returns the makespan it leads to (+Inf when
// ruled out or infeasible; the recorded one when the chain solved it
// before).
func (sr *searcher) try(set []int, trivial float64) (float64, error) {
	if trivial >= sr.best.Cmax*(1-tieTol) {
		sr.info.Skipped++
		return math.Inf(1), nil
	}
	if err := stopped(sr.opt); err != nil {
		return 0, err
	}
	s, c, err := sr.solve(nil, set, true)
	if err != nil {
		if cerr := stopped(sr.opt); cerr != nil {
			return 0, fmt.Errorf("pattern on %v: %w", set, cerr)
		}
		// Infeasible (too little buffer capacity on these destinations),
		// or at the edge of it where the solver gives up: a candidate,
		// not the answer, so it is skipped.
		sr.info.Skipped++
		return math.Inf(1), nil
	}
	if s == nil {
		return c, nil
	}
	sr.info.Candidates++
	if s.Cmax < sr.best.Cmax*(1-tieTol) {
		sr.best = s
	}
	return s.Cmax, nil
}
