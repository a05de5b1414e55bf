package nepp

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dlsched/dlsched/platform"
)

// Defaults of the report: PVM sets up a message in 3.9 ms and sends 0.5 µs
// per byte (Section 3.1.3); a compressed job is "about 4 double precision
// numbers and 4 integers" (Section 3.1.2), 48 bytes.
const (
	DefaultSetup       = 3.9e-3
	DefaultPerByte     = 0.5e-6
	DefaultJobBytes    = 48
	DefaultResultBytes = 48
	// MaxJobs and MaxNodes bound a run before anything is allocated. A
	// queue never holds more than every job, so MaxJobs bounds q too.
	MaxJobs  = 10_000_000
	MaxNodes = 100_000
)

// Crash ends node Node (1-based) at time At: its running job, its queue
// and any message it is sending are lost, messages to it vanish, and the
// host is not told.
type Crash struct {
	Node int
	At   float64
}

// Slow sets node Node's speed to Factor times its nominal speed s_i =
// α_i·c_i from time At on; the running job is re-timed. The factor is
// relative to the nominal speed, not to the current one: a later Slow of
// the same node replaces an earlier one (Factor 1 restores the nominal
// speed), and of two at the same time the one listed last wins.
type Slow struct {
	Node   int
	At     float64
	Factor float64
}

// Config is one NEPP run.
type Config struct {
	Algorithm Algorithm
	// Speeds are the hardware speeds c_i of nodes 1..p, Shares the CPU
	// shares α_i (nil: all 1); s_i = α_i·c_i (4.1).
	Speeds, Shares []float64
	// Queue is q, QMin the refill threshold q_min (0: 1, "when the node's
	// queue is empty"). Simple Distribution is q = q_min = 1 whatever
	// Queue and QMin say.
	Queue, QMin int
	// Jobs is J; Work the mean total work w = f + a of a job (4.4) in
	// units a node of speed 1 does in one second; Useful the mean useful
	// work f (0: Work); HostOverhead w_h per result received.
	Jobs                       int
	Work, Useful, HostOverhead float64
	// WorkDist is "const", "exp" (exponential, mean Work) or "uniform"
	// (uniform on [0, 2·Work]).
	WorkDist string
	// Messages cost Setup + PerByte·bytes, the sender busy meanwhile; a
	// job is JobBytes in an assignment message, a result ResultBytes.
	Setup, PerByte        float64
	JobBytes, ResultBytes float64
	Crashes               []Crash
	Slows                 []Slow
	Seed                  uint64
}

func (c *Config) queue() (q, qmin int) {
	if c.Algorithm == Simple {
		return 1, 1
	}
	qmin = c.QMin
	if qmin == 0 {
		qmin = 1
	}
	return c.Queue, qmin
}

func (c *Config) useful() float64 {
	if c.Useful == 0 {
		return c.Work
	}
	return c.Useful
}

// speeds returns s_i = α_i c_i.
func (c *Config) speeds() []float64 {
	s := make([]float64, len(c.Speeds))
	for i := range s {
		s[i] = c.Speeds[i]
		if c.Shares != nil {
			s[i] *= c.Shares[i]
		}
	}
	return s
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// bad returns a *platform.FieldError of the package; want is a format.
func bad(field string, value any, want string, args ...any) error {
	return platform.Bad(pkg, field, value, fmt.Sprintf(want, args...))
}

// Validate checks the configuration; a *platform.FieldError names the
// field and counts nodes, crashes and slowdowns from 1 as the docs do.
func (c *Config) Validate() error {
	if err := c.validateSizes(); err != nil {
		return err
	}
	if err := c.validateCosts(); err != nil {
		return err
	}
	if err := c.validateNodes(); err != nil {
		return err
	}
	return c.validateFaults()
}

func (c *Config) validateSizes() error {
	p := len(c.Speeds)
	switch {
	case c.Algorithm < Simple || c.Algorithm > FaultTolerant:
		return bad(FieldAlgorithm, c.Algorithm, "sd, md or ft")
	case p < 1 || p > MaxNodes:
		return bad(FieldSpeeds, fmt.Sprintf("(%d nodes)", p), "1 to %d nodes", MaxNodes)
	case c.Shares != nil && len(c.Shares) != p:
		return bad(FieldShares, fmt.Sprintf("(%d given)", len(c.Shares)), "one share per node of {%s} (%d)", FieldSpeeds, p)
	case c.Jobs < 1 || c.Jobs > MaxJobs:
		return bad(FieldJobs, c.Jobs, "1..%d", MaxJobs)
	case c.Algorithm != Simple && (c.Queue < 1 || c.Queue > MaxJobs):
		return bad(FieldQueue, c.Queue, "1..%d: a queue never holds more than every job, and {%s} is at most %d", MaxJobs, FieldJobs, MaxJobs)
	case c.Algorithm != Simple && (c.QMin < 0 || c.QMin > c.Queue):
		return bad(FieldQMin, c.QMin, "1..%d ({%s})", c.Queue, FieldQueue)
	}
	switch c.WorkDist {
	case "", "const", "exp", "uniform":
	default:
		return bad(FieldWorkDist, strconv.Quote(c.WorkDist), "const, exp or uniform")
	}
	return nil
}

func (c *Config) validateCosts() error {
	nonneg := []struct {
		field string
		v     float64
		unit  string
	}{{FieldHostOverhead, c.HostOverhead, "work units"}, {FieldSetup, c.Setup, "seconds"},
		{FieldPerByte, c.PerByte, "seconds"}, {FieldJobBytes, c.JobBytes, "bytes"}, {FieldResultBytes, c.ResultBytes, "bytes"}}
	switch {
	case !(c.Work > 0) || !finite(c.Work):
		return bad(FieldWork, g(c.Work), "a finite number > 0 of work units")
	case !(c.Useful >= 0) || c.Useful > c.Work:
		return bad(FieldUseful, g(c.Useful), "0 < f <= %s ({%s})", g(c.Work), FieldWork)
	}
	for _, x := range nonneg {
		if !(x.v >= 0) || !finite(x.v) {
			return bad(x.field, g(x.v), "a finite number >= 0 of %s", x.unit)
		}
	}
	if !finite(c.Setup + c.PerByte*math.Max(c.JobBytes*float64(c.Jobs), c.ResultBytes)) {
		return bad(FieldPerByte, g(c.PerByte), "message times that stay finite ({%s} × {%s} × {%s} overflows)", FieldPerByte, FieldJobBytes, FieldJobs)
	}
	return nil
}

func (c *Config) validateNodes() error {
	for i, s := range c.Speeds {
		if !(s > 0) || !finite(s) {
			return bad(FieldSpeeds, fmt.Sprintf("%s (node %d)", g(s), i+1), "finite speeds > 0")
		}
		if c.Shares != nil && (!(c.Shares[i] > 0) || c.Shares[i] > 1) {
			return bad(FieldShares, fmt.Sprintf("%s (node %d)", g(c.Shares[i]), i+1), "CPU shares in (0, 1]")
		}
	}
	return nil
}

func (c *Config) validateFaults() error {
	p := len(c.Speeds)
	for k, x := range c.Crashes {
		if x.Node < 1 || x.Node > p || !(x.At >= 0) || !finite(x.At) {
			return bad(FieldCrashes, fmt.Sprintf("node %d at %s (crash %d)", x.Node, g(x.At), k+1), "a node 1..%d and a finite time >= 0", p)
		}
	}
	for k, x := range c.Slows {
		if x.Node < 1 || x.Node > p || !(x.At >= 0) || !finite(x.At) || !(x.Factor > 0) || !finite(x.Factor) {
			return bad(FieldSlows, fmt.Sprintf("node %d at %s factor %s (slowdown %d)", x.Node, g(x.At), g(x.Factor), k+1),
				"a node 1..%d, a finite time >= 0 and a finite factor > 0", p)
		}
	}
	return nil
}
