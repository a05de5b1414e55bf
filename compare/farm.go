package compare

import (
	"context"
	"fmt"

	"github.com/dlsched/dlsched/executor/farm/day"
	"github.com/dlsched/dlsched/executor/farm/nepp"
	"github.com/dlsched/dlsched/executor/farm/pfarm"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/topology"
)

// skip returns why a farming strategy does not apply to the platform, or
// "" when it does.
func skip(p *Platform, strategy string) string {
	switch {
	case strategy == "harness" && p.Topology != "chain":
		return "Day's harness D is a line harness: chains only"
	case (strategy == "queue" || strategy == "replicate") && p.Topology != "star":
		return "NEPP's host talks to every node directly: stars only"
	case strategy == "harness" && p.perturbed():
		return "Day's harness is simulated on a nominal platform only"
	case strategy == "harness" && p.C == 0:
		return "Day's model needs a finite bandwidth (C > 0)"
	case strategy == "demand" && p.Topology != "star" && len(p.Crashes) > 0:
		return "Pfarm has no fault tolerance: a crash loses the farm's tasks"
	}
	return ""
}

// farm runs one farming strategy with m tasks of V/m units.
func farm(ctx context.Context, p *Platform, o Options, strategy string, m int) (Row, error) {
	if why := skip(p, strategy); why != "" {
		return Row{Strategy: strategy, Tasks: m, Skipped: true, Note: why}, nil
	}
	x := p.V / float64(m)
	switch {
	case p.Topology == "star":
		return neppRow(ctx, p, o, strategy, m, x)
	case strategy == "harness":
		return dayRow(ctx, p, m, x)
	}
	return pfarmRow(ctx, p, o, m, x)
}

// pfarmRow runs Pfarm with the master at the root of the chain or tree.
func pfarmRow(ctx context.Context, p *Platform, o Options, m int, x float64) (Row, error) {
	row := Row{Strategy: "demand", Tasks: m}
	w := p.Workers()
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
	opt := pfarm.SimOptions{NoRootWorker: true, FreeHostLink: true, MaxEvents: o.MaxEvents}
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
	row.Verified = done == int64(m)
	row.finish(done == int64(m), res.Makespan, busy, w)
	row.Messages, row.Units, row.Events = res.Messages, res.Bytes, res.Events
	row.Note = fmt.Sprintf("Pfarm, tasks of %.6g units, the master at the root", x)
	if !row.Completed {
		row.Note = fmt.Sprintf("did not complete: %d of %d tasks done; %s", done, m, row.Note)
	}
	return row, nil
}

// neppRow runs one of NEPP's distributions on the star.
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
	rep, err := nepp.Run(ctx, *cfg, platform.RunOptions{})
	if err != nil {
		return row, fmt.Errorf("compare: %s: %w", strategy, err)
	}
	res := rep.Simulated
	busy := 0.0
	for _, b := range res.Busy {
		busy += b
	}
	row.finish(res.Completed, res.Makespan, busy, p.M)
	row.Verified = res.Completed && res.Results == m && res.ResultMessages == res.Results+res.RedundantDiscarded
	row.Messages, row.Units, row.Events = int64(res.Messages), res.Bytes, res.Events
	name := map[string]string{"demand": "request and reply (NEPP Simple Distribution)", "queue": fmt.Sprintf("NEPP Multiple Distribution, q = %d", o.Queue),
		"replicate": fmt.Sprintf("NEPP Fault-Tolerant Distribution, q = %d", o.Queue)}[strategy]
	row.Note = fmt.Sprintf("%s, tasks of %.6g units", name, x)
	if res.RedundantDiscarded > 0 {
		row.Note += fmt.Sprintf(", %d redundant results", res.RedundantDiscarded)
	}
	if !res.Completed {
		row.Note = "did not complete: " + res.Failure + "; " + row.Note
	}
	return row, nil
}

// dayRow runs Day's harness D on the chain.
func dayRow(ctx context.Context, p *Platform, m int, x float64) (Row, error) {
	row := Row{Strategy: "harness", Tasks: m}
	cfg := &day.Config{Layout: day.Line, Harness: day.HarnessD, Workers: p.M, MessageBytes: x,
		ResultBytes: p.ResultPerUnit * x, ExplicitResult: true, JobTime: p.A * x, ConstantJobs: true,
		Bandwidth: 1 / p.C, SetupBytes: p.S / p.C, BidirectionalFactor: 1, TotalJobs: m}
	rep, err := day.Run(ctx, *cfg, platform.RunOptions{})
	if err != nil {
		return row, fmt.Errorf("compare: harness: %w", err)
	}
	res := rep.Simulated
	busy := 0.0
	done := 0
	for k, b := range res.Busy {
		busy += b
		done += res.JobsPerWorker[k]
	}
	row.Verified = done == m
	row.finish(done == m, res.Makespan, busy, p.M)
	row.Messages, row.Units, row.Events = res.Messages, res.Bytes, res.Events
	row.Note = fmt.Sprintf("Day's harness D on the line, tasks of %.6g units (results to a harvester beyond the last worker)", x)
	if !row.Completed {
		row.Note = fmt.Sprintf("did not complete: %d of %d jobs done; %s", done, m, row.Note)
	}
	return row, nil
}
