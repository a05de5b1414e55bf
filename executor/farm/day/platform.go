package day

import (
	"fmt"

	"github.com/dlsched/dlsched/platform"
)

// FromPlatform builds the farm that carries a platform's load V in tasks
// equal jobs of x = V/tasks units, as compare runs Day's harness: a load
// unit is a byte, a link's bandwidth is B = 1/C and its set-up s = S/C
// bytes, so a job message costs S + C·x seconds, its result (of
// ResultPerUnit·x units, given explicitly) S + C·ResultPerUnit·x, and a
// job A·x seconds of computing (ConstantJobs: no length list); harness D,
// a link's two directions each at the full bandwidth (the platform's links
// cost S + C·x whatever the other direction does), local priority, no
// farmer or cycle-stealing cost.
//
// A chain becomes a line (worker 1 next to the master, results to a
// harvester beyond the last worker: Day's line returns its results
// forward, not to the master) and a k-ary tree with K = 3 a full ternary
// tree (results back to the master; heap order as on the platform); a
// star or a tree of another K is refused (*platform.FieldError on
// Platform.Topology). The farm is simulated on the nominal platform:
// slowdowns and crashes are refused, as is C = 0 (an infinite bandwidth).
// D is not used: the harness buffers whole messages in its slots.
func FromPlatform(p *platform.Platform, tasks int) (Config, error) {
	if err := p.Validate(); err != nil {
		return Config{}, err
	}
	layout, err := layoutOf(p)
	if err != nil {
		return Config{}, err
	}
	switch {
	case p.C == 0:
		return Config{}, bad("Platform.C", 0, "C > 0: Day's links have a finite bandwidth 1/C")
	case len(p.Slows) > 0:
		return Config{}, bad("Platform.Slows", fmt.Sprintf("(%d slowdowns)", len(p.Slows)), "none: Day's farm is simulated on the nominal platform")
	case len(p.Crashes) > 0:
		return Config{}, bad("Platform.Crashes", fmt.Sprintf("(%d crashes)", len(p.Crashes)), "none: Day's farm is simulated on the nominal platform")
	case tasks < 1 || tasks > MaxJobs:
		return Config{}, bad("Config.TotalJobs", tasks, fmt.Sprintf("1..%d tasks", MaxJobs))
	}
	x := p.V / float64(tasks)
	c := Config{Layout: layout, Harness: HarnessD, Workers: p.Workers(), MessageBytes: x,
		ResultBytes: p.ResultPerUnit * x, ExplicitResult: true, JobTime: p.A * x, ConstantJobs: true,
		Bandwidth: 1 / p.C, SetupBytes: p.S / p.C, BidirectionalFactor: 1, TotalJobs: tasks}
	return c, c.Validate()
}

// layoutOf is the farm's shape for a platform's topology.
func layoutOf(p *platform.Platform) (Layout, error) {
	switch {
	case p.Kind == platform.Chain:
		return Line, nil
	case p.Kind == platform.KAry && p.K == 3:
		return Tree, nil
	case p.Kind == platform.KAry:
		return Line, bad("Platform.Topology", fmt.Sprintf("kary with K = %d", p.K), "chain, or kary with K = 3 (Day's full ternary trees)")
	}
	return Line, bad("Platform.Topology", string(p.Kind), "chain, or kary with K = 3 (Day's farmer feeds one line or three subtrees, not a star)")
}
