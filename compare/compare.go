// Package compare puts planning and farming side by side: one platform (a
// master holding V units of load, workers on a star, a chain or a complete
// k-ary tree, links costing S + C·x per message of x units, computing A per
// unit, buffers of D units), one load, every strategy run on the executor
// kernel:
//
//   - dls: the best divisible-load schedule of Drozdowski & Wolniewicz
//     (JPDC 2004) for the nominal platform (best n), replayed in earliest
//     mode on the real, possibly perturbed platform;
//   - dls-known: the yardstick that knows the perturbation (stars: the
//     heterogeneous LP planned with the slowdown, or without the crashed
//     worker), the better of it and dls;
//   - demand: demand-driven farming of M tasks of V/M units (a star: NEPP's
//     Simple Distribution, request and reply; a chain or tree: Pfarm with
//     the master at the root);
//   - queue and replicate: NEPP's Multiple and Fault-Tolerant Distribution
//     (stars);
//   - harness: Day's harness D on a chain.
//
// Every strategy receives the same platform.Platform: the farms are built
// from it by nepp.FromPlatform, pfarm.FromPlatform and day.FromPlatform,
// the planned schedules' LP by problem.FromPlatform; compare translates
// nothing by hand.
//
// A strategy that does not apply is listed with the reason; one that did
// not complete (a crash lost work) has no makespan. The lower bound is one
// no strategy can beat on the real platform.
//
// Run first estimates what every strategy will cost — the LP the dls
// search solves, the events and memory of each simulation — from the
// inputs alone, and refuses (a *SizeError) before anything in proportion
// to them is built (Check, Estimate).
package compare

import (
	"context"
	"fmt"
	"math"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/trace"
)

// Options choose the strategies, their parameters and the limits of a run.
type Options struct {
	// Tasks are the task counts M of the farming strategies (default
	// 10, 100, 1000).
	Tasks []int
	// Queue is NEPP's q (default 4); Strategies restricts the strategies
	// (default all).
	Queue      int
	Strategies []string
	// Solver solves the LPs.
	Solver *solve.Solver
	// NMax bounds dls's search over n (0: n_min + optimize.DefaultSpan).
	NMax int
	// MaxBytes refuses a run one of whose strategies is estimated to need
	// more memory for its LP or simulation (0: DefaultMaxBytes);
	// MaxEvents one whose simulations are estimated to take more kernel
	// events in all (0: DefaultMaxEvents); MaxLPSeconds one whose search
	// over n is estimated to take more seconds of LP solving (0:
	// DefaultMaxLPSeconds). See Estimate.
	MaxBytes     int64
	MaxEvents    int64
	MaxLPSeconds float64
	// Progress, if set, is called after each strategy run (a task count
	// of a farm is one run) with the runs done (of Runs).
	Progress func(done int)
	// Trace, if set, records every row's run as one process named after
	// the row (RowName), in the report's order: the farms' simulations
	// with their models' processes and tracks as its tracks, the planned
	// schedules' replays on the real platform as their transfers and
	// computations; a skipped row is an instant at 0 with the reason.
	Trace trace.Recorder
}

// Strategies lists every strategy name in output order.
var Strategies = []string{"dls", "dls-known", "demand", "queue", "replicate", "harness"}

// farms lists the farming strategies, run at each task count.
var farms = []string{"demand", "queue", "replicate", "harness"}

// Row is one strategy at one task count (JSON names are part of the CLI
// contract). A row that did not complete, or was skipped, has no
// makespan, ratio or utilisation (null in JSON).
type Row struct {
	Strategy string `json:"strategy"`
	Tasks    int    `json:"tasks"`
	// Makespan is the time the last unit of load is computed (and its
	// result delivered, for the farms).
	Makespan *float64 `json:"makespan"`
	// Ratio is Makespan over the best makespan of the report.
	Ratio    *float64 `json:"ratio_to_best"`
	Messages int64    `json:"messages"`
	Units    float64  `json:"units_moved"`
	// Utilisation is the share of the workers' time spent computing:
	// Σ_i busy_i / (workers · Makespan), at most 1.
	Utilisation *float64 `json:"worker_utilisation"`
	Verified    bool     `json:"verified"`
	Completed   bool     `json:"completed"`
	// Events counts the kernel events of the row's simulations.
	Events  int64  `json:"events"`
	Note    string `json:"note"`
	Skipped bool   `json:"skipped,omitempty"`
	// Plan, for the planned strategies, is what is proven about the
	// schedule on the platform it was planned for.
	Plan *Plan `json:"plan,omitempty"`
}

// Plan is a planned schedule's makespan on the platform it was planned
// for, with its two gaps: Gap certifies the LP of the schedule's message
// pattern (LowerBound), PatternGap is to PatternLowerBound, a bound valid
// for every pattern and every n.
type Plan struct {
	Stages            int                   `json:"stages"`
	Cmax              float64               `json:"cmax"`
	LowerBound        float64               `json:"lower_bound"`
	Gap               float64               `json:"gap"`
	PatternLowerBound float64               `json:"pattern_lower_bound"`
	PatternGap        float64               `json:"pattern_gap"`
	Pattern           *schedule.PatternInfo `json:"pattern,omitempty"`
	// WorkerOrder and WorkerOrderMethod say which workers of a
	// heterogeneous star the plan loads, in activation order, and how the
	// order was found (the order search of `dlsched solve`).
	WorkerOrder       []int  `json:"worker_order,omitempty"`
	WorkerOrderMethod string `json:"worker_order_method,omitempty"`
}

func planOf(s *schedule.Schedule) *Plan {
	return &Plan{Stages: s.Problem.Stages, Cmax: s.Cmax, LowerBound: s.LowerBound, Gap: s.Gap,
		PatternLowerBound: s.PatternLowerBound, PatternGap: s.PatternGap, Pattern: s.Pattern,
		WorkerOrder: s.WorkerOrder, WorkerOrderMethod: s.WorkerOrderMethod}
}

// Format is the declared format of the JSON report (WriteJSON), described
// by schema/compare.schema.json.
const Format = "dlsched.compare/1"

// Report is the comparison (JSON field names are part of the CLI
// contract, described by schema/compare.schema.json).
type Report struct {
	Format           string            `json:"format"`
	Platform         platform.Platform `json:"platform"`
	Rows             []Row             `json:"rows"`
	LowerBound       float64           `json:"lower_bound"`
	LowerBoundMethod string            `json:"lower_bound_method"`
	// Best names the completed row of least makespan; it is absent when
	// no strategy completed (Err then says so).
	Best string `json:"best,omitempty"`
}

// NothingCompletedError reports a comparison in which no strategy
// completed: every one was skipped or lost work.
type NothingCompletedError struct {
	Rows int
}

// Error implements error.
func (e *NothingCompletedError) Error() string {
	return fmt.Sprintf("compare: no strategy completed (%d rows: each skipped or lost work, see its note)", e.Rows)
}

// Err returns a *NothingCompletedError when no row completed, else nil.
func (r *Report) Err() error {
	if r.Best == "" {
		return &NothingCompletedError{Rows: len(r.Rows)}
	}
	return nil
}

// LowerBound is a makespan no strategy can beat on the real platform: the
// work V·A over the workers' fastest combined speed (each worker counted at
// its highest speed factor over the run), and the master's ports, which
// must carry all V units: S + C·V/ports (1 port for a star and a chain, k
// for a k-ary tree, whose master sends to its k children at once).
func LowerBound(p *platform.Platform) (float64, string) {
	w := p.Workers()
	speed := 0.0
	for i := 1; i <= w; i++ {
		f := 1.0
		for _, s := range p.Slows {
			if s.Worker == i {
				f = math.Max(f, s.Factor)
			}
		}
		speed += f / p.WorkerA(i)
	}
	work := p.V / speed
	ports := 1.0
	if p.Kind == platform.KAry {
		ports = float64(p.K)
	}
	comm := p.S + p.C*p.V/ports
	if work >= comm {
		return work, fmt.Sprintf("work: V / Σ_i (f_i/A_i) = %.6g / %.6g, every worker at its highest speed factor f_i over the run", p.V, speed)
	}
	return comm, fmt.Sprintf("the master's %g port(s) carry all V units: S + C·V/%g", ports, ports)
}

// Run evaluates every applicable strategy on the platform, after Check.
// A report in which nothing completed is returned with Best empty; its
// Err says so.
func Run(ctx context.Context, p platform.Platform, o Options) (*Report, error) {
	o = o.withDefaults()
	if err := Check(&p, o); err != nil {
		return nil, err
	}
	use := o.uses()
	r := &Report{Format: Format, Platform: p}
	r.LowerBound, r.LowerBoundMethod = LowerBound(&p)
	done := 0
	step := func() {
		done++
		if o.Progress != nil {
			o.Progress(done)
		}
	}
	if use("dls") || use("dls-known") {
		if err := r.planned(ctx, &p, o, use, step); err != nil {
			return nil, err
		}
	}
	for _, m := range o.Tasks {
		for _, s := range farms {
			if !use(s) {
				continue
			}
			row, err := farm(ctx, &p, o, s, m)
			if err != nil {
				return nil, err
			}
			r.Rows = append(r.Rows, row)
			step()
		}
	}
	r.rank()
	return r, nil
}

// planned adds the rows of dls and dls-known, and their runs to the
// trace.
func (r *Report) planned(ctx context.Context, p *platform.Platform, o Options, use func(string) bool, step func()) error {
	row, run, err := dls(ctx, p, o)
	if err != nil {
		return err
	}
	step()
	if use("dls") {
		r.Rows = append(r.Rows, row)
		run.record(o.recorder(&row))
	}
	if use("dls-known") {
		known, knownRun, err := dlsKnown(ctx, p, o, row, run)
		if err != nil {
			return err
		}
		r.Rows = append(r.Rows, known)
		if known.Skipped {
			o.traceSkipped(&known)
		}
		knownRun.record(o.recorder(&known))
		step()
	}
	return nil
}

// rank names the best completed row and fills every completed row's
// ratio to it.
func (r *Report) rank() {
	best := math.Inf(1)
	for _, x := range r.Rows {
		if x.Completed && !x.Skipped && *x.Makespan < best {
			best, r.Best = *x.Makespan, x.Strategy
			if x.Tasks > 0 {
				r.Best = fmt.Sprintf("%s (M = %d)", x.Strategy, x.Tasks)
			}
		}
	}
	for i := range r.Rows {
		if x := &r.Rows[i]; x.Completed && !x.Skipped {
			x.Ratio = ptr(*x.Makespan / best)
		}
	}
}

func ptr(x float64) *float64 { return &x }

// finish sets a row's outcome: a makespan and utilisation when it
// completed (busy is the workers' total computing time), none otherwise.
func (x *Row) finish(completed bool, makespan, busy float64, workers int) {
	x.Completed = completed
	x.Makespan, x.Utilisation = nil, nil
	if !completed {
		return
	}
	x.Makespan = ptr(makespan)
	if makespan > 0 {
		x.Utilisation = ptr(busy / (float64(workers) * makespan))
	}
}
