// Package testutil holds helpers shared by the tests of several packages.
package testutil

import (
	"testing"

	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/clp"
)

// Clp returns a fresh Clp solver, closed when the test ends, or skips the
// test when Clp is not built in (noclp tag or no cgo).
func Clp(t testing.TB) solver.Solver {
	t.Helper()
	s, err := clp.New()
	if err != nil {
		t.Skipf("clp unavailable: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
