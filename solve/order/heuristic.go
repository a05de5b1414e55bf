package order

import (
	"fmt"
	"math"
	"slices"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/solve/engine"
)

// heuristic finds a good order: the better of the classical order (by
// non-decreasing C_i) and the given one (1..m), each with the processors
// its LP leaves without load dropped, then the local search.
func (s *searcher) heuristic() error {
	given := make([]int, s.p.M)
	for i := range given {
		given[i] = i + 1
	}
	for _, start := range [][]int{s.classical(), given} {
		order, f, err := s.dropEmpty(start)
		if err != nil {
			return err
		}
		s.offer(order, f)
	}
	return s.local()
}

// dropEmpty evaluates order and drops the processors its LP gives no load
// (they still pay their startups there), while that does not lengthen the
// schedule; it returns the order and its F.
func (s *searcher) dropEmpty(order []int) ([]int, float64, error) {
	f, _, loads, err := s.value(order)
	for err == nil && loads != nil && len(order) > 1 {
		var keep []int
		for i, d := range order {
			if loads[i] > 1e-12*s.p.V {
				keep = append(keep, d)
			}
		}
		if len(keep) == len(order) || len(keep) == 0 {
			break
		}
		g, _, l2, err2 := s.value(keep)
		if err2 != nil {
			return nil, 0, err2
		}
		if !(g <= f*(1+tieTol)) {
			break
		}
		order, f, loads = keep, g, l2
	}
	return order, f, err
}

// local improves the best order by first-improvement moves — swap two
// processors, drop one, insert an unused one anywhere — within
// Options.MaxLocal LP solves.
func (s *searcher) local() error {
	budget := s.opt.MaxLocal
	if budget == 0 {
		budget = DefaultMaxLocal
	}
	start := s.lps
	for improved := s.best != nil; improved; {
		improved = false
		for _, cand := range s.moves(s.best) {
			if s.lps-start >= budget {
				s.note = joinNote(s.note, fmt.Sprintf("local search stopped after %d LP solves", budget))
				return nil
			}
			f, _, _, err := s.value(cand)
			if err != nil {
				return err
			}
			if f < s.cmax*(1-tieTol) {
				s.offer(cand, f)
				improved = true
				break
			}
		}
	}
	return nil
}

// moves lists the neighbours of order: every swap of two processors that
// differ, every drop of one processor, every insertion of an unused one
// (one of each class of identical processors) at every place.
func (s *searcher) moves(order []int) [][]int {
	var out [][]int
	for i := range order {
		for j := i + 1; j < len(order); j++ {
			if !s.same(order[i], order[j]) {
				c := slices.Clone(order)
				c[i], c[j] = c[j], c[i]
				out = append(out, c)
			}
		}
	}
	for i := range order {
		if len(order) > 1 {
			out = append(out, slices.Delete(slices.Clone(order), i, i+1))
		}
	}
	for _, u := range s.unused(order) {
		for i := 0; i <= len(order); i++ {
			out = append(out, slices.Insert(slices.Clone(order), i, u))
		}
	}
	return out
}

// unused returns one processor of each class of identical processors that
// has a member outside order.
func (s *searcher) unused(order []int) []int {
	in := map[int]bool{}
	for _, d := range order {
		in[d] = true
	}
	var out []int
	seen := map[int]bool{}
	for d := 1; d <= s.p.M; d++ {
		if !in[d] && !seen[s.class[d]] {
			seen[s.class[d]] = true
			out = append(out, d)
		}
	}
	return out
}

// heuristicBound sets the bound over every order of the heuristic search:
// the larger of the relaxation with every processor unordered and the
// least relaxation over the choices of the first processor (every order
// starts with one).
func (s *searcher) heuristicBound() error {
	all := s.all()
	root, err := s.relaxation(nil, all)
	if err != nil {
		return err
	}
	first := math.Inf(1)
	for _, d := range s.distinct(all) {
		lb, err := s.relaxation([]int{d}, without(all, d))
		if err != nil {
			return err
		}
		first = math.Min(first, lb)
	}
	s.bound = math.Max(root, first)
	if b, err := s.noStartupBound(); err != nil {
		return err
	} else if b > s.bound {
		s.bound = b
	}
	s.method = MethodHeuristic
	return nil
}

// noStartupBound is, for one installment with unlimited buffers and no
// results, the certified LP bound of every processor in the classical
// order with every startup dropped: dropping startups shortens every
// order's schedule, and without them every processor is used and the
// order by non-decreasing C_i is the best of all (Beaumont, Casanova,
// Legrand, Robert and Yang, "Scheduling divisible loads on star and tree
// networks: results and open problems", IEEE TPDS 16(3), 2005;
// TestClassicalOrderOptimalWithoutStartups checks it against brute
// force). Elsewhere it returns −Inf.
func (s *searcher) noStartupBound() (float64, error) {
	if s.n != 1 || !math.IsInf(s.p.D, 1) || s.p.Returns() {
		return math.Inf(-1), nil
	}
	q := Permute(s.p, s.classical())
	for i := range q.Procs {
		q.Procs[i].S = 0
	}
	s.lps++
	out, err := engine.SolvePattern(q, formulations.FullPattern(q, 1), s.eo)
	if err != nil {
		if stopped(s.eo) != nil {
			return 0, err
		}
		return math.Inf(-1), nil
	}
	return out.LowerBound, nil
}

// all returns 1..m.
func (s *searcher) all() []int {
	out := make([]int, s.p.M)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// distinct returns the processors of set, one of each class of identical
// processors, in the classical order.
func (s *searcher) distinct(set []int) []int {
	in := map[int]bool{}
	for _, d := range set {
		in[d] = true
	}
	var out []int
	seen := map[int]bool{}
	for _, d := range s.classical() {
		if in[d] && !seen[s.class[d]] {
			seen[s.class[d]] = true
			out = append(out, d)
		}
	}
	return out
}

// without returns set less d.
func without(set []int, d int) []int {
	out := make([]int, 0, len(set))
	for _, x := range set {
		if x != d {
			out = append(out, x)
		}
	}
	return out
}

// joinNote appends remark b to the remarks a.
func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
