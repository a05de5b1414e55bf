package day

import (
	"fmt"

	"github.com/dlsched/dlsched/executor"
)

// worker is the state of a worker processor's harness, in slots.
type worker struct {
	id  int
	cpu *executor.CPU
	// watchers are the conditions of the processes that wait on this
	// processor's state, in the order they began to watch; changed
	// notifies them.
	watchers []*executor.Condition
	children []*worker
	jobs     executor.FIFO[job] // jobs in J slots, ready
	jUsed    int                // J slots occupied (ready, reserved, leaving)
	pJobs    []executor.FIFO[job]
	pUsed    []int
	results  executor.FIFO[job] // results in R slots, ready
	rUsed    int
	q        []executor.FIFO[job] // inbound result slots per inbound link
	qUsed    []int
	waiting  bool // the worker asks for a job
	deposit  bool // the worker waits to deposit a result
	done     int
	first    float64
	started  bool
	node     string // the processor's name in a trace
}

// spawnHarness starts a worker processor's processes: the worker, and the
// splitter and the collector where its harness has them.
func (f *farm) spawnHarness(x *worker) {
	f.spawn(fmt.Sprintf("worker %d", x.id+1), func(p *executor.Proc, c *executor.Condition) { f.work(p, c, x) }, x)
	if f.h.P > 0 && len(x.children) > 0 {
		f.spawn(fmt.Sprintf("splitter %d", x.id+1), func(p *executor.Proc, c *executor.Condition) { f.splitter(p, c, x) }, x)
	}
	if f.h.Q > 0 && len(x.q) > 0 {
		f.spawn(fmt.Sprintf("collector %d", x.id+1), func(p *executor.Proc, c *executor.Condition) { f.collector(p, c, x) }, x)
	}
}

// spawn starts a process of the farm that waits on the state of the
// processors on: its condition (executor.Condition) is notified whenever
// one of them changes (worker.changed).
func (f *farm) spawn(name string, body func(p *executor.Proc, c *executor.Condition), on ...*worker) {
	c := executor.NewCondition(f.sim, name)
	for _, x := range on {
		x.watchers = append(x.watchers, c)
	}
	f.sim.SpawnDaemon(name, func(p *executor.Proc) { body(p, c) })
}

// changed wakes the processes that wait on x's state; each re-evaluates
// its predicate.
func (x *worker) changed() {
	for _, c := range x.watchers {
		c.Notify()
	}
}

// work is the worker process: it takes the oldest job in its J slots
// (with distant-first priority only when no child link can take it),
// computes, deposits the result when a collector slot is free, and only
// then asks for the next job.
func (f *farm) work(p *executor.Proc, c *executor.Condition, x *worker) {
	distant := f.c.DistantFirst
	for {
		x.waiting = true
		x.changed()
		c.WaitFor(p, func() bool { return x.jobs.Len() > 0 && (!distant || !x.childCanTake(f.h)) })
		jb := x.jobs.Pop()
		x.jUsed--
		x.waiting = false
		start := p.Now()
		if !x.started {
			x.started, x.first = true, start
		}
		x.changed()
		x.cpu.Compute(p, jb.time, executor.Low)
		if f.rec != nil {
			f.traceCompute(x, jb, start, p.Now())
		}
		x.done++
		jb.worker = x.id
		x.deposit = true
		x.changed()
		c.WaitFor(p, func() bool { return x.rUsed < f.h.R })
		x.rUsed++
		x.results.Push(jb)
		x.deposit = false
		x.changed()
	}
}

// splitter commits jobs from the J slots to the child links' P slots,
// round-robin, after the local worker (unless distant first).
func (f *farm) splitter(p *executor.Proc, c *executor.Condition, x *worker) {
	rr, local := 0, !f.c.DistantFirst
	for {
		pick := -1
		c.WaitFor(p, func() bool {
			if x.jobs.Len() == 0 || (x.waiting && local) {
				return false
			}
			pick = x.freeLink(rr, f.h.P)
			return pick >= 0
		})
		rr = (pick + 1) % len(x.children)
		x.pJobs[pick].Push(x.jobs.Pop())
		x.jUsed--
		x.pUsed[pick]++
		x.changed()
	}
}

// freeLink returns the first child link from rr on (round-robin) with a
// free committed slot, or -1.
func (x *worker) freeLink(rr, slots int) int {
	for i := range x.children {
		if l := (rr + i) % len(x.children); x.pUsed[l] < slots {
			return l
		}
	}
	return -1
}

// collector moves results from the inbound result slots to the collector
// slots, round-robin over the inbound links, the local worker's result
// first ("The collector process gives the local worker priority").
func (f *farm) collector(p *executor.Proc, c *executor.Condition, x *worker) {
	rr := 0
	for {
		pick := -1
		c.WaitFor(p, func() bool {
			if x.rUsed >= f.h.R || x.deposit {
				return false
			}
			pick = x.fullInbound(rr)
			return pick >= 0
		})
		rr = (pick + 1) % len(x.q)
		x.results.Push(x.q[pick].Pop())
		x.qUsed[pick]--
		x.rUsed++
		x.changed()
	}
}

// fullInbound returns the first inbound result link from rr on with a
// result waiting, or -1.
func (x *worker) fullInbound(rr int) int {
	for i := range x.q {
		if l := (rr + i) % len(x.q); x.q[l].Len() > 0 {
			return l
		}
	}
	return -1
}

// childCanTake reports whether a child link of x could take a job now
// (for distant-first priority).
func (x *worker) childCanTake(h Harness) bool {
	for l, ch := range x.children {
		if h.P > 0 && x.pUsed[l] < h.P || h.P == 0 && ch.jUsed < h.J {
			return true
		}
	}
	return false
}
