package gonumlp_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/gonumlp"
)

var inf = math.Inf(1)

const eps = 1e-9

// close reports whether a and b agree to eps relative to max(1, |a|, |b|).
func close(a, b float64) bool {
	return math.Abs(a-b) <= eps*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// tb is the part of testing.TB that rapid.T provides too.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkOptimal verifies a solution independently of the solver: status,
// objective, primal feasibility, RowActivity, d = c − Aᵀy, the sign and
// complementary-slackness conditions of the package convention, and that
// the Lagrangian bound built from y and d equals the objective.
func checkOptimal(t tb, m *lp.Model, sol *solver.Solution, err error, want float64) {
	t.Helper()
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if sol.Status != solver.Optimal {
		t.Fatalf("status %v, want optimal", sol.Status)
	}
	if !close(sol.Objective, want) {
		t.Fatalf("objective %.15g, want %.15g (x = %v)", sol.Objective, want, sol.X)
	}
	if got := m.ObjectiveValue(sol.X); !close(got, sol.Objective) {
		t.Fatalf("Objective %.15g but c·x + offset = %.15g", sol.Objective, got)
	}
	if v := m.MaxViolation(sol.X); v.Relative() > eps {
		t.Fatalf("x = %v violates %+v", sol.X, v)
	}
	act := m.Activity(sol.X)
	for r := range act {
		if !close(act[r], sol.RowActivity[r]) {
			t.Fatalf("RowActivity[%d] = %g, A·x = %g", r, sol.RowActivity[r], act[r])
		}
	}
	checkDuals(t, m, sol)
}

// checkDuals verifies d = c − Aᵀy, the sign conditions with complementary
// slackness, and the Lagrangian bound. For minimisation a positive
// multiplier belongs to the lower bound; for maximisation to the upper
// bound (see the package documentation).
func checkDuals(t tb, m *lp.Model, sol *solver.Solution) {
	t.Helper()
	y, d := sol.Duals, sol.ReducedCosts
	if len(y) != m.NumRows() || len(d) != m.NumVars() {
		t.Fatalf("len(Duals) = %d, len(ReducedCosts) = %d for %d rows, %d columns", len(y), len(d), m.NumRows(), m.NumVars())
	}
	// d = c − Aᵀy.
	dd := append([]float64(nil), m.Obj...)
	for r := range m.NumRows() {
		cols, vals := m.Row(r)
		for q, c := range cols {
			dd[c] -= vals[q] * y[r]
		}
	}
	for j := range dd {
		if math.Abs(dd[j]-d[j]) > 1e-12*math.Max(1, math.Abs(d[j])) {
			t.Fatalf("ReducedCosts[%d] = %g, c − Aᵀy = %g", j, d[j], dd[j])
		}
	}
	sgn := 1.0
	if m.Sense == lp.Maximize {
		sgn = -1
	}
	// term returns the contribution v·bound of one multiplier to the
	// Lagrangian bound and checks sign and complementary slackness against
	// the value val.
	term := func(what string, i int, v, lo, up, val float64) float64 {
		w := sgn * v
		switch {
		case w > eps:
			if math.IsInf(lo, -1) || math.Abs(v)*math.Abs(val-lo) > eps*math.Max(1, math.Abs(val)) {
				t.Fatalf("%s %d: multiplier %g (sense %v) needs value %g at lower bound %g", what, i, v, m.Sense, val, lo)
			}
			return v * lo
		case w < -eps:
			if math.IsInf(up, 1) || math.Abs(v)*math.Abs(val-up) > eps*math.Max(1, math.Abs(val)) {
				t.Fatalf("%s %d: multiplier %g (sense %v) needs value %g at upper bound %g", what, i, v, m.Sense, val, up)
			}
			return v * up
		}
		return v * val
	}
	bound := m.ObjOffset
	for r := range y {
		bound += term("row", r, y[r], m.RowLower[r], m.RowUpper[r], sol.RowActivity[r])
	}
	for j := range d {
		bound += term("column", j, d[j], m.ColLower[j], m.ColUpper[j], sol.X[j])
	}
	if !close(bound, sol.Objective) {
		t.Fatalf("Lagrangian bound %.15g ≠ objective %.15g (y = %v, d = %v)", bound, sol.Objective, y, d)
	}
	// With finite column bounds, solver.SafeLowerBound (for minimisation;
	// a maximisation is min −c·x with duals −y) must be tight too.
	for j := range m.NumVars() {
		if math.IsInf(m.ColLower[j], 0) || math.IsInf(m.ColUpper[j], 0) {
			return
		}
	}
	mm, yy := m, y
	if m.Sense == lp.Maximize {
		mm = m.Clone()
		mm.Sense = lp.Minimize
		mm.ObjOffset = -m.ObjOffset
		for j := range mm.Obj {
			mm.Obj[j] = -m.Obj[j]
		}
		yy = make([]float64, len(y))
		for i := range y {
			yy[i] = -y[i]
		}
	}
	if lb, want := solver.SafeLowerBound(mm, yy), sgn*sol.Objective; !close(lb, want) {
		t.Fatalf("SafeLowerBound %.15g, optimum (as minimum) %.15g", lb, want)
	}
}

// wantStatus checks a non-optimal outcome and its error.
func wantStatus(t *testing.T, sol *solver.Solution, err error, st solver.Status) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %v (solution %+v)", st, sol)
	}
	var se *solver.StatusError
	if !errors.As(err, &se) {
		t.Fatalf("error %T %v is not a *solver.StatusError", err, err)
	}
	if se.Solver != "gonum" || se.Status != st || !errors.Is(err, st.Err()) {
		t.Fatalf("error %+v, want gonum %v", se, st)
	}
	if sol == nil || sol.Status != st {
		t.Fatalf("solution %+v, want status %v", sol, st)
	}
}

func solve(t testing.TB, m *lp.Model) (*solver.Solution, error) {
	t.Helper()
	return gonumlp.New().Solve(m, solver.Options{})
}

func TestName(t *testing.T) {
	var s solver.Solver = gonumlp.New()
	if s.Name() != "gonum" {
		t.Fatalf("Name() = %q", s.Name())
	}
}

// TestWyndor: max 3x + 5y s.t. x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18, x, y ≥ 0.
// The vertices of the feasible region are (0,0), (4,0), (4,3), (2,6), (0,6)
// with values 0, 12, 27, 36, 30, so the optimum is 36 at (2,6). Rows 2 and 3
// are active; the duals solve (3,5) = y2·(0,2) + y3·(3,2): y3 = 1,
// y2 = 3/2, y1 = 0, and bᵀy = 12·1.5 + 18·1 = 36.
func TestWyndor(t *testing.T) {
	m := lp.New("wyndor", lp.Maximize)
	x := m.AddVar("x", 0, inf, 3)
	y := m.AddVar("y", 0, inf, 5)
	m.AddRow("plant1", -inf, 4, []int{x}, []float64{1})
	m.AddRow("plant2", -inf, 12, []int{y}, []float64{2})
	m.AddRow("plant3", -inf, 18, []int{x, y}, []float64{3, 2})
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, 36)
	for i, want := range []float64{2, 6} {
		if !close(sol.X[i], want) {
			t.Errorf("x[%d] = %g, want %g", i, sol.X[i], want)
		}
	}
	for i, want := range []float64{0, 1.5, 1} {
		if !close(sol.Duals[i], want) {
			t.Errorf("y[%d] = %g, want %g", i, sol.Duals[i], want)
		}
	}
	if sol.Algorithm != "primal" || sol.Iterations != 0 {
		t.Errorf("Algorithm %q, Iterations %d", sol.Algorithm, sol.Iterations)
	}
}

// TestCovering: min 2x + 3y s.t. x + y ≥ 4, x + 3y ≥ 6, x, y ≥ 0. Vertices
// (0,4), (3,1), (6,0) cost 12, 9, 12: the optimum is 9 at (3,1). Both rows
// are active: y1 + y2 = 2, y1 + 3y2 = 3 give y = (3/2, 1/2) ≥ 0 and
// 4·1.5 + 6·0.5 = 9.
func TestCovering(t *testing.T) {
	m := lp.New("cover", lp.Minimize)
	x := m.AddVar("x", 0, inf, 2)
	y := m.AddVar("y", 0, inf, 3)
	m.AddRow("r1", 4, inf, []int{x, y}, []float64{1, 1})
	m.AddRow("r2", 6, inf, []int{x, y}, []float64{1, 3})
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, 9)
	if !close(sol.X[0], 3) || !close(sol.X[1], 1) {
		t.Errorf("x = %v, want (3, 1)", sol.X)
	}
	if !close(sol.Duals[0], 1.5) || !close(sol.Duals[1], 0.5) {
		t.Errorf("y = %v, want (1.5, 0.5)", sol.Duals)
	}
}

// TestFreeVariables: min x + 2y, x and y free, s.t. x + y ≥ 1 and
// −x + y ≥ −3. (1,2) = y1·(1,1) + y2·(−1,1) gives y1 = 3/2, y2 = 1/2, both
// ≥ 0, so both rows are active at the optimum: x + y = 1, x − y = 3, i.e.
// (2, −1) with value 0 = 1·1.5 − 3·0.5. The optimal y is negative, which
// needs the free-variable split.
func TestFreeVariables(t *testing.T) {
	m := lp.New("free", lp.Minimize)
	x := m.AddVar("x", -inf, inf, 1)
	y := m.AddVar("y", -inf, inf, 2)
	m.AddRow("r1", 1, inf, []int{x, y}, []float64{1, 1})
	m.AddRow("r2", -3, inf, []int{x, y}, []float64{-1, 1})
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, 0)
	if !close(sol.X[0], 2) || !close(sol.X[1], -1) {
		t.Errorf("x = %v, want (2, −1)", sol.X)
	}
	if !close(sol.Duals[0], 1.5) || !close(sol.Duals[1], 0.5) {
		t.Errorf("y = %v, want (1.5, 0.5)", sol.Duals)
	}
}

// TestNegativeBounds: min −x − y with x ∈ [−3, −1], y ∈ [−5, 2] and
// x + 2y ≤ 1. On the row, y = (1 − x)/2 and −x − y = −(1 + x)/2 decreases
// in x, so x = −1, y = 1 (inside [−5, 2]), value 0. y is basic, so
// d_y = −1 − 2·y_r = 0 gives y_r = −1/2 (row at upper bound, ≤ 0) and
// d_x = −1 − y_r = −1/2 ≤ 0 with x at its upper bound.
func TestNegativeBounds(t *testing.T) {
	m := lp.New("neg", lp.Minimize)
	x := m.AddVar("x", -3, -1, -1)
	y := m.AddVar("y", -5, 2, -1)
	m.AddRow("r", -inf, 1, []int{x, y}, []float64{1, 2})
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, 0)
	if !close(sol.X[0], -1) || !close(sol.X[1], 1) {
		t.Errorf("x = %v, want (−1, 1)", sol.X)
	}
	if !close(sol.Duals[0], -0.5) || !close(sol.ReducedCosts[0], -0.5) || !close(sol.ReducedCosts[1], 0) {
		t.Errorf("y = %v, d = %v", sol.Duals, sol.ReducedCosts)
	}
}

// TestNegativeBoundsDegenerate: min 2x + y with x ∈ [−2, 5], y ∈ [−4, −1]
// and x + y ≥ −3. Since 2x + y = x + (x + y) ≥ −2 − 3, the optimum is −5 at
// (−2, −1), where three constraints meet. Every y_r ∈ [1, 2] is an optimal
// dual (d_x = 2 − y_r ≥ 0 at the lower bound, d_y = 1 − y_r ≤ 0 at the
// upper bound); checkOptimal accepts any of them.
func TestNegativeBoundsDegenerate(t *testing.T) {
	m := lp.New("negdeg", lp.Minimize)
	x := m.AddVar("x", -2, 5, 2)
	y := m.AddVar("y", -4, -1, 1)
	m.AddRow("r", -3, inf, []int{x, y}, []float64{1, 1})
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, -5)
	if sol.Duals[0] < 1-eps || sol.Duals[0] > 2+eps {
		t.Errorf("y_r = %g, want within [1, 2]", sol.Duals[0])
	}
}

// TestRangedRows uses 2 ≤ x + y ≤ 4 and −1 ≤ x − y ≤ 1, x, y ≥ 0.
//
// min −x − 3y: (−1, −3) = y1·(1,1) + y2·(1,−1) gives y1 = −2 (row 1 at its
// upper bound 4) and y2 = 1 (row 2 at its lower bound −1), hence
// x + y = 4, x − y = −1: (1.5, 2.5) with value −9 = 4·(−2) + (−1)·1.
//
// min x + 3y: y1 = 2 (row 1 at its lower bound 2), y2 = −1 (row 2 at its
// upper bound 1), hence (1.5, 0.5) with value 3 = 2·2 + 1·(−1).
func TestRangedRows(t *testing.T) {
	for _, tc := range []struct {
		c, x, y []float64
		want    float64
	}{
		{[]float64{-1, -3}, []float64{1.5, 2.5}, []float64{-2, 1}, -9},
		{[]float64{1, 3}, []float64{1.5, 0.5}, []float64{2, -1}, 3},
	} {
		m := lp.New("ranged", lp.Minimize)
		x := m.AddVar("x", 0, inf, tc.c[0])
		y := m.AddVar("y", 0, inf, tc.c[1])
		m.AddRow("sum", 2, 4, []int{x, y}, []float64{1, 1})
		m.AddRow("diff", -1, 1, []int{x, y}, []float64{1, -1})
		sol, err := solve(t, m)
		checkOptimal(t, m, sol, err, tc.want)
		for i := range 2 {
			if !close(sol.X[i], tc.x[i]) || !close(sol.Duals[i], tc.y[i]) {
				t.Errorf("c = %v: x = %v, y = %v; want %v, %v", tc.c, sol.X, sol.Duals, tc.x, tc.y)
			}
		}
	}
}

// TestEqualityRows: min x + 2y + 3z s.t. x + y + z = 6, x − y = 1, x, y ≥ 0,
// z ≥ 1. With z = 1 + t: x = 3 − t/2, y = 2 − t/2 and the cost changes by
// −1/2 − 1 + 3 = 3/2 per unit of t, so t = 0: (3, 2, 1) with value 10. x and
// y are basic: y1 + y2 = 1, y1 − y2 = 2 give y = (3/2, −1/2), d_z = 3/2 ≥ 0;
// 6·1.5 + 1·(−0.5) + 1·1.5 = 10.
func TestEqualityRows(t *testing.T) {
	m := lp.New("eq", lp.Minimize)
	x := m.AddVar("x", 0, inf, 1)
	y := m.AddVar("y", 0, inf, 2)
	z := m.AddVar("z", 1, inf, 3)
	m.AddRow("total", 6, 6, []int{x, y, z}, []float64{1, 1, 1})
	m.AddRow("diff", 1, 1, []int{x, y}, []float64{1, -1})
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, 10)
	for i, want := range []float64{3, 2, 1} {
		if !close(sol.X[i], want) {
			t.Errorf("x = %v", sol.X)
		}
	}
	if !close(sol.Duals[0], 1.5) || !close(sol.Duals[1], -0.5) || !close(sol.ReducedCosts[2], 1.5) {
		t.Errorf("y = %v, d = %v", sol.Duals, sol.ReducedCosts)
	}

	// Redundant equality rows (a copy and a multiple) leave the optimum
	// unchanged; the duals may be split between copies.
	m.AddRow("total2", 6, 6, []int{z, y, x}, []float64{1, 1, 1})
	m.AddRow("diff2", 2, 2, []int{x, y}, []float64{2, -2})
	sol, err = solve(t, m)
	checkOptimal(t, m, sol, err, 10)

	// An inconsistent copy makes the model infeasible.
	m.AddRow("diff3", 3, 3, []int{x, y}, []float64{2, -2})
	sol, err = solve(t, m)
	wantStatus(t, sol, err, solver.Infeasible)
}

// TestFixedAndEmpty: x is fixed at 2, w appears in no row (cost −1, upper
// bound 5, so w = 5), v appears in no row with cost 0 and bounds [1, 3]
// (any value is optimal; 1 is chosen), and y ≥ 0 with x + y ≥ 3 and cost 1:
// y = 1. Value 2·1 (x) + 1 (y) − 5 (w) = −2, plus the offset 10.
func TestFixedAndEmpty(t *testing.T) {
	m := lp.New("fixed", lp.Minimize)
	m.ObjOffset = 10
	x := m.AddVar("x", 2, 2, 1)
	y := m.AddVar("y", 0, inf, 1)
	m.AddVar("w", -inf, 5, -1)
	m.AddVar("v", 1, 3, 0)
	m.AddRow("r", 3, inf, []int{x, y}, []float64{1, 1})
	m.AddRow("free", -inf, inf, []int{x, y}, []float64{7, 7})
	m.AddRow("const", 1, 4, []int{x}, []float64{1})
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, 8)
	for i, want := range []float64{2, 1, 5, 1} {
		if !close(sol.X[i], want) {
			t.Errorf("x = %v", sol.X)
		}
	}
}

// TestNoRows: a box-constrained model without rows, maximised.
func TestNoRows(t *testing.T) {
	m := lp.New("box", lp.Maximize)
	m.AddVar("a", -1, 2, 3)
	m.AddVar("b", -4, 1, -2)
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, 3*2+(-2)*(-4))
	e := lp.New("empty", lp.Minimize)
	e.ObjOffset = 1.5
	sol, err = solve(t, e)
	checkOptimal(t, e, sol, err, 1.5)
}

// TestMaximizeDualSigns: max x + y s.t. x + 2y ≤ 4, 3 ≤ 2x + y ≤ 5 and
// x ≥ −1 ≤ y (lower bounds −1). Row 1 and the upper side of row 2 meet at
// (2, 1), value 3; (1, 1) = y1·(1,2) + y2·(2,1) gives y1 = y2 = 1/3 ≥ 0, as
// the maximisation convention requires for rows at their upper bounds:
// 4/3 + 5/3 = 3.
func TestMaximizeDualSigns(t *testing.T) {
	m := lp.New("maxsigns", lp.Maximize)
	x := m.AddVar("x", -1, inf, 1)
	y := m.AddVar("y", -1, inf, 1)
	m.AddRow("r1", -inf, 4, []int{x, y}, []float64{1, 2})
	m.AddRow("r2", 3, 5, []int{x, y}, []float64{2, 1})
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, 3)
	if !close(sol.Duals[0], 1.0/3) || !close(sol.Duals[1], 1.0/3) {
		t.Errorf("y = %v, want (1/3, 1/3)", sol.Duals)
	}
	// The same model minimising −x − y has the negated duals.
	n := m.Clone()
	n.Sense = lp.Minimize
	for j := range n.Obj {
		n.Obj[j] = -n.Obj[j]
	}
	sol2, err := solve(t, n)
	checkOptimal(t, n, sol2, err, -3)
	for i := range sol.Duals {
		if !close(sol.Duals[i], -sol2.Duals[i]) {
			t.Errorf("max duals %v, min duals %v", sol.Duals, sol2.Duals)
		}
	}
}

func TestInfeasible(t *testing.T) {
	// x + y ≤ 1 and x + y ≥ 2.
	m := lp.New("inf1", lp.Minimize)
	x := m.AddVar("x", 0, inf, 1)
	y := m.AddVar("y", 0, inf, 1)
	m.AddRow("a", -inf, 1, []int{x, y}, []float64{1, 1})
	m.AddRow("b", 2, inf, []int{x, y}, []float64{1, 1})
	sol, err := solve(t, m)
	wantStatus(t, sol, err, solver.Infeasible)

	// x ∈ [0, 1] but x − y ≥ 2 with y ∈ [0, 3].
	m = lp.New("inf2", lp.Maximize)
	x = m.AddVar("x", 0, 1, 1)
	y = m.AddVar("y", 0, 3, 1)
	m.AddRow("a", 2, inf, []int{x, y}, []float64{1, -1})
	sol, err = solve(t, m)
	wantStatus(t, sol, err, solver.Infeasible)

	// A row over a fixed column only: 2 outside [3, 4].
	m = lp.New("inf3", lp.Minimize)
	x = m.AddVar("x", 2, 2, 1)
	m.AddRow("a", 3, 4, []int{x}, []float64{1})
	sol, err = solve(t, m)
	wantStatus(t, sol, err, solver.Infeasible)
	if !strings.Contains(err.Error(), "a") {
		t.Errorf("error %q does not name the row", err)
	}

	// Equalities x + y = 1, x − y = 3 force y = −1 < 0.
	m = lp.New("inf4", lp.Minimize)
	x = m.AddVar("x", 0, inf, 1)
	y = m.AddVar("y", 0, inf, 1)
	m.AddRow("a", 1, 1, []int{x, y}, []float64{1, 1})
	m.AddRow("b", 3, 3, []int{x, y}, []float64{1, -1})
	sol, err = solve(t, m)
	wantStatus(t, sol, err, solver.Infeasible)
}

func TestUnbounded(t *testing.T) {
	// min −x s.t. x − y ≤ 1, x, y ≥ 0: x = 1 + y grows without limit.
	m := lp.New("unb1", lp.Minimize)
	x := m.AddVar("x", 0, inf, -1)
	y := m.AddVar("y", 0, inf, 0)
	m.AddRow("a", -inf, 1, []int{x, y}, []float64{1, -1})
	sol, err := solve(t, m)
	wantStatus(t, sol, err, solver.Unbounded)

	// max x + y with a free x and x − y = 0... plus y ≥ 0: x = y → ∞.
	m = lp.New("unb2", lp.Maximize)
	x = m.AddVar("x", -inf, inf, 1)
	y = m.AddVar("y", 0, inf, 1)
	m.AddRow("a", 0, 0, []int{x, y}, []float64{1, -1})
	sol, err = solve(t, m)
	wantStatus(t, sol, err, solver.Unbounded)

	// A column in no row with a cost pushing it to an infinite bound.
	m = lp.New("unb3", lp.Minimize)
	x = m.AddVar("x", 0, inf, 1)
	m.AddVar("lonely", -inf, 3, 2)
	m.AddRow("a", 1, inf, []int{x}, []float64{1})
	sol, err = solve(t, m)
	wantStatus(t, sol, err, solver.Unbounded)
	if !strings.Contains(err.Error(), "lonely") {
		t.Errorf("error %q does not name the column", err)
	}

	// ... but infeasibility elsewhere takes precedence.
	m.AddRow("b", -inf, 0, []int{x}, []float64{1})
	sol, err = solve(t, m)
	wantStatus(t, sol, err, solver.Infeasible)
}

func TestSizeLimit(t *testing.T) {
	m := lp.New("big", lp.Minimize)
	var cols []int
	var vals []float64
	for j := range 30 {
		cols = append(cols, m.AddVar("x", 0, 1, 1))
		vals = append(vals, float64(j+1))
	}
	m.AddRow("r", 1, inf, cols, vals)
	// 30 structural + 30 bound slacks + 1 surplus columns, 31 rows.
	s := &gonumlp.Solver{MaxCols: 60}
	sol, err := s.Solve(m, solver.Options{})
	wantStatus(t, sol, err, solver.Failed)
	for _, frag := range []string{"too large", "61 columns", "31 rows", "limit 60"} {
		if !strings.Contains(err.Error(), frag) {
			t.Errorf("error %q lacks %q", err, frag)
		}
	}
	s = &gonumlp.Solver{MaxRows: 30}
	_, err = s.Solve(m, solver.Options{})
	if err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("MaxRows 30: error %v", err)
	}
	s = &gonumlp.Solver{MaxCols: 61, MaxRows: -1}
	sol, err = s.Solve(m, solver.Options{})
	checkOptimal(t, m, sol, err, 1.0/30)
}

func TestInvalidModel(t *testing.T) {
	m := lp.New("bad", lp.Minimize)
	m.AddVar("x", 1, 0, 1)
	sol, err := solve(t, m)
	wantStatus(t, sol, err, solver.Failed)
	sol, err = gonumlp.New().Solve(nil, solver.Options{})
	wantStatus(t, sol, err, solver.Failed)
}

// TestBadlyScaled solves the covering model of TestCovering with x and y
// rescaled by 1e4 and 1e-3 and the rows by 1e-6 and 1e5: the optimum is
// still 9, at (3e4, 1e-3). Without the package's scaling gonum's absolute
// tolerances and condition tests cannot cope with such a model; the solve
// must then fail with numerical trouble, or succeed, but never report a
// wrong status.
func TestBadlyScaled(t *testing.T) {
	m := lp.New("scaled", lp.Minimize)
	// x = 1e4·x', y = 1e-3·y': min 2x' + 3y' becomes min 2e-4 x + 3e3 y.
	x := m.AddVar("x", 0, inf, 2e-4)
	y := m.AddVar("y", 0, inf, 3e3)
	m.AddRow("r1", 4e-6, inf, []int{x, y}, []float64{1e-10, 1e-3})
	m.AddRow("r2", 6e5, inf, []int{x, y}, []float64{1e1, 3e8})
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, 9)
	if !close(sol.X[0], 3e4) || !close(sol.X[1], 1e-3) {
		t.Errorf("x = %v, want (3e4, 1e-3)", sol.X)
	}
	sol, err = gonumlp.New().Solve(m, solver.Options{ScalingSet: true, Scaling: 0})
	if err != nil {
		wantStatus(t, sol, err, solver.Numerical)
	} else {
		checkOptimal(t, m, sol, err, 9)
	}
}

// TestScalingOff solves a well-scaled model without scaling.
func TestScalingOff(t *testing.T) {
	m := lp.New("cover", lp.Minimize)
	x := m.AddVar("x", 0, inf, 2)
	y := m.AddVar("y", 0, inf, 3)
	m.AddRow("r1", 4, inf, []int{x, y}, []float64{1, 1})
	m.AddRow("r2", 6, inf, []int{x, y}, []float64{1, 3})
	sol, err := gonumlp.New().Solve(m, solver.Options{ScalingSet: true, Scaling: 0, DualTolerance: 1e-12, PrimalTolerance: 1e-10})
	checkOptimal(t, m, sol, err, 9)
}

// TestDualLPRoute checks that the dual-LP route to the duals gives valid
// duals on the hand-solved models too.
func TestDualLPRoute(t *testing.T) {
	s := gonumlp.New()
	gonumlp.ForceDualLP(s)
	m := lp.New("wyndor", lp.Maximize)
	x := m.AddVar("x", 0, inf, 3)
	y := m.AddVar("y", 0, inf, 5)
	m.AddRow("plant1", -inf, 4, []int{x}, []float64{1})
	m.AddRow("plant2", -inf, 12, []int{y}, []float64{2})
	m.AddRow("plant3", -inf, 18, []int{x, y}, []float64{3, 2})
	sol, err := s.Solve(m, solver.Options{})
	checkOptimal(t, m, sol, err, 36)

	d := lp.New("negdeg", lp.Minimize)
	x = d.AddVar("x", -2, 5, 2)
	y = d.AddVar("y", -4, -1, 1)
	d.AddRow("r", -3, inf, []int{x, y}, []float64{1, 1})
	sol, err = s.Solve(d, solver.Options{})
	checkOptimal(t, d, sol, err, -5)
}

// TestDegenerateTransport is a balanced transportation problem (supplies 20,
// 30; demands 15, 20, 15): its equality rows are linearly dependent (both
// groups sum to 50) and its optimum is degenerate. Costs
// [[8, 6, 10], [9, 12, 13]]. Shipping s1→d2 20, s2→d1 15, s2→d3 15 costs
// 120 + 135 + 195 = 450 with three positive flows for a rank-4 system. The
// duals u = (0, a), v = (9 − a, 6, 13 − a) satisfy u_i + v_j ≤ c_ij for every
// a ∈ [3, 6] with equality on the used routes, and give
// 20·0 + 30a + 15(9 − a) + 20·6 + 15(13 − a) = 450, which proves optimality.
func TestDegenerateTransport(t *testing.T) {
	cost := [2][3]float64{{8, 6, 10}, {9, 12, 13}}
	supply := []float64{20, 30}
	demand := []float64{15, 20, 15}
	m := lp.New("transport", lp.Minimize)
	var v [2][3]int
	for i := range 2 {
		for j := range 3 {
			v[i][j] = m.AddVar("x", 0, inf, cost[i][j])
		}
	}
	for i := range 2 {
		m.AddRow("s", supply[i], supply[i], []int{v[i][0], v[i][1], v[i][2]}, []float64{1, 1, 1})
	}
	for j := range 3 {
		m.AddRow("d", demand[j], demand[j], []int{v[0][j], v[1][j]}, []float64{1, 1})
	}
	sol, err := solve(t, m)
	checkOptimal(t, m, sol, err, 450)
}
