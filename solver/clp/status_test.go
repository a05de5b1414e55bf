package clp

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/solver"
)

// TestClassify checks the mapping of Clp's (status, secondary status)
// pairs, whose meanings are listed in ClpModel.hpp of Clp 1.17.
func TestClassify(t *testing.T) {
	cases := []struct {
		name string
		o    outcome
		want solver.Status
	}{
		{"optimal", outcome{status: 0}, solver.Optimal},
		{"optimal, unscaled infeasibilities", outcome{status: 0, secondary: 2}, solver.Optimal},
		{"primal infeasible", outcome{status: 1}, solver.Infeasible},
		{"infeasible via dual limit", outcome{status: 1, secondary: 1}, solver.Infeasible},
		{"dual infeasible", outcome{status: 2}, solver.Unbounded},
		{"iterations", outcome{status: 3, iterations: 5, maxIter: 5}, solver.IterationLimit},
		{"time (secondary 9)", outcome{status: 3, secondary: 9, iterations: 3, maxIter: 100, maxSeconds: 1}, solver.TimeLimit},
		{"time, both limits set, iterations not reached", outcome{status: 3, iterations: 3, maxIter: 100, maxSeconds: 1}, solver.TimeLimit},
		{"iterations, both limits set", outcome{status: 3, iterations: 100, maxIter: 100, maxSeconds: 1}, solver.IterationLimit},
		{"stopped, no limits set", outcome{status: 3}, solver.IterationLimit},
		{"errors", outcome{status: 4}, solver.Numerical},
		{"errors, probably infeasible", outcome{status: 4, secondary: 1}, solver.Numerical},
		{"event handler", outcome{status: 5, secondary: 101}, solver.Failed},
		{"not solved", outcome{status: -1}, solver.Failed},
		{"unknown", outcome{status: 42}, solver.Failed},
	}
	for _, tc := range cases {
		got, detail := classify(tc.o)
		if got != tc.want {
			t.Errorf("%s: %v, want %v (%s)", tc.name, got, tc.want, detail)
		}
		if (got == solver.Optimal) != (detail == "") {
			t.Errorf("%s: detail %q", tc.name, detail)
		}
	}
}

func TestInfinityMapping(t *testing.T) {
	cases := []struct{ in, clp float64 }{
		{math.Inf(1), math.MaxFloat64},
		{math.Inf(-1), -math.MaxFloat64},
		{1.5, 1.5},
		{0, 0},
	}
	for _, tc := range cases {
		if got := toClp(tc.in); got != tc.clp {
			t.Errorf("toClp(%g) = %g, want %g", tc.in, got, tc.clp)
		}
		if got := fromClp(tc.clp); got != tc.in {
			t.Errorf("fromClp(%g) = %g, want %g", tc.clp, got, tc.in)
		}
	}
	if v := fromClp(math.Copysign(0, -1)); math.Signbit(v) {
		t.Error("fromClp(-0) kept the sign")
	}
}
