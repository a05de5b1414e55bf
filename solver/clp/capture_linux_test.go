//go:build cgo && !noclp && linux

package clp

import (
	"os"
	"syscall"
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/solvertest"
)

// captureFDs runs f with file descriptors 1 and 2 redirected to a file and
// returns what was written to them, C stdio buffers included.
func captureFDs(t *testing.T, f func()) string {
	t.Helper()
	tmp, err := os.CreateTemp(t.TempDir(), "fd12")
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Close()
	flushCStdio()
	saved1, err := syscall.Dup(1)
	if err != nil {
		t.Fatal(err)
	}
	saved2, err := syscall.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			flushCStdio()
			syscall.Dup3(saved1, 1, 0)
			syscall.Dup3(saved2, 2, 0)
			syscall.Close(saved1)
			syscall.Close(saved2)
		}()
		if err := syscall.Dup3(int(tmp.Fd()), 1, 0); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Dup3(int(tmp.Fd()), 2, 0); err != nil {
			t.Fatal(err)
		}
		f()
	}()
	b, err := os.ReadFile(tmp.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSilentByDefault: at LogLevel 0 nothing reaches stdout or stderr, for
// every algorithm and for optimal, infeasible, unbounded and stopped
// solves and warm starts. As a control, LogLevel 1 does print.
func TestSilentByDefault(t *testing.T) {
	models := []*lp.Model{solvertest.Mixed(), solvertest.MaxGE(), solvertest.Infeasible(), solvertest.Unbounded(), solvertest.NoRows(), solvertest.RandomLP(200, 0.05, 9)}
	out := captureFDs(t, func() {
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
	control := captureFDs(t, func() {
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
