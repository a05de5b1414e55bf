package optimize

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/dlsched/dlsched/closedform"
	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// MaxStarCandidates bounds the processor counts SolveBest tries on a star.
const MaxStarCandidates = 64

// MaxLocalSolves bounds the LP solves of SolveBest's local search, and
// MaxLocalMessages the patterns it runs on.
const (
	MaxLocalSolves   = 100
	MaxLocalMessages = 64
)

// additions returns the patterns with one message of the full n-stage
// pattern added to pat, each in the full pattern's order.
func additions(p *problem.Problem, n int, pat formulations.Pattern) []formulations.Pattern {
	have := map[formulations.Msg]bool{}
	for _, m := range pat {
		have[m] = true
	}
	full := formulations.FullPattern(p, n)
	var out []formulations.Pattern
	for _, m := range full {
		if have[m] {
			continue
		}
		var cand formulations.Pattern
		for _, f := range full {
			if have[f] || f == m {
				cand = append(cand, f)
			}
		}
		out = append(out, cand)
	}
	return out
}

// patternOf returns the message pattern of a schedule: its chunks' stages
// and destinations in send order.
func patternOf(s *schedule.Schedule) formulations.Pattern {
	out := make(formulations.Pattern, len(s.Chunks))
	for i := range s.Chunks {
		out[i] = formulations.Msg{Stage: s.Chunks[i].Stage, Dest: s.Chunks[i].Dest()}
	}
	return out
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// PatternOptions configure SolveBest.
type PatternOptions struct {
	// Pipeline holds the solver and LP settings of every candidate.
	Pipeline engine.Options
	// Cache, if not nil, shares results between calls (see SolveBest).
	Cache *PatternCache
	// Exhaustive: for trees of height h <= Exhaustive every non-empty
	// subset of layers is a candidate (zero means DefaultExhaustive);
	// higher trees get every single layer and a greedy extension of the
	// best one.
	Exhaustive int
	// Warm, if not nil, solves the full pattern without pruning
	// (Pipeline.NoPrune) from the basis of the previous call
	// (engine.Sequence, the engine's warm-start option; the problem may
	// differ from the previous one in V only, else it starts afresh); a
	// point it cannot certify is solved cold. Sweeps pass one per run of
	// points that differ in n and V only.
	Warm *engine.Sequence
}

// SetPatternBound fills s.PatternLowerBound and s.PatternGap with a bound
// that holds for every pattern and every n, and records the method unless
// s already has one. The bound is the larger of
//
//   - S + VA/P, the trivial bound (every processor computing from the
//     first startup on), and
//   - for a star with finite D, ⌈V/D⌉·S + V·C (min S and C over the
//     processors of a heterogeneous star): the originator's one port sends
//     every unit, in messages of at most D units, one after the other, and
//     the makespan cannot end before the last message does.
func SetPatternBound(p *problem.Problem, s *schedule.Schedule) {
	lb, how := PatternBound(p)
	s.PatternLowerBound = lb
	if s.Cmax > 0 {
		s.PatternGap = math.Max((s.Cmax-lb)/s.Cmax, 0)
	}
	if s.Pattern == nil {
		s.Pattern = &schedule.PatternInfo{Method: "greedy", Candidates: 1}
	}
	s.Pattern.Bound = how
}

// PatternBound returns SetPatternBound's bound and its name.
func PatternBound(p *problem.Problem) (float64, string) {
	lb, how := p.LowerBoundLB(), "S + VA/P, the trivial bound"
	if p.Kind != topology.Star || math.IsInf(p.D, 1) {
		return lb, how
	}
	sMin, cMin := p.S, p.C
	if len(p.Procs) > 0 {
		sMin, cMin = p.Procs[0].S, p.Procs[0].C
		for _, q := range p.Procs[1:] {
			sMin, cMin = math.Min(sMin, q.S), math.Min(cMin, q.C)
		}
	}
	if port := math.Ceil(p.V/p.D*(1-1e-12))*sMin + p.V*cMin; port > lb {
		return port, "⌈V/D⌉S + VC, the originator's port"
	}
	return lb, how
}

// solveFull solves the full n-stage pattern without pruning, warm when
// opt.Warm certifies it, else cold.
func solveFull(p *problem.Problem, n int, opt PatternOptions) (*schedule.Schedule, error) {
	if opt.Warm != nil {
		if s, _, ok := opt.Warm.ScheduleFor(p, n); ok {
			return s, nil
		}
		defer opt.Warm.Invalidate() // the cold solve replaces the loaded model
	}
	return engine.Solve(p, n, opt.Pipeline)
}

// MaxChain is the number of stage counts SolveBest's chain covers: the
// search at n is seeded with the search's result at n−1, down to
// max(n_min, n−MaxChain+1).
const MaxChain = 8

// SolveBest solves the problem with n stages over several message
// patterns and returns the best schedule: the paper's greedy prune from
// the full pattern, and the same from patterns restricted to fewer
// destinations — for trees, subsets of the layers (the others only relay:
// every subset when h <= Exhaustive, else every single layer and a greedy
// extension of the best), for a homogeneous star, the first k processors
// for k = m−1, m−2, ... A candidate whose trivial bound (its shallowest
// layer's i·S, or S, plus AV/P over its processors) is not below the best
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
// With opt.Pipeline.NoPrune the full n-stage pattern is solved as it is
// (the paper's model: every message sent, empty ones too; warm with
// opt.Warm) and Pattern says "full".
func SolveBest(p *problem.Problem, n int, opt PatternOptions) (*schedule.Schedule, error) {
	if opt.Pipeline.NoPrune {
		s, err := solveFull(p, n, opt)
		if err != nil {
			return nil, err
		}
		s.Pattern = &schedule.PatternInfo{Method: "full", Candidates: 1}
		SetPatternBound(p, s)
		return s, nil
	}
	lo := max(1, min(p.NMin(), n), n-MaxChain+1)
	var prev *schedule.Schedule
	for k := lo; k <= n; k++ {
		if err := stopped(opt); err != nil {
			return nil, err
		}
		// The value at k depends on where the chain started: lo is part
		// of the key.
		s, err := opt.Cache.get(p, k, lo, func() (*schedule.Schedule, error) { return searchAt(p, k, prev, opt) })
		if err != nil {
			if k < n && errors.Is(err, solver.ErrInfeasible) {
				continue // n_min is an estimate; the count above may fit
			}
			return nil, err
		}
		prev = s
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

// stopped returns the context's error once the solve's context is done
// (a candidate that failed because of it is not merely infeasible).
func stopped(opt PatternOptions) error {
	if ctx := opt.Pipeline.Base.Context; ctx != nil {
		return ctx.Err()
	}
	return nil
}

// searchAt is SolveBest at one stage count, seeded with seed (the result at
// n−1, or nil).
func searchAt(p *problem.Problem, n int, seed *schedule.Schedule, opt PatternOptions) (*schedule.Schedule, error) {
	// Every candidate starts from the basis the one before it ended with
	// (stars and ordinary trees): they are the same LP give or take some
	// messages. One Starts per stage count, so the result depends only on
	// p, n and seed, as opt.Cache requires.
	opt.Pipeline.Starts = &engine.Starts{}
	best, err := engine.Solve(p, n, opt.Pipeline)
	if seed != nil {
		// The pattern found with one stage less, re-solved with n stages
		// (the same messages, so never worse than seed).
		s, serr := engine.SolveFrom(p, n, patternOf(seed), opt.Pipeline)
		if serr == nil && (err != nil || s.Cmax < best.Cmax*(1-tieTol)) {
			best, err = s, nil
		}
	}
	if err != nil {
		return nil, err
	}
	info := &schedule.PatternInfo{Method: "search", Candidates: 1}
	all := p.Dests()
	// try solves the pattern on set and returns its makespan (+Inf when
	// ruled out or infeasible).
	try := func(set []int, trivial float64) (float64, error) {
		if trivial >= best.Cmax*(1-tieTol) {
			info.Skipped++
			return math.Inf(1), nil
		}
		if err := stopped(opt); err != nil {
			return 0, err
		}
		o := opt.Pipeline
		o.Dests = set
		s, err := engine.Solve(p, n, o)
		if err != nil {
			if cerr := stopped(opt); cerr != nil {
				return 0, fmt.Errorf("pattern on %v: %w", set, cerr)
			}
			// Infeasible (too little buffer capacity on these
			// destinations), or at the edge of it where the solver
			// gives up: a candidate, not the answer, so it is skipped.
			info.Skipped++
			return math.Inf(1), nil
		}
		info.Candidates++
		if s.Cmax < best.Cmax*(1-tieTol) {
			best = s
		}
		return s.Cmax, nil
	}
	switch {
	case p.Kind == topology.Star && len(p.Procs) == 0:
		for k := p.M - 1; k >= 1 && p.M-k <= MaxStarCandidates; k-- {
			if float64(n)*float64(k)*p.D < p.V*(1-1e-12) {
				break // n stages of k messages of at most D cannot carry V
			}
			trivial := p.S + p.A*p.V/float64(k)
			if trivial >= best.Cmax*(1-tieTol) {
				info.Skipped++
				break // fewer processors only raise the bound
			}
			if _, err := try(all[:k], trivial); err != nil {
				return nil, err
			}
		}
		if p.M > MaxStarCandidates+1 {
			info.Note = fmt.Sprintf("processor counts from m-1 down to m-%d at most", MaxStarCandidates)
		}
	case p.Kind == topology.Star:
		info.Note = "heterogeneous star: no processor subsets"
	case len(p.Relay) > 0:
		info.Note = "relay-only layers given: no layer subsets"
	default:
		if err := searchLayers(p, opt, all, try); err != nil {
			return nil, err
		}
	}
	// Local search: drop one message of the best pattern, or add one of
	// the full pattern's, while that helps (first improvement; drops
	// first, last message first), within a budget of LP solves. It
	// reaches patterns that leave a destination out of some stages only,
	// which neither the prune nor the destination subsets do.
	budget := MaxLocalSolves
	if len(best.Chunks) > MaxLocalMessages {
		budget = 0
		info.Note = joinNote(info.Note, fmt.Sprintf("no local search: more than %d messages", MaxLocalMessages))
	}
	for improved := true; improved && budget > 0; {
		improved = false
		pat := patternOf(best)
		var moves []formulations.Pattern
		for j := len(pat) - 1; j >= 0 && len(pat) > 1; j-- {
			moves = append(moves, slices.Delete(slices.Clone(pat), j, j+1))
		}
		adds := additions(p, n, pat)
		moves = append(moves, adds...)
		// Swaps: one message moved to a place of the full pattern it
		// does not hold (another stage or destination).
		for _, add := range adds {
			for j := range add {
				if !slices.Contains(pat, add[j]) {
					continue
				}
				swapped := slices.Delete(slices.Clone(add), j, j+1)
				if !slices.Equal(swapped, pat) {
					moves = append(moves, swapped)
				}
			}
		}
		for _, cand := range moves {
			if budget <= 0 {
				break
			}
			budget--
			if err := stopped(opt); err != nil {
				return nil, err
			}
			s, err := engine.SolveFrom(p, n, cand, opt.Pipeline)
			if err != nil {
				if cerr := stopped(opt); cerr != nil {
					return nil, cerr
				}
				continue // infeasible without it (buffer capacity)
			}
			info.Candidates++
			if s.Cmax < best.Cmax*(1-tieTol) {
				best, improved = s, true
				info.Moves++
				break
			}
		}
	}
	if budget == 0 && len(best.Chunks) <= MaxLocalMessages {
		info.Note = joinNote(info.Note, fmt.Sprintf("local search stopped after %d LP solves", MaxLocalSolves))
	}
	if used := best.ProcessorsUsed(); len(used) < len(all) {
		info.Destinations = used
	}
	best.Pattern = info
	SetPatternBound(p, best)
	return best, nil
}

// searchLayers tries subsets of tree layers, in the problem's order.
func searchLayers(p *problem.Problem, opt PatternOptions, all []int, try func([]int, float64) (float64, error)) error {
	ex := opt.Exhaustive
	if ex == 0 {
		ex = DefaultExhaustive
	}
	inOrder := func(set map[int]bool) []int {
		var out []int
		for _, d := range all {
			if set[d] {
				out = append(out, d)
			}
		}
		return out
	}
	// The bound i_min·S + AV/P of RelaySplit's splits.
	trivial := func(set []int) float64 { return closedform.SubsetBound(p, set) }
	tried := map[string]float64{}
	eval := func(set map[int]bool) (float64, error) {
		s := inOrder(set)
		if len(s) == 0 || len(s) == len(all) {
			return math.Inf(1), nil
		}
		key := fmt.Sprint(s)
		if c, ok := tried[key]; ok {
			return c, nil
		}
		c, err := try(s, trivial(s))
		tried[key] = c
		return c, err
	}
	h := p.H
	if h <= ex {
		for mask := 1; mask < 1<<h; mask++ {
			set := map[int]bool{}
			for l := 1; l <= h; l++ {
				if mask&(1<<(l-1)) != 0 {
					set[l] = true
				}
			}
			if _, err := eval(set); err != nil {
				return err
			}
		}
		return nil
	}
	// Single layers, most promising first (so that hopeless ones are
	// ruled out by their bound), then a greedy extension of the best:
	// add the layer that helps most while one helps.
	singles := append([]int(nil), all...)
	sort.SliceStable(singles, func(a, b int) bool { return trivial([]int{singles[a]}) < trivial([]int{singles[b]}) })
	cur, curC := map[int]bool{}, math.Inf(1)
	for _, l := range singles {
		c, err := eval(map[int]bool{l: true})
		if err != nil {
			return err
		}
		if c < curC {
			cur, curC = map[int]bool{l: true}, c
		}
	}
	for len(cur) > 0 {
		var add int
		addC := curC
		for _, l := range all {
			if cur[l] {
				continue
			}
			next := map[int]bool{l: true}
			for k := range cur {
				next[k] = true
			}
			c, err := eval(next)
			if err != nil {
				return err
			}
			if c < addC*(1-tieTol) {
				add, addC = l, c
			}
		}
		if add == 0 {
			break
		}
		cur[add], curC = true, addC
	}
	return nil
}

// PatternCache shares SolveBest's results per stage count between calls
// on the same problems with the same options (a sweep's points along n).
// The results are those SolveBest computes without it; it only saves the
// work. The zero value is not usable: use NewPatternCache. A nil cache
// caches nothing. It is safe for concurrent use; a result being computed
// is waited for, not computed twice.
type PatternCache struct {
	mu sync.Mutex
	m  map[string]*cacheEntry
}

type cacheEntry struct {
	once sync.Once
	s    *schedule.Schedule
	err  error
}

// maxCacheEntries bounds a PatternCache (a few KB per schedule).
const maxCacheEntries = 4096

// NewPatternCache returns an empty cache.
func NewPatternCache() *PatternCache { return &PatternCache{m: map[string]*cacheEntry{}} }

// get returns the cached result for (p, n) in a chain that started at lo,
// computing it with f once.
// Errors are not kept (a cancelled solve must not stay cancelled).
func (c *PatternCache) get(p *problem.Problem, n, lo int, f func() (*schedule.Schedule, error)) (*schedule.Schedule, error) {
	if c == nil {
		return f()
	}
	key := fmt.Sprintf("%#v|%d|%d", *p, n, lo)
	c.mu.Lock()
	e, ok := c.m[key]
	if !ok {
		if len(c.m) >= maxCacheEntries {
			clear(c.m) // bounded memory; only work is lost
		}
		e = &cacheEntry{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.s, e.err = f() })
	if e.err != nil {
		c.mu.Lock()
		if c.m[key] == e {
			delete(c.m, key)
		}
		c.mu.Unlock()
	}
	return e.s, e.err
}
