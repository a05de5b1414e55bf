package closedform

import (
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// SubsetBound returns i_min·S + AV/P, a bound no schedule of tree p can
// beat when only the layers in set compute and the others relay: the
// shallowest computing layer i_min receives its first load after i_min
// startups at the earliest (one per hop from the originator), and the P
// processors of the computing layers need AV/P to compute V between them.
// set is not empty; its layers are in 1..p.H.
func SubsetBound(p *problem.Problem, set []int) float64 {
	lo := set[0]
	in := map[int]bool{}
	for _, l := range set {
		lo = min(lo, l)
		in[l] = true
	}
	procs := 0.0
	for l := 1; l <= p.H; l++ {
		if in[l] {
			procs += topology.LayerSize(p.Kind, p.P, l)
		}
	}
	return float64(lo)*p.S + p.A*p.V/procs
}
