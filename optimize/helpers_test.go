package optimize

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/topology"
)

// newClp returns a Clp solver, released when the test ends, or skips the
// test when Clp is not built in.
func newClp(t testing.TB) *solve.Solver {
	t.Helper()
	s, done, err := solve.NewSolver("clp")
	if err != nil {
		t.Skipf("clp unavailable: %v", err)
	}
	t.Cleanup(done)
	return s
}

// popts returns the options the CLI uses by default (--algorithm auto),
// with pruning as given.
func popts(s *solve.Solver, prune bool) solve.Options {
	return solve.Options{Solver: s, Algorithm: "auto", NoPrune: !prune}
}

func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(math.Max(math.Abs(a), math.Abs(b)), 1e-300)
}

// fig9b is the star of the paper's Fig. 9b with D = 1e5 (the issue's
// acceptance instance): m=10, S=1e-2, C=1e-4, A=1e-3, D=1e5, V=1e7.
func fig9b() *problem.Problem {
	return &problem.Problem{Kind: topology.Star, M: 10, S: 1e-2, C: 1e-4, A: 1e-3, D: 1e5, V: 1e7}
}

// fig11 is the binomial tree of the paper's Figs. 10–11 (p=2, h=10,
// A=1e-3, C=1e-6, S=1e-3) with the given order, D and V.
func fig11(o topology.Order, d, v float64) *problem.Problem {
	return &problem.Problem{Kind: topology.Binomial, Order: o, Buffers: 1, P: 2, H: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: d, V: v}
}
