package pfarm

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/platform"
)

// Cost is what a run is estimated to need, computed from its inputs
// before anything in proportion to the tree or to M is allocated.
type Cost struct {
	// N is the number of processors.
	N int `json:"N"`
	// Bytes is the peak memory of the run: the tree, the model, the
	// simulation's processes and kernel objects, and the report.
	Bytes int64 `json:"bytes"`
	// Events is the number of kernel events of the simulation (0 with
	// Config.NoSim).
	Events int64 `json:"events"`
	// Visits is the number of times a task visits a processor (a task
	// executed at depth d visits d + 1), the quantity Events grows with.
	Visits float64 `json:"visits"`
	// Spans is the number of spans of the trace (0 without
	// RunOptions.Trace), whose memory Bytes includes.
	Spans int64 `json:"spans"`
}

// Per-processor and per-visit costs, measured on this kernel (see
// TestEstimate and docs/pfarm.md, "Run limits"): a simulated processor
// holds its processes (InLink, manager, worker, result OutLink, an
// OutLink and a result InLink per child) and their kernel objects; a
// task's visit to a processor takes about 19 kernel events (a link
// transfer each way, two CPU charges each way, the manager's PRI ALT,
// the hand-overs); the report adds its per-processor arrays.
const (
	baseBytes          = 28 << 20 // the process before the tree
	modelBytesPerNode  = 288      // tree, rates, Lemma 1, FindOptTree, the report
	simBytesPerNode    = 26 << 10 // processes (goroutine stacks), kernel objects
	eventsPerVisit     = 19.5
	eventsPerProcessor = 8
	// With RunOptions.Trace a visit records about 7 spans (a transfer
	// each way, four CPU charges, the worker's slices: 6.4 to 7.4 on the
	// paper's farms), and a span of package trace costs 760 to 850 bytes
	// of peak memory (it holds about 440; the garbage collector's headroom
	// doubles that): docs/pfarm.md, "Run limits".
	spansPerVisit      = 7.2
	traceBytesPerVisit = spansPerVisit * 900
)

// Estimate returns the cost of cfg run with opt; errors are
// *platform.FieldError naming the field at fault. It allocates only the
// list of the tree's level sizes.
func Estimate(cfg Config, opt platform.RunOptions) (Cost, error) {
	sh, err := checkSpec(cfg.Topology)
	if err != nil {
		return Cost{}, err
	}
	if err := checkSlowdowns(cfg.Slowdowns, sh.n); err != nil {
		return Cost{}, err
	}
	if cfg.NoRootWorker && sh.n < 2 {
		return Cost{}, platform.Bad(pkg, "NoRootWorker", true, "false on a single processor (a root without a worker needs a child to execute the tasks)")
	}
	p := cfg.Params
	if p.Tasks != nil {
		if want := p.Tasks.validate(p.M); want == "" {
			p.Te = p.Tasks.Mean()
		}
	}
	if err := p.Validate(); err != nil {
		return Cost{}, err
	}
	if opt.NoSim && opt.Trace != nil {
		return Cost{}, platform.Bad(pkg, "RunOptions.Trace", "a recorder", "none with {RunOptions.NoSim}: the model alone simulates nothing")
	}
	n := int64(sh.n)
	c := Cost{N: sh.n, Bytes: baseBytes + n*modelBytesPerNode}
	if opt.NoSim {
		return c, nil
	}
	c.Visits = visits(sh.levels, &p, cfg.NoRootWorker)
	c.Bytes += n * simBytesPerNode
	c.Events = int64(math.Ceil(eventsPerVisit*c.Visits)) + eventsPerProcessor*n
	if opt.Trace != nil {
		c.Spans = int64(math.Ceil(spansPerVisit * c.Visits))
		c.Bytes += int64(math.Ceil(traceBytesPerVisit * c.Visits))
	}
	return c, nil
}

// visits estimates the visits of the M tasks to processors from the
// level sizes: M times the visits per task of the steady state (eq. 2
// summed over each level, as in the proof of Theorem 1, at a throughput
// of at most 1/β_f and of the root's link, eq. (1)), plus the 4N tasks
// of start-up and wind-down at the mean depth, and at most M(M + 1)/2,
// since the i-th task can pass only processors that already hold one.
// Without a steady state (α <= β_f, or no worker at the root) every task
// is counted at every level.
func visits(levels []int, p *Params, noRootWorker bool) float64 {
	m := float64(p.M)
	n, depths := 0.0, 0.0
	for d, size := range levels {
		n += float64(size)
		depths += float64(d * size)
	}
	perTask := float64(len(levels))
	if p.Alpha() > p.BetaF && !noRootWorker {
		link := p.BetaF/4 + p.Startup + p.Tau*math.Max(p.Dt, p.Dr) // eq. (1) per task
		perTask = levelFlow(levels, p.Alpha(), p.BetaF, 1/link)
	}
	return math.Min(m*perTask, m*(m+1)/2)
}

// levelFlow returns the visits per task in steady state on a tree with
// the given level sizes, for α > β_f, at a throughput of at most xmax.
func levelFlow(levels []int, alpha, betaF, xmax float64) float64 {
	// Bottom-up, eq. (2) summed over level i: the visits per unit time
	// Λ_i = (n_i + (α − β_f)·Λ_{i+1})/α.
	x := math.Min(1/betaF, xmax) // throughput
	if alpha > betaF {
		lambda := 0.0
		for i := len(levels) - 1; i >= 0; i-- {
			lambda = (float64(levels[i]) + (alpha-betaF)*lambda) / alpha
		}
		x = math.Min(lambda, x)
	}
	// Top-down: level i receives r tasks per unit time and its processors,
	// busy all the time, execute e = (n_i − β_f·r)/(α − β_f) of them
	// (within [0, r]) and forward the rest.
	r, total := x, 0.0
	for i, size := range levels {
		total += r
		e := r // not busy all the time, or the last level: all executed
		if r*alpha > float64(size) && i < len(levels)-1 {
			e = (float64(size) - betaF*r) / (alpha - betaF)
		}
		r -= math.Max(0, math.Min(e, r))
		if r <= 0 {
			break
		}
	}
	return total / x
}

// checkLimits refuses a cost above the limits of opt (0: no limit) with a
// *platform.LimitError naming the limit and what else could be reduced.
func checkLimits(cfg *Config, opt platform.RunOptions, c Cost) error {
	if opt.MaxBytes > 0 && c.Bytes > opt.MaxBytes {
		fewer := map[string]string{"chain": "processors ({Topology.N})", "kary": "levels ({Topology.Depth})",
			"mesh": "rows ({Topology.Rows}) or columns ({Topology.Cols})"}[cfg.Topology.Kind]
		if tb := traceBytesPerVisit * c.Visits; c.Spans > 0 && 2*tb > float64(c.Bytes-baseBytes) { // the trace is most of it
			fewer = "tasks ({Params.M}) in the trace ({RunOptions.Trace})"
		}
		return &platform.LimitError{Pkg: pkg, What: fmt.Sprintf("Pfarm on %d processors", c.N),
			Need: math.Ceil(float64(c.Bytes) / (1 << 20)), Limit: float64(opt.MaxBytes >> 20), Unit: "MB of memory",
			Field: "Limits.MaxBytes", Fewer: fewer}
	}
	if opt.MaxEvents > 0 && c.Events > opt.MaxEvents {
		return &platform.LimitError{Pkg: pkg, What: fmt.Sprintf("the simulation of %d tasks on %d processors", cfg.Params.M, c.N),
			Need: float64(c.Events), Limit: float64(opt.MaxEvents), Unit: "kernel events",
			Field: "Limits.MaxEvents", Fewer: "tasks ({Params.M})"}
	}
	return nil
}
