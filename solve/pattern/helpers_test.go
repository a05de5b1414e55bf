package pattern

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/internal/testutil"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// newClp returns a Clp solver or skips the test when Clp is not built in.
func newClp(t testing.TB) solver.Solver { return testutil.Clp(t) }

// popts returns the engine options the CLI uses by default (--algorithm
// auto), with pruning as given.
func popts(s solver.Solver, prune bool) engine.Options {
	return engine.Options{Solver: s, Auto: true, NoPrune: !prune}
}

func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(math.Max(math.Abs(a), math.Abs(b)), 1e-300)
}

// fig11 is the binomial tree of the paper's Figs. 10–11 (p=2, h=10,
// A=1e-3, C=1e-6, S=1e-3) with the given order, D and V.
func fig11(o topology.Order, d, v float64) *problem.Problem {
	return &problem.Problem{Kind: topology.Binomial, Order: o, Buffers: 1, P: 2, H: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: d, V: v}
}
