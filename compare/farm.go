package compare

import (
	"context"
	"fmt"

	"github.com/dlsched/dlsched/executor/farm/day"
	"github.com/dlsched/dlsched/executor/farm/nepp"
	"github.com/dlsched/dlsched/executor/farm/pfarm"
	"github.com/dlsched/dlsched/platform"
)

// skip returns why a farming strategy does not apply to the platform, or
// "" when it does.
func skip(p *platform.Platform, strategy string) string {
	switch {
	case strategy == "harness" && p.Kind != platform.Chain:
		return "Day's harness D is a line harness: chains only"
	case (strategy == "queue" || strategy == "replicate") && p.Kind != platform.Star:
		return "NEPP's host talks to every node directly: stars only"
	case strategy == "harness" && p.Perturbed():
		return "Day's harness is simulated on a nominal platform only"
	case strategy == "harness" && p.C == 0:
		return "Day's model needs a finite bandwidth (C > 0)"
	case strategy == "demand" && p.Kind != platform.Star && len(p.Crashes) > 0:
		return "Pfarm has no fault tolerance: a crash loses the farm's tasks"
	}
	return ""
}

// farm runs one farming strategy with m tasks of V/m units.
func farm(ctx context.Context, p *platform.Platform, o Options, strategy string, m int) (Row, error) {
	if why := skip(p, strategy); why != "" {
		row := Row{Strategy: strategy, Tasks: m, Skipped: true, Note: why}
		o.traceSkipped(&row)
		return row, nil
	}
	x := p.V / float64(m)
	run := platform.RunOptions{Trace: o.recorder(&Row{Strategy: strategy, Tasks: m})}
	switch {
	case p.Kind == platform.Star:
		return neppRow(ctx, p, o, run, strategy, m, x)
	case strategy == "harness":
		return dayRow(ctx, p, run, m, x)
	}
	return pfarmRow(ctx, p, run, m, x)
}

// pfarmRow runs Pfarm with the master at the root of the chain or tree
// (pfarm.FromPlatform). Like the other farms it runs without limits of its
// own (run has none): Check held every run against compare's limits.
func pfarmRow(ctx context.Context, p *platform.Platform, run platform.RunOptions, m int, x float64) (Row, error) {
	row := Row{Strategy: "demand", Tasks: m}
	cfg, err := pfarm.FromPlatform(p, m)
	if err != nil {
		return row, fmt.Errorf("compare: demand: %w", err)
	}
	rep, err := pfarm.Run(ctx, cfg, run)
	if err != nil {
		return row, fmt.Errorf("compare: demand: %w", err)
	}
	res := rep.Simulated
	done := int64(0)
	busy := 0.0
	for i := 1; i < len(res.TasksPerWorker); i++ {
		done += res.TasksPerWorker[i]
		busy += res.Busy[i]
	}
	row.Verified = done == int64(m)
	row.finish(done == int64(m), res.Makespan, busy, p.Workers())
	row.Messages, row.Units, row.Events = res.Messages, res.Bytes, res.Events
	row.Note = fmt.Sprintf("Pfarm, tasks of %.6g units, the master at the root", x)
	if !row.Completed {
		row.Note = fmt.Sprintf("did not complete: %d of %d tasks done; %s", done, m, row.Note)
	}
	return row, nil
}

// neppAlgorithm is the NEPP distribution of a strategy.
var neppAlgorithm = map[string]nepp.Algorithm{"demand": nepp.Simple, "queue": nepp.Multiple, "replicate": nepp.FaultTolerant}

// neppRow runs one of NEPP's distributions on the star
// (nepp.FromPlatform).
func neppRow(ctx context.Context, p *platform.Platform, o Options, run platform.RunOptions, strategy string, m int, x float64) (Row, error) {
	row := Row{Strategy: strategy, Tasks: m}
	cfg, err := nepp.FromPlatform(p, neppAlgorithm[strategy], m, o.Queue)
	if err != nil {
		return row, fmt.Errorf("compare: %s: %w", strategy, err)
	}
	rep, err := nepp.Run(ctx, cfg, run)
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

// dayRow runs Day's harness D on the chain (day.FromPlatform).
func dayRow(ctx context.Context, p *platform.Platform, run platform.RunOptions, m int, x float64) (Row, error) {
	row := Row{Strategy: "harness", Tasks: m}
	cfg, err := day.FromPlatform(p, m)
	if err != nil {
		return row, fmt.Errorf("compare: harness: %w", err)
	}
	rep, err := day.Run(ctx, cfg, run)
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
