package day

import (
	"fmt"

	"github.com/dlsched/dlsched/executor"
)

// direction is one direction of a physical link, a CPU whose speed is the
// bandwidth (bytes per second): a message of m bytes with set-up s costs
// m + s "work"; while the other direction is busy both run at the
// bidirectional factor times B.
type direction struct {
	cpu   *executor.CPU
	other *direction
	busy  bool
	node  string // the sending node's name in a trace
}

// transfer blocks p while the direction carries bytes (set-up included).
func (d *direction) transfer(p *executor.Proc, bytes, bw, factor float64) {
	d.busy = true
	if d.other != nil && d.other.busy {
		d.cpu.SetSpeed(bw * factor)
		d.other.cpu.SetSpeed(bw * factor)
	} else {
		d.cpu.SetSpeed(bw)
	}
	d.cpu.Compute(p, bytes, executor.Low)
	d.busy = false
	if d.other != nil && d.other.busy {
		d.other.cpu.SetSpeed(bw)
	}
}

// steal charges a worker processor the CPU it loses to one message (of
// kind "job" or "result", of job jb) it sends or receives (cycle
// stealing), at high priority.
func (f *farm) steal(x *worker, kind string, jb job) {
	if x != nil && f.c.CPUPerMessage > 0 {
		x.cpu.Submit(f.c.CPUPerMessage, executor.High, f.stolen(x, kind, jb))
	}
}

// carry moves one message, jb's job or its result, over d, occam style:
// the sender loses its cycles, the link is busy for the message (set-up
// included), then the receiver loses its cycles. from or to is nil for
// the farmer or the harvester.
func (f *farm) carry(p *executor.Proc, d *direction, from, to *worker, jb job, result bool) {
	kind, bytes, payload := "job", f.jobBytes, f.c.MessageBytes
	if result {
		kind, bytes, payload = "result", f.resBytes, f.c.resultBytes()
	}
	f.steal(from, kind, jb)
	start := p.Now()
	d.transfer(p, bytes, f.bw, f.fac)
	f.res.Messages++
	f.res.Bytes += payload
	if f.rec != nil {
		f.traceTransfer(d, kind, jb, payload, start, p.Now())
	}
	f.steal(to, kind, jb)
}

// spawnFeeder starts the farmer's process on its link to a top worker.
func (f *farm) spawnFeeder(to *worker, d *direction) {
	name := fmt.Sprintf("job link →%d", to.id+1)
	f.spawn(name, func(p *executor.Proc, c *executor.Condition) { f.feeder(p, c, to, d) }, to)
}

// feeder is the farmer on one of its links, a sacrificial buffer: it
// takes the next job from the farmer (who pays its CPU cost per job, one
// job at a time over all its links) as soon as its previous transfer has
// ended, then holds it until the receiver has a free job slot. The
// farmer's cost thus overlaps the wait for the receiver and the other
// links' transfers, not this link's own previous transfer (docs/day.md).
func (f *farm) feeder(p *executor.Proc, c *executor.Condition, to *worker, d *direction) {
	for {
		c.WaitFor(p, func() bool { return f.next < f.total })
		jb := job{id: f.next, time: f.c.jobTime(f.next)}
		f.next++
		if f.c.FarmerCost > 0 {
			f.farmer.Compute(p, f.c.FarmerCost, executor.High)
			if f.rec != nil {
				f.traceFarmer(jb, p.Now())
			}
		}
		c.WaitFor(p, func() bool { return to.jUsed < f.h.J })
		to.jUsed++ // the receiver's slot, reserved when the transfer starts
		f.carry(p, d, nil, to, jb, false)
		to.jobs.Push(jb)
		to.changed()
	}
}

// spawnJobHop starts the process of the job link from a worker to its
// child l.
func (f *farm) spawnJobHop(from *worker, l int, to *worker, d *direction) {
	name := fmt.Sprintf("job link →%d", to.id+1)
	f.spawn(name, func(p *executor.Proc, c *executor.Condition) { f.jobHop(p, c, from, l, to, d) }, from, to)
}

// jobHop moves jobs from a worker to its child l: from the committed slots
// of that link (P > 0), or else straight from the shared J slots when the
// local worker does not claim the job first.
func (f *farm) jobHop(p *executor.Proc, c *executor.Condition, from *worker, l int, to *worker, d *direction) {
	h, local := f.h, !f.c.DistantFirst
	for {
		c.WaitFor(p, func() bool {
			if to.jUsed >= h.J {
				return false
			}
			if h.P > 0 {
				return from.pJobs[l].Len() > 0
			}
			return from.jobs.Len() > 0 && !(from.waiting && local)
		})
		var jb job
		if h.P > 0 {
			jb = from.pJobs[l].Pop()
		} else {
			jb = from.jobs.Pop()
		}
		to.jUsed++
		f.carry(p, d, from, to, jb, false)
		if h.P > 0 {
			from.pUsed[l]--
		} else {
			from.jUsed--
		}
		to.jobs.Push(jb)
		from.changed()
		to.changed()
	}
}

// spawnResultHop starts the process of the result link from a worker to
// the next worker toward the harvester (line) or to its parent (tree), l
// being the parent's inbound link.
func (f *farm) spawnResultHop(from, to *worker, l int, d *direction) {
	name := fmt.Sprintf("result link %d→", from.id+1)
	f.spawn(name, func(p *executor.Proc, c *executor.Condition) { f.resultHop(p, c, from, to, l, d) }, from, to)
}

// resultHop moves results from a worker's collector slots to the
// receiver's inbound slots of link l (Q > 0), or else straight into its
// collector slots when its own worker is not depositing a result.
func (f *farm) resultHop(p *executor.Proc, c *executor.Condition, from, to *worker, l int, d *direction) {
	h := f.h
	for {
		c.WaitFor(p, func() bool {
			if from.results.Len() == 0 {
				return false
			}
			if h.Q > 0 {
				return to.qUsed[l] < h.Q
			}
			return to.rUsed < h.R && !to.deposit
		})
		r := from.results.Pop()
		if h.Q > 0 {
			to.qUsed[l]++
		} else {
			to.rUsed++
		}
		f.carry(p, d, from, to, r, true)
		from.rUsed--
		if h.Q > 0 {
			to.q[l].Push(r)
		} else {
			to.results.Push(r)
		}
		from.changed()
		to.changed()
	}
}

// spawnHarvester starts the harvester's process on its link from a worker
// (the last of a line; a top worker of a tree, whose results the farmer
// collects).
func (f *farm) spawnHarvester(from *worker, d *direction) {
	name := fmt.Sprintf("result link %d→", from.id+1)
	f.spawn(name, func(p *executor.Proc, c *executor.Condition) { f.harvester(p, c, from, d) }, from)
}

// harvester takes every result the worker offers; the last result ends
// the run.
func (f *farm) harvester(p *executor.Proc, c *executor.Condition, from *worker, d *direction) {
	for {
		c.WaitFor(p, func() bool { return from.results.Len() > 0 })
		r := from.results.Pop()
		f.carry(p, d, from, nil, r, true)
		from.rUsed--
		f.arrive(p)
		from.changed()
	}
}
