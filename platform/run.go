package platform

import "github.com/dlsched/dlsched/trace"

// Limits bound what a run may be estimated to cost; a model refuses a run
// beyond them with a *LimitError before anything in proportion to the
// estimate is allocated. Zero means the model's default.
type Limits struct {
	// MaxBytes is the memory a run may be estimated to need.
	MaxBytes int64
	// MaxEvents is the number of simulation events (messages,
	// computations, scheduler steps) a run may be estimated to take.
	MaxEvents int64
}

// RunOptions are what every model run takes besides its own
// configuration: the one signature of the simulators is
//
//	Run(ctx context.Context, cfg Config, opt platform.RunOptions) (*Report, error)
type RunOptions struct {
	Limits
	// NoSim evaluates the analytic model alone.
	NoSim bool
	// Progress, when not nil, is called now and then with the work done
	// and the total (results received, tasks completed).
	Progress func(done, total int)
	// Trace, when not nil, records the simulation (package trace).
	Trace trace.Recorder
}
