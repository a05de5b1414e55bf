package compare

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/optimize"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/topology"
)

// nominal is the platform the planner of dls knows: p without its
// perturbations, and without results — the planned rows plan and replay
// the distribution of the load alone (result_per_unit is the farms').
func nominal(p *platform.Platform) *platform.Platform {
	q := *p
	q.Slows, q.Crashes, q.ResultPerUnit = nil, nil, 0
	return &q
}

// known is the platform dls-known plans for (a star): the workers that do
// not crash, each slowed one with its A divided by its (last) factor, and
// their worker numbers; nil when every worker crashes.
func known(p *platform.Platform) (*platform.Platform, []int) {
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
		a := p.WorkerA(i)
		for _, s := range p.Slows {
			if s.Worker == i {
				a = p.WorkerA(i) / s.Factor
			}
		}
		procs = append(procs, a)
		ids = append(ids, i)
	}
	if len(procs) == 0 {
		return nil, nil
	}
	q := nominal(p)
	q.M, q.PerWorkerA = len(procs), procs
	return q, ids
}

// bestSchedule is the schedule of the platform's LP (problem.FromPlatform)
// at its best n (optimize.OverN), solved as `dlsched solve --stages n`
// solves it (the pattern search).
func bestSchedule(p *platform.Platform, o Options) (*schedule.Schedule, error) {
	pr, err := problem.FromPlatform(p)
	if err != nil {
		return nil, err
	}
	res, err := optimize.OverN(pr, optimize.Options{Solve: solve.Options{Solver: o.Solver, MaxModelBytes: o.MaxBytes}, NMax: o.NMax})
	if err != nil {
		return nil, err
	}
	return res.Final.Schedule, nil
}

// faults maps the platform's perturbations to replay faults (worker i is
// node i: stars by number, trees in heap order, which is topology.Build's).
func faults(p *platform.Platform) []replay.Fault {
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

func (o Options) replay(ctx context.Context, faults []replay.Fault) replay.Options {
	return replay.Options{Context: ctx, Faults: faults, MaxBytes: o.MaxBytes, MaxEvents: o.MaxEvents}
}

// dls plans for the nominal platform, verifies the plan there, and replays
// it in earliest mode on the real platform; the run on the real platform
// is returned for the trace when one is recorded (Options.Trace).
func dls(ctx context.Context, p *platform.Platform, o Options) (Row, *ran, error) {
	row := Row{Strategy: "dls"}
	s, err := bestSchedule(nominal(p), o)
	if err != nil {
		return row, nil, fmt.Errorf("compare: dls: %w", err)
	}
	ver, err := replay.Verify(s, o.replay(ctx, nil))
	if err != nil {
		return row, nil, fmt.Errorf("compare: dls: verification: %w", err)
	}
	row.Verified = ver.OK
	row.Plan = planOf(s)
	row.Messages, row.Units = dlsTraffic(p, s)
	res, err := replay.Earliest(s, o.replay(ctx, faults(p)))
	if err != nil {
		return row, nil, fmt.Errorf("compare: dls: replay on the real platform: %w", err)
	}
	row.Events = int64(ver.Events) + res.Events
	row.Note = fmt.Sprintf("%s planned for the nominal platform (Cmax %.6g), replayed on the real one", stages(s.Problem.Stages), s.Cmax)
	replayed(&row, p, &res)
	r, err := o.ran(s, &res)
	return row, r, err
}

// ran is the run of s on the real platform for the trace, or nil when no
// trace is recorded.
func (o Options) ran(s *schedule.Schedule, res *replay.Result) (*ran, error) {
	if o.Trace == nil {
		return nil, nil
	}
	r, err := ranOf(s, res)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	return r, nil
}

// replayed sets the outcome of a planned schedule replayed on the real
// platform: its makespan and utilisation, or, when a crash lost work, why
// it did not complete.
func replayed(row *Row, p *platform.Platform, res *replay.Result) {
	busy := 0.0
	for _, b := range res.Busy {
		busy += b
	}
	done := len(res.Incomplete) == 0
	row.finish(done, res.Makespan, busy, p.Workers())
	if !done {
		rest := fmt.Sprintf("the rest computed by t = %.6g", res.Makespan)
		if res.LostLoad >= p.V*(1-1e-9) {
			rest = "nothing computed"
		}
		row.Note = fmt.Sprintf("did not complete: lost %.6g of %.6g units in chunks %s (%s); %s",
			res.LostLoad, p.V, chunkList(res.Incomplete), rest, row.Note)
	}
}

func stages(n int) string {
	if n == 1 {
		return "1 stage"
	}
	return fmt.Sprintf("%d stages", n)
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
func dlsTraffic(p *platform.Platform, s *schedule.Schedule) (int64, float64) {
	var msgs int64
	units := 0.0
	g, err := topology.Build(topology.Tree, 0, max(s.Problem.P, 1), max(s.Problem.H, 1))
	for _, c := range s.Chunks {
		switch p.Kind {
		case platform.Star:
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

// sameAsDls is the note of dls-known on a platform without perturbation.
const sameAsDls = "no perturbation: the same plan as dls"

// dlsKnown plans with the perturbation known (stars): the heterogeneous
// LP with a slowed worker's A divided by its factor (as if slow from the
// start), or without the crashed workers; the better of that plan and the
// nominal one (planned, which ran as plannedRun) on the real platform.
func dlsKnown(ctx context.Context, p *platform.Platform, o Options, planned Row, plannedRun *ran) (Row, *ran, error) {
	row := Row{Strategy: "dls-known"}
	switch {
	case !p.Perturbed():
		row = planned
		row.Strategy = "dls-known"
		row.Note = sameAsDls
		return row, plannedRun, nil
	case p.Kind != platform.Star:
		row.Skipped, row.Note = true, "the heterogeneous LP exists for stars only"
		return row, nil, nil
	}
	q, ids := known(p)
	if q == nil {
		row.Skipped, row.Note = true, "every worker crashes"
		return row, nil, nil
	}
	s, err := bestSchedule(q, o)
	if err != nil {
		return row, nil, fmt.Errorf("compare: dls-known: %w", err)
	}
	ver, err := replay.Verify(s, o.replay(ctx, nil))
	if err != nil {
		return row, nil, fmt.Errorf("compare: dls-known: verification: %w", err)
	}
	real := onWorkers(p, s, ids)
	res, err := replay.Earliest(real, o.replay(ctx, faults(p)))
	if err != nil {
		return row, nil, fmt.Errorf("compare: dls-known: replay: %w", err)
	}
	row.Verified, row.Plan, row.Events = ver.OK, planOf(s), int64(ver.Events)+res.Events
	row.Plan.WorkerOrder = real.WorkerOrder // in the platform's worker numbers
	row.Messages, row.Units = dlsTraffic(p, real)
	row.Note = fmt.Sprintf("%s planned knowing the perturbation (Cmax %.6g)", stages(s.Problem.Stages), s.Cmax)
	replayed(&row, p, &res)
	if planned.Completed && (!row.Completed || *planned.Makespan < *row.Makespan) {
		keep := planned
		keep.Strategy = "dls-known"
		keep.Note = "the nominal plan does better on the real platform than the plan that knows the perturbation (" + row.Note + ")"
		return keep, plannedRun, nil
	}
	r, err := o.ran(real, &res)
	return row, r, err
}

// onWorkers is s, planned for the workers ids, on the real platform: the
// plan's processor k is worker ids[k-1], in the chunks and in the worker
// order; the hops are left for the replay to derive.
func onWorkers(p *platform.Platform, s *schedule.Schedule, ids []int) *schedule.Schedule {
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
	if len(p.PerWorkerA) > 0 {
		for i := 1; i <= p.M; i++ {
			real.Problem.Procs = append(real.Problem.Procs, schedule.Proc{S: p.S, C: p.C, A: p.WorkerA(i)})
		}
	}
	return &real
}
