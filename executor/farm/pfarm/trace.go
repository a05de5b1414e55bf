package pfarm

import (
	"math"
	"strconv"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/topology"
)

// The trace of a simulation (platform.RunOptions.Trace): one process per
// node of the farm, the host and processors 1…N; on each, a "cpu" track
// and one track per link direction it sends on, named after the receiver
// ("link to 3", "link to host"): a parent sends tasks to its children, a
// child results to its parent, the host tasks to the root. A span per
// transfer ("task" or "result", with the task's number and its bytes in
// args) and per computation on the CPU ("receive task", "send task",
// "hand over", "receive result", "send result" at High priority, "execute"
// at Low, with the task's number); a slowdown is an instant on the CPU
// track. Spans of no length (an overhead or a link that costs nothing) are
// not recorded, nor those shorter than 1e-12 of the clock's value (the
// residue of the kernel's arithmetic: a worker resumed for one ulp between
// two High computations), which a reader, converting to microseconds,
// could not even order. Times are model seconds. The last span ends at the
// makespan: the last result's transfer to the host, or what precedes it
// when that link is free.
//
// The CPU serves its High computations in FIFO order and a High one
// preempts the worker's Low one at once, so a High computation starts at
// the later of its call and the end of the High computation before it,
// and the worker runs exactly when no High computation does: its task is
// recorded as the slices of its time left between the High spans that
// interrupt it, and no two spans of the cpu track overlap.

// nodeTrace is what the trace of a processor needs while it runs.
type nodeTrace struct {
	name, parent string // "processor 3" and its parent's process ("host")
	down, up     string // the parent's track to it, its track to the parent
	taskStart    float64
	resultStart  float64
	highEnd      float64      // end of the last High computation
	working      bool         // the worker is computing
	preempts     [][2]float64 // High spans since the worker began
}

// host is the process of the host in the trace.
const host = "host"

// nameNodes names the processes and tracks of the trace.
func (f *farm) nameNodes(t *topology.FarmTree) {
	for v, nd := range f.nodes {
		nd.tr.name = "processor " + strconv.Itoa(v+1)
		nd.tr.parent, nd.tr.up = host, "link to host"
		if u := t.Parent[v]; u >= 0 {
			nd.tr.parent, nd.tr.up = "processor "+strconv.Itoa(u+1), "link to "+strconv.Itoa(u+1)
		}
		nd.tr.down = "link to " + strconv.Itoa(v+1)
	}
}

// span records a span of the processor process on track, unless it is
// too short to order (see above).
func (f *farm) span(process, track, name string, start, end float64, args map[string]any) {
	if end-start > 1e-12*math.Abs(end) {
		f.rec.Span(process, track, name, start, end, args)
	}
}

// taskArrived records the transfer of tk to nd that ended at end.
func (f *farm) taskArrived(nd *node, tk task, end float64) {
	if f.rec != nil {
		f.span(nd.tr.parent, nd.tr.down, "task", nd.tr.taskStart, end, map[string]any{"task": int(tk.id) + 1, "bytes": f.p.Dt})
	}
}

// resultArrived records the transfer of r from nd to its parent that
// ended at end.
func (f *farm) resultArrived(nd *node, r task, end float64) {
	if f.rec != nil {
		f.span(nd.tr.name, nd.tr.up, "result", nd.tr.resultStart, end, map[string]any{"task": int(r.id) + 1, "bytes": f.p.Dr})
	}
}

// high spends work on nd's CPU at High priority for task tk, recorded as
// what.
func (f *farm) high(pr *executor.Proc, nd *node, work float64, what string, tk task) {
	if f.rec == nil {
		nd.cpu.Compute(pr, work, executor.High)
		return
	}
	call := pr.Now()
	nd.cpu.Compute(pr, work, executor.High)
	end := pr.Now()
	start := math.Max(call, nd.tr.highEnd)
	nd.tr.highEnd = end
	if work > 0 && end > start {
		f.span(nd.tr.name, "cpu", what, start, end, map[string]any{"task": int(tk.id) + 1})
		if nd.tr.working {
			nd.tr.preempts = append(nd.tr.preempts, [2]float64{start, end})
		}
	}
}

// execute runs task tk on nd's worker at Low priority and records the
// slices of time it held the CPU.
func (f *farm) execute(pr *executor.Proc, nd *node, tk task) {
	if f.rec == nil {
		nd.cpu.Compute(pr, tk.time, executor.Low)
		return
	}
	tr := nd.tr
	tr.working, tr.preempts = true, tr.preempts[:0]
	call := pr.Now()
	nd.cpu.Compute(pr, tk.time, executor.Low)
	tr.working = false
	end, from := pr.Now(), call
	var slices [][2]float64
	for _, h := range tr.preempts {
		if h[0]-from > 1e-12*h[0] {
			slices = append(slices, [2]float64{from, h[0]})
		}
		from = math.Max(from, h[1])
	}
	if end-from > 1e-12*end {
		slices = append(slices, [2]float64{from, end})
	}
	for i, s := range slices {
		args := map[string]any{"task": int(tk.id) + 1, "seconds": tk.time}
		if len(slices) > 1 {
			args["part"] = strconv.Itoa(i+1) + "/" + strconv.Itoa(len(slices))
		}
		f.rec.Span(tr.name, "cpu", "execute", s[0], s[1], args)
	}
}

// slowdown records that nd's CPU changed to speed factor.
func (f *farm) slowdown(nd *node, factor float64) {
	if f.rec != nil {
		f.rec.Instant(nd.tr.name, "cpu", "slowdown", f.sim.Now(), map[string]any{"factor": factor})
	}
}
