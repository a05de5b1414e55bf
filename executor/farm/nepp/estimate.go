package nepp

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/platform"
)

// Cost is what a run or a scan is estimated to need: kernel events (an
// upper bound, tight for SD and MD, loose for FT whose replicas are
// bounded by the worst case; a node counts as much time as eventsPerNode)
// and bytes of memory (the peak resident size, measured constants with a
// margin).
type Cost struct {
	Events float64 `json:"events"`
	Bytes  float64 `json:"bytes"`
}

// Memory per node (a process's coroutine stack, its CPU and mailbox, the
// host's mirror of its queue, the result's per-node figures), per job
// (work and useful work, the host's records) and per queue record (the
// host's mirror, the node's queue and the assignment message), and the
// fixed footprint of a run: peak resident memory measured on runs of up to
// 60,000 nodes and 10,000,000 jobs (7.2 KB per node, 33-42 bytes per job,
// 29 bytes per record, 24 MB) with a margin of about a half (docs/nepp.md).
const (
	bytesPerNode = 10 << 10
	bytesPerJob  = 64
	bytesPerCopy = 48
	bytesBase    = 32 << 20
)

// bytesPerMissing is the memory per job of a run with crashes, which may
// end with every job missing: the list of missing jobs and its text (105
// bytes per job measured for JSON, 68 for the table, MD with 9·10^6 jobs
// on 10 nodes that all crash at t = 0.5).
const bytesPerMissing = 112

// bytesPerTraceEvent is the memory of one recorded span or instant of a
// trace: trace.Trace keeps every event, its name and its args until the
// run is written. Measured at the peak (writing the trace): 1,000 to
// 1,040 bytes per event (MD on 10 nodes with 10^5, 3·10^5 and 10^6 jobs,
// 3.2·10^5 to 3.2·10^6 events), with a margin of a half.
const bytesPerTraceEvent = 1536

// replicas bounds the replicas FT sends: only of the N jobs still
// without a result when the input runs out (N <= min(J, p·q): they are in
// the queues), and never twice the same job to the same node — a node
// that got job j either holds it or returned its result, which makes j
// redundant — so at most N·(p − 1). SD and MD send none.
func (c *Config) replicas(nodes int) float64 {
	if c.Algorithm != FaultTolerant {
		return 0
	}
	p, J := float64(nodes), float64(c.Jobs)
	q, _ := c.queue()
	return math.Min(J, p*float64(q)) * (p - 1)
}

// eventsPerNode is what a node counts in Estimate's events: its own 4
// (start, READY, DIE and the host's wake-up for its READY) plus the
// creation and teardown of its coroutine, which take as long as about 36
// events (8 µs of CPU per node against 0.25 µs per event, measured with
// 60,000 nodes and with 10 nodes and 3·10^6 jobs).
const eventsPerNode = 40

// Estimate bounds the kernel events of the run Run makes of c with opt
// and estimates its peak memory (nothing with opt.NoSim: the model alone
// costs nothing in proportion to the run). Events: per node
// eventsPerNode, of which 4 are kernel events (its start, READY and DIE
// and the host's wake-up for the READY); per computation (at most J + R,
// R the replicas) its end, the node's wake-up, the DONE message, the
// host's wake-up and its w_h (5); per assignment message the host's send
// and the node's wake-up (2), a message carrying at least q − q_min + 1
// new jobs but the last, or at least one replica; 2 per crash or speed
// change; 1 for the host. With opt.Trace set the memory includes the
// trace's events (traceEvents). It allocates nothing in proportion to the
// run (c must be valid).
func (c *Config) Estimate(opt platform.RunOptions) Cost {
	if opt.NoSim {
		return Cost{}
	}
	return c.estimate(len(c.Speeds), opt.Trace != nil)
}

// estimate is Estimate for c on the given number of nodes, with or
// without a trace.
func (c *Config) estimate(nodes int, tracing bool) Cost {
	p, J := float64(nodes), float64(c.Jobs)
	q, qmin := c.queue()
	r := c.replicas(nodes)
	comp := J + r
	msgs := math.Ceil(J/float64(q-qmin+1)) + 1 + r
	faults := float64(len(c.Crashes) + len(c.Slows))
	events := 5*comp + 2*msgs + eventsPerNode*p + 2*faults + 1
	copies := math.Min(p*float64(min(q, c.Jobs)), comp) // live queue records
	bytes := bytesBase + bytesPerNode*p + bytesPerJob*J + bytesPerCopy*copies
	if len(c.Crashes) > 0 {
		bytes += bytesPerMissing * J
	}
	if tracing {
		// Per computation its span, its DONE and the host's w_h; per
		// assignment message and per node's READY a span; per fault an
		// instant (and the span it cuts).
		bytes += bytesPerTraceEvent * (3*comp + msgs + p + 2*faults)
	}
	return Cost{Events: events, Bytes: bytes}
}

// describe names the run in the library's words, for a LimitError.
func (c *Config) describe() string {
	q, _ := c.queue()
	return fmt.Sprintf("%s on %s with %s, q = %d", c.Algorithm, count(len(c.Speeds), "node"), count(c.Jobs, "job"), q)
}

// count writes n things: "1 node", "2 nodes".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// checkLimits refuses a run of c with opt estimated beyond opt.Limits.
func (c *Config) checkLimits(opt platform.RunOptions) error {
	return checkLimits(opt.Limits, c.Estimate(opt), c.describe(), fmt.Sprintf("jobs ({%s}) or nodes ({%s})", FieldJobs, FieldSpeeds))
}

// checkLimits refuses cost beyond the limits (a zero limit is no limit,
// the package's default) with a *platform.LimitError; what names the run,
// fewer what could be reduced.
func checkLimits(l platform.Limits, cost Cost, what, fewer string) error {
	if l.MaxEvents > 0 && cost.Events > float64(l.MaxEvents) {
		return &platform.LimitError{Pkg: pkg, What: what, Need: cost.Events, Limit: float64(l.MaxEvents), Unit: "simulation events",
			Bound: true, Field: FieldMaxEvents, Fewer: fewer}
	}
	if l.MaxBytes > 0 && cost.Bytes > float64(l.MaxBytes) {
		return &platform.LimitError{Pkg: pkg, What: what, Need: math.Ceil(cost.Bytes / (1 << 20)), Limit: float64(l.MaxBytes >> 20),
			Unit: "MB of memory", Field: FieldMaxBytes, Fewer: fewer}
	}
	return nil
}
