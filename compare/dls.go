package compare

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/optimize"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/topology"
)

// problem is the platform as a divisible-load problem (Drozdowski &
// Wolniewicz): a star (with per-worker A when procs is not nil), or an
// ordinary tree of out-degree 1 (a chain) or k.
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

// nominalProcs is the per-worker A of the nominal platform (nil when
// homogeneous).
func (p *Platform) nominalProcs() []float64 {
	if len(p.Procs) > 0 {
		return p.Procs
	}
	return nil
}

// knownProcs is the platform dls-known plans for: the workers that do not
// crash, each slowed one with its A divided by its (last) factor, and
// their worker numbers.
func (p *Platform) knownProcs() ([]float64, []int) {
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
	return procs, ids
}

// bestSchedule is the schedule of pr at its best n (optimize.OverN),
// solved as `dlsched solve --stages n` solves it (the pattern search).
func bestSchedule(pr *problem.Problem, o Options) (*schedule.Schedule, error) {
	res, err := optimize.OverN(pr, optimize.Options{Solve: solve.Options{Solver: o.Solver, MaxModelBytes: o.MaxBytes}, NMax: o.NMax})
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

func (o Options) replay(ctx context.Context, faults []replay.Fault) replay.Options {
	return replay.Options{Context: ctx, Faults: faults, MaxBytes: o.MaxBytes, MaxEvents: o.MaxEvents}
}

// dls plans for the nominal platform, verifies the plan there, and replays
// it in earliest mode on the real platform.
func dls(ctx context.Context, p *Platform, o Options) (Row, error) {
	row := Row{Strategy: "dls"}
	s, err := bestSchedule(p.problem(p.nominalProcs()), o)
	if err != nil {
		return row, fmt.Errorf("compare: dls: %w", err)
	}
	ver, err := replay.Verify(s, o.replay(ctx, nil))
	if err != nil {
		return row, fmt.Errorf("compare: dls: verification: %w", err)
	}
	row.Verified = ver.OK
	row.Plan = planOf(s)
	row.Messages, row.Units = dlsTraffic(p, s)
	res, err := replay.Earliest(s, o.replay(ctx, p.faults()))
	if err != nil {
		return row, fmt.Errorf("compare: dls: replay on the real platform: %w", err)
	}
	row.Events = int64(ver.Events) + res.Events
	row.Note = fmt.Sprintf("%s planned for the nominal platform (Cmax %.6g), replayed on the real one", stages(s.Problem.Stages), s.Cmax)
	replayed(&row, p, &res)
	return row, nil
}

// replayed sets the outcome of a planned schedule replayed on the real
// platform: its makespan and utilisation, or, when a crash lost work, why
// it did not complete.
func replayed(row *Row, p *Platform, res *replay.Result) {
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

// sameAsDls is the note of dls-known on a platform without perturbation.
const sameAsDls = "no perturbation: the same plan as dls"

// dlsKnown plans with the perturbation known (stars): the heterogeneous
// LP with a slowed worker's A divided by its factor (as if slow from the
// start), or without the crashed workers; the better of that plan and the
// nominal one on the real platform.
func dlsKnown(ctx context.Context, p *Platform, o Options, nominal Row) (Row, error) {
	row := Row{Strategy: "dls-known"}
	switch {
	case !p.perturbed():
		row = nominal
		row.Strategy = "dls-known"
		row.Note = sameAsDls
		return row, nil
	case p.Topology != "star":
		row.Skipped, row.Note = true, "the heterogeneous LP exists for stars only"
		return row, nil
	}
	procs, ids := p.knownProcs()
	if len(procs) == 0 {
		row.Skipped, row.Note = true, "every worker crashes"
		return row, nil
	}
	s, err := bestSchedule(p.problem(procs), o)
	if err != nil {
		return row, fmt.Errorf("compare: dls-known: %w", err)
	}
	ver, err := replay.Verify(s, o.replay(ctx, nil))
	if err != nil {
		return row, fmt.Errorf("compare: dls-known: verification: %w", err)
	}
	real := onWorkers(p, s, ids)
	res, err := replay.Earliest(real, o.replay(ctx, p.faults()))
	if err != nil {
		return row, fmt.Errorf("compare: dls-known: replay: %w", err)
	}
	row.Verified, row.Plan, row.Events = ver.OK, planOf(s), int64(ver.Events)+res.Events
	row.Plan.WorkerOrder = real.WorkerOrder // in the platform's worker numbers
	row.Messages, row.Units = dlsTraffic(p, real)
	row.Note = fmt.Sprintf("%s planned knowing the perturbation (Cmax %.6g)", stages(s.Problem.Stages), s.Cmax)
	replayed(&row, p, &res)
	if nominal.Completed && (!row.Completed || *nominal.Makespan < *row.Makespan) {
		keep := nominal
		keep.Strategy = "dls-known"
		keep.Note = "the nominal plan does better on the real platform than the plan that knows the perturbation (" + row.Note + ")"
		return keep, nil
	}
	return row, nil
}

// onWorkers is s, planned for the workers ids, on the real platform: the
// plan's processor k is worker ids[k-1], in the chunks and in the worker
// order; the hops are left for the replay to derive.
func onWorkers(p *Platform, s *schedule.Schedule, ids []int) *schedule.Schedule {
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
