package day

import (
	"fmt"
	"math"
	"strconv"
)

// MaxJobs bounds the jobs of one run (Config.JobsPerWorker,
// Config.TotalJobs).
const MaxJobs = 100_000_000

// maxDelayLoop keeps len_k·d within an int.
const maxDelayLoop = 1_000_000_000_000

// Bounds that keep every simulated time finite, far beyond any farm: sizes
// up to a petabyte, times up to 10^12 s, links from a byte in 1000 s.
const (
	maxBytes     = 1e15
	maxSeconds   = 1e12
	minBandwidth = 1e-3
	maxBandwidth = 1e15
)

// Validate checks the configuration; errors are *FieldError naming the
// field.
func (c *Config) Validate() error {
	for _, check := range []func() error{c.validateShape, c.validateMessages, c.validateTimes, c.validateSizes} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateShape checks the layout, the workers and the harness.
func (c *Config) validateShape() error {
	h := c.Harness
	switch {
	case c.Layout != Line && c.Layout != Tree:
		return bad("Config.Layout", int(c.Layout), "Line or Tree")
	case c.Workers < 1 || c.Workers > MaxWorkers:
		return bad("Config.Workers", c.Workers, fmt.Sprintf("1..%d", MaxWorkers))
	case c.Layout == Tree && !fullTernary(c.Workers):
		return bad("Config.Workers", c.Workers, "full levels of a ternary tree (3, 12, 39, 120, ...)")
	case h.J < 1 || h.P < 0 || h.R < 1 || h.Q < 0:
		return bad("Config.Harness", fmt.Sprintf("J=%d P=%d R=%d Q=%d", h.J, h.P, h.R, h.Q), "J, R >= 1 and P, Q >= 0")
	}
	return nil
}

// validateMessages checks the message sizes, the link and the set-up.
func (c *Config) validateMessages() error {
	size := fmt.Sprintf("a size from 0 to %g bytes", maxBytes)
	switch {
	case !within(c.MessageBytes, 0, maxBytes):
		return bad("Config.MessageBytes", gs(c.MessageBytes), size)
	case !within(c.ResultBytes, 0, maxBytes):
		return bad("Config.ResultBytes", gs(c.ResultBytes), size)
	case !within(c.Bandwidth, minBandwidth, maxBandwidth):
		return bad("Config.Bandwidth", gs(c.Bandwidth), fmt.Sprintf("a rate from %g to %g bytes/s", minBandwidth, maxBandwidth))
	case !within(c.SetupBytes, 0, maxBytes):
		return bad("Config.SetupBytes", gs(c.SetupBytes), size)
	case !within(c.SetupTime, 0, maxSeconds) || c.SetupTime*c.Bandwidth > maxBytes:
		return bad("Config.SetupTime", gs(c.SetupTime), fmt.Sprintf("a time from 0 s that makes at most %g bytes of set-up", maxBytes))
	case math.IsNaN(c.BidirectionalFactor) || c.BidirectionalFactor < 0 || c.BidirectionalFactor > 1:
		return bad("Config.BidirectionalFactor", gs(c.BidirectionalFactor), "a rate in (0, 1] (0 stands for the thesis's 0.727)")
	}
	return nil
}

// validateTimes checks the job times and the CPU costs.
func (c *Config) validateTimes() error {
	time := fmt.Sprintf("a time from 0 to %g s", maxSeconds)
	switch {
	case c.DelayLoop < 0 || c.DelayLoop > maxDelayLoop:
		return bad("Config.DelayLoop", c.DelayLoop, fmt.Sprintf("0 to %d iterations", maxDelayLoop))
	case c.DelayLoop == 0 && (!within(c.JobTime, 0, maxSeconds) || c.JobTime == 0):
		return bad("Config.JobTime", gs(c.JobTime), fmt.Sprintf("a time > 0 and at most %g s (or a {Config.DelayLoop})", maxSeconds))
	case !within(c.FarmerCost, 0, maxSeconds):
		return bad("Config.FarmerCost", gs(c.FarmerCost), time)
	case !within(c.CPUPerMessage, 0, maxSeconds):
		return bad("Config.CPUPerMessage", gs(c.CPUPerMessage), time)
	}
	return nil
}

// validateSizes checks the number of jobs and the limits.
func (c *Config) validateSizes() error {
	switch {
	case c.JobsPerWorker < 0 || float64(c.Workers)*float64(c.JobsPerWorker) > MaxJobs:
		return bad("Config.JobsPerWorker", c.JobsPerWorker, fmt.Sprintf("0 (100, the list once) or a count making at most %d jobs", MaxJobs))
	case c.TotalJobs < 0 || c.TotalJobs > MaxJobs:
		return bad("Config.TotalJobs", c.TotalJobs, fmt.Sprintf("0 ({Config.Workers} × the jobs per worker) or 1..%d", MaxJobs))
	case c.MaxEvents < 0:
		return bad("Config.MaxEvents", c.MaxEvents, "0 (no limit) or a positive number of events")
	case c.MaxBytes < 0:
		return bad("Config.MaxBytes", c.MaxBytes, "0 (no limit) or a positive number of bytes")
	}
	return nil
}

func finiteAtLeast(x, min float64) bool { return x >= min && !math.IsInf(x, 0) }

// within reports lo <= x <= hi (false for NaN).
func within(x, lo, hi float64) bool { return x >= lo && x <= hi }

func gs(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
