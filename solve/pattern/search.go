package pattern

import (
	"errors"
	"fmt"
	"math"

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

// searcher is the search at one stage count: the best schedule so far and
// the record of the candidates.
type searcher struct {
	p    *problem.Problem
	n    int
	opt  Options
	all  []int // the problem's destinations
	best *schedule.Schedule
	info *schedule.PatternInfo
}

// searchAt is Search at one stage count, seeded with seed (the result at
// n−1, or nil): the greedy prune (and the seed's pattern), destination
// subsets, then single-message changes.
func searchAt(p *problem.Problem, n int, seed *schedule.Schedule, opt Options) (*schedule.Schedule, error) {
	// Every candidate starts from the basis the one before it ended with
	// (stars and ordinary trees): they are the same LP give or take some
	// messages. One Starts per stage count, so the result depends only on
	// p, n and seed, as opt.Cache requires.
	opt.Engine.Starts = &engine.Starts{}
	best, err := greedyOrSeed(p, n, seed, opt.Engine)
	if err != nil {
		return nil, err
	}
	sr := &searcher{p: p, n: n, opt: opt, all: p.Dests(), best: best,
		info: &schedule.PatternInfo{Method: MethodSearch, Candidates: 1}}
	if err := sr.destinations(); err != nil {
		return nil, err
	}
	if err := sr.local(); err != nil {
		return nil, err
	}
	if used := sr.best.ProcessorsUsed(); len(used) < len(sr.all) {
		sr.info.Destinations = used
	}
	sr.best.Pattern = sr.info
	SetBound(p, sr.best)
	return sr.best, nil
}

// greedyOrSeed returns the better of the greedy prune of the full n-stage
// pattern and the pattern of seed (found with one stage less) re-solved
// with n stages — the same messages, so never worse than seed.
func greedyOrSeed(p *problem.Problem, n int, seed *schedule.Schedule, opt engine.Options) (*schedule.Schedule, error) {
	best, err := engine.Solve(p, n, opt)
	if seed != nil {
		s, serr := engine.SolveFrom(p, n, patternOf(seed), opt)
		if serr == nil && (err != nil || s.Cmax < best.Cmax*(1-tieTol)) {
			best, err = s, nil
		}
	}
	return best, err
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
// bound rules it out, and returns its makespan (+Inf when ruled out or
// infeasible).
func (sr *searcher) try(set []int, trivial float64) (float64, error) {
	if trivial >= sr.best.Cmax*(1-tieTol) {
		sr.info.Skipped++
		return math.Inf(1), nil
	}
	if err := stopped(sr.opt); err != nil {
		return 0, err
	}
	o := sr.opt.Engine
	o.Dests = set
	s, err := engine.Solve(sr.p, sr.n, o)
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
	sr.info.Candidates++
	if s.Cmax < sr.best.Cmax*(1-tieTol) {
		sr.best = s
	}
	return s.Cmax, nil
}
