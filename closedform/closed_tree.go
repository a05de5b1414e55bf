package closedform

import "math"

// TreeOneLayerStages returns the optimal n-stage schedule of a tree of
// height 1 (ordinary or binomial: p processors fed at once over the
// originator's p ports) when the optimum lets every stage finish together.
//
// Each processor receives W = V/p in n messages α_1..α_n sent back to back
// over its own port: message k arrives at kS + C(α_1+…+α_k), and the
// processor computes its chunks in order, so (constraints (6)–(10) or
// (28)–(30) with h = 1)
//
//	Cmax = max_k f_k,   f_k = kS + C(α_1+…+α_k) + A(α_k+…+α_n).
//
// Making every f_k equal gives f_k − f_(k+1) = Aα_k − S − Cα_(k+1) = 0:
//
//	α_(k+1) = (Aα_k − S)/C,   α_1 + … + α_n = W,   Cmax = S + Cα_1 + AW.
//
// This is optimal whenever it is feasible: if another schedule had every
// f_k below Cmax, then α'_1 < α_1 (from f_1), and by induction on
// f_k = kS + CP_k − AP_(k−1) + AW every prefix sum P'_k < P_k, so
// P'_n < W — it would not place all the load. ok is false when some α_k is
// negative or above D (use math.Inf(1) for no limit); then the buffer or
// the startups bind and the formula does not describe the optimum. For
// n = 1 it is TreeOneLayer: S + (C + A)V/p.
func TreeOneLayerStages(p, n int, s, c, a, v, d float64) (alpha []float64, cmax float64, ok bool) {
	w := v / float64(p)
	// α_k = x_k α_1 − y_k.
	x, y := make([]float64, n), make([]float64, n)
	x[0] = 1
	for k := 1; k < n; k++ {
		x[k] = x[k-1] * a / c
		y[k] = (a*y[k-1] + s) / c
	}
	sx, sy := 0.0, 0.0
	for k := 0; k < n; k++ {
		sx += x[k]
		sy += y[k]
	}
	a1 := (w + sy) / sx
	alpha = make([]float64, n)
	cmax = s + c*a1 + a*w
	ok = !math.IsNaN(a1) && !math.IsInf(a1, 0)
	for k := range alpha {
		alpha[k] = x[k]*a1 - y[k]
		if !(alpha[k] >= 0) || alpha[k] > d {
			ok = false
		}
	}
	// x_k grows like (A/C)^k, so for large A/C and n the subtraction
	// x_kα_1 − y_k cancels; accept the result only if the loads it gives
	// add up to W and really finish together (1e-12 relative).
	sum, pre, lo, hi := 0.0, 0.0, math.Inf(1), math.Inf(-1)
	for _, v := range alpha {
		sum += v
	}
	for k, v := range alpha {
		pre += v
		f := float64(k+1)*s + c*pre + a*(sum-pre+v)
		lo, hi = math.Min(lo, f), math.Max(hi, f)
	}
	if math.Abs(sum-w) > 1e-12*w || hi-lo > 1e-12*hi || math.Abs(hi-cmax) > 1e-12*cmax {
		ok = false
	}
	return alpha, cmax, ok
}

// TreeOneLayerFull returns Cmax of a tree of height 1 when every one of the
// n messages carries the buffer maximum D (V = pnD, so n = n_min and the
// loads are forced): with f_k as in TreeOneLayerStages,
// f_k = kS + kCD + (n−k+1)AD is linear in k, so
//
//	Cmax = max(S + CD + nAD, n(S + CD) + AD):
//
// either the first processor's computing of all n chunks or the arrival of
// the last chunk plus its computing decides.
func TreeOneLayerFull(n int, s, c, a, d float64) float64 {
	nf := float64(n)
	return math.Max(s+c*d+nf*a*d, nf*(s+c*d)+a*d)
}
