package compare

import (
	"testing"

	"github.com/dlsched/dlsched/solve"
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
