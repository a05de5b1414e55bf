package day

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/platform"
)

// Estimate is what a run is expected to cost, from its inputs alone
// (nothing is allocated to compute it).
type Estimate struct {
	// Messages is the number of link transfers: jobs·(w + 1) on a line
	// (exact: a job for worker k crosses k links, its result w − k + 1),
	// at most jobs·2·depth on a tree.
	Messages int64
	// Processes is the number of kernel processes (exact): per worker the
	// worker and its inbound job and outbound result links, plus a
	// splitter and a collector on each worker with children when the
	// harness has P and Q slots.
	Processes int64
	// Events is (2S + 6)·Messages + 4·Processes, S being the processes
	// subscribed to an inner worker's state (each message notifies its
	// sender's and its receiver's); measured on 240 random farms (lines of
	// 1-30 and trees of 3-120 workers, harnesses A and D, 1 to 100 jobs
	// per worker) the actual count was 0.17 to 0.95 of it, median 0.50.
	Events int64
	// Bytes is the memory of the simulation: 8 KB per worker and 4 KB per
	// process (measured: 23 KB per worker of a line with harness D, 16 KB
	// with harness A, 15 KB on a tree with harness D), the process's fixed
	// footprint (about 20 MB) not included.
	Bytes int64
	// TraceEvents bounds the events of a trace of the run
	// (platform.RunOptions.Trace, see trace.go): a span per message and
	// per job, per job on the farmer's CPU when Config.FarmerCost > 0, two
	// per message of stolen cycles when Config.CPUPerMessage > 0, and the
	// last result's instant.
	TraceEvents int64
	// TraceBytes is the memory such a trace adds to Bytes: 1 KB per
	// event (measured: a line of 40 workers at 15.625 ms, 168,001 events,
	// peaks at 165 MB traced against 30 MB untraced, 800 bytes an event;
	// 452 of them stay live).
	TraceBytes int64
}

// traceEventBytes is the memory of one trace event (see TraceBytes).
const traceEventBytes = 1 << 10

// Estimate returns the expected cost of a run of a valid configuration.
func (c *Config) Estimate() Estimate {
	w, jobs := float64(c.Workers), float64(c.jobs())
	inner, subs := w-1, 5.0 // workers with children; subscribers of one
	msgs := jobs * (w + 1)
	if c.Layout == Tree {
		inner, subs = (w-3)/3, 9
		msgs = jobs * 2 * float64(c.depth())
	}
	procs := 3 * w
	if c.Harness.P > 0 {
		procs += inner
		subs++
	}
	if c.Harness.Q > 0 {
		procs += inner
		subs++
	}
	spans := msgs + jobs + 1
	if c.FarmerCost > 0 {
		spans += jobs
	}
	if c.CPUPerMessage > 0 {
		spans += 2 * msgs
	}
	return Estimate{Messages: clamp(msgs), Processes: clamp(procs),
		Events: clamp((2*subs+6)*msgs + 4*procs), Bytes: clamp(8<<10*w + 4<<10*procs),
		TraceEvents: clamp(spans), TraceBytes: clamp(traceEventBytes * spans)}
}

// clamp converts a non-negative count to int64, saturating.
func clamp(x float64) int64 {
	if x >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(x)
}

// checkLimits refuses an estimate beyond l (*platform.LimitError): what
// names the run, fewer what else would make it smaller (the memory grows
// with Config.Workers only).
func (c *Config) checkLimits(e Estimate, l platform.Limits, what, fewer string) error {
	if l.MaxBytes > 0 && e.Bytes > l.MaxBytes {
		return &platform.LimitError{Pkg: pkg, What: what, Need: float64((e.Bytes + 1<<20 - 1) >> 20),
			Limit: float64(l.MaxBytes) / (1 << 20), Unit: "MB of memory", Field: "Limits.MaxBytes", Fewer: "workers ({Config.Workers})"}
	}
	if l.MaxEvents > 0 && e.Events > l.MaxEvents {
		return &platform.LimitError{Pkg: pkg, What: what, Need: float64(e.Events), Limit: float64(l.MaxEvents),
			Unit: "simulation events", Bound: true, Field: "Limits.MaxEvents", Fewer: fewer}
	}
	return nil
}

// checkOptions refuses negative limits and a trace of a run that
// simulates nothing.
func checkOptions(opt platform.RunOptions) error {
	switch {
	case opt.MaxEvents < 0:
		return bad("Limits.MaxEvents", opt.MaxEvents, "0 (no limit) or a positive number of events")
	case opt.MaxBytes < 0:
		return bad("Limits.MaxBytes", opt.MaxBytes, "0 (no limit) or a positive number of bytes")
	case opt.NoSim && opt.Trace != nil:
		return bad("RunOptions.Trace", "(a recorder)", "none with {RunOptions.NoSim}: nothing is simulated")
	}
	return nil
}

// Check does what Run does before anything is allocated: it validates the
// configuration and the options, and unless opt.NoSim refuses a run whose
// Estimate exceeds opt's limits (*platform.LimitError; zero limits are
// none, the package's default), its trace's memory counted when
// opt.Trace is set. The events are blamed on the workers, or on
// Config.JobsPerWorker or Config.TotalJobs when set.
func (c *Config) Check(opt platform.RunOptions) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if err := checkOptions(opt); err != nil || opt.NoSim {
		return err
	}
	fewer := "workers ({Config.Workers})"
	switch {
	case c.TotalJobs > 0:
		fewer = "jobs ({Config.TotalJobs})"
	case c.JobsPerWorker > 0:
		fewer = "jobs ({Config.JobsPerWorker})"
	}
	e, what := c.Estimate(), fmt.Sprintf("a %s of %d workers with %d jobs", c.Layout, c.Workers, c.jobs())
	if opt.Trace != nil {
		e.Bytes = min(e.Bytes+e.TraceBytes, math.MaxInt64/2)
		what += " and its trace"
	}
	return c.checkLimits(e, opt.Limits, what, fewer)
}
