package solver

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/lp"
)

// Regression: overflowing terms used to give NaN; any y must give a bound
// that is a number or -Inf.
func TestSafeLowerBoundOverflowIsMinusInf(t *testing.T) {
	m := lp.New("overflow", lp.Minimize)
	x := m.AddVar("x", math.Inf(-1), -2, 0)
	m.AddRow("r", -2, math.Inf(1), []int{x}, []float64{1})
	if got := SafeLowerBound(m, []float64{1e308}); !math.IsInf(got, -1) {
		t.Errorf("bound %v, want -Inf", got)
	}
}

// Regression: Error on an optimal status used to dereference a nil error.
func TestStatusErrorOptimal(t *testing.T) {
	e := &StatusError{Solver: "x", Status: Optimal}
	if got := e.Error(); got != "x: optimal" {
		t.Errorf("Error() = %q", got)
	}
}
