package sweep

import (
	"math"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/topology"
)

// LayerStrategy returns the makespan of the paper's alternative strategy
// for a binomial tree (Section 4.2, the "LB" line of Figs. 10 and 11):
// only layer i computes, the other layers relay, and the load goes in n
// equal installments. With α = V/(n·p(p+1)^(i−1)) per processor,
//
//	Cmax_i(n) = n(iS + α·C(p+1)^(i−1)) + Aα,
//
// minimal at n* = √(AV/(iS·p(p+1)^(i−1))). The result is the least
// Cmax_i(n) over layers i = 1..h and the integers n next to n* (n ≥ 1);
// with S = 0 the infimum VC/p + 0 is approached as n → ∞ and returned. As
// in the paper, the buffer size D is not taken into account. ok is false
// for topologies other than the binomial tree.
func LayerStrategy(p *formulations.Problem) (cmax float64, ok bool) {
	if p.Kind != topology.Binomial {
		return 0, false
	}
	best := math.Inf(1)
	pp := float64(p.P)
	for i := 1; i <= p.H; i++ {
		size := topology.LayerSize(topology.Binomial, p.P, i) // p(p+1)^(i−1)
		hop := math.Pow(pp+1, float64(i-1))                   // (p+1)^(i−1)
		f := func(n float64) float64 {
			alpha := p.V / (n * size)
			return n*(float64(i)*p.S+alpha*p.C*hop) + p.A*alpha
		}
		if p.S == 0 {
			best = math.Min(best, p.V*p.C*hop/size)
			continue
		}
		ns := math.Sqrt(p.A * p.V / (float64(i) * p.S * size))
		for _, n := range []float64{math.Floor(ns), math.Ceil(ns)} {
			if n < 1 {
				n = 1
			}
			best = math.Min(best, f(n))
		}
	}
	return best, true
}
