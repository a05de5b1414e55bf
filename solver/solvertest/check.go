package solvertest

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
)

// CheckCase checks an optimal solution of c's model m against c's hand
// computation to tol: the objective (and c·X + offset), X, the row duals,
// the reduced costs and the row activities (A·X).
func CheckCase(t testing.TB, c Case, m *lp.Model, sol *solver.Solution, tol float64) {
	t.Helper()
	if sol.Status != solver.Optimal {
		t.Fatalf("%s: status %v, want optimal", c.Name, sol.Status)
	}
	if !Near(sol.Objective, c.Obj, tol) {
		t.Errorf("%s: objective %.17g, want %g (hand computation)", c.Name, sol.Objective, c.Obj)
	}
	if got := m.ObjectiveValue(sol.X); !Near(got, sol.Objective, tol) {
		t.Errorf("%s: c·X + offset = %.17g, objective %.17g", c.Name, got, sol.Objective)
	}
	checkVec(t, c.Name+": X", sol.X, c.X, tol)
	checkVec(t, c.Name+": row duals", sol.Duals, c.Y, tol)
	checkVec(t, c.Name+": reduced costs", sol.ReducedCosts, c.D, tol)
	checkVec(t, c.Name+": row activity", sol.RowActivity, m.Activity(sol.X), tol)
}

func checkVec(t testing.TB, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
		return
	}
	for i := range want {
		if !Near(got[i], want[i], tol) {
			t.Errorf("%s[%d] = %.17g, want %g", what, i, got[i], want[i])
		}
	}
}

// Near reports |a − b| <= tol·max(1, |a|, |b|).
func Near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// CheckDuals verifies, for an optimal solution of m, that d = c − Aᵀy
// holds to tol (relative to the size of the terms) and that complementary
// slackness and the sign conditions hold to tol: with s = +1 for
// Minimize and −1 for Maximize, s·y_i > 0 needs row i at its lower bound
// and s·y_i < 0 at its upper bound, and the same for s·d_j and column j.
func CheckDuals(t testing.TB, m *lp.Model, sol *solver.Solution, tol float64) {
	t.Helper()
	if len(sol.Duals) != m.NumRows() || len(sol.ReducedCosts) != m.NumVars() {
		t.Fatalf("len(Duals)=%d len(ReducedCosts)=%d, want %d and %d",
			len(sol.Duals), len(sol.ReducedCosts), m.NumRows(), m.NumVars())
	}
	d := append([]float64(nil), m.Obj...)
	mag := make([]float64, m.NumVars())
	for j := range mag {
		mag[j] = math.Abs(m.Obj[j])
	}
	for i := 0; i < m.NumRows(); i++ {
		cols, vals := m.Row(i)
		for q, j := range cols {
			d[j] -= vals[q] * sol.Duals[i]
			mag[j] += math.Abs(vals[q] * sol.Duals[i])
		}
	}
	for j := range d {
		if math.Abs(d[j]-sol.ReducedCosts[j]) > tol*math.Max(1, mag[j]) {
			t.Errorf("column %d: c − Aᵀy = %.17g, ReducedCosts = %.17g", j, d[j], sol.ReducedCosts[j])
		}
	}
	s := 1.0
	if m.Sense == lp.Maximize {
		s = -1
	}
	act := m.Activity(sol.X)
	check := func(what string, k int, dual, val, lo, up float64) {
		scale := math.Max(1, math.Abs(val))
		switch {
		case s*dual > tol && !(math.Abs(val-lo) <= tol*scale):
			t.Errorf("%s %d: dual %g needs value at lower bound %g, have %g", what, k, dual, lo, val)
		case s*dual < -tol && !(math.Abs(val-up) <= tol*scale):
			t.Errorf("%s %d: dual %g needs value at upper bound %g, have %g", what, k, dual, up, val)
		}
	}
	for i := range act {
		check("row", i, sol.Duals[i], act[i], m.RowLower[i], m.RowUpper[i])
	}
	for j := range sol.X {
		check("column", j, sol.ReducedCosts[j], sol.X[j], m.ColLower[j], m.ColUpper[j])
	}
}
