package day

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/trace"
)

// Result is what a simulation observed (JSON field names are part of the
// CLI contract).
type Result struct {
	// Efficiency is Σ job times/(w·T), T from the farmer's first send to
	// the arrival of the last result (Section 4.9).
	Efficiency float64 `json:"efficiency"`
	Makespan   float64 `json:"makespan"`
	// JobsPerWorker[k] counts the jobs worker k+1 executed.
	JobsPerWorker []int `json:"jobs_per_worker"`
	// FirstJobStart[k] is when worker k+1 (worker 1 next to the farmer)
	// started its first job; null for a worker that got none (a
	// communication-bound line starves its far end).
	FirstJobStart []*float64 `json:"first_job_start"`
	// Messages counts link transfers (jobs and results); Bytes their
	// sizes (set-up not included).
	Messages int64   `json:"messages"`
	Bytes    float64 `json:"bytes"`
	// Busy[k] is the CPU time of worker k+1 (jobs and stolen cycles).
	Busy []float64 `json:"busy"`
	// Events is the number of kernel events.
	Events int64 `json:"events"`
}

// job is one job, and later its result.
type job struct {
	id     int
	time   float64
	worker int
}

// farm is one simulation: the kernel, the worker processors with their
// harness slots, and what the farmer, the links and the harvester share.
// Its processes are the methods below and in link.go and worker.go.
type farm struct {
	c        *Config
	sim      *executor.Sim
	h        Harness
	ws       []*worker
	top      []*worker // the workers on the farmer's links
	farmer   *executor.CPU
	bw, fac  float64
	jobBytes float64 // a job message with its set-up, in bytes
	resBytes float64 // a result message with its set-up
	next     int     // the next job the farmer hands out
	total    int
	received int // results arrived at the harvester (or the farmer)
	res      *Result
	rec      trace.Recorder // nil: no trace (trace.go)
}

// simulate runs a valid farm on the kernel: the farmer, the workers with
// their harness slots, the links, and the harvester (line) or the farmer
// collecting results (tree). See the package documentation; Run checks
// the configuration and the options first.
func simulate(ctx context.Context, c *Config, opt platform.RunOptions) (*Result, error) {
	f := newFarm(c, opt)
	if c.Layout == Line {
		f.wireLine()
	} else {
		f.wireTree()
	}
	for _, x := range f.ws {
		f.spawnHarness(x)
	}
	if err := f.sim.Run(ctx); err != nil {
		return nil, fmt.Errorf("day: simulation: %w", err)
	}
	if opt.Progress != nil {
		opt.Progress(f.received, f.total)
	}
	if f.received < f.total {
		return nil, fmt.Errorf("day: simulation: %d of %d results arrived", f.received, f.total)
	}
	return f.result(), nil
}

// newFarm builds the worker processors and the topology: the farmer feeds
// worker 1 (line) or workers 1-3 (tree); a tree's children are in heap
// order.
func newFarm(c *Config, opt platform.RunOptions) *farm {
	s := c.setupBytes()
	f := &farm{c: c, h: c.Harness, bw: c.Bandwidth, fac: c.bidir(),
		jobBytes: c.MessageBytes + s, resBytes: c.resultBytes() + s, total: c.jobs(), rec: opt.Trace}
	var progress func(float64, int64)
	if opt.Progress != nil {
		progress = func(float64, int64) { opt.Progress(f.received, f.total) }
	}
	sim := executor.NewSim(executor.SimConfig{Progress: progress})
	f.sim = sim
	w := c.Workers
	f.ws = make([]*worker, w)
	for k := range f.ws {
		f.ws[k] = &worker{id: k, cpu: executor.NewCPU(sim, "worker"+strconv.Itoa(k+1))}
		if f.rec != nil {
			f.ws[k].node = workerNode(k)
		}
	}
	if c.Layout == Line {
		f.top = f.ws[:1]
		for k := 0; k+1 < w; k++ {
			f.ws[k].children = []*worker{f.ws[k+1]}
		}
	} else {
		f.top = f.ws[:3]
		for k, x := range f.ws {
			for i := 3*k + 3; i < 3*k+6 && i < w; i++ {
				x.children = append(x.children, f.ws[i])
			}
		}
	}
	for _, x := range f.ws {
		x.pJobs = make([]executor.FIFO[job], len(x.children))
		x.pUsed = make([]int, len(x.children))
	}
	f.res = &Result{JobsPerWorker: make([]int, w), FirstJobStart: make([]*float64, w)}
	f.farmer = executor.NewCPU(sim, "farmer")
	return f
}

// newDir is one direction of a physical link, on which from sends (nil:
// the farmer).
func (f *farm) newDir(from *worker, name string) *direction {
	d := &direction{cpu: executor.NewCPU(f.sim, name), node: farmerNode}
	if from != nil {
		d.node = from.node
	}
	return d
}

// wireLine connects a line: jobs flow farmer → 1 → … → w on one link per
// hop, results flow toward the harvester beyond worker w on a second link
// per hop.
func (f *farm) wireLine() {
	ws, w := f.ws, len(f.ws)
	f.spawnFeeder(ws[0], f.newDir(nil, "job link farmer→1"))
	for k := 0; k+1 < w; k++ {
		f.spawnJobHop(ws[k], 0, ws[k+1], f.newDir(ws[k], fmt.Sprintf("job link %d→%d", k+1, k+2)))
		ws[k+1].q = make([]executor.FIFO[job], 1)
		ws[k+1].qUsed = make([]int, 1)
		f.spawnResultHop(ws[k], ws[k+1], 0, f.newDir(ws[k], fmt.Sprintf("result link %d→%d", k+1, k+2)))
	}
	f.spawnHarvester(ws[w-1], f.newDir(ws[w-1], "result link →harvester"))
}

// wireTree connects a full ternary tree: each link carries jobs down and
// results up, its two directions slowing each other down.
func (f *farm) wireTree() {
	for _, x := range f.ws {
		x.q = make([]executor.FIFO[job], len(x.children))
		x.qUsed = make([]int, len(x.children))
	}
	for _, t := range f.top {
		down, up := f.newDir(nil, fmt.Sprintf("link farmer→%d", t.id+1)), f.newDir(t, fmt.Sprintf("link %d→farmer", t.id+1))
		down.other, up.other = up, down
		f.spawnFeeder(t, down)
		f.spawnHarvester(t, up)
	}
	for _, x := range f.ws {
		for l, ch := range x.children {
			down, up := f.newDir(x, fmt.Sprintf("link %d→%d", x.id+1, ch.id+1)), f.newDir(ch, fmt.Sprintf("link %d→%d", ch.id+1, x.id+1))
			down.other, up.other = up, down
			f.spawnJobHop(x, l, ch, down)
			f.spawnResultHop(ch, x, l, up)
		}
	}
}

// arrive counts a result at the harvester; the last one ends the run.
func (f *farm) arrive(p *executor.Proc) {
	f.received++
	if f.received == f.total {
		f.res.Makespan = p.Now()
		if f.rec != nil {
			f.traceEnd(p.Now())
		}
		f.sim.Stop()
	}
}

// result fills in what the processors observed.
func (f *farm) result() *Result {
	res, w := f.res, len(f.ws)
	work := 0.0
	for k := 0; k < f.total; k++ {
		work += f.c.jobTime(k)
	}
	res.Efficiency = work / (float64(w) * res.Makespan)
	res.Busy = make([]float64, w)
	for k, x := range f.ws {
		res.Busy[k] = x.cpu.BusyTime()
		res.JobsPerWorker[k] = x.done
		if x.started {
			first := x.first
			res.FirstJobStart[k] = &first
		}
	}
	res.Events = f.sim.Events()
	return res
}
