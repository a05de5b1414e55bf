package order

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// The methods of a Result.
const (
	// MethodExact: the branch and bound proved the order best over every
	// order of every subset (to the tolerance).
	MethodExact = "exact"
	// MethodHeuristic: the classical rule and local search, with a bound.
	MethodHeuristic = "heuristic"
)

// DefaultMaxExact is the largest number of processors searched exactly
// (Options.MaxExact).
const DefaultMaxExact = 8

// DefaultMaxNodes bounds the LP solves of the branch and bound
// (Options.MaxNodes); beyond it the search reports its best order as
// heuristic, with the bound of the nodes left open.
const DefaultMaxNodes = 20000

// DefaultMaxLocal bounds the LP solves of the heuristic's local search
// (Options.MaxLocal).
const DefaultMaxLocal = 400

// Options configure Search.
type Options struct {
	// Engine holds the solver and the LP settings (form, tolerance,
	// memory limit, context) of every LP; its NoPrune, Dests and Starts
	// are ignored (every LP is that of a full pattern).
	Engine engine.Options
	// MaxExact is the largest number of processors searched exactly (0:
	// DefaultMaxExact; negative: never).
	MaxExact int
	// MaxNodes bounds the branch and bound's LP solves (0:
	// DefaultMaxNodes); MaxLocal the local search's (0: DefaultMaxLocal).
	MaxNodes, MaxLocal int
}

// Result is the order Search chose.
type Result struct {
	// Order lists the processors (the problem's numbers, 1-based) in
	// activation order.
	Order []int
	// Cmax is F(Order), the makespan of the LP of the full n-stage
	// pattern of Order, and Bound a lower bound on F of every order of
	// every subset: Method MethodExact when the two agree to the
	// tolerance, else MethodHeuristic.
	Cmax, Bound float64
	Method      string
	// LPs counts the LPs solved.
	LPs int
	// Note says what the search did not cover.
	Note string
	// RunnersUp are the next best orders the search evaluated, least F
	// first (at most RunnersUp of them): with more than one stage the
	// message pattern search prunes messages F pays for, and may find a
	// shorter schedule on one of them than on Order.
	RunnersUp [][]int
}

// RunnersUp is the number of next best orders a Result keeps.
const RunnersUp = 2

// Gap returns (Cmax − Bound)/Cmax, at least 0.
func (r *Result) Gap() float64 {
	if !(r.Cmax > 0) || math.IsInf(r.Cmax, 0) {
		return 0
	}
	return math.Max(0, (r.Cmax-r.Bound)/r.Cmax)
}

// Applies reports whether Search applies to p: a star with per-processor
// parameters.
func Applies(p *problem.Problem) bool { return p.Kind == topology.Star && len(p.Procs) > 0 }

// Differ reports whether the processors of a heterogeneous star are not
// all identical (the order then matters).
func Differ(p *problem.Problem) bool {
	for _, q := range p.Procs {
		if q != p.Procs[0] {
			return true
		}
	}
	return false
}

// Search returns the best activation order (and subset) of the processors
// of the star p for n stages, exactly or heuristically (see the package
// doc). Errors: a *problem.FieldError when p is not a heterogeneous star
// or not valid, a *problem.StagesError below n_min, the engine's
// *engine.SizeError, a cancelled context, and solver.ErrInfeasible when
// no order can carry V.
func Search(p *problem.Problem, n int, opt Options) (*Result, error) {
	if err := check(p, n, opt); err != nil {
		return nil, err
	}
	s := newSearcher(p, n, opt)
	if err := s.heuristic(); err != nil {
		return nil, err
	}
	maxExact := opt.MaxExact
	if maxExact == 0 {
		maxExact = DefaultMaxExact
	}
	if p.M <= maxExact {
		if err := s.branchAndBound(); err != nil {
			return nil, err
		}
	} else if err := s.heuristicBound(); err != nil {
		return nil, err
	}
	return s.result(), nil
}

// check refuses what Search cannot search, before any LP.
func check(p *problem.Problem, n int, opt Options) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if !Applies(p) {
		return &problem.FieldError{Field: problem.FieldProcs, Value: "none", Want: "per-processor parameters of a star for an order search"}
	}
	if nmin := p.NMin(); n < nmin {
		return &problem.StagesError{N: n, NMin: nmin}
	}
	if opt.Engine.Solver == nil {
		return errors.New("order: no solver")
	}
	return engine.CheckSize(p, n, opt.Engine)
}

// Permute returns p with its processors in the given order (a subset of
// p's, 1-based): processor q of the result is processor order[q−1] of p.
// Its LP is the LP of that activation order.
func Permute(p *problem.Problem, order []int) *problem.Problem {
	q := *p
	q.M = len(order)
	q.Procs = make([]schedule.Proc, len(order))
	for i, d := range order {
		q.Procs[i] = p.Procs[d-1]
	}
	q.Relay = nil
	return &q
}

// Remap rewrites a schedule of Permute(p, order) in p's processor
// numbers: its problem becomes p's (at the schedule's stage count), every
// chunk's and result message's processor order[q−1], and the pattern's
// and the prune record's destinations likewise.
func Remap(s *schedule.Schedule, p *problem.Problem, order []int) {
	to := func(q int) int {
		if q >= 1 && q <= len(order) {
			return order[q-1]
		}
		return q
	}
	sp := p.ScheduleProblem(s.Problem.Stages)
	s.Problem = sp
	for i := range s.Chunks {
		s.Chunks[i].Processor = to(s.Chunks[i].Processor)
		for h := range s.Chunks[i].Hops {
			if s.Chunks[i].Hops[h].To != 0 {
				s.Chunks[i].Hops[h].To = to(s.Chunks[i].Hops[h].To)
			}
		}
	}
	for i := range s.Returns {
		s.Returns[i].Processor = to(s.Returns[i].Processor)
	}
	if pi := s.Pattern; pi != nil && pi.Destinations != nil {
		pi.Destinations = mapSorted(pi.Destinations, to)
	} else if pi != nil && len(order) < p.M {
		pi.Destinations = mapSorted(order, func(d int) int { return d }) // all of the subset
	}
	if r := s.Pruning; r != nil {
		for i := range r.Messages {
			r.Messages[i][1] = to(r.Messages[i][1])
		}
		r.Destinations = mapSorted(r.Destinations, to)
	}
}

func mapSorted(xs []int, to func(int) int) []int {
	if xs == nil {
		return nil
	}
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = to(x)
	}
	slices.Sort(out)
	return out
}

// Used returns the processors of s that carry load (the user's numbers)
// in activation order: the order of perm, processor perm[q−1] standing in
// place q of every stage.
func Used(s *schedule.Schedule, perm []int) []int {
	loaded := map[int]bool{}
	for _, c := range s.Chunks {
		if c.Load > 0 {
			loaded[c.Processor] = true
		}
	}
	var out []int
	for _, d := range perm {
		if loaded[d] {
			out = append(out, d)
		}
	}
	return out
}

// infeasible reports whether err means that the LP has no solution (too
// little buffer capacity): a candidate, not a failure.
func infeasible(err error) bool { return errors.Is(err, solver.ErrInfeasible) }

// describe names an order for errors and notes.
func describe(order []int) string { return fmt.Sprint(order) }
