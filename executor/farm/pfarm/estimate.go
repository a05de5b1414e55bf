package pfarm

import (
	"fmt"
	"math"
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
)

// Estimate returns the cost of cfg; errors are *FieldError naming the
// field at fault. It allocates only the list of the tree's level sizes.
func Estimate(cfg Config) (Cost, error) {
	sh, err := checkSpec(cfg.Topology)
	if err != nil {
		return Cost{}, err
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
	n := int64(sh.n)
	c := Cost{N: sh.n, Bytes: baseBytes + n*modelBytesPerNode}
	if cfg.NoSim {
		return c, nil
	}
	c.Visits = visits(sh.levels, &p, cfg.Sim.NoRootWorker)
	c.Bytes += n * simBytesPerNode
	c.Events = int64(math.Ceil(eventsPerVisit*c.Visits)) + eventsPerProcessor*n
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

// LimitError refuses a run estimated to need more than a limit of
// Config allows: Field is "MaxBytes" or "MaxEvents".
type LimitError struct {
	Field       string
	Need, Limit int64
	Cost        Cost
}

// Error names the limit as Config's field.
func (e *LimitError) Error() string {
	return "pfarm: " + e.Format(func(field string) string { return field })
}

// Format renders the error with the limit named by name.
func (e *LimitError) Format(name func(field string) string) string {
	if e.Field == "MaxBytes" {
		return fmt.Sprintf("the run is estimated to need %d MB for %d processors, above the limit %s %d MB",
			(e.Need+(1<<20)-1)>>20, e.Cost.N, name(e.Field), e.Limit>>20)
	}
	return fmt.Sprintf("the simulation is estimated to take %d kernel events (%.0f visits of tasks to processors), above the limit %s %d",
		e.Need, e.Cost.Visits, name(e.Field), e.Limit)
}

// checkLimits refuses a cost above cfg's limits (0: no limit).
func (cfg *Config) checkLimits(c Cost) error {
	if cfg.MaxBytes > 0 && c.Bytes > cfg.MaxBytes {
		return &LimitError{"MaxBytes", c.Bytes, cfg.MaxBytes, c}
	}
	if cfg.MaxEvents > 0 && c.Events > cfg.MaxEvents {
		return &LimitError{"MaxEvents", c.Events, cfg.MaxEvents, c}
	}
	return nil
}
