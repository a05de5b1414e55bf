package solver

import (
	"math"

	"github.com/dlsched/dlsched/lp"
)

// unit roundoff of float64 arithmetic (round to nearest).
const unitRoundoff = 0x1p-53

// gamma returns Higham's γ_k = k·u/(1−k·u), the relative error bound of a
// k-term floating-point sum or dot product computed by recursive summation.
func gamma(k int) float64 {
	ku := float64(k) * unitRoundoff
	return ku / (1 - ku)
}

// SafeLowerBound returns a rigorous lower bound on the optimal objective of
// the minimisation model m, valid whatever the quality of the dual vector y
// (one entry per row), provided every column has finite bounds or a reduced
// cost of the right sign. This is the bound of Neumaier & Shcherbina (Safe
// bounds in linear and mixed-integer programming, Math. Prog. 99, 2004):
// for any y, weak Lagrangian duality gives
//
//	min c·x  ≥  Σ_i min_{s_i∈[L_i,U_i]} y_i s_i  +  Σ_j min_{x_j∈[l_j,u_j]} r_j x_j,
//	r = c − Aᵀy,
//
// over the box of the variables' bounds. Duals of the wrong sign for a
// one-sided row are projected to zero first (the bound holds for every y,
// the projection only avoids an infinite term). Rounding errors are bounded
// explicitly: each r_j is enclosed in r_j ± γ_{k+1}(|c_j| + Σ|a_ij y_i|) and
// every product and sum is widened by its own γ bound, so the result is a
// lower bound on the exact value of the expression — no directed rounding is
// needed.
//
// Callers may tighten column bounds (for example an upper bound on start
// times by the makespan of a known feasible schedule) as long as the
// tightened box still contains an optimal solution. The function returns
// -Inf when an unbounded column's reduced cost is not certainly of the right
// sign (an exact zero included: its rounding interval reaches below zero),
// and when the terms overflow.
func SafeLowerBound(m *lp.Model, y []float64) float64 {
	if m.Sense != lp.Minimize {
		return math.Inf(-1)
	}
	yy := projectDuals(m, y)
	r, mag, cnt := reducedCosts(m, yy)
	var t terms
	for i, v := range yy {
		switch {
		case v > 0:
			t.add(v*m.RowLower[i], math.Abs(v*m.RowLower[i])*unitRoundoff)
		case v < 0:
			t.add(v*m.RowUpper[i], math.Abs(v*m.RowUpper[i])*unitRoundoff)
		}
	}
	for j := 0; j < m.NumVars(); j++ {
		e := gamma(cnt[j]+1) * mag[j] * (1 + 4*unitRoundoff)
		best := cornerMin(m.ColLower[j], m.ColUpper[j], r[j]-e, r[j]+e)
		if math.IsInf(best, -1) {
			return math.Inf(-1)
		}
		t.add(best, math.Abs(best)*unitRoundoff)
	}
	// Error of the final recursive summation (γ_N Σ|t_k|), the terms' own
	// errors, and the rounding of these two bounds themselves.
	g := gamma(t.n + 2)
	slack := (g*t.abs + t.err) * (1 + 2*g)
	total := t.sum + m.ObjOffset - slack
	total -= (math.Abs(total) + math.Abs(m.ObjOffset)) * 4 * unitRoundoff
	if math.IsNaN(total) || math.IsInf(total, 0) || math.IsInf(t.abs, 0) || math.IsNaN(t.abs) {
		return math.Inf(-1)
	}
	return total
}

// projectDuals returns y with NaN and infinite entries, and duals of the
// wrong sign for a one-sided row, set to zero (missing entries are zero).
func projectDuals(m *lp.Model, y []float64) []float64 {
	yy := make([]float64, m.NumRows())
	for i := range yy {
		v := 0.0
		if i < len(y) && !math.IsNaN(y[i]) && !math.IsInf(y[i], 0) {
			v = y[i]
		}
		if v > 0 && math.IsInf(m.RowLower[i], -1) {
			v = 0
		}
		if v < 0 && math.IsInf(m.RowUpper[i], 1) {
			v = 0
		}
		yy[i] = v
	}
	return yy
}

// reducedCosts returns r = c − Aᵀy, accumulated row by row, with each
// column's Σ of absolute values |c_j| + Σ|a_ij y_i| and its count of
// terms, which bound r's rounding error.
func reducedCosts(m *lp.Model, y []float64) (r, mag []float64, cnt []int) {
	r = append([]float64(nil), m.Obj...)
	mag = make([]float64, m.NumVars())
	cnt = make([]int, m.NumVars())
	for j := range mag {
		mag[j] = math.Abs(r[j])
	}
	for i := range y {
		if y[i] == 0 {
			continue
		}
		cols, vals := m.Row(i)
		for q, c := range cols {
			t := vals[q] * y[i]
			r[c] -= t
			mag[c] += math.Abs(t)
			cnt[c]++
		}
	}
	return r, mag, cnt
}

// terms sums the terms of the bound, each with an absolute error bound.
type terms struct {
	sum, err, abs float64
	n             int
}

func (t *terms) add(v, e float64) {
	t.sum += v
	t.err += e
	t.abs += math.Abs(v)
	t.n++
}

// cornerMin returns min ρ·x over x ∈ [l, u] and ρ ∈ [lo, hi] (the exact
// reduced cost lies in [lo, hi]): it is attained at a corner, an
// infinite bound giving ±Inf and a zero factor 0.
func cornerMin(l, u, lo, hi float64) float64 {
	best := math.Inf(1)
	for _, x := range [2]float64{l, u} {
		for _, rho := range [2]float64{lo, hi} {
			var p float64
			switch {
			case x == 0 || rho == 0:
				p = 0
			case math.IsInf(x, 0):
				if (x > 0) == (rho > 0) {
					p = math.Inf(1)
				} else {
					p = math.Inf(-1)
				}
			default:
				p = rho * x
			}
			if p < best {
				best = p
			}
		}
	}
	return best
}
