//go:build cgo && highs && linux && (amd64 || arm64)

package highs

import (
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/solvertest"
)

// TestSilentByDefault: at LogLevel 0 nothing reaches stdout or stderr —
// not HiGHS's banner, not its logs — for every algorithm and for optimal,
// infeasible, unbounded and stopped solves and warm starts, on a new
// instance as on a used one. As a control, LogLevel 1 does print.
//
// One combination is left out: an iteration limit on the unbounded LP
// with presolve on makes HiGHS 1.12 print a line of its own with printf
// ("Highs::returnFromOptimizeModel: return_status = 1 != 0 = ...", after
// presolve's "unbounded or infeasible" sent it to solve again without
// presolve), whatever output_flag says. dlsched never sets an iteration
// limit; the package doc says so.
func TestSilentByDefault(t *testing.T) {
	open := func() (solver.Incremental, error) { return New() }
	skip := func(m *lp.Model, pre solver.Presolve) bool { return m.Name == "unbounded" && pre == solver.PresolveOn }
	solvertest.CheckSilent(t, open, flushCStdio, algorithms, skip)
}
