package problem

import (
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// FromPlatform is the divisible-load problem (Drozdowski & Wolniewicz,
// JPDC 2004) of the nominal platform p, the LP side's counterpart of the
// farm models' FromPlatform: a star of p.M processors (heterogeneous, with
// every worker's S and C, when p.PerWorkerA is given), or an ordinary tree
// — a chain is the tree of out-degree 1 and height p.M, a k-ary tree of
// p.Depth worker levels the tree of out-degree p.K and height p.Depth —
// with one buffer per node and the layers activated nearest first (NLF).
// p's results per unit are the star's result ratio β, returned in
// activation order (FIFO); an LP returns results on stars only.
//
// The perturbations (p.Slows, p.Crashes) are not in the problem: a
// planner does not know them. Errors are p's (platform.Validate) and a
// *platform.FieldError for results on a chain or tree; the problem itself
// is checked by Validate where it is solved (a platform allows C = 0,
// which the LP's validator does not).
func FromPlatform(p *platform.Platform) (*Problem, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	pr := &Problem{S: p.S, C: p.C, A: p.A, D: float64(p.D), V: p.V, Buffers: 1, Order: topology.NLF}
	switch p.Kind {
	case platform.Star:
		pr.Kind, pr.M, pr.ResultRatio = topology.Star, p.M, p.ResultPerUnit
		for _, a := range p.PerWorkerA {
			pr.Procs = append(pr.Procs, schedule.Proc{S: p.S, C: p.C, A: a})
		}
		return pr, nil
	case platform.Chain:
		pr.Kind, pr.P, pr.H = topology.Tree, 1, p.M
	default: // platform.KAry, the one other kind Validate accepts
		pr.Kind, pr.P, pr.H = topology.Tree, p.K, p.Depth
	}
	if p.ResultPerUnit != 0 {
		return nil, platform.Bad("problem", "Platform.ResultPerUnit", p.ResultPerUnit,
			"0 on a chain or a tree: the LP returns results on stars only")
	}
	return pr, nil
}
