package day

import "strconv"

// The trace of a run (platform.RunOptions.Trace), in seconds of model
// time: one process per node of the farm — "farmer", "worker k" and, on a
// line, "harvester" — and in each one track per resource:
//
//   - "cpu": the farmer's CPU time per job handed out (a complete event
//     per job, when Config.FarmerCost > 0), and a worker's jobs, each from
//     the moment the worker takes it to its end;
//   - "message cycles": the worker CPU time stolen by a message sent or
//     received (Config.CPUPerMessage > 0), which preempts the job and so
//     lies within its span on "cpu";
//   - one track per link direction the node sends on, named as the link
//     ("job link 1→2", "link 4→1"): a complete event per job or result
//     message, from its start to its end (set-up included);
//   - "results" on the harvester (a line) or the farmer (a tree): an
//     instant when the last result arrives, at the makespan.
//
// Every span is recorded when it ends, and the run stops at the last
// result, so the trace ends at the makespan. Nothing is recorded, and no
// name or argument is built, when the recorder is nil.

const (
	farmerNode    = "farmer"
	harvesterNode = "harvester"
	cpuTrack      = "cpu"
	stolenTrack   = "message cycles"
	resultsTrack  = "results"
)

// workerNode is the trace's name of worker k (0-based).
func workerNode(k int) string { return "worker " + strconv.Itoa(k+1) }

// jobName is "job n" or "result n" (1-based, as the report counts).
func jobName(kind string, jb job) string { return kind + " " + strconv.Itoa(jb.id+1) }

// traceCompute records job jb on worker x from start to end.
func (f *farm) traceCompute(x *worker, jb job, start, end float64) {
	f.rec.Span(x.node, cpuTrack, jobName("job", jb), start, end,
		map[string]any{"job": jb.id + 1, "worker": x.id + 1, "job_time": jb.time})
}

// traceTransfer records a job or result message on link direction d.
func (f *farm) traceTransfer(d *direction, kind string, jb job, payload, start, end float64) {
	f.rec.Span(d.node, d.cpu.Name(), jobName(kind, jb), start, end,
		map[string]any{"job": jb.id + 1, "bytes": payload})
}

// traceFarmer records the farmer's CPU cost of handing out jb, which ends
// at end: the farmer's CPU runs one such cost at a time at speed 1, so it
// began Config.FarmerCost before.
func (f *farm) traceFarmer(jb job, end float64) {
	f.rec.Span(farmerNode, cpuTrack, jobName("job", jb), end-f.c.FarmerCost, end, map[string]any{"job": jb.id + 1})
}

// stolen returns the completion callback that records the cycles a
// message of jb steals from worker x, or nil when nothing is recorded.
func (f *farm) stolen(x *worker, kind string, jb job) func(start, end float64) {
	if f.rec == nil {
		return nil
	}
	return func(start, end float64) {
		f.rec.Span(x.node, stolenTrack, jobName(kind, jb), start, end, map[string]any{"job": jb.id + 1})
	}
}

// traceEnd marks the arrival of the last result.
func (f *farm) traceEnd(now float64) {
	node := harvesterNode
	if f.c.Layout == Tree {
		node = farmerNode
	}
	f.rec.Instant(node, resultsTrack, "last result", now, map[string]any{"results": f.total})
}
