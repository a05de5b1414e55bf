//go:build linux

package solvertest

import (
	"os"
	"syscall"
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
)

// CaptureFDs runs f with file descriptors 1 and 2 redirected to a file and
// returns what was written to them; flush, called before and after, empties
// the C library's stdio buffers (a backend's cgo fflush), so what C code
// printed is included.
func CaptureFDs(t testing.TB, flush func(), f func()) string {
	t.Helper()
	tmp, err := os.CreateTemp(t.TempDir(), "fd12")
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Close()
	flush()
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
			flush()
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

// CheckSilent is the test that a backend prints nothing at LogLevel 0:
// with open giving a fresh solver, it solves the shared models (Mixed,
// MaxGE, Infeasible, Unbounded, NoRows and a random LP) with every
// algorithm in algs, presolve on and off, to the end and stopped after one
// iteration (unless skipLimit says the backend prints there on its own),
// and warm-starts each from a changed bound, capturing descriptors 1 and 2
// (CaptureFDs, flush the backend's fflush). As a control, LogLevel 1 must
// print.
func CheckSilent(t *testing.T, open func() (solver.Incremental, error), flush func(), algs []solver.Algorithm, skipLimit func(m *lp.Model, pre solver.Presolve) bool) {
	t.Helper()
	models := []*lp.Model{Mixed(), MaxGE(), Infeasible(), Unbounded(), NoRows(), RandomLP(200, 0.05, 9)}
	out := CaptureFDs(t, flush, func() {
		withSolver(t, open, func(p solver.Incremental) { solveAllQuietly(p, models, algs, skipLimit) })
	})
	if out != "" {
		t.Errorf("output at LogLevel 0:\n%s", out)
	}
	control := CaptureFDs(t, flush, func() {
		withSolver(t, open, func(p solver.Incremental) { p.Solve(Mixed(), solver.Options{LogLevel: 1}) })
	})
	if control == "" {
		t.Error("LogLevel 1 printed nothing: is the capture working?")
	}
}

// withSolver opens a solver, reports an error opening it on t, and
// otherwise runs f on it and closes it.
func withSolver(t *testing.T, open func() (solver.Incremental, error), f func(solver.Incremental)) {
	p, err := open()
	if err != nil {
		t.Error(err)
		return
	}
	defer p.Close()
	f(p)
}

// solveAllQuietly is CheckSilent's workload at LogLevel 0: every model with
// every algorithm, presolve on and off, to the end and (unless skipLimit)
// stopped after one iteration, then a warm start from a changed bound.
func solveAllQuietly(p solver.Incremental, models []*lp.Model, algs []solver.Algorithm, skipLimit func(m *lp.Model, pre solver.Presolve) bool) {
	for _, m := range models {
		for _, alg := range algs {
			for _, pre := range []solver.Presolve{solver.PresolveOn, solver.PresolveOff} {
				p.Solve(m, solver.Options{Algorithm: alg, Presolve: pre})
				if skipLimit == nil || !skipLimit(m, pre) {
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
}
