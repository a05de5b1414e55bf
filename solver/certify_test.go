package solver_test

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/gonumlp"
)

var inf = math.Inf(1)

// col and row describe a small model compactly.
type col struct {
	lo, up, obj float64
}

type row struct {
	lo, up float64
	a      []float64 // dense coefficients
}

func build(sense lp.Sense, offset float64, cols []col, rows []row) *lp.Model {
	m := lp.New("t", sense)
	m.ObjOffset = offset
	for j, c := range cols {
		m.AddVar(fmt.Sprintf("x%d", j), c.lo, c.up, c.obj)
	}
	for i, r := range rows {
		var idx []int
		for j := range r.a {
			idx = append(idx, j)
		}
		m.AddRow(fmt.Sprintf("r%d", i), r.lo, r.up, idx, r.a)
	}
	return m
}

// rat is the exact rational value of a float64.
func rat(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }

// quo is the exact quotient of two float64 values.
func quo(a, b float64) *big.Rat { return new(big.Rat).Quo(rat(a), rat(b)) }

// handLPs are minimisation models with all columns boxed, solved by hand;
// y are their exact optimal duals (sign convention of package solver:
// y ≥ 0 on a row at its lower bound, y ≤ 0 at its upper bound).
var handLPs = []struct {
	name string
	m    *lp.Model
	opt  *big.Rat // the exact optimum of the model's float64 data
	y    []float64
}{
	{
		// min x+y, x+y ≥ 2, x,y ∈ [0,10]: any split of 2 is optimal, value 2;
		// y = 1 makes both reduced costs 0.
		"covering",
		build(lp.Minimize, 0, []col{{0, 10, 1}, {0, 10, 1}}, []row{{2, inf, []float64{1, 1}}}),
		rat(2), []float64{1},
	},
	{
		// min −x−2y, x+y ≤ 4, x,y ∈ [0,3]: y = 3 (cheaper), x = 1, value −7.
		// x is basic: −1 − y_r = 0 ⇒ y_r = −1; y's reduced cost −2+1 = −1 at
		// its upper bound. Bound: −1·4 + (−1)·3 = −7.
		"packing",
		build(lp.Minimize, 0, []col{{0, 3, -1}, {0, 3, -2}}, []row{{-inf, 4, []float64{1, 1}}}),
		rat(-7), []float64{-1},
	},
	{
		// min 3x+2y+5, x+y = 10, x−y ≤ 2, x,y ∈ [0,100]: all on y, value
		// 2·10+5 = 25. y basic: 2 − y1 = 0 ⇒ y1 = 2; second row slack, y2 = 0;
		// x's reduced cost 3−2 = 1 at its lower bound 0.
		"equality and offset",
		build(lp.Minimize, 5, []col{{0, 100, 3}, {0, 100, 2}}, []row{{10, 10, []float64{1, 1}}, {-inf, 2, []float64{1, -1}}}),
		rat(25), []float64{2, 0},
	},
	{
		// min x, 1 ≤ x−z ≤ 3, z ∈ [−2,5], x ∈ [−50,50]: x = 1+z, z = −2,
		// value −1. x basic: 1 − y = 0 ⇒ y = 1; z's reduced cost 0+1 = 1 at
		// its lower bound −2. Bound 1·1 + 1·(−2) = −1.
		"ranged row",
		build(lp.Minimize, 0, []col{{-50, 50, 1}, {-2, 5, 0}}, []row{{1, 3, []float64{1, -1}}}),
		rat(-1), []float64{1},
	},
	{
		// min −x−y, x+2y ≤ 4, 3x+y ≤ 6, x,y ∈ [0,10]: both rows active at
		// x = 8/5, y = 6/5, value −14/5. Aᵀy = c: y1+3y2 = −1, 2y1+y2 = −1
		// ⇒ y1 = −2/5, y2 = −1/5 (both ≤ 0, rows at their upper bounds).
		"two active rows",
		build(lp.Minimize, 0, []col{{0, 10, -1}, {0, 10, -1}}, []row{{-inf, 4, []float64{1, 2}}, {-inf, 6, []float64{3, 1}}}),
		big.NewRat(-14, 5), []float64{-0.4, -0.2},
	},
	{
		// min 2x−y, x+y ≥ 1, x fixed at −3, y ∈ [−5,8]: y = 8, value
		// −6−8 = −14; the row is slack (x+y = 5), y_r = 0.
		"fixed column, slack row",
		build(lp.Minimize, 0, []col{{-3, -3, 2}, {-5, 8, -1}}, []row{{1, inf, []float64{1, 1}}}),
		rat(-14), []float64{0},
	},
	{
		// min 0.1x+0.2y, 0.3x+0.7y ≥ 1, x,y ∈ [0,10]: y is cheaper per unit
		// of the row (0.2/0.7 < 0.1/0.3), y = 1/0.7, value 0.2/0.7 ≈ 0.2857
		// (exactly, in the float64 data). y_r = 0.2/0.7.
		"inexact data",
		build(lp.Minimize, 0, []col{{0, 10, 0.1}, {0, 10, 0.2}}, []row{{1, inf, []float64{0.3, 0.7}}}),
		quo(0.2, 0.7), []float64{0.2 / 0.7},
	},
	{
		// min 1e6·x + 1e-3·y, 1e3·x + y ≥ 5e3, x,y ∈ [0,1e4]: per unit of
		// the row x costs 1e3, y 1e-3, so y = 5e3, value 5. y_r = 1e-3.
		"badly scaled",
		build(lp.Minimize, 0, []col{{0, 1e4, 1e6}, {0, 1e4, 1e-3}}, []row{{5e3, inf, []float64{1e3, 1}}}),
		new(big.Rat).Mul(rat(5e3), rat(1e-3)), []float64{1e-3},
	},
}

// below reports whether lb ≤ opt exactly.
func below(lb float64, opt *big.Rat) bool {
	if math.IsInf(lb, -1) {
		return true
	}
	return rat(lb).Cmp(opt) <= 0
}

func TestSafeLowerBoundExactDuals(t *testing.T) {
	for _, tc := range handLPs {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.m.Validate(); err != nil {
				t.Fatal(err)
			}
			opt, _ := tc.opt.Float64()
			check := func(what string, y []float64) {
				t.Helper()
				lb := solver.SafeLowerBound(tc.m, y)
				if !below(lb, tc.opt) {
					t.Errorf("%s duals %v: bound %.17g above the optimum %s", what, y, lb, tc.opt.FloatString(17))
				}
				if d := opt - lb; !(d <= 1e-12*math.Max(1, math.Abs(opt))) {
					t.Errorf("%s duals %v: bound %.17g is %.3g below the optimum %.17g, want within 1e-12", what, y, lb, d, opt)
				}
			}
			check("hand", tc.y)
			// The gonum backend's duals are as good as the hand ones.
			sol, err := gonumlp.New().Solve(tc.m, solver.Options{})
			if err != nil {
				t.Fatalf("gonum: %v", err)
			}
			if math.Abs(sol.Objective-opt) > 1e-9*math.Max(1, math.Abs(opt)) {
				t.Fatalf("gonum optimum %.17g, hand %.17g", sol.Objective, opt)
			}
			if sol.Duals == nil {
				t.Fatalf("gonum returned no duals")
			}
			check("gonum", sol.Duals)
		})
	}
}

func TestSafeLowerBoundBadDuals(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		lpName string
		y      []float64
		// box is the bound the function must return when every dual is
		// discarded: Σ_j min over the box of c_j x_j (+ offset).
		box     float64
		wantBox bool
	}{
		// covering: box bound min x+y over [0,10]² = 0.
		{"covering", []float64{nan}, 0, true},
		{"covering", []float64{inf}, 0, true},
		{"covering", []float64{-inf}, 0, true},
		{"covering", nil, 0, true},                     // missing entries count as 0
		{"covering", []float64{-1}, 0, true},           // wrong sign on a ≥ row: projected to 0
		{"covering", []float64{0.5, 99, 99}, 0, false}, // extra entries are ignored
		{"covering", []float64{7}, 0, false},           // right sign, far too large
		// packing: box bound −3−6 = −9.
		{"packing", []float64{5}, -9, true}, // wrong sign on a ≤ row
		{"packing", []float64{-100}, 0, false},
		{"packing", []float64{-1e-300}, 0, false},
		// equality and offset: box bound 0+0+5 = 5.
		{"equality and offset", []float64{nan, nan}, 5, true},
		{"equality and offset", []float64{-4, 3}, 0, false}, // either sign is right for an equality; 3 is wrong for ≤
		{"equality and offset", []float64{1e300, -1e300}, 0, false},
		{"ranged row", []float64{-7}, 0, false},             // either sign is right for a ranged row
		{"two active rows", []float64{0.4, 0.2}, -20, true}, // both wrong for ≤ rows; box bound −10−10
		{"two active rows", []float64{-0.4000001, -0.1999999}, 0, false},
		{"fixed column, slack row", []float64{3}, 0, false},
		{"inexact data", []float64{0.2/0.7 + 1e-9}, 0, false},
		{"badly scaled", []float64{1}, 0, false},
		{"badly scaled", []float64{math.SmallestNonzeroFloat64}, 0, false},
	}
	byName := map[string]int{}
	for i, h := range handLPs {
		byName[h.name] = i
	}
	for _, tc := range tests {
		i, ok := byName[tc.lpName]
		if !ok {
			t.Fatalf("no hand LP %q", tc.lpName)
		}
		h := handLPs[i]
		lb := solver.SafeLowerBound(h.m, tc.y)
		if math.IsNaN(lb) || !below(lb, h.opt) {
			t.Errorf("%s, y = %v: bound %.17g not below the optimum %s", tc.lpName, tc.y, lb, h.opt.FloatString(6))
		}
		if tc.wantBox && (lb > tc.box || lb < tc.box-1e-12*math.Max(1, math.Abs(tc.box))) {
			t.Errorf("%s, y = %v: bound %.17g, want the box bound %g (duals discarded)", tc.lpName, tc.y, lb, tc.box)
		}
	}
}

func TestSafeLowerBoundInfinite(t *testing.T) {
	tests := []struct {
		name string
		m    *lp.Model
		y    []float64
	}{
		{
			// min x, x ≥ 1, x ∈ [0,∞): y = 2 gives reduced cost −1 on a
			// column unbounded above.
			"negative reduced cost, no upper bound",
			build(lp.Minimize, 0, []col{{0, inf, 1}}, []row{{1, inf, []float64{1}}}),
			[]float64{2},
		},
		{
			// min x, x ≥ −3, x ∈ (−∞,5]: y = 0 leaves reduced cost 1 on a
			// column unbounded below.
			"positive reduced cost, no lower bound",
			build(lp.Minimize, 0, []col{{-inf, 5, 1}}, []row{{-3, inf, []float64{1}}}),
			[]float64{0},
		},
		{
			// min x, x − z ≥ 1, z ∈ [0,1], x free: y = 0.5 leaves reduced
			// cost 0.5 on a free column.
			"free column",
			build(lp.Minimize, 0, []col{{-inf, inf, 1}, {0, 1, 0}}, []row{{1, inf, []float64{1, -1}}}),
			[]float64{0.5},
		},
		{
			// The covering LP as a maximisation: SafeLowerBound only bounds
			// minimisation models and documents −Inf otherwise, even for
			// perfect duals.
			"maximize",
			build(lp.Maximize, 0, []col{{0, 10, -1}, {0, 10, -1}}, []row{{2, inf, []float64{1, 1}}}),
			[]float64{-1},
		},
		{
			"maximize, no rows",
			build(lp.Maximize, 0, []col{{0, 1, 1}}, nil),
			nil,
		},
	}
	for _, tc := range tests {
		if lb := solver.SafeLowerBound(tc.m, tc.y); !math.IsInf(lb, -1) {
			t.Errorf("%s: bound %g, want -Inf", tc.name, lb)
		}
	}
	// Counterpart: the right sign on the same unbounded column is finite.
	m := build(lp.Minimize, 0, []col{{0, inf, 1}}, []row{{1, inf, []float64{1}}})
	if lb := solver.SafeLowerBound(m, []float64{0.5}); !(lb <= 0.5 && lb >= 0.5-1e-15) {
		t.Errorf("min x, x ≥ 1, x ≥ 0 with y = 0.5 (reduced cost 0.5): bound %.17g, want 0.5", lb)
	}
	// No rows: the bound is the box bound, min over [−2,3] of 4x + 1 = −7.
	m = build(lp.Minimize, 1, []col{{-2, 3, 4}}, nil)
	if lb := solver.SafeLowerBound(m, nil); !(lb <= -7 && lb >= -7-1e-14) {
		t.Errorf("no rows: bound %.17g, want -7", lb)
	}
}

// randLP is a random feasible, bounded minimisation LP with integer data
// and a known feasible point x0 of half-integers (so that A·x0 and c·x0
// are exact in float64).
type randLP struct {
	m     *lp.Model
	x0    []float64
	boxed bool // every column has two finite bounds
}

func genRandLP(t *rapid.T) randLP {
	n := rapid.IntRange(1, 5).Draw(t, "n")
	k := rapid.IntRange(0, 5).Draw(t, "k")
	m := lp.New("rand", lp.Minimize)
	m.ObjOffset = float64(rapid.IntRange(-3, 3).Draw(t, "offset"))
	r := randLP{m: m, boxed: true}
	for j := range n {
		lo := float64(rapid.IntRange(-5, 5).Draw(t, "lo"))
		w := rapid.IntRange(0, 6).Draw(t, "width")
		up := lo + float64(w)
		x0 := lo + float64(rapid.IntRange(0, 2*w).Draw(t, "x0"))/2
		c := float64(rapid.IntRange(-3, 3).Draw(t, "c"))
		// A one-sided column keeps the LP bounded only if its cost pushes
		// it towards its finite bound.
		switch rapid.IntRange(0, 5).Draw(t, "side") {
		case 0:
			if c >= 0 {
				up, r.boxed = inf, false
			}
		case 1:
			if c <= 0 {
				lo, r.boxed = math.Inf(-1), false
			}
		}
		m.AddVar(fmt.Sprintf("x%d", j), lo, up, c)
		r.x0 = append(r.x0, x0)
	}
	for i := range k {
		var cols []int
		var vals []float64
		act := 0.0
		for j := range n {
			a := float64(rapid.IntRange(-3, 3).Draw(t, "a"))
			cols, vals = append(cols, j), append(vals, a)
			act += a * r.x0[j]
		}
		s1 := float64(rapid.IntRange(0, 3).Draw(t, "s1"))
		s2 := float64(rapid.IntRange(0, 3).Draw(t, "s2"))
		var lo, up float64
		switch rapid.IntRange(0, 3).Draw(t, "rowtype") {
		case 0:
			lo, up = math.Inf(-1), act+s1
		case 1:
			lo, up = act-s1, inf
		case 2:
			lo, up = act, act
		case 3:
			lo, up = act-s1, act+s2
		}
		m.AddRow(fmt.Sprintf("r%d", i), lo, up, cols, vals)
	}
	return r
}

// TestSafeLowerBoundProperty: on random feasible bounded LPs, whatever the
// dual vector — the solver's, perturbed, random, sign-flipped, with NaN or
// ±Inf entries, too short — the bound never exceeds the objective of the
// known feasible point x0 (exact: weak duality), nor the optimum found by
// the gonum backend; with the solver's duals on a fully boxed LP it is
// tight.
func TestSafeLowerBoundProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genRandLP(t)
		m := r.m
		upper := m.ObjectiveValue(r.x0) // exact: small integers and halves
		if v := m.MaxViolation(r.x0); v.Amount != 0 {
			t.Fatalf("x0 = %v is not feasible: %+v", r.x0, v)
		}
		sol, err := gonumlp.New().Solve(m, solver.Options{})
		if err != nil {
			t.Fatalf("gonum on a feasible bounded LP: %v", err)
		}
		opt := sol.Objective
		tol := 1e-9 * (1 + math.Abs(opt))
		if opt > upper+tol {
			t.Fatalf("gonum optimum %g above the feasible point's %g", opt, upper)
		}
		nr := m.NumRows()
		var variants [][]float64
		names := []string{}
		add := func(name string, y []float64) { names, variants = append(names, name), append(variants, y) }
		if sol.Duals != nil {
			add("solver", sol.Duals)
			if r.boxed {
				lb := solver.SafeLowerBound(m, sol.Duals)
				if lb < opt-1e-8*(1+math.Abs(opt)) {
					t.Fatalf("solver duals %v on a boxed LP: bound %.17g, optimum %.17g", sol.Duals, lb, opt)
				}
			}
			p := make([]float64, nr)
			f := make([]float64, nr)
			for i, v := range sol.Duals {
				p[i] = v * (1 + rapid.Float64Range(-1e-6, 1e-6).Draw(t, "rel")) // small relative noise
				f[i] = -v
			}
			add("perturbed", p)
			add("sign-flipped", f)
		}
		rnd := make([]float64, nr)
		for i := range rnd {
			rnd[i] = rapid.Float64Range(-10, 10).Draw(t, "y")
		}
		add("random", rnd)
		odd := make([]float64, nr)
		for i := range odd {
			odd[i] = rapid.SampledFrom([]float64{math.NaN(), inf, -inf, 0, 1e150, -1e150, 1, -1, 1e-300}).Draw(t, "odd")
		}
		add("odd values", odd)
		add("nil", nil)
		if nr > 0 {
			add("short", rnd[:nr-1])
		}
		for q, y := range variants {
			lb := solver.SafeLowerBound(m, y)
			if math.IsNaN(lb) || math.IsInf(lb, 1) {
				t.Fatalf("%s duals %v: bound %g\n%s", names[q], y, lb, describe(m))
			}
			if lb > upper {
				t.Fatalf("%s duals %v: bound %.17g above c·x0 = %.17g (weak duality broken)", names[q], y, lb, upper)
			}
			if lb > opt+tol {
				t.Fatalf("%s duals %v: bound %.17g above the optimum %.17g", names[q], y, lb, opt)
			}
		}
	})
}

// describe prints a model for failure messages.
func describe(m *lp.Model) string {
	s := fmt.Sprintf("min %v·x + %g, x in [%v, %v]\n", m.Obj, m.ObjOffset, m.ColLower, m.ColUpper)
	for i := range m.NumRows() {
		cols, vals := m.Row(i)
		s += fmt.Sprintf("  %g <= %v·x%v <= %g\n", m.RowLower[i], vals, cols, m.RowUpper[i])
	}
	return s
}
