package day

import (
	"math"
	"strconv"
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
}

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
	return Estimate{Messages: clamp(msgs), Processes: clamp(procs),
		Events: clamp((2*subs+6)*msgs + 4*procs), Bytes: clamp(8<<10*w + 4<<10*procs)}
}

// clamp converts a non-negative count to int64, saturating.
func clamp(x float64) int64 {
	if x >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(x)
}

// checkLimits refuses an estimate beyond Config.MaxEvents or
// Config.MaxBytes; events names the input to blame for the events (the
// memory grows with Config.Workers only).
func (c *Config) checkLimits(e Estimate, events, value string) error {
	if c.MaxBytes > 0 && e.Bytes > c.MaxBytes {
		return &LimitError{Field: "Config.Workers", Value: strconv.Itoa(c.Workers), Limit: "Config.MaxBytes",
			Estimate: (e.Bytes + 1<<20 - 1) >> 20, Max: c.MaxBytes >> 20, Unit: "MB"}
	}
	if c.MaxEvents > 0 && e.Events > c.MaxEvents {
		return &LimitError{Field: events, Value: value, Limit: "Config.MaxEvents",
			Estimate: e.Events, Max: c.MaxEvents, Unit: "events"}
	}
	return nil
}

// CheckLimits refuses a valid configuration whose Estimate exceeds
// MaxEvents or MaxBytes (*LimitError naming the input that makes the run
// large: Workers, or JobsPerWorker or TotalJobs when set).
func (c *Config) CheckLimits() error {
	field, value := "Config.Workers", strconv.Itoa(c.Workers)
	switch {
	case c.TotalJobs > 0:
		field, value = "Config.TotalJobs", strconv.Itoa(c.TotalJobs)
	case c.JobsPerWorker > 0:
		field, value = "Config.JobsPerWorker", strconv.Itoa(c.JobsPerWorker)
	}
	return c.checkLimits(c.Estimate(), field, value)
}
