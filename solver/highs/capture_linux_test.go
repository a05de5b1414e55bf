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
	models := []*lp.Model{solvertest.Mixed(), solvertest.MaxGE(), solvertest.Infeasible(), solvertest.Unbounded(), solvertest.NoRows(), solvertest.RandomLP(200, 0.05, 9)}
	out := solvertest.CaptureFDs(t, flushCStdio, func() {
		p, err := New()
		if err != nil {
			t.Error(err)
			return
		}
		defer p.Close()
		for _, m := range models {
			for _, alg := range algorithms {
				for _, pre := range []solver.Presolve{solver.PresolveOn, solver.PresolveOff} {
					p.Solve(m, solver.Options{Algorithm: alg, Presolve: pre})
					if m.Name != "unbounded" || pre != solver.PresolveOn {
						p.Solve(m, solver.Options{Algorithm: alg, Presolve: pre, MaxIterations: 1})
					}
				}
			}
			if m.NumVars() > 0 {
				p.SetColBounds(0, m.ColLower[0], m.ColLower[0])
				p.Resolve(solver.Options{})
				p.Resolve(solver.Options{Algorithm: solver.Primal})
			}
		}
	})
	if out != "" {
		t.Errorf("output at LogLevel 0:\n%s", out)
	}
	control := solvertest.CaptureFDs(t, flushCStdio, func() {
		p, err := New()
		if err != nil {
			t.Error(err)
			return
		}
		defer p.Close()
		p.Solve(solvertest.Mixed(), solver.Options{LogLevel: 1})
	})
	if control == "" {
		t.Error("LogLevel 1 printed nothing: is the capture working?")
	}
}
