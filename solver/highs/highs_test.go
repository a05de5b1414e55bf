//go:build cgo && highs && (linux || darwin) && (amd64 || arm64)

package highs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/solvertest"
)

// newProblem returns a Problem closed at the end of the test.
func newProblem(t testing.TB) *Problem {
	t.Helper()
	p, err := New()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

var algorithms = []solver.Algorithm{solver.Dual, solver.Primal, solver.Barrier}

// backend is HiGHS for the shared tests of solvertest.
var backend = solvertest.Backend{Name: "highs", New: func(t testing.TB) solver.Solver { return newProblem(t) },
	Algorithms: algorithms, Presolves: []solver.Presolve{solver.PresolveAuto, solver.PresolveOn, solver.PresolveOff}}

// TestVersion: the prototypes restated in highs.go are HiGHS 1.12's
// (highs_c_api.h of gohighs v0.1.1); another version must be checked
// against its header before this test is changed.
func TestVersion(t *testing.T) {
	if !Available() {
		t.Fatal("Available() = false in a cgo build")
	}
	if v := Version(); v != "1.12.0" {
		t.Fatalf("Version() = %q, want 1.12.0", v)
	}
	if n := newProblem(t).Name(); n != "highs" {
		t.Fatalf("Name() = %q", n)
	}
}

// TestSmallLPs checks the hand-computed optima of solvertest.SmallCases (see the
// comments on each model) with every algorithm and presolve setting:
// objective, x, row duals, reduced costs, and d = c − Aᵀy.
func TestSmallLPs(t *testing.T) {
	solvertest.CheckSmallLPs(t, backend, 1e-7)
}

// TestDualSignConvention: a tight <= row has y > 0 in a maximisation and
// y < 0 in the minimisation of the negated objective, and the duals of the
// two are negatives (the convention solver/clp documents for Clp).
func TestDualSignConvention(t *testing.T) {
	solvertest.CheckDualSignConvention(t, newProblem(t), 0)
}

// TestInfeasibleUnbounded: infeasible and unbounded LPs are StatusErrors
// of highs with a partial solution, whatever the algorithm and presolve.
func TestInfeasibleUnbounded(t *testing.T) {
	solvertest.CheckInfeasibleUnbounded(t, backend)
}

// TestEmptyShapes: a model with no columns and no rows is optimal with
// its offset as objective; one with a single empty row 1 <= 0 <= 2 is
// infeasible, since the row's activity is 0 (HiGHS itself calls both
// "empty" and optimal with objective 0).
func TestEmptyShapes(t *testing.T) {
	empty := lp.New("empty", lp.Minimize)
	empty.ObjOffset = 2.5
	emptyRow := lp.New("emptyrow", lp.Minimize)
	emptyRow.AddRow("r", 1, 2, nil, nil)
	zeroRow := lp.New("zerorow", lp.Minimize)
	zeroRow.AddRow("r", -1, 0, nil, nil)
	for _, alg := range algorithms {
		p := newProblem(t)
		sol, err := p.Solve(empty, solver.Options{Algorithm: alg})
		if err != nil || sol.Objective != 2.5 || len(sol.X) != 0 {
			t.Errorf("%s, empty model: %v %+v", alg, err, sol)
		}
		if _, err := p.Solve(emptyRow, solver.Options{Algorithm: alg}); !errors.Is(err, solver.ErrInfeasible) {
			t.Errorf("%s, empty row 1 <= 0 <= 2: %v, want infeasible", alg, err)
		}
		if sol, err := p.Solve(zeroRow, solver.Options{Algorithm: alg}); err != nil || len(sol.RowActivity) != 1 {
			t.Errorf("%s, empty row -1 <= 0 <= 0: %v %+v, want optimal", alg, err, sol)
		}
	}
}

// TestIterationLimit: the 300x300 random LP needs many iterations (HiGHS
// 1.12: 543 dual simplex, 1351 primal simplex, 14 interior point and
// crossover, with or without presolve), so MaxIterations 1 stops it; the
// limit is per call.
func TestIterationLimit(t *testing.T) {
	m := solvertest.RandomLP(300, 0.05, 1)
	for _, alg := range algorithms {
		t.Run(alg.String(), func(t *testing.T) {
			p := newProblem(t)
			sol, err := p.Solve(m, solver.Options{Algorithm: alg, MaxIterations: 1})
			if !errors.Is(err, solver.ErrIterationLimit) || sol == nil || sol.Status != solver.IterationLimit || len(sol.X) != m.NumVars() {
				t.Fatalf("err = %v, solution %v: want an iteration limit with a partial solution", err, sol)
			}
			if sol, err = p.Solve(m, solver.Options{Algorithm: alg}); err != nil || sol.Iterations <= 1 {
				t.Fatalf("unlimited solve after a limited one: %v, %d iterations", err, sol.Iterations)
			}
		})
	}
}

// TestTimeLimit: a 1000x1000 random LP takes far more than a millisecond,
// so MaxSeconds 1e-3 stops it, reported as a time limit; the next solve
// without a limit ends optimal.
func TestTimeLimit(t *testing.T) {
	m := solvertest.RandomLP(1000, 0.01, 2)
	p := newProblem(t)
	sol, err := p.Solve(m, solver.Options{MaxSeconds: 1e-3, Presolve: solver.PresolveOff})
	if !errors.Is(err, solver.ErrTimeLimit) || sol.Status != solver.TimeLimit {
		t.Fatalf("err = %v, want a time limit", err)
	}
	if _, err := p.Resolve(solver.Options{}); err != nil {
		t.Fatalf("Resolve without a limit: %v", err)
	}
}

// TestClockZeroedPerSolve: HiGHS's run clock, against which it checks
// time_limit, is zeroed before every solve, so MaxSeconds counts per call
// (HiGHS keeps it running from one Highs_run to the next: a Problem that
// had spent more than MaxSeconds in earlier solves stopped at once). After
// two solves the clock holds no more than the second one's wall time.
func TestClockZeroedPerSolve(t *testing.T) {
	m := solvertest.RandomLP(300, 0.05, 1)
	p := newProblem(t)
	if _, err := p.Solve(m, solver.Options{}); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if _, err := p.Solve(solvertest.Mixed(), solver.Options{}); err != nil {
		t.Fatal(err)
	}
	if run, wall := p.runTime(), time.Since(t0).Seconds(); run > wall {
		t.Errorf("HiGHS's clock says %g s after a solve of %g s: not zeroed", run, wall)
	}
}

// TestInterruptNotSticky: with the interrupt flag up (as a cancelled
// context leaves it) every algorithm stops at its first callback with
// HiGHS's status "interrupted by user"; with it down again, the next solve
// of the same Problem runs to the optimum. HiGHS keeps the callback's
// answer from one run to the next, so the callback must write it either
// way.
func TestInterruptNotSticky(t *testing.T) {
	m := solvertest.RandomLP(300, 0.05, 1)
	for _, alg := range algorithms {
		t.Run(alg.String(), func(t *testing.T) {
			p := newProblem(t)
			p.setInterrupt(true)
			sol, err := p.Solve(m, solver.Options{Algorithm: alg, Presolve: solver.PresolveOff})
			p.setInterrupt(false)
			if !errors.Is(err, solver.ErrFailed) || sol == nil || !strings.Contains(err.Error(), "interrupted") {
				t.Fatalf("with the flag up: %v, want HiGHS's interrupt", err)
			}
			if sol, err = p.Solve(m, solver.Options{Algorithm: alg, Presolve: solver.PresolveOff}); err != nil || sol.Status != solver.Optimal {
				t.Fatalf("after the interrupt: %v", err)
			}
		})
	}
}

// TestCancel: a cancelled context stops a solve before it starts; a
// context cancelled once the watch is installed (beforeRun) stops the
// solve of the 1000x1000 random LP (seconds of work) through HiGHS's
// interrupt callbacks, as does one cancelled 50 ms into the solve, with an
// error wrapping context.Canceled; the Problem then solves normally. The
// time to stop is logged, not asserted.
func TestCancel(t *testing.T) {
	m := solvertest.RandomLP(1000, 0.01, 2)
	p := newProblem(t)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Solve(solvertest.Mixed(), solver.Options{Context: done}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: %v", err)
	}
	t.Cleanup(func() { beforeRun = nil })
	for _, alg := range algorithms {
		for _, during := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			beforeRun = cancel
			if during {
				beforeRun = nil
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			t0 := time.Now()
			_, err := p.Solve(m, solver.Options{Algorithm: alg, Presolve: solver.PresolveOff, Context: ctx})
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "solve stopped") {
				t.Fatalf("%s (cancelled during the solve: %v): %v, want the solve stopped", alg, during, err)
			}
			t.Logf("%s (cancelled during the solve: %v): stopped after %v", alg, during, time.Since(t0))
		}
	}
	beforeRun = nil
	if sol, err := p.Solve(solvertest.Mixed(), solver.Options{Context: context.Background()}); err != nil || !solvertest.Near(sol.Objective, 17.5, 1e-9) {
		t.Fatalf("after cancellations: %v %v", sol, err)
	}
}

// TestWarmStart: after a solve, fixing the column with the largest value
// at 0 and calling Resolve reaches the cold optimum of the changed model
// from the old basis in fewer iterations than the cold solve; a row bound
// change likewise. SolveLoaded solves the changed model from scratch.
func TestWarmStart(t *testing.T) {
	m := solvertest.RandomLP(300, 0.05, 1)
	p := newProblem(t)
	sol, err := p.Solve(m, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j := 0
	for k, v := range sol.X {
		if v > sol.X[j] {
			j = k
		}
	}
	mod := m.Clone()
	mod.ColLower[j], mod.ColUpper[j] = 0, 0
	mod.RowUpper[0] = m.RowUpper[0] - 0.5
	p.SetColBounds(j, 0, 0)
	p.SetRowBounds(0, m.RowLower[0], m.RowUpper[0]-0.5)
	coldObj := math.NaN()
	for _, alg := range []solver.Algorithm{solver.Dual, solver.Primal} {
		cold, err := newProblem(t).Solve(mod, solver.Options{Algorithm: alg, Presolve: solver.PresolveOff})
		if err != nil {
			t.Fatal(err)
		}
		warm, err := p.Resolve(solver.Options{Algorithm: alg})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: objective %.10g -> %.10g, iterations warm %d, cold %d", alg, sol.Objective, warm.Objective, warm.Iterations, cold.Iterations)
		if !solvertest.Near(warm.Objective, cold.Objective, 1e-9) || warm.X[j] != 0 {
			t.Errorf("%s warm: objective %.15g, x[%d] = %g; cold %.15g", alg, warm.Objective, j, warm.X[j], cold.Objective)
		}
		if alg == solver.Dual && warm.Iterations >= cold.Iterations {
			t.Errorf("%s warm: %d iterations, cold %d", alg, warm.Iterations, cold.Iterations)
		}
		coldObj = cold.Objective
	}
	again, err := p.SolveLoaded(solver.Options{})
	if err != nil || !solvertest.Near(again.Objective, coldObj, 1e-9) {
		t.Fatalf("SolveLoaded of the changed model: %v, %v; want objective %.15g", again, err, coldObj)
	}
}

// TestBasisRoundTrip: the optimal basis of the 300x300 random LP has one
// basic entry per row; set on a fresh Problem holding the same model, it
// is optimal at once (0 iterations, the same objective). A basis with one
// basic column too many or too few (what a prune round's mapping may
// give) is repaired and still reaches the optimum.
func TestBasisRoundTrip(t *testing.T) {
	m := solvertest.RandomLP(300, 0.05, 1)
	p := newProblem(t)
	if _, ok := p.Basis(); ok {
		t.Fatal("Basis before any solve reported a basis")
	}
	sol, err := p.Solve(m, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, ok := p.Basis()
	if !ok || len(b.Cols) != m.NumVars() || len(b.Rows) != m.NumRows() {
		t.Fatalf("Basis: ok %v, %d columns %d rows", ok, len(b.Cols), len(b.Rows))
	}
	if n := b.NumBasic(); n != m.NumRows() {
		t.Errorf("%d basic entries, want one per row (%d)", n, m.NumRows())
	}
	resolveFrom := func(b solver.Basis) *solver.Solution {
		q := newProblem(t)
		if err := q.Load(m); err != nil {
			t.Fatal(err)
		}
		if err := q.SetBasis(b); err != nil {
			t.Fatal(err)
		}
		sol, err := q.Resolve(solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return sol
	}
	if again := resolveFrom(b); again.Iterations != 0 || !solvertest.Near(again.Objective, sol.Objective, 1e-9) {
		t.Errorf("from the optimal basis: %d iterations, objective %.12g; want 0 and %.12g", again.Iterations, again.Objective, sol.Objective)
	}
	first := -1
	for j, s := range b.Cols {
		if s == solver.Basic {
			first = j
			break
		}
	}
	fewer := solver.Basis{Cols: append([]solver.BasisStatus(nil), b.Cols...), Rows: b.Rows}
	fewer.Cols[first] = solver.AtLower
	more := solver.Basis{Cols: b.Cols, Rows: append([]solver.BasisStatus(nil), b.Rows...)}
	for i, s := range more.Rows {
		if s != solver.Basic {
			more.Rows[i] = solver.Basic
			break
		}
	}
	for name, bb := range map[string]solver.Basis{"one basic too few": fewer, "one basic too many": more} {
		if got := resolveFrom(bb); !solvertest.Near(got.Objective, sol.Objective, 1e-9) {
			t.Errorf("%s: objective %.15g, want %.15g", name, got.Objective, sol.Objective)
		}
	}
}

// TestBadUse: misuse gives a Failed StatusError, never a crash: solving
// before a load, an invalid model, a NaN bound (reported by the next
// solve), an unknown algorithm or presolve setting, a scaling mode out of
// range, a basis of the wrong size or with a status out of range, and
// anything after Close.
func TestBadUse(t *testing.T) {
	p := newProblem(t)
	failed := func(what string, err error) {
		t.Helper()
		var se *solver.StatusError
		if !errors.As(err, &se) || se.Status != solver.Failed || se.Solver != "highs" {
			t.Errorf("%s: %v, want a highs StatusError with status failed", what, err)
		}
	}
	_, err := p.Resolve(solver.Options{})
	failed("Resolve before Load", err)
	bad := solvertest.Mixed()
	bad.ColUpper[0] = math.NaN()
	failed("Load of a NaN bound", p.Load(bad))
	if err := p.Load(solvertest.Mixed()); err != nil {
		t.Fatal(err)
	}
	p.SetColBounds(0, math.NaN(), 1)
	_, err = p.Resolve(solver.Options{})
	failed("NaN column bound", err)
	p.SetRowBounds(0, 1, math.NaN())
	_, err = p.SolveLoaded(solver.Options{})
	failed("NaN row bound", err)
	_, err = p.SolveLoaded(solver.Options{Algorithm: solver.Algorithm(9)})
	failed("algorithm 9", err)
	_, err = p.SolveLoaded(solver.Options{Presolve: solver.Presolve(9)})
	failed("presolve 9", err)
	_, err = p.SolveLoaded(solver.Options{Scaling: 5})
	failed("scaling 5", err)
	failed("short basis", p.SetBasis(solver.Basis{Cols: make([]solver.BasisStatus, 2), Rows: make([]solver.BasisStatus, 3)}))
	failed("status 9", p.SetBasis(solver.Basis{Cols: []solver.BasisStatus{9, 1, 1}, Rows: make([]solver.BasisStatus, 3)}))
	if sol, err := p.SolveLoaded(solver.Options{}); err != nil || !solvertest.Near(sol.Objective, 17.5, 1e-9) {
		t.Fatalf("after the refusals: %v %v", sol, err)
	}
	p.Close()
	p.Close()
	_, err = p.Solve(solvertest.Mixed(), solver.Options{})
	failed("Solve after Close", err)
	failed("SetBasis after Close", p.SetBasis(solver.Basis{}))
	p.SetColBounds(0, 0, 1) // does nothing
	if _, ok := p.Basis(); ok {
		t.Error("Basis after Close")
	}
}

// TestDeterministic: the same model gives the same bits whatever was
// solved before on the Problem, and on a fresh one.
func TestDeterministic(t *testing.T) {
	a, b := solvertest.RandomLP(200, 0.05, 3), solvertest.RandomLP(250, 0.04, 4)
	p := newProblem(t)
	first, err := p.Solve(a, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Solve(b, solver.Options{Algorithm: solver.Primal}); err != nil {
		t.Fatal(err)
	}
	again, err := p.Solve(a, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := newProblem(t).Solve(a, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*solver.Solution{again, fresh} {
		if s.Objective != first.Objective || s.Iterations != first.Iterations || fmt.Sprint(s.X, s.Duals) != fmt.Sprint(first.X, first.Duals) {
			t.Fatalf("not the same bits: objective %v and %v, %d and %d iterations", s.Objective, first.Objective, s.Iterations, first.Iterations)
		}
	}
}

// TestConcurrent: Problems on separate goroutines solve the same random
// LPs to the same bits (run with -race by make test).
func TestConcurrent(t *testing.T) {
	models := []*lp.Model{solvertest.RandomLP(120, 0.05, 5), solvertest.RandomLP(150, 0.05, 6), solvertest.Mixed()}
	want := make([]float64, len(models))
	p := newProblem(t)
	for i, m := range models {
		sol, err := p.Solve(m, solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = sol.Objective
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(models))
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q, err := New()
			if err != nil {
				errs <- err
				return
			}
			defer q.Close()
			for i, m := range models {
				sol, err := q.Solve(m, solver.Options{})
				if err != nil || sol.Objective != want[i] {
					errs <- fmt.Errorf("model %d: %v, objective %v want %v", i, err, sol, want[i])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
