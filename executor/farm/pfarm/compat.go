package pfarm

import (
	"context"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/topology"
)

// SimOptions tune Simulate.
//
// Deprecated: they are the options of Simulate, which remains for the
// code of package compare until it builds its farm with FromPlatform and
// calls Run: the slowdowns, the root without a worker and the free host
// link are Config's, the limits and the progress platform.RunOptions'.
type SimOptions struct {
	// Slowdowns perturb the processors during the run.
	Slowdowns []Slowdown
	// Progress, if set, is called with the number of results received,
	// about 200 times per run.
	Progress func(done, total int)
	// MaxEvents bounds the kernel events (0: none).
	MaxEvents int64
	// NoRootWorker and FreeHostLink are Config's.
	NoRootWorker, FreeHostLink bool
}

// Simulate runs the simulation of Run on the tree t with the parameters p,
// without the model.
//
// Deprecated: use FromPlatform and Run, which check the limits before
// anything is built. Simulate remains for the code of package compare
// until it switches; TestFromPlatformIsCompares checks that both give the
// same run.
func Simulate(ctx context.Context, t *topology.FarmTree, p *Params, opt SimOptions) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := checkSlowdowns(opt.Slowdowns, t.N()); err != nil {
		return nil, err
	}
	cfg := Config{Slowdowns: opt.Slowdowns, NoRootWorker: opt.NoRootWorker, FreeHostLink: opt.FreeHostLink}
	return simulateTree(ctx, t, p, &cfg, platform.RunOptions{Limits: platform.Limits{MaxEvents: opt.MaxEvents}, Progress: opt.Progress})
}
