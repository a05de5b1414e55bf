package day

import (
	"math"
	"strconv"
)

// JobLengths is the thesis's list of 100 job lengths (Section 4.9.1, the
// farmer's job.lens: Poisson-like, mean 99.68, from 77 to 127), sent in
// this order, once per worker.
var JobLengths = [100]int{
	98, 105, 93, 97, 107, 90, 97, 115, 98, 109,
	119, 101, 112, 98, 110, 120, 89, 114, 100, 88,
	113, 106, 108, 91, 87, 93, 86, 102, 91, 93,
	102, 106, 88, 127, 104, 108, 106, 101, 109, 77,
	90, 100, 99, 95, 93, 90, 101, 106, 89, 109,
	86, 105, 89, 100, 106, 117, 105, 101, 98, 123,
	101, 88, 95, 116, 88, 103, 92, 90, 98, 97,
	94, 109, 85, 90, 88, 103, 88, 106, 93, 89,
	114, 101, 115, 97, 89, 92, 115, 104, 80, 89,
	98, 104, 90, 97, 105, 98, 104, 90, 102, 111,
}

// Layout is the shape of the farm.
type Layout int

const (
	// Line: farmer → worker 1 → … → worker w on one link per hop, results
	// toward a harvester beyond worker w on a second link per hop.
	Line Layout = iota
	// Tree: a full ternary tree under the farmer, results returning to the
	// farmer on the job links, in the other direction.
	Tree
)

// String returns "line" or "tree".
func (l Layout) String() string {
	if l == Tree {
		return "tree"
	}
	return "line"
}

// Harness is the buffering of a worker processor, counted in slots (one
// message each): J shared job slots (jobs waiting for the local worker or
// a child link), P committed job slots per child link, R collector slots
// (results waiting to go out), Q inbound result slots per inbound result
// link.
type Harness struct {
	Name       string
	J, P, R, Q int
}

// The harnesses of Section 4.3 as slots: A (this author's: one process per
// job and result, no per-link buffers), B (Welch's) and D (pointer
// passing): a buffer per link as well.
var (
	HarnessA = Harness{"A", 1, 0, 1, 0}
	HarnessB = Harness{"B", 1, 1, 1, 1}
	HarnessD = Harness{"D", 1, 1, 1, 1}
)

// ParseHarness reads "A", "B" or "D".
func ParseHarness(s string) (Harness, error) {
	switch s {
	case "A", "a":
		return HarnessA, nil
	case "B", "b":
		return HarnessB, nil
	case "D", "d":
		return HarnessD, nil
	}
	return Harness{}, bad("Config.Harness", strconv.Quote(s), "A, B or D")
}

// Config is one farm run. Times are seconds, sizes bytes, bandwidth
// bytes/s. What every model's run takes besides (limits, the model alone,
// progress, a trace) comes in platform.RunOptions.
type Config struct {
	Layout  Layout
	Harness Harness
	// Workers is w; a tree needs 3, 12, 39, 120, ... (full levels).
	Workers int
	// MessageBytes is the job message size m; ResultBytes the result size
	// (0: m).
	MessageBytes, ResultBytes float64
	// JobTime is the nominal job time j (job k takes j·len_k/100), or
	// DelayLoop d > 0 the delay-loop form (⌊len_k·d/100⌋·10 µs).
	JobTime   float64
	DelayLoop int
	// Bandwidth B of a link direction; SetupBytes s (or SetupTime, from
	// which s = B·SetupTime).
	Bandwidth, SetupBytes, SetupTime float64
	// BidirectionalFactor scales a direction's rate while the other
	// direction of the same link is busy (0: 0.727, the thesis's 0.663
	// µs/byte one way against 0.912 µs/byte both ways).
	BidirectionalFactor float64
	// FarmerCost is CPU time on the farmer per job sent; CPUPerMessage is
	// CPU time a worker processor loses per message it sends or receives
	// (cycle stealing). Both default to 0.
	FarmerCost, CPUPerMessage float64
	// DistantFirst gives child links priority over the local worker
	// (harness A's original PRI ALT); the default is local first.
	DistantFirst bool
	// JobsPerWorker overrides the w·100 jobs (the list, repeated); 0 keeps
	// the thesis's 100 per worker. TotalJobs, if > 0, overrides both.
	JobsPerWorker int
	TotalJobs     int
	// ConstantJobs makes every job take JobTime (no length list);
	// ExplicitResult takes ResultBytes as given, 0 included (otherwise 0
	// means "as long as the job message").
	ConstantJobs, ExplicitResult bool
}

// MaxWorkers bounds a farm before anything is allocated.
const MaxWorkers = 100_000

func (c *Config) setupBytes() float64 {
	if c.SetupTime > 0 {
		return SetupBytes(c.Bandwidth, c.SetupTime)
	}
	return c.SetupBytes
}

func (c *Config) resultBytes() float64 {
	if c.ExplicitResult || c.ResultBytes > 0 {
		return c.ResultBytes
	}
	return c.MessageBytes
}

func (c *Config) bidir() float64 {
	if c.BidirectionalFactor > 0 {
		return c.BidirectionalFactor
	}
	return 0.727
}

// jobTime returns the time of job k (list order, repeated).
func (c *Config) jobTime(k int) float64 {
	if c.ConstantJobs {
		return c.JobTime
	}
	l := JobLengths[k%len(JobLengths)]
	if c.DelayLoop > 0 {
		return math.Floor(float64(l*c.DelayLoop)/100) * 10e-6
	}
	return c.JobTime * float64(l) / 100
}

// meanJobTime is the mean of the list's job times.
func (c *Config) meanJobTime() float64 {
	sum := 0.0
	for k := range JobLengths {
		sum += c.jobTime(k)
	}
	return sum / float64(len(JobLengths))
}

// Jobs is the number of jobs of a run: TotalJobs, or Workers times the
// jobs per worker (100, the thesis's list once, unless JobsPerWorker).
func (c *Config) Jobs() int { return c.jobs() }

func (c *Config) jobs() int {
	if c.TotalJobs > 0 {
		return c.TotalJobs
	}
	per := c.JobsPerWorker
	if per == 0 {
		per = len(JobLengths)
	}
	return c.Workers * per
}

// depth returns the levels of a full ternary tree of Workers workers.
func (c *Config) depth() int {
	d, n, level := 0, 0, 1
	for n < c.Workers {
		level *= 3
		n += level
		d++
	}
	return d
}

// farmerLinks is the number of links out of the farmer: one on a line,
// three on a tree.
func (c *Config) farmerLinks() int {
	if c.Layout == Line {
		return 1
	}
	return 3
}

// childLinks is the number of links from a worker to its children over the
// whole farm: w − 1 on a line (the last worker has none), w − 3 on a full
// ternary tree (every worker but the top three hangs below another; the
// leaves have none).
func (c *Config) childLinks() int {
	return c.Workers - c.farmerLinks()
}

// jobSlots counts the places a job can wait in the farm, as simulated: per
// worker its own job and the harness's J slots, and P slots per link to a
// child (Section 4.11.2's "buffer slots").
func (c *Config) jobSlots() int {
	return c.Workers*(1+c.Harness.J) + c.Harness.P*c.childLinks()
}

func fullTernary(w int) bool {
	n, level := 0, 1
	for n < w {
		level *= 3
		n += level
	}
	return n == w
}
