//go:build cgo && !noclp && linux

package clp

import (
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/solvertest"
)

// TestSilentByDefault: at LogLevel 0 nothing reaches stdout or stderr, for
// every algorithm and for optimal, infeasible, unbounded and stopped
// solves and warm starts. As a control, LogLevel 1 does print.
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
			for _, alg := range []solver.Algorithm{solver.Dual, solver.Primal, solver.Barrier} {
				for _, pre := range []solver.Presolve{solver.PresolveOn, solver.PresolveOff} {
					p.Solve(m, solver.Options{Algorithm: alg, Presolve: pre})
					p.Solve(m, solver.Options{Algorithm: alg, Presolve: pre, MaxIterations: 1})
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
