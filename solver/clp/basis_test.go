//go:build cgo && !noclp

package clp

import (
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/solvertest"
)

// TestBasisRoundTrip: the optimal basis of the 300x300 random LP has one
// basic entry per row; loaded into a fresh copy of the model, it is
// optimal at once (0 iterations, the same objective). A basis with a
// column removed from the model and the rest kept — the prune rounds' use —
// still solves the smaller model to its cold optimum, in fewer iterations
// than the cold solve.
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
		t.Fatalf("Basis: ok %v, %d columns %d rows; model %d, %d", ok, len(b.Cols), len(b.Rows), m.NumVars(), m.NumRows())
	}
	basic := 0
	for _, s := range append(append([]solver.BasisStatus(nil), b.Cols...), b.Rows...) {
		if s == solver.Basic {
			basic++
		}
	}
	if basic != m.NumRows() {
		t.Errorf("%d basic entries, want one per row (%d)", basic, m.NumRows())
	}

	q := newProblem(t)
	again := resolveFrom(t, q, m.Clone(), b)
	if again.Iterations != 0 || !solvertest.Near(again.Objective, sol.Objective, 1e-9) {
		t.Errorf("from the optimal basis: %d iterations, objective %.12g; want 0 and %.12g", again.Iterations, again.Objective, sol.Objective)
	}

	// Fix the column with the largest value at 0 (as a pruned message:
	// its column stays but can carry nothing), keep every status.
	j := 0
	for k, v := range sol.X {
		if v > sol.X[j] {
			j = k
		}
	}
	mod := m.Clone()
	mod.ColLower[j], mod.ColUpper[j] = 0, 0
	cold, err := newProblem(t).Solve(mod, solver.Options{Algorithm: solver.Primal, Presolve: solver.PresolveOff})
	if err != nil {
		t.Fatal(err)
	}
	warm := resolveFrom(t, q, mod, b)
	t.Logf("column %d fixed at 0: objective %.10g -> %.10g, iterations from the old basis %d, cold %d", j, sol.Objective, warm.Objective, warm.Iterations, cold.Iterations)
	if !solvertest.Near(warm.Objective, cold.Objective, 1e-9) {
		t.Errorf("from the old basis: objective %.15g, cold %.15g", warm.Objective, cold.Objective)
	}
	if warm.Iterations >= cold.Iterations {
		t.Errorf("from the old basis: %d iterations, cold %d", warm.Iterations, cold.Iterations)
	}

	// Refusals: wrong sizes, statuses out of range, no model.
	if err := q.SetBasis(solver.Basis{Cols: b.Cols[1:], Rows: b.Rows}); err == nil {
		t.Error("SetBasis accepted a basis one column short")
	}
	bad := solver.Basis{Cols: append([]solver.BasisStatus(nil), b.Cols...), Rows: b.Rows}
	bad.Cols[0] = 9
	if err := q.SetBasis(bad); err == nil {
		t.Error("SetBasis accepted status 9")
	}
	if err := newProblem(t).SetBasis(b); err == nil {
		t.Error("SetBasis without a loaded model succeeded")
	}
}

// resolveFrom loads m into q, sets basis b and solves with the primal
// simplex from it.
func resolveFrom(t *testing.T, q *Problem, m *lp.Model, b solver.Basis) *solver.Solution {
	t.Helper()
	if err := q.Load(m); err != nil {
		t.Fatal(err)
	}
	if err := q.SetBasis(b); err != nil {
		t.Fatal(err)
	}
	sol, err := q.Resolve(solver.Options{Algorithm: solver.Primal})
	if err != nil {
		t.Fatal(err)
	}
	return sol
}
