package solve

import (
	"fmt"
	"slices"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solve/order"
	"github.com/dlsched/dlsched/solve/pattern"
)

// The worker orders of Options.WorkerOrder.
const (
	// OrderSearch chooses the processors of a heterogeneous star and their
	// activation order (package solve/order).
	OrderSearch = "search"
	// OrderGiven activates the processors in the order given.
	OrderGiven = "given"
)

// FieldWorkerOrder names Options.WorkerOrder in errors.
const FieldWorkerOrder = "worker_order"

// searchesOrder reports whether the solve of p searches the worker order:
// a heterogeneous star with WorkerOrder "search", or "" (the default)
// when its processors differ. An unknown WorkerOrder is a
// *problem.FieldError.
func (o *Options) searchesOrder(p *problem.Problem) (bool, error) {
	switch o.WorkerOrder {
	case "", OrderSearch, OrderGiven:
	default:
		return false, &problem.FieldError{Field: FieldWorkerOrder, Value: o.WorkerOrder, Want: "search or given"}
	}
	if !order.Applies(p) || o.WorkerOrder == OrderGiven {
		return false, nil
	}
	return o.WorkerOrder == OrderSearch || order.Differ(p), nil
}

// SearchesOrder reports whether a solve of p with these options searches
// the order of a heterogeneous star's processors (Options.WorkerOrder);
// an unknown WorkerOrder is a *problem.FieldError.
func (o *Options) SearchesOrder(p *problem.Problem) (bool, error) { return o.searchesOrder(p) }

// permuted is a schedule solved on the processors of a problem in another
// order: q = order.Permute(p, perm), s in q's numbers until remapped.
type permuted struct {
	s    *schedule.Schedule
	q    *problem.Problem
	perm []int
	ord  *order.Result
}

// remap rewrites the schedule in p's processor numbers, restates its
// bound over every pattern for p (the pattern step saw q's processors
// only) and records the worker order.
func (r *permuted) remap(p *problem.Problem) *schedule.Schedule {
	s := r.s
	order.Remap(s, p, r.perm)
	if s.Pattern != nil {
		pattern.SetBound(p, s)
	}
	s.WorkerOrder = order.Used(s, r.perm)
	if r.ord == nil {
		s.WorkerOrderMethod = OrderGiven
		return s
	}
	s.WorkerOrderMethod = r.ord.Method
	bound, gap := r.ord.Bound, r.ord.Gap()
	s.WorkerOrderBound, s.WorkerOrderGap = &bound, &gap
	return s
}

// identity returns 1..m.
func identity(m int) []int {
	out := make([]int, m)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// scheduleOrdered is Schedule's pattern step on a heterogeneous star whose
// worker order is searched: the order search, then the pattern search on
// the processors in that order and, with more than one stage, in the
// runners-up orders (the pattern search prunes messages the order's LP
// pays for, so another order may win after pruning), and in the given
// order; the shortest schedule is kept, so the search is never worse
// than the given order.
func scheduleOrdered(p *problem.Problem, n int, eo engine.Options, opt Options) (*permuted, int, error) {
	ord, err := order.Search(p, n, order.Options{Engine: eo})
	if err != nil {
		return nil, 0, err
	}
	po := opt.pattern(eo)
	po.Warm = nil     // the Sequence holds the given order's LP
	po.Progress = nil // one pattern search per order tried
	cands := [][]int{ord.Order}
	if n > 1 {
		cands = append(cands, ord.RunnersUp...)
	}
	if !slices.ContainsFunc(cands, func(c []int) bool { return slices.Equal(c, identity(p.M)) }) {
		cands = append(cands, identity(p.M))
	}
	var best *permuted
	lps := ord.LPs
	for i, perm := range cands {
		q := order.Permute(p, perm)
		s, k, err := pattern.Solve(q, n, po)
		lps += k + 1
		if err != nil {
			if i == 0 {
				return nil, 0, err // the searched order carries V: its pattern search must
			}
			continue
		}
		if best == nil || s.Cmax < best.s.Cmax*(1-1e-9) {
			best = &permuted{s: s, q: q, perm: perm, ord: ord}
		}
	}
	if !slices.Equal(best.perm, ord.Order) {
		best.s.Pattern.Note = joinNote(best.s.Pattern.Note, fmt.Sprintf("after pruning the pattern on the order %v was shorter than on the searched order %v", best.perm, ord.Order))
	}
	return best, lps, nil
}

// greedyOrdered is Greedy on a heterogeneous star whose worker order is
// searched: the order search, then the paper's prune on the processors in
// that order.
func greedyOrdered(p *problem.Problem, n int, eo engine.Options) (*permuted, error) {
	ord, err := order.Search(p, n, order.Options{Engine: eo})
	if err != nil {
		return nil, err
	}
	q := order.Permute(p, ord.Order)
	s, err := engine.Solve(q, n, eo)
	if err != nil {
		return nil, err
	}
	return &permuted{s: s, q: q, perm: ord.Order, ord: ord}, nil
}

// SearchOrder returns the worker order Schedule would search for p with n
// stages (processor numbers in activation order, the processors that
// carry load), or nil when opt does not search one (SearchesOrder).
// Searches over n and D pass it, with the orders of neighbouring points,
// as Options.Orders to Greedy instead of searching at every point.
func SearchOrder(p *problem.Problem, n int, opt Options) ([]int, error) {
	ordered, err := opt.searchesOrder(p)
	if err != nil || !ordered {
		return nil, err
	}
	eo, err := opt.engine()
	if err != nil {
		return nil, err
	}
	ord, err := order.Search(p, n, order.Options{Engine: eo})
	if err != nil {
		return nil, wrap(err)
	}
	return ord.Order, nil
}

// greedyAmong is Greedy on a heterogeneous star over the candidate orders
// of opt.Orders: the paper's prune on the processors in each order, the
// shortest kept (an order that cannot carry V is skipped).
func greedyAmong(p *problem.Problem, n int, eo engine.Options, orders [][]int) (*permuted, error) {
	var best *permuted
	var firstErr error
	for _, perm := range orders {
		if err := checkOrder(p, perm); err != nil {
			return nil, err
		}
		q := order.Permute(p, perm)
		if q.NMin() > n {
			continue
		}
		s, err := engine.Solve(q, n, eo)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if best == nil || s.Cmax < best.s.Cmax*(1-1e-9) {
			best = &permuted{s: s, q: q, perm: perm}
		}
	}
	if best == nil {
		if firstErr == nil {
			firstErr = &problem.StagesError{N: n, NMin: order.Permute(p, orders[0]).NMin()}
		}
		return nil, firstErr
	}
	return best, nil
}

// FieldOrders names Options.Orders in errors.
const FieldOrders = "Orders"

// checkOrder refuses a candidate order that is not a sequence of distinct
// processors of p.
func checkOrder(p *problem.Problem, perm []int) error {
	seen := map[int]bool{}
	for _, d := range perm {
		if d < 1 || d > p.M || seen[d] {
			return &problem.FieldError{Field: FieldOrders, Value: fmt.Sprint(perm), Want: fmt.Sprintf("distinct processors from 1 to %d", p.M)}
		}
		seen[d] = true
	}
	if len(perm) == 0 {
		return &problem.FieldError{Field: FieldOrders, Value: "[]", Want: "at least one processor"}
	}
	return nil
}

// joinNote appends remark b to the remarks a.
func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
