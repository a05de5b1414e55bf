// Package compare puts planning and farming side by side: one platform (a
// master holding V units of load, workers on a star, a chain or a complete
// k-ary tree, links costing S + C·x per message of x units, computing A per
// unit, buffers of D units), one load, every strategy run on the executor
// kernel:
//
//   - dls: the best divisible-load schedule of paper 003 for the nominal
//     platform (best n), replayed in earliest mode on the real, possibly
//     perturbed platform;
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
// A strategy that does not apply is listed with the reason. The lower
// bound is one no strategy can beat on the real platform.
package compare

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dlsched/dlsched/executor/farm/day"
	"github.com/dlsched/dlsched/executor/farm/nepp"
	"github.com/dlsched/dlsched/executor/farm/pfarm"
	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/optimize"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/topology"
)

// Slow slows worker Worker (1-based) to Factor times its speed from At on.
type Slow struct {
	Worker int     `json:"worker"`
	At     float64 `json:"at"`
	Factor float64 `json:"factor"`
}

// Crash ends worker Worker at At.
type Crash struct {
	Worker int     `json:"worker"`
	At     float64 `json:"at"`
}

// Platform is the one platform every strategy runs on.
type Platform struct {
	// Topology is "star" (M workers), "chain" (M workers in a line below
	// the master) or "kary" (a complete K-ary tree of Depth worker levels
	// under the master, workers in heap order).
	Topology string  `json:"topology"`
	M        int     `json:"m,omitempty"`
	K        int     `json:"k,omitempty"`
	Depth    int     `json:"depth,omitempty"`
	S        float64 `json:"S"`
	C        float64 `json:"C"`
	A        float64 `json:"A"`
	// Procs gives per-worker A (stars), overriding A.
	Procs []float64 `json:"procs,omitempty"`
	// D is the buffer size (Inf: unlimited) and V the load.
	D schedule.Float `json:"D"`
	V float64        `json:"V"`
	// ResultPerUnit is the result size per unit of load (default 0).
	ResultPerUnit float64 `json:"result_per_unit"`
	// Slows and Crashes perturb the real platform; the planner of dls
	// does not know them.
	Slows   []Slow  `json:"slows,omitempty"`
	Crashes []Crash `json:"crashes,omitempty"`
}

// Workers returns the number of workers.
func (p *Platform) Workers() int {
	if p.Topology == "kary" {
		return topology.KAryNodes(p.K, p.Depth+1) - 1
	}
	return p.M
}

func (p *Platform) a(i int) float64 { // worker i, 1-based
	if len(p.Procs) > 0 {
		return p.Procs[i-1]
	}
	return p.A
}

// Validate checks the platform; errors name the field.
func (p *Platform) Validate() error {
	switch p.Topology {
	case "star", "chain":
		if p.M < 1 || p.M > 10000 {
			return fmt.Errorf("compare: m = %d, want 1..10000 workers", p.M)
		}
	case "kary":
		if p.K < 1 || p.Depth < 1 || topology.KAryNodes(p.K, p.Depth+1) < 0 || topology.KAryNodes(p.K, p.Depth+1) > 10001 {
			return fmt.Errorf("compare: k = %d, depth = %d: want k, depth >= 1 and at most 10000 workers", p.K, p.Depth)
		}
	default:
		return fmt.Errorf("compare: topology %q, want star, chain or kary", p.Topology)
	}
	for name, v := range map[string]float64{"S": p.S, "C": p.C, "result per unit": p.ResultPerUnit} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("compare: %s = %g, want a finite number >= 0", name, v)
		}
	}
	if !(p.A > 0) || math.IsInf(p.A, 0) {
		return fmt.Errorf("compare: A = %g, want a finite number > 0", p.A)
	}
	if !(p.V > 0) || math.IsInf(p.V, 0) {
		return fmt.Errorf("compare: V = %g, want a finite number > 0", p.V)
	}
	if d := float64(p.D); !(d > 0) {
		return fmt.Errorf("compare: D = %g, want a number > 0 or inf", d)
	}
	if len(p.Procs) > 0 {
		if p.Topology != "star" || len(p.Procs) != p.M {
			return fmt.Errorf("compare: procs: %d per-worker values need a star of as many workers (m = %d)", len(p.Procs), p.M)
		}
		for i, a := range p.Procs {
			if !(a > 0) || math.IsInf(a, 0) {
				return fmt.Errorf("compare: procs[%d] = %g, want A > 0", i, a)
			}
		}
	}
	w := p.Workers()
	for i, s := range p.Slows {
		if s.Worker < 1 || s.Worker > w || !(s.At >= 0) || math.IsInf(s.At, 0) || !(s.Factor > 0) || math.IsInf(s.Factor, 0) {
			return fmt.Errorf("compare: slow %d: worker %d at %g factor %g, want worker 1..%d, time >= 0, factor > 0", i+1, s.Worker, s.At, s.Factor, w)
		}
	}
	for i, c := range p.Crashes {
		if c.Worker < 1 || c.Worker > w || !(c.At >= 0) || math.IsInf(c.At, 0) {
			return fmt.Errorf("compare: crash %d: worker %d at %g, want worker 1..%d, time >= 0", i+1, c.Worker, c.At, w)
		}
	}
	return nil
}

func (p *Platform) perturbed() bool { return len(p.Slows) > 0 || len(p.Crashes) > 0 }

// Options choose the strategies and their parameters.
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
	// NMax bounds dls's search over n (0: optimize's default).
	NMax int
}

// Strategies lists every strategy name in output order.
var Strategies = []string{"dls", "dls-known", "demand", "queue", "replicate", "harness"}

// Row is one strategy at one task count (JSON names are part of the CLI
// contract).
type Row struct {
	Strategy    string  `json:"strategy"`
	Tasks       int     `json:"tasks"`
	Makespan    float64 `json:"makespan"`
	Ratio       float64 `json:"ratio_to_best"`
	Messages    int64   `json:"messages"`
	Units       float64 `json:"units_moved"`
	Utilisation float64 `json:"worker_utilisation"`
	Verified    bool    `json:"verified"`
	Completed   bool    `json:"completed"`
	Note        string  `json:"note"`
	Skipped     bool    `json:"skipped,omitempty"`
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

// Report is the comparison.
type Report struct {
	Platform         Platform `json:"platform"`
	Rows             []Row    `json:"rows"`
	LowerBound       float64  `json:"lower_bound"`
	LowerBoundMethod string   `json:"lower_bound_method"`
	Best             string   `json:"best"`
}

// LowerBound is a makespan no strategy can beat on the real platform: the
// work V·A over the workers' fastest combined speed (each worker counted at
// its highest speed factor over the run), and the master's ports, which
// must carry all V units: S + C·V/ports (1 port for a star and a chain, k
// for a k-ary tree, whose master sends to its k children at once).
func LowerBound(p *Platform) (float64, string) {
	w := p.Workers()
	speed := 0.0
	for i := 1; i <= w; i++ {
		f := 1.0
		for _, s := range p.Slows {
			if s.Worker == i {
				f = math.Max(f, s.Factor)
			}
		}
		speed += f / p.a(i)
	}
	work := p.V / speed
	ports := 1.0
	if p.Topology == "kary" {
		ports = float64(p.K)
	}
	comm := p.S + p.C*p.V/ports
	if work >= comm {
		return work, fmt.Sprintf("work: V / Σ_i (f_i/A_i) = %.6g / %.6g, every worker at its highest speed factor f_i over the run", p.V, speed)
	}
	return comm, fmt.Sprintf("the master's %g port(s) carry all V units: S + C·V/%g", ports, ports)
}

// Run evaluates every applicable strategy on the platform.
func Run(ctx context.Context, p Platform, o Options) (*Report, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(o.Tasks) == 0 {
		o.Tasks = []int{10, 100, 1000}
	}
	for _, m := range o.Tasks {
		if m < 1 || m > 1_000_000 {
			return nil, fmt.Errorf("compare: tasks %d, want 1..1000000", m)
		}
	}
	if o.Queue == 0 {
		o.Queue = 4
	}
	if o.Queue < 1 {
		return nil, fmt.Errorf("compare: queue %d, want >= 1", o.Queue)
	}
	want := map[string]bool{}
	for _, s := range o.Strategies {
		known := false
		for _, k := range Strategies {
			known = known || k == s
		}
		if !known {
			return nil, fmt.Errorf("compare: strategy %q, want one of %s", s, strings.Join(Strategies, ", "))
		}
		want[s] = true
	}
	use := func(s string) bool { return len(want) == 0 || want[s] }
	r := &Report{Platform: p}
	r.LowerBound, r.LowerBoundMethod = LowerBound(&p)
	if use("dls") || use("dls-known") {
		row, err := dls(ctx, &p, o)
		if err != nil {
			return nil, err
		}
		if use("dls") {
			r.Rows = append(r.Rows, row)
		}
		if use("dls-known") {
			known, err := dlsKnown(ctx, &p, o, row)
			if err != nil {
				return nil, err
			}
			r.Rows = append(r.Rows, known)
		}
	}
	for _, m := range o.Tasks {
		for _, s := range []string{"demand", "queue", "replicate", "harness"} {
			if !use(s) {
				continue
			}
			row, err := farm(ctx, &p, o, s, m)
			if err != nil {
				return nil, err
			}
			r.Rows = append(r.Rows, row)
		}
	}
	best := math.Inf(1)
	for _, x := range r.Rows {
		if x.Completed && !x.Skipped && x.Makespan < best {
			best, r.Best = x.Makespan, x.Strategy
			if x.Tasks > 0 {
				r.Best = fmt.Sprintf("%s (M = %d)", x.Strategy, x.Tasks)
			}
		}
	}
	for i := range r.Rows {
		if r.Rows[i].Completed && !r.Rows[i].Skipped {
			r.Rows[i].Ratio = r.Rows[i].Makespan / best
		}
	}
	return r, nil
}

// problem is the platform as a divisible-load problem (paper 003).
func (p *Platform) problem(procs []float64) *problem.Problem {
	pr := &problem.Problem{S: p.S, C: p.C, A: p.A, D: float64(p.D), V: p.V, Buffers: 1, Order: topology.NLF}
	switch p.Topology {
	case "star":
		pr.Kind, pr.M = topology.Star, p.M
		if procs != nil {
			pr.M = len(procs)
			for _, a := range procs {
				pr.Procs = append(pr.Procs, schedule.Proc{S: p.S, C: p.C, A: a})
			}
		}
	case "chain":
		pr.Kind, pr.P, pr.H = topology.Tree, 1, p.M
	case "kary":
		pr.Kind, pr.P, pr.H = topology.Tree, p.K, p.Depth
	}
	return pr
}

// bestSchedule is the schedule of pr at its best n (optimize.OverN),
// solved as `dlsched solve --stages n` solves it (the pattern search).
func bestSchedule(pr *problem.Problem, o Options) (*schedule.Schedule, error) {
	res, err := optimize.OverN(pr, optimize.Options{Solve: solve.Options{Solver: o.Solver}, NMax: o.NMax})
	if err != nil {
		return nil, err
	}
	return res.Final.Schedule, nil
}

// faults maps the platform's perturbations to replay faults (worker i is
// node i: stars by number, trees in heap order, which is topology.Build's).
func (p *Platform) faults() []replay.Fault {
	var out []replay.Fault
	for _, s := range p.Slows {
		out = append(out, replay.Fault{Node: s.Worker, At: s.At, Speed: s.Factor})
	}
	for _, c := range p.Crashes {
		out = append(out, replay.Fault{Node: c.Worker, At: c.At, Crash: true})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].At < out[b].At })
	return out
}

// dls plans for the nominal platform, verifies the plan there, and replays
// it in earliest mode on the real platform.
func dls(ctx context.Context, p *Platform, o Options) (Row, error) {
	row := Row{Strategy: "dls"}
	var procs []float64
	if len(p.Procs) > 0 {
		procs = p.Procs
	}
	s, err := bestSchedule(p.problem(procs), o)
	if err != nil {
		return row, fmt.Errorf("compare: dls: %w", err)
	}
	ver, err := replay.Verify(s, replay.Options{Context: ctx})
	if err != nil {
		return row, fmt.Errorf("compare: dls: verification: %w", err)
	}
	row.Verified = ver.OK
	row.Plan = planOf(s)
	row.Messages, row.Units = dlsTraffic(p, s)
	res, err := replay.Earliest(s, replay.Options{Context: ctx, Faults: p.faults()})
	if err != nil {
		return row, fmt.Errorf("compare: dls: replay on the real platform: %w", err)
	}
	row.Makespan = res.Makespan
	row.Completed = len(res.Incomplete) == 0
	row.Note = fmt.Sprintf("%d stages planned for the nominal platform (Cmax %.6g), replayed on the real one", s.Problem.Stages, s.Cmax)
	if !row.Completed {
		row.Note += fmt.Sprintf("; lost %.6g of %.6g units in chunks %s", res.LostLoad, p.V, chunkList(res.Incomplete))
	}
	row.Utilisation = utilisation(p, res.Makespan, p.V-res.LostLoad)
	return row, nil
}

func chunkList(idx []int) string {
	var parts []string
	for i, c := range idx {
		if i == 12 {
			parts = append(parts, fmt.Sprintf("… (%d in all)", len(idx)))
			break
		}
		parts = append(parts, fmt.Sprint(c+1))
	}
	return strings.Join(parts, ", ")
}

// dlsTraffic counts the messages and the units the links carry.
func dlsTraffic(p *Platform, s *schedule.Schedule) (int64, float64) {
	var msgs int64
	units := 0.0
	g, err := topology.Build(topology.Tree, 0, max(s.Problem.P, 1), max(s.Problem.H, 1))
	for _, c := range s.Chunks {
		switch p.Topology {
		case "star":
			msgs++
			units += c.Load
		default:
			if err != nil {
				continue
			}
			// a chunk for layer l crosses every link above the layer's nodes
			for l := 1; l <= c.Layer; l++ {
				n := int64(len(g.ByLayer[l]))
				msgs += n
				units += float64(n) * c.Load * topology.TreeHopLoad(s.Problem.P, c.Layer, l-1)
			}
		}
	}
	return msgs, units
}

// utilisation is the share of the workers' capacity spent on useful work.
func utilisation(p *Platform, makespan, units float64) float64 {
	if makespan <= 0 {
		return 0
	}
	cap := 0.0
	for i := 1; i <= p.Workers(); i++ {
		cap += makespan / p.a(i)
	}
	return units / cap
}

// dlsKnown plans with the perturbation known (stars): the heterogeneous
// LP with a slowed worker's A divided by its factor (as if slow from the
// start), or without the crashed workers; the better of that plan and the
// nominal one on the real platform.
func dlsKnown(ctx context.Context, p *Platform, o Options, nominal Row) (Row, error) {
	row := Row{Strategy: "dls-known"}
	if !p.perturbed() {
		row = nominal
		row.Strategy = "dls-known"
		row.Note = "no perturbation: the same plan as dls"
		return row, nil
	}
	if p.Topology != "star" {
		row.Skipped = true
		row.Note = "the heterogeneous LP exists for stars only"
		return row, nil
	}
	dead := map[int]bool{}
	for _, c := range p.Crashes {
		dead[c.Worker] = true
	}
	var procs []float64
	var ids []int
	for i := 1; i <= p.M; i++ {
		if dead[i] {
			continue
		}
		a := p.a(i)
		for _, s := range p.Slows {
			if s.Worker == i {
				a = p.a(i) / s.Factor
			}
		}
		procs = append(procs, a)
		ids = append(ids, i)
	}
	if len(procs) == 0 {
		row.Skipped, row.Note = true, "every worker crashes"
		return row, nil
	}
	s, err := bestSchedule(p.problem(procs), o)
	if err != nil {
		return row, fmt.Errorf("compare: dls-known: %w", err)
	}
	ver, err := replay.Verify(s, replay.Options{Context: ctx})
	if err != nil {
		return row, fmt.Errorf("compare: dls-known: verification: %w", err)
	}
	real := p.onReal(s, ids)
	res, err := replay.Earliest(real, replay.Options{Context: ctx, Faults: p.faults()})
	if err != nil {
		return row, fmt.Errorf("compare: dls-known: replay: %w", err)
	}
	row.Makespan, row.Verified, row.Completed = res.Makespan, ver.OK, len(res.Incomplete) == 0
	row.Plan = planOf(s)
	row.Plan.WorkerOrder = real.WorkerOrder // in the platform's worker numbers
	row.Messages, row.Units = dlsTraffic(p, real)
	row.Utilisation = utilisation(p, res.Makespan, p.V-res.LostLoad)
	row.Note = fmt.Sprintf("%d stages planned knowing the perturbation (Cmax %.6g)", s.Problem.Stages, s.Cmax)
	if nominal.Completed && (!row.Completed || nominal.Makespan < row.Makespan) {
		keep := nominal
		keep.Strategy = "dls-known"
		keep.Note = "the nominal plan does better on the real platform than the plan that knows the perturbation (" + row.Note + ")"
		return keep, nil
	}
	return row, nil
}

// onReal returns the plan s of the workers ids (the plan's processor k is
// worker ids[k−1]) as a schedule of the real platform: its workers and
// their nominal parameters, the chunks and the worker order in the
// platform's numbers, the hops left for the replay to derive.
func (p *Platform) onReal(s *schedule.Schedule, ids []int) *schedule.Schedule {
	real := *s
	real.Problem.Procs = nil
	real.Problem.M = p.M
	real.Problem.A = p.A
	real.Chunks = append([]schedule.Chunk(nil), s.Chunks...)
	for i := range real.Chunks {
		real.Chunks[i].Processor = ids[real.Chunks[i].Processor-1]
		real.Chunks[i].Hops = nil
	}
	real.WorkerOrder = nil
	for _, k := range s.WorkerOrder {
		real.WorkerOrder = append(real.WorkerOrder, ids[k-1])
	}
	if len(p.Procs) > 0 {
		for i := 1; i <= p.M; i++ {
			real.Problem.Procs = append(real.Problem.Procs, schedule.Proc{S: p.S, C: p.C, A: p.a(i)})
		}
	}
	return &real
}

// farm runs one farming strategy with m tasks of V/m units.
func farm(ctx context.Context, p *Platform, o Options, strategy string, m int) (Row, error) {
	row := Row{Strategy: strategy, Tasks: m}
	x := p.V / float64(m)
	w := p.Workers()
	switch {
	case strategy == "harness" && p.Topology != "chain":
		row.Skipped, row.Note = true, "Day's harness D is a line harness: chains only"
		return row, nil
	case (strategy == "queue" || strategy == "replicate") && p.Topology != "star":
		row.Skipped, row.Note = true, "NEPP's host talks to every node directly: stars only"
		return row, nil
	case strategy == "harness" && p.perturbed():
		row.Skipped, row.Note = true, "Day's harness is simulated on a nominal platform only"
		return row, nil
	case strategy == "harness" && p.C == 0:
		row.Skipped, row.Note = true, "Day's model needs a finite bandwidth (C > 0)"
		return row, nil
	case strategy == "demand" && p.Topology != "star" && len(p.Crashes) > 0:
		row.Skipped, row.Note = true, "Pfarm has no fault tolerance: a crash loses the farm's tasks"
		return row, nil
	}
	if p.Topology == "star" {
		return neppRow(ctx, p, o, strategy, m, x)
	}
	if strategy == "harness" {
		return dayRow(ctx, p, m, x)
	}
	// Pfarm with the master at the root of the tree.
	var t *topology.FarmTree
	var err error
	if p.Topology == "chain" {
		t, err = topology.Chain(w + 1)
	} else {
		t, err = topology.KAry(p.K, p.Depth+1)
	}
	if err != nil {
		return row, err
	}
	pp := &pfarm.Params{M: m, Te: p.A * x, Tau: p.C, Startup: p.S, Dt: x, Dr: p.ResultPerUnit * x}
	opt := pfarm.SimOptions{NoRootWorker: true, FreeHostLink: true}
	for _, s := range p.Slows {
		opt.Slowdowns = append(opt.Slowdowns, pfarm.Slowdown{Node: s.Worker + 1, At: s.At, Factor: s.Factor})
	}
	res, err := pfarm.Simulate(ctx, t, pp, opt)
	if err != nil {
		return row, fmt.Errorf("compare: demand: %w", err)
	}
	done := int64(0)
	busy := 0.0
	for i := 1; i < len(res.TasksPerWorker); i++ {
		done += res.TasksPerWorker[i]
		busy += res.Busy[i]
	}
	row.Makespan, row.Completed, row.Verified = res.Makespan, done == int64(m), done == int64(m)
	row.Messages, row.Units = res.Messages, res.Bytes
	row.Utilisation = busy / (float64(w) * res.Makespan)
	row.Note = fmt.Sprintf("Pfarm, tasks of %.6g units, the master at the root", x)
	return row, nil
}

func neppRow(ctx context.Context, p *Platform, o Options, strategy string, m int, x float64) (Row, error) {
	row := Row{Strategy: strategy, Tasks: m}
	alg := map[string]nepp.Algorithm{"demand": nepp.Simple, "queue": nepp.Multiple, "replicate": nepp.FaultTolerant}[strategy]
	cfg := &nepp.Config{Algorithm: alg, Queue: o.Queue, Jobs: m, Work: p.A * x, Setup: p.S, PerByte: p.C,
		JobBytes: x, ResultBytes: p.ResultPerUnit * x}
	for i := 1; i <= p.M; i++ {
		cfg.Speeds = append(cfg.Speeds, p.A/p.a(i))
	}
	for _, s := range p.Slows {
		cfg.Slows = append(cfg.Slows, nepp.Slow{Node: s.Worker, At: s.At, Factor: s.Factor})
	}
	for _, c := range p.Crashes {
		cfg.Crashes = append(cfg.Crashes, nepp.Crash{Node: c.Worker, At: c.At})
	}
	res, err := nepp.Simulate(ctx, cfg)
	if err != nil {
		return row, fmt.Errorf("compare: %s: %w", strategy, err)
	}
	row.Makespan, row.Completed = res.Makespan, res.Completed
	row.Verified = res.Completed && res.Results == m && res.ResultMessages == res.Results+res.RedundantDiscarded
	row.Messages, row.Units = int64(res.Messages), res.Bytes
	busy := 0.0
	for _, b := range res.Busy {
		busy += b
	}
	if res.Makespan > 0 {
		row.Utilisation = busy / (float64(p.M) * res.Makespan)
	}
	name := map[string]string{"demand": "request and reply (NEPP Simple Distribution)", "queue": fmt.Sprintf("NEPP Multiple Distribution, q = %d", o.Queue),
		"replicate": fmt.Sprintf("NEPP Fault-Tolerant Distribution, q = %d", o.Queue)}[strategy]
	row.Note = fmt.Sprintf("%s, tasks of %.6g units", name, x)
	if res.RedundantDiscarded > 0 {
		row.Note += fmt.Sprintf(", %d redundant results", res.RedundantDiscarded)
	}
	if !res.Completed {
		row.Note += "; " + res.Failure
	}
	return row, nil
}

func dayRow(ctx context.Context, p *Platform, m int, x float64) (Row, error) {
	row := Row{Strategy: "harness", Tasks: m}
	cfg := &day.Config{Layout: day.Line, Harness: day.HarnessD, Workers: p.M, MessageBytes: x,
		ResultBytes: p.ResultPerUnit * x, ExplicitResult: true, JobTime: p.A * x, ConstantJobs: true,
		Bandwidth: 1 / p.C, SetupBytes: p.S / p.C, BidirectionalFactor: 1, TotalJobs: m}
	res, err := day.Simulate(ctx, cfg)
	if err != nil {
		return row, fmt.Errorf("compare: harness: %w", err)
	}
	busy := 0.0
	done := 0
	for k, b := range res.Busy {
		busy += b
		done += res.JobsPerWorker[k]
	}
	row.Makespan, row.Completed, row.Verified = res.Makespan, done == m, done == m
	row.Messages, row.Units = res.Messages, res.Bytes
	row.Utilisation = busy / (float64(p.M) * res.Makespan)
	row.Note = fmt.Sprintf("Day's harness D on the line, tasks of %.6g units (results to a harvester beyond the last worker)", x)
	return row, nil
}
