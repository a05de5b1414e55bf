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
	nr, nc := m.NumRows(), m.NumVars()
	yy := make([]float64, nr)
	for i := 0; i < nr; i++ {
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
	// r = c − Aᵀy and its error bound, accumulated column by column.
	r := append([]float64(nil), m.Obj...)
	mag := make([]float64, nc)
	cnt := make([]int, nc)
	for j := range mag {
		mag[j] = math.Abs(r[j])
	}
	for i := 0; i < nr; i++ {
		if yy[i] == 0 {
			continue
		}
		cols, vals := m.Row(i)
		for q, c := range cols {
			t := vals[q] * yy[i]
			r[c] -= t
			mag[c] += math.Abs(t)
			cnt[c]++
		}
	}
	// Terms of the bound; each carries an absolute error bound.
	sum, errSum, absSum := 0.0, 0.0, 0.0
	nterms := 0
	add := func(v, e float64) {
		sum += v
		errSum += e
		absSum += math.Abs(v)
		nterms++
	}
	for i := 0; i < nr; i++ {
		v := yy[i]
		switch {
		case v > 0:
			add(v*m.RowLower[i], math.Abs(v*m.RowLower[i])*unitRoundoff)
		case v < 0:
			add(v*m.RowUpper[i], math.Abs(v*m.RowUpper[i])*unitRoundoff)
		}
	}
	for j := 0; j < nc; j++ {
		e := gamma(cnt[j]+1) * mag[j] * (1 + 4*unitRoundoff)
		lo, hi := r[j]-e, r[j]+e // exact r_j lies in [lo, hi] (up to the widening)
		l, u := m.ColLower[j], m.ColUpper[j]
		// min over x∈[l,u], ρ∈[lo,hi] of ρ·x is attained at a corner.
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
		if math.IsInf(best, -1) {
			return math.Inf(-1)
		}
		add(best, math.Abs(best)*unitRoundoff)
	}
	// Error of the final recursive summation (γ_N Σ|t_k|), the terms' own
	// errors, and the rounding of these two bounds themselves.
	g := gamma(nterms + 2)
	slack := (g*absSum + errSum) * (1 + 2*g)
	total := sum + m.ObjOffset - slack
	total -= (math.Abs(total) + math.Abs(m.ObjOffset)) * 4 * unitRoundoff
	if math.IsNaN(total) || math.IsInf(total, 0) || math.IsInf(absSum, 0) || math.IsNaN(absSum) {
		return math.Inf(-1)
	}
	return total
}
