package order

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve/engine"
)

// tieTol is the relative margin by which an order must beat the best to
// replace it, and by which a bound must fall below the best for its node
// to be explored.
const tieTol = 1e-9

// searcher holds the state of one Search: the best order found, the LPs
// solved and what is left open.
type searcher struct {
	p    *problem.Problem
	n    int
	opt  Options
	eo   engine.Options
	best []int
	cmax float64 // F(best); +Inf while none is feasible
	// bound is the lower bound over every order (set by the search that
	// ran last); lps counts LP solves, nodes the branch and bound's.
	bound  float64
	lps    int
	failed int // LPs neither solved nor infeasible
	method string
	note   string
	// cache holds every order evaluated, with F and its certified bound,
	// by key; class[d] is the first processor identical to d.
	cache map[string]evaluated
	class []int
}

func newSearcher(p *problem.Problem, n int, opt Options) *searcher {
	eo := opt.Engine
	eo.NoPrune, eo.Dests, eo.Starts = true, nil, nil
	s := &searcher{p: p, n: n, opt: opt, eo: eo, cmax: math.Inf(1), bound: math.Inf(-1),
		method: MethodHeuristic, cache: map[string]evaluated{}, class: make([]int, p.M+1)}
	for d := 1; d <= p.M; d++ {
		s.class[d] = d
		for e := 1; e < d; e++ {
			if s.same(e, d) {
				s.class[d] = e
				break
			}
		}
	}
	return s
}

// result returns the search's result.
func (s *searcher) result() *Result {
	r := &Result{Order: s.canonical(s.best), Cmax: s.cmax, Bound: math.Min(s.bound, s.cmax),
		Method: s.method, LPs: s.lps, Note: s.note, RunnersUp: s.runnersUp(RunnersUp)}
	return r
}

// canonical returns order with identical processors renumbered: the
// members of each class of identical processors take, in the order they
// come, the class's smallest numbers (the same LP, a plainer answer).
func (s *searcher) canonical(order []int) []int {
	next := map[int]int{} // class → the next member to hand out
	out := make([]int, len(order))
	for i, d := range order {
		c := s.class[d]
		e := next[c]
		if e == 0 {
			e = c
		}
		out[i] = e
		for e++; e <= s.p.M && s.class[e] != c; e++ {
		}
		next[c] = e
	}
	return out
}

// value returns F(order) — the makespan of the LP of the full n-stage
// pattern of the order, repaired and certified by the engine — with the
// certified lower bound on that LP and the total load of each processor
// of the order (nil when cached); +Inf for an order that cannot carry V.
// Orders that differ only in the places of identical processors share a
// value.
func (s *searcher) value(order []int) (f, low float64, loads []float64, err error) {
	key := s.key(order)
	if v, ok := s.cache[key]; ok {
		return v.f, v.low, nil, nil
	}
	q := Permute(s.p, order)
	if q.NMin() > s.n {
		// The buffers of these processors cannot carry V in n stages
		// (the rule every solve of q checks: problem.NMin).
		return math.Inf(1), math.Inf(1), nil, nil
	}
	s.lps++
	out, err := engine.SolvePattern(q, formulations.FullPattern(q, s.n), s.eo)
	if err != nil {
		if cerr := stopped(s.eo); cerr != nil {
			return 0, 0, nil, cerr
		}
		var se *engine.SizeError
		if errors.As(err, &se) {
			return 0, 0, nil, err
		}
		if !infeasible(err) {
			s.failed++ // not solved: not infeasible either, so not proven
		}
		s.cache[key] = evaluated{order, math.Inf(1), math.Inf(1)}
		return math.Inf(1), math.Inf(1), nil, nil
	}
	loads = make([]float64, len(order))
	for j, m := range out.Network.Pattern {
		loads[m.Dest-1] += out.Timing.Alpha[j]
	}
	s.cache[key] = evaluated{slices.Clone(order), out.Cmax, out.LowerBound}
	return out.Cmax, out.LowerBound, loads, nil
}

// evaluated is an order whose F the search has solved.
type evaluated struct {
	order  []int
	f, low float64
}

// runnersUp returns up to k evaluated orders other than the best, least F
// first (ties by key, for determinism).
func (s *searcher) runnersUp(k int) [][]int {
	best := s.key(s.best)
	var all []evaluated
	for key, e := range s.cache {
		if key != best && !math.IsInf(e.f, 1) {
			all = append(all, e)
		}
	}
	slices.SortFunc(all, func(a, b evaluated) int {
		return cmp.Or(cmp.Compare(a.f, b.f), cmp.Compare(s.key(a.order), s.key(b.order)))
	})
	var out [][]int
	for _, e := range all[:min(k, len(all))] {
		out = append(out, s.canonical(e.order))
	}
	return out
}

// key names an order up to the places of identical processors: each
// processor is written as the first processor identical to it.
func (s *searcher) key(order []int) string {
	c := make([]int, len(order))
	for i, d := range order {
		c[i] = s.class[d]
	}
	return fmt.Sprint(c)
}

// relaxation returns a certified lower bound on F of every completion of
// prefix by processors of rest (formulations.NewOrderRelaxation): +Inf
// when none can carry V.
func (s *searcher) relaxation(prefix, rest []int) (float64, error) {
	if s.capacity(len(prefix)+len(rest)) < s.p.V*(1-1e-12) {
		return math.Inf(1), nil
	}
	nw, err := formulations.NewOrderRelaxation(s.p, prefix, rest, s.n)
	if err != nil {
		return 0, err
	}
	s.lps++
	out, err := engine.SolveNetwork(nw, s.eo)
	if err != nil {
		if infeasible(err) {
			return math.Inf(1), nil
		}
		var se *engine.SizeError
		if stopped(s.eo) != nil || errors.As(err, &se) {
			return 0, err
		}
		// Not solved (numerically): no bound but the trivial one.
		return s.trivial(append(slices.Clone(prefix), rest...)), nil
	}
	return out.LowerBound, nil
}

// trivial is a lower bound on F of every order of a subset of set: the
// least startup plus V over the processors' summed speed 1/A (+Inf when
// the subset cannot carry V).
func (s *searcher) trivial(set []int) float64 {
	if len(set) == 0 || s.capacity(len(set)) < s.p.V*(1-1e-12) {
		return math.Inf(1)
	}
	minS, rate := math.Inf(1), 0.0
	for _, d := range set {
		q := s.p.Procs[d-1]
		minS = math.Min(minS, q.S)
		rate += 1 / q.A
	}
	return minS + s.p.V/rate
}

// capacity is the most load k processors carry in n stages of messages of
// at most D (+Inf for D = ∞).
func (s *searcher) capacity(k int) float64 {
	return float64(s.n) * float64(k) * s.p.D
}

// offer makes order the best if F beats the best by more than tieTol.
func (s *searcher) offer(order []int, f float64) {
	if f < s.cmax*(1-tieTol) || (math.IsInf(s.cmax, 1) && !math.IsInf(f, 1)) {
		s.best, s.cmax = slices.Clone(order), f
	}
}

// classical returns the processors by non-decreasing C_i (ties: A_i, then
// S_i, then number): the optimal order for one installment without
// startups.
func (s *searcher) classical() []int {
	order := make([]int, s.p.M)
	for i := range order {
		order[i] = i + 1
	}
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := s.p.Procs[a-1], s.p.Procs[b-1]
		return cmp.Or(cmp.Compare(pa.C, pb.C), cmp.Compare(pa.A, pb.A), cmp.Compare(pa.S, pb.S))
	})
	return order
}

// same reports whether processors a and b have the same S, C and A.
func (s *searcher) same(a, b int) bool { return s.p.Procs[a-1] == s.p.Procs[b-1] }

// stopped returns the context's error once the solve's context is done.
func stopped(eo engine.Options) error {
	if ctx := eo.Base.Context; ctx != nil {
		return ctx.Err()
	}
	return nil
}
