package pfarm

import (
	"fmt"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/topology"
)

// FromPlatform builds the farm that runs a divisible-load platform's load
// as tasks tasks: the master at the root of the tree, without a worker of
// its own (NoRootWorker) and fed by a host over a free link
// (FreeHostLink), so that the load starts at the root as it does on the
// platform, and the workers below it on the platform's topology, worker i
// as processor i + 1:
//
//   - a chain of M workers is the chain of M + 1 processors;
//   - a k-ary tree of Depth worker levels is the complete k-ary tree of
//     Depth + 1 levels (heap order, as the platform numbers its workers);
//   - a star of M workers is the tree of one level of M children under the
//     root (the k-ary tree with k = M and two levels).
//
// The V units of load are cut into tasks of x = V/tasks units; a task
// costs A·x to compute (T_e), S + C·x to send (Startup = S, Tau = C,
// D_t = x) and its result is ResultPerUnit·x units (D_r); there are no
// overheads (β_e = β_f = 0): the platform's costs are its links and A.
// Slowdowns carry over. Three things do not: per-worker A (Pfarm's
// processors are identical: a *platform.FieldError on Platform.PerWorkerA),
// crashes (Pfarm has no fault tolerance: one on Platform.Crashes), and the
// buffer D of a divisible-load worker, which has no counterpart (a Pfarm
// processor holds at most four tasks, Section 2) and is ignored. Any other
// topology is refused on Platform.Topology.
func FromPlatform(p *platform.Platform, tasks int) (Config, error) {
	if err := p.Validate(); err != nil {
		return Config{}, err
	}
	var spec topology.FarmSpec
	switch p.Kind {
	case platform.Chain:
		spec = topology.FarmSpec{Kind: "chain", N: p.M + 1}
	case platform.KAry:
		spec = topology.FarmSpec{Kind: "kary", K: p.K, Depth: p.Depth + 1}
	case platform.Star:
		spec = topology.FarmSpec{Kind: "kary", K: p.M, Depth: 2}
	default:
		return Config{}, platform.Bad(pkg, "Platform.Topology", string(p.Kind), "star, chain or kary")
	}
	if len(p.PerWorkerA) > 0 {
		return Config{}, platform.Bad(pkg, "Platform.PerWorkerA", fmt.Sprintf("%d values", len(p.PerWorkerA)),
			"none: Pfarm's processors are identical (one A for all)")
	}
	if len(p.Crashes) > 0 {
		return Config{}, platform.Bad(pkg, "Platform.Crashes", fmt.Sprintf("%d crashes", len(p.Crashes)),
			"none: Pfarm has no fault tolerance (a crash loses the tasks the processor holds)")
	}
	if tasks < 1 || tasks > MaxTasks {
		return Config{}, platform.Bad(pkg, "Params.M", tasks, fmt.Sprintf("a number of tasks from 1 to %d", MaxTasks))
	}
	x := p.V / float64(tasks)
	cfg := Config{Topology: spec, NoRootWorker: true, FreeHostLink: true,
		Params: Params{M: tasks, Te: p.A * x, Tau: p.C, Startup: p.S, Dt: x, Dr: p.ResultPerUnit * x}}
	for _, s := range p.Slows {
		cfg.Slowdowns = append(cfg.Slowdowns, Slowdown{Node: s.Worker + 1, At: s.At, Factor: s.Factor})
	}
	return cfg, nil
}
