//go:build cgo && !noclp && linux

package clp

import (
	"testing"

	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/solvertest"
)

// TestSilentByDefault: at LogLevel 0 nothing reaches stdout or stderr, for
// every algorithm and for optimal, infeasible, unbounded and stopped
// solves and warm starts. As a control, LogLevel 1 does print.
func TestSilentByDefault(t *testing.T) {
	open := func() (solver.Incremental, error) { return New() }
	solvertest.CheckSilent(t, open, flushCStdio, []solver.Algorithm{solver.Dual, solver.Primal, solver.Barrier}, nil)
}
