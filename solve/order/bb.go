package order

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// branchAndBound searches every order of every subset depth first, from
// the heuristic's best order as the incumbent (package doc). It sets the
// bound over every order and the method: exact when every node was
// explored or cut and every LP solved.
func (s *searcher) branchAndBound() error {
	budget := s.opt.MaxNodes
	if budget == 0 {
		budget = DefaultMaxNodes
	}
	b := &bb{s: s, limit: s.lps + budget}
	all := s.all()
	root, err := s.relaxation(nil, all)
	if err != nil {
		return err
	}
	lb, err := b.explore(nil, all, root)
	if err != nil {
		return err
	}
	s.bound = lb
	switch {
	case b.exhausted:
		s.note = joinNote(s.note, fmt.Sprintf("branch and bound stopped after %d LP solves", budget))
	case s.failed > 0:
		s.note = joinNote(s.note, fmt.Sprintf("%d LPs not solved", s.failed))
	default:
		s.method = MethodExact
	}
	return nil
}

// bb is one branch and bound: its LP budget (limit, in the searcher's LP
// count) and whether it ran out.
type bb struct {
	s         *searcher
	limit     int
	exhausted bool
}

// explore searches the completions of prefix by processors of rest, whose
// relaxation bound is lb, and returns a lower bound on F over all of them
// (stopping at prefix included).
func (b *bb) explore(prefix, rest []int, lb float64) (float64, error) {
	s := b.s
	if lb >= s.cmax*(1-tieTol) {
		return lb, nil // no completion beats the best
	}
	low := math.Inf(1) // F of prefix alone, bounded below
	if len(prefix) > 0 {
		if t := s.trivial(prefix); t >= s.cmax*(1-tieTol) {
			low = t
		} else {
			f, l, _, err := s.value(prefix)
			if err != nil {
				return 0, err
			}
			s.offer(prefix, f)
			low = l
		}
	}
	if len(rest) == 0 {
		return math.Max(lb, low), nil
	}
	kids, err := b.children(prefix, rest)
	if err != nil {
		return 0, err
	}
	if kids == nil {
		return lb, nil // out of budget: the node stays open at lb
	}
	for _, k := range kids {
		v, err := b.explore(k.prefix, without(rest, k.prefix[len(k.prefix)-1]), k.lb)
		if err != nil {
			return 0, err
		}
		low = math.Min(low, v)
	}
	return math.Max(lb, low), nil
}

// child is a prefix one processor longer and its relaxation bound.
type child struct {
	prefix []int
	lb     float64
}

// children returns the prefixes extending prefix by one processor of rest
// (one of each class of identical processors) with their bounds, least
// bound first, or nil when the LP budget is spent.
func (b *bb) children(prefix, rest []int) ([]child, error) {
	s := b.s
	var kids []child
	for _, d := range s.distinct(rest) {
		if s.lps >= b.limit {
			b.exhausted = true
			return nil, nil
		}
		next := append(slices.Clone(prefix), d)
		var lb float64
		var err error
		if len(rest) == 1 {
			// A leaf: its relaxation is its own LP.
			var f float64
			if f, lb, _, err = s.value(next); err == nil {
				s.offer(next, f)
			}
		} else {
			lb, err = s.relaxation(next, without(rest, d))
		}
		if err != nil {
			return nil, err
		}
		kids = append(kids, child{next, lb})
	}
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].lb < kids[j].lb })
	return kids, nil
}
