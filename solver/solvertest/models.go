package solvertest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dlsched/dlsched/lp"
)

var inf = math.Inf(1)

// Case is a small LP whose optimum was worked out by hand.
type Case struct {
	// Name names the case in test output; Model builds a fresh model.
	Name  string
	Model func() *lp.Model
	// Obj, X, Y (row duals) and D (reduced costs) are the hand-computed
	// optimum; Y and D follow package solver's convention d = c − Aᵀy with
	// c the model's own objective, whatever the sense.
	Obj     float64
	X, Y, D []float64
}

// Production is the textbook two-product LP
//
//	max 3x + 2y  s.t.  x + y <= 4,  x + 3y <= 7,  x <= 3,  x, y >= 0
//
// Hand computation: the vertices of the feasible region are (0,0), (3,0),
// (3,1), (2.5,1.5), (0,7/3), with objectives 0, 9, 11, 10.5, 14/3, so the
// optimum is x=3, y=1, objective 11; rows 0 and 2 are tight, row 1 has
// activity 6 < 7. Duals from c − Aᵀy = 0 on the basic columns:
// column y: 2 = y0; column x: 3 = y0 + y2, so y = (2, 0, 1).
// With sense Minimize the objective is negated (min −3x − 2y): same x,
// objective −11, y = (−2, 0, −1).
func Production(sense lp.Sense) *lp.Model {
	s := 1.0
	if sense == lp.Minimize {
		s = -1
	}
	m := lp.New("production", sense)
	x := m.AddVar("x", 0, inf, 3*s)
	y := m.AddVar("y", 0, inf, 2*s)
	m.AddRow("cap", -inf, 4, []int{x, y}, []float64{1, 1})
	m.AddRow("labour", -inf, 7, []int{x, y}, []float64{1, 3})
	m.AddRow("xmax", -inf, 3, []int{x}, []float64{1})
	return m
}

// Mixed exercises >= rows, <= rows, a ranged row, a column at its upper
// bound and an objective offset:
//
//	min 2a + 3b − z + 10
//	s.t. a + b >= 4          (row 0)
//	     a − b <= 2          (row 1)
//	     0 <= a + 2b <= 10   (row 2, ranged)
//	     a, b >= 0,  0 <= z <= 1.5
//
// Hand computation: z is in no row and has cost −1, so z = 1.5 (reduced
// cost −1 at its upper bound). For a, b: the cheaper a is limited by
// a − b <= 2; rows 0 and 1 tight give a = 3, b = 1 with cost 9, against
// 12 at the other vertex (0, 4). Row 2 has activity 5, inside [0, 10].
// Objective 9 − 1.5 + 10 = 17.5. Duals: column a: 2 = y0 + y1; column b:
// 3 = y0 − y1, so y0 = 2.5 (>= row at its lower bound, y >= 0) and
// y1 = −0.5 (<= row at its upper bound, y <= 0); y2 = 0.
func Mixed() *lp.Model {
	m := lp.New("mixed", lp.Minimize)
	m.ObjOffset = 10
	a := m.AddVar("a", 0, inf, 2)
	b := m.AddVar("b", 0, inf, 3)
	m.AddVar("z", 0, 1.5, -1)
	m.AddRow("cover", 4, inf, []int{a, b}, []float64{1, 1})
	m.AddRow("diff", -inf, 2, []int{a, b}, []float64{1, -1})
	m.AddRow("range", 0, 10, []int{a, b}, []float64{1, 2})
	return m
}

// EqualityFree has an equality row and a free variable:
//
//	min x + y  s.t.  x − y = 1,  x + y >= 3,  0 <= x <= 10,  y free
//
// Hand computation: x = 1 + y, so x + y = 1 + 2y >= 3 gives y >= 1 and the
// objective 1 + 2y is least at y = 1, x = 2, objective 3. Both columns are
// basic (strictly inside their bounds), so 1 = y0 + y1 and 1 = −y0 + y1:
// y0 = 0, y1 = 1.
func EqualityFree() *lp.Model {
	m := lp.New("eqfree", lp.Minimize)
	x := m.AddVar("x", 0, 10, 1)
	y := m.AddVar("y", -inf, inf, 1)
	m.AddRow("eq", 1, 1, []int{x, y}, []float64{1, -1})
	m.AddRow("ge", 3, inf, []int{x, y}, []float64{1, 1})
	return m
}

// NoRows has bounds only: min x − y, 1 <= x <= 2, −1 <= y <= 5.
// Hand computation: x at its lower bound 1, y at its upper bound 5,
// objective −4; reduced costs equal the costs, (1, −1).
func NoRows() *lp.Model {
	m := lp.New("norows", lp.Minimize)
	m.AddVar("x", 1, 2, 1)
	m.AddVar("y", -1, 5, -1)
	return m
}

// MaxGE is a maximisation with a >= row:
//
//	max −x − 2y  s.t.  x + y >= 2,  0 <= x <= 1.5,  y >= 0
//
// Hand computation: equivalently minimise x + 2y; x is cheaper but capped
// at 1.5, so y = 0.5, objective −1.5 − 1 = −2.5. Column y is basic:
// −2 = y0, so y0 = −2 (a >= row at its lower bound in a maximisation has
// y <= 0: raising the bound lowers the optimum by 2 per unit). Column x is
// at its upper bound with d = −1 − (−2) = 1 >= 0.
func MaxGE() *lp.Model {
	m := lp.New("maxge", lp.Maximize)
	x := m.AddVar("x", 0, 1.5, -1)
	y := m.AddVar("y", 0, inf, -2)
	m.AddRow("ge", 2, inf, []int{x, y}, []float64{1, 1})
	return m
}

// SmallCases are the hand-computed LPs above with their optima.
var SmallCases = []Case{
	{"production-max", func() *lp.Model { return Production(lp.Maximize) }, 11,
		[]float64{3, 1}, []float64{2, 0, 1}, []float64{0, 0}},
	{"production-min", func() *lp.Model { return Production(lp.Minimize) }, -11,
		[]float64{3, 1}, []float64{-2, 0, -1}, []float64{0, 0}},
	{"mixed", Mixed, 17.5,
		[]float64{3, 1, 1.5}, []float64{2.5, -0.5, 0}, []float64{0, 0, -1}},
	{"equality-free", EqualityFree, 3,
		[]float64{2, 1}, []float64{0, 1}, []float64{0, 0}},
	{"no-rows", NoRows, -4,
		[]float64{1, 5}, []float64{}, []float64{1, -1}},
	{"max-ge", MaxGE, -2.5,
		[]float64{1.5, 0.5}, []float64{-2}, []float64{1, 0}},
}

// Infeasible: x + y <= 1 and x + y >= 2 cannot both hold.
func Infeasible() *lp.Model {
	m := lp.New("infeasible", lp.Minimize)
	x := m.AddVar("x", 0, inf, 1)
	y := m.AddVar("y", 0, inf, 1)
	m.AddRow("le", -inf, 1, []int{x, y}, []float64{1, 1})
	m.AddRow("ge", 2, inf, []int{x, y}, []float64{1, 1})
	return m
}

// Unbounded: min −x s.t. x − y <= 1, x, y >= 0; the ray x = 1 + t, y = t
// is feasible for all t >= 0 and drives the objective to −∞.
func Unbounded() *lp.Model {
	m := lp.New("unbounded", lp.Minimize)
	x := m.AddVar("x", 0, inf, -1)
	y := m.AddVar("y", 0, inf, 0)
	m.AddRow("r", -inf, 1, []int{x, y}, []float64{1, -1})
	return m
}

// RandomLP builds a feasible, bounded random LP with n columns and rows:
// columns in [0, 10] (so the LP is bounded), costs uniform in [−1, 1], and
// each row a random sparse combination (about density·n entries, at least
// one) of the columns, of type <=, >= or ranged around its value at a
// random interior point x0 (so x0 is feasible). The seed fixes everything.
func RandomLP(n int, density float64, seed uint64) *lp.Model {
	r := rand.New(rand.NewPCG(seed, 0x6c70))
	m := lp.New(fmt.Sprintf("random%d", n), lp.Minimize)
	x0 := make([]float64, n)
	for j := range x0 {
		m.AddVar(fmt.Sprintf("x%d", j), 0, 10, 2*r.Float64()-1)
		x0[j] = 10 * r.Float64()
	}
	for i := 0; i < n; i++ {
		var cols []int
		var vals []float64
		act := 0.0
		for j := 0; j < n; j++ {
			if r.Float64() < density || (len(cols) == 0 && j == n-1) {
				v := 2*r.Float64() - 1
				cols = append(cols, j)
				vals = append(vals, v)
				act += v * x0[j]
			}
		}
		lo, up := -inf, inf
		switch i % 3 {
		case 0:
			up = act + r.Float64()
		case 1:
			lo = act - r.Float64()
		default:
			lo, up = act-r.Float64(), act+r.Float64()
		}
		m.AddRow(fmt.Sprintf("r%d", i), lo, up, cols, vals)
	}
	return m
}
