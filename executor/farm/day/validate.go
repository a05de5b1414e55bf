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

// Validate checks the configuration; errors are *platform.FieldError
// naming the field.
func (c *Config) Validate() error {
	for _, check := range []func() error{c.validateShape, c.validateMessages, c.validateTimes, c.validateSizes, c.validateHorizon} {
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
	switch {
	case !finiteAtLeast(c.MessageBytes, 0):
		return bad("Config.MessageBytes", gs(c.MessageBytes), "a finite size >= 0 bytes")
	case !finiteAtLeast(c.ResultBytes, 0):
		return bad("Config.ResultBytes", gs(c.ResultBytes), "a finite size >= 0 bytes")
	case !finiteAtLeast(c.Bandwidth, 0) || c.Bandwidth == 0:
		return bad("Config.Bandwidth", gs(c.Bandwidth), "a finite rate > 0 bytes/s")
	case !finiteAtLeast(c.SetupBytes, 0):
		return bad("Config.SetupBytes", gs(c.SetupBytes), "a finite size >= 0 bytes")
	case !finiteAtLeast(c.SetupTime, 0):
		return bad("Config.SetupTime", gs(c.SetupTime), "a finite time >= 0 s")
	case math.IsNaN(c.BidirectionalFactor) || c.BidirectionalFactor < 0 || c.BidirectionalFactor > 1:
		return bad("Config.BidirectionalFactor", gs(c.BidirectionalFactor), "a rate in (0, 1] (0 stands for the thesis's 0.727)")
	}
	return nil
}

// validateTimes checks the job times and the CPU costs.
func (c *Config) validateTimes() error {
	switch {
	case c.DelayLoop < 0 || c.DelayLoop > maxDelayLoop:
		return bad("Config.DelayLoop", c.DelayLoop, fmt.Sprintf("0 to %d iterations", maxDelayLoop))
	case c.DelayLoop == 0 && (!finiteAtLeast(c.JobTime, 0) || c.JobTime == 0):
		return bad("Config.JobTime", gs(c.JobTime), "a finite time > 0 s (or a {Config.DelayLoop})")
	case !finiteAtLeast(c.FarmerCost, 0):
		return bad("Config.FarmerCost", gs(c.FarmerCost), "a finite time >= 0 s")
	case !finiteAtLeast(c.CPUPerMessage, 0):
		return bad("Config.CPUPerMessage", gs(c.CPUPerMessage), "a finite time >= 0 s")
	}
	return nil
}

// validateSizes checks the number of jobs.
func (c *Config) validateSizes() error {
	switch {
	case c.JobsPerWorker < 0 || float64(c.Workers)*float64(c.JobsPerWorker) > MaxJobs:
		return bad("Config.JobsPerWorker", c.JobsPerWorker, fmt.Sprintf("0 (100, the list once) or a count making at most %d jobs", MaxJobs))
	case c.TotalJobs < 0 || c.TotalJobs > MaxJobs:
		return bad("Config.TotalJobs", c.TotalJobs, fmt.Sprintf("0 ({Config.Workers} × the jobs per worker) or 1..%d", MaxJobs))
	}
	return nil
}

// maxHorizon bounds the serial time of a run, so that no simulated time
// overflows.
const maxHorizon = 1e300

// validateHorizon refuses inputs whose simulated times could overflow: the
// run done serially, jobs·(hops·(c_job + c_res + 2y) + j_max + a), must
// stay below 1e300 s. The input blamed is that of the largest term (for a
// message: the set-up if it is the larger part, the bandwidth if it is
// below a byte a second).
func (c *Config) validateHorizon() error {
	s, hops := c.setupBytes(), float64(c.Workers+1)
	if c.Layout == Tree {
		hops = 2 * float64(c.depth())
	}
	job := term{"Config.JobTime", gs(c.JobTime), c.jobTime(33)} // job 33 is the longest (127)
	if c.DelayLoop > 0 {
		job = term{"Config.DelayLoop", strconv.Itoa(c.DelayLoop), job.t}
	}
	msg, res := term{"Config.MessageBytes", gs(c.MessageBytes), 0}, term{"Config.ResultBytes", gs(c.ResultBytes), 0}
	switch {
	case c.SetupTime > 0 && s > c.MessageBytes:
		msg = term{"Config.SetupTime", gs(c.SetupTime), 0}
	case s > c.MessageBytes:
		msg = term{"Config.SetupBytes", gs(c.SetupBytes), 0}
	}
	if c.Bandwidth < 1 {
		msg, res = term{"Config.Bandwidth", gs(c.Bandwidth), 0}, term{"Config.Bandwidth", gs(c.Bandwidth), 0}
	}
	msg.t, res.t = hops*(c.MessageBytes+s)/c.Bandwidth, hops*(c.resultBytes()+s)/c.Bandwidth
	terms := []term{msg, res, job, {"Config.FarmerCost", gs(c.FarmerCost), c.FarmerCost},
		{"Config.CPUPerMessage", gs(c.CPUPerMessage), 2 * hops * c.CPUPerMessage}}
	total, worst := 0.0, terms[0]
	for _, x := range terms {
		total += x.t
		if !(x.t <= worst.t) {
			worst = x
		}
	}
	if n := float64(c.jobs()) * total; n < maxHorizon {
		return nil
	}
	return bad(worst.field, worst.value, fmt.Sprintf("a value that keeps the run's times finite (done serially it would take %s s; at most %g)",
		g(float64(c.jobs())*total), maxHorizon))
}

// term is one input's share of a run's serial time.
type term struct {
	field, value string
	t            float64
}

func finiteAtLeast(x, min float64) bool { return x >= min && !math.IsInf(x, 0) }

func gs(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
