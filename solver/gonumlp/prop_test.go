package gonumlp_test

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/gonumlp"
)

// randomLP is a small LP over a bounded box, kept in its "true" form for the
// brute-force check, together with an lp.Model that states the same
// problem, possibly moving column bounds into rows (so that columns become
// free or one-sided).
type randomLP struct {
	model  *lp.Model
	lo, up []float64   // the box
	a      [][]float64 // dense rows of the true problem (box rows excluded)
	rl, ru []float64   // their bounds
}

func genLP(t *rapid.T) randomLP {
	n := rapid.IntRange(1, 4).Draw(t, "n")
	k := rapid.IntRange(0, 4).Draw(t, "rows")
	sense := lp.Minimize
	if rapid.Bool().Draw(t, "max") {
		sense = lp.Maximize
	}
	m := lp.New("rand", sense)
	m.ObjOffset = float64(rapid.IntRange(-3, 3).Draw(t, "offset"))
	p := randomLP{model: m}
	x0 := make([]float64, n)
	for j := range n {
		lo := float64(rapid.IntRange(-5, 5).Draw(t, "lo"))
		w := rapid.IntRange(0, 6).Draw(t, "width")
		up := lo + float64(w)
		p.lo, p.up = append(p.lo, lo), append(p.up, up)
		x0[j] = lo + float64(rapid.IntRange(0, 2*w).Draw(t, "x0"))/2
		c := float64(rapid.IntRange(-3, 3).Draw(t, "c"))
		// How the box is stated: 0 column bounds, 1 free column with a
		// ranged singleton row, 2 lower bound with a ≤ row, 3 upper bound
		// with a ≤ row on −x.
		switch rapid.IntRange(0, 3).Draw(t, "boxmode") {
		case 0:
			m.AddVar(fmt.Sprintf("x%d", j), lo, up, c)
		case 1:
			m.AddVar(fmt.Sprintf("x%d", j), -inf, inf, c)
			m.AddRow(fmt.Sprintf("box%d", j), lo, up, []int{j}, []float64{1})
		case 2:
			m.AddVar(fmt.Sprintf("x%d", j), lo, inf, c)
			m.AddRow(fmt.Sprintf("box%d", j), -inf, 2*up, []int{j}, []float64{2})
		case 3:
			m.AddVar(fmt.Sprintf("x%d", j), -inf, up, c)
			m.AddRow(fmt.Sprintf("box%d", j), -inf, -lo, []int{j}, []float64{-1})
		}
	}
	aroundX0 := rapid.IntRange(0, 3).Draw(t, "feasible") > 0
	for i := range k {
		row := make([]float64, n)
		var cols []int
		var vals []float64
		act := 0.0
		for j := range n {
			row[j] = float64(rapid.IntRange(-3, 3).Draw(t, "a"))
			cols, vals = append(cols, j), append(vals, row[j])
			act += row[j] * x0[j]
		}
		if !aroundX0 {
			act = float64(rapid.IntRange(-10, 10).Draw(t, "act"))
		}
		s1 := float64(rapid.IntRange(0, 3).Draw(t, "s1"))
		s2 := float64(rapid.IntRange(0, 3).Draw(t, "s2"))
		var rl, ru float64
		switch rapid.IntRange(0, 4).Draw(t, "rowtype") {
		case 0:
			rl, ru = -inf, act+s1
		case 1:
			rl, ru = act-s1, inf
		case 2:
			rl, ru = act, act
		case 3:
			rl, ru = act-s1, act+s2
		case 4:
			rl, ru = -inf, inf
		}
		m.AddRow(fmt.Sprintf("r%d", i), rl, ru, cols, vals)
		p.a = append(p.a, row)
		p.rl, p.ru = append(p.rl, rl), append(p.ru, ru)
	}
	return p
}

// bruteForce enumerates the vertices of the (bounded) feasible region: every
// choice of n linearly independent hyperplanes among the finite row and box
// bounds whose intersection is feasible. It returns the best objective and
// whether the region is nonempty.
func (p randomLP) bruteForce() (best float64, feasible bool) {
	n := len(p.lo)
	type plane struct {
		a   []float64
		rhs float64
	}
	var planes []plane
	for j := range n {
		e := make([]float64, n)
		e[j] = 1
		planes = append(planes, plane{e, p.lo[j]}, plane{e, p.up[j]})
	}
	for i, row := range p.a {
		if !math.IsInf(p.rl[i], 0) {
			planes = append(planes, plane{row, p.rl[i]})
		}
		if !math.IsInf(p.ru[i], 0) {
			planes = append(planes, plane{row, p.ru[i]})
		}
	}
	m := p.model
	sgn := 1.0
	if m.Sense == lp.Maximize {
		sgn = -1
	}
	best = math.Inf(1)
	pick := make([]int, n)
	var rec func(start, depth int)
	rec = func(start, depth int) {
		if depth == n {
			x, ok := solveDense(n, func(r, c int) float64 { return planes[pick[r]].a[c] }, func(r int) float64 { return planes[pick[r]].rhs })
			if !ok || !p.feasible(x) {
				return
			}
			feasible = true
			best = math.Min(best, sgn*(m.ObjectiveValue(x)))
			return
		}
		for q := start; q < len(planes); q++ {
			pick[depth] = q
			rec(q+1, depth+1)
		}
	}
	rec(0, 0)
	return sgn * best, feasible
}

func (p randomLP) feasible(x []float64) bool {
	const tol = 1e-9
	for j := range x {
		if x[j] < p.lo[j]-tol || x[j] > p.up[j]+tol {
			return false
		}
	}
	for i, row := range p.a {
		s := 0.0
		for j := range x {
			s += row[j] * x[j]
		}
		if s < p.rl[i]-tol || s > p.ru[i]+tol {
			return false
		}
	}
	return true
}

// solveDense solves the n×n system by Gaussian elimination with partial
// pivoting; ok is false for a (near) singular matrix.
func solveDense(n int, a func(r, c int) float64, b func(r int) float64) (x []float64, ok bool) {
	M := make([][]float64, n)
	for r := range n {
		M[r] = make([]float64, n+1)
		for c := range n {
			M[r][c] = a(r, c)
		}
		M[r][n] = b(r)
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(M[r][c]) > math.Abs(M[p][c]) {
				p = r
			}
		}
		if math.Abs(M[p][c]) < 1e-9 {
			return nil, false
		}
		M[c], M[p] = M[p], M[c]
		for r := c + 1; r < n; r++ {
			f := M[r][c] / M[c][c]
			for k := c; k <= n; k++ {
				M[r][k] -= f * M[c][k]
			}
		}
	}
	x = make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := M[r][n]
		for c := r + 1; c < n; c++ {
			s -= M[r][c] * x[c]
		}
		x[r] = s / M[r][r]
	}
	return x, true
}

// TestRandomAgainstVertexEnumeration compares the solver with brute-force
// vertex enumeration on random small LPs over bounded boxes (feasible by
// construction three times in four), and checks every optimal solution with
// checkOptimal: primal feasibility, d = c − Aᵀy, signs, complementary
// slackness and a Lagrangian bound equal to the optimum. Both routes to the
// duals are exercised.
func TestRandomAgainstVertexEnumeration(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genLP(t)
		want, feasible := p.bruteForce()
		s := gonumlp.New()
		if rapid.Bool().Draw(t, "dualLP") {
			gonumlp.ForceDualLP(s)
		}
		sol, err := s.Solve(p.model, solver.Options{})
		if !feasible {
			if sol == nil || sol.Status != solver.Infeasible {
				t.Fatalf("brute force finds the model infeasible; solver: %+v, %v", sol, err)
			}
			return
		}
		checkOptimal(t, p.model, sol, err, want)
	})
}

// TestRandomCertificate solves larger random LPs (up to 12 columns and 10
// rows, integer data, many ties and degenerate vertices), feasible by
// construction and bounded by a box, and checks optimality through the
// certificate checkOptimal verifies: a feasible x and multipliers y, d with
// the right signs, complementary slackness and a Lagrangian bound equal to
// c·x. By weak duality no feasible point can beat that bound.
func TestRandomCertificate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "n")
		k := rapid.IntRange(1, 10).Draw(t, "rows")
		sense := lp.Minimize
		if rapid.Bool().Draw(t, "max") {
			sense = lp.Maximize
		}
		m := lp.New("cert", sense)
		x0 := make([]float64, n)
		for j := range n {
			lo := float64(rapid.IntRange(-4, 4).Draw(t, "lo"))
			up := lo + float64(rapid.IntRange(0, 4).Draw(t, "width"))
			x0[j] = lo + float64(rapid.IntRange(0, int(up-lo)).Draw(t, "x0"))
			m.AddVar("x", lo, up, float64(rapid.IntRange(-2, 2).Draw(t, "c")))
		}
		for range k {
			var cols []int
			var vals []float64
			act := 0.0
			for j := range n {
				if v := rapid.IntRange(-2, 2).Draw(t, "a"); v != 0 {
					cols, vals = append(cols, j), append(vals, float64(v))
					act += float64(v) * x0[j]
				}
			}
			s := float64(rapid.IntRange(0, 1).Draw(t, "slack"))
			switch rapid.IntRange(0, 3).Draw(t, "rowtype") {
			case 0:
				m.AddRow("r", -inf, act+s, cols, vals)
			case 1:
				m.AddRow("r", act-s, inf, cols, vals)
			case 2:
				m.AddRow("r", act, act, cols, vals)
			case 3:
				m.AddRow("r", act-s, act+1, cols, vals)
			}
		}
		s := gonumlp.New()
		if rapid.Bool().Draw(t, "dualLP") {
			gonumlp.ForceDualLP(s)
		}
		sol, err := s.Solve(m, solver.Options{})
		if err != nil {
			t.Fatalf("Solve: %v", err)
		}
		checkOptimal(t, m, sol, err, sol.Objective)
	})
}
