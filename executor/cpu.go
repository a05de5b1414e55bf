package executor

import (
	"fmt"
	"math"
)

// Priority is the priority level of a computation on a CPU.
type Priority int

const (
	// Low is the priority of worker computations.
	Low Priority = iota
	// High is the priority of communication (router) processes: a High
	// computation preempts a running Low one.
	High
)

// cpuJob is one computation: a blocked process or an asynchronous job.
type cpuJob struct {
	rem     float64
	prio    Priority
	p       *Proc
	done    func(start, end float64)
	start   float64
	started bool
}

// CPU is a processor with two priority levels, as in a transputer processor
// farm: computations of the same level run one at a time in FIFO order and
// are not preempted by each other; a High computation preempts a running
// Low one, which is suspended while any High computation is running or
// waiting and then resumes with its remaining work (a suspended Low
// computation resumes before other Low ones).
type CPU struct {
	sim       *Sim
	name      string
	q         [2]FIFO[*cpuJob]
	cur       *cpuJob
	suspended *cpuJob
	since     float64
	gen       uint64
	complete  func()
	busy      float64
	jobs      int64
	free      []*cpuJob
}

// NewCPU returns an idle CPU.
func NewCPU(s *Sim, name string) *CPU {
	c := &CPU{sim: s, name: name}
	c.complete = c.finish
	return c
}

// Name returns the CPU's name.
func (c *CPU) Name() string { return c.name }

// BusyTime returns the total time the CPU has computed so far (up to the
// last completed or preempted slice).
func (c *CPU) BusyTime() float64 { return c.busy }

// Jobs returns the number of completed computations.
func (c *CPU) Jobs() int64 { return c.jobs }

// Idle reports whether nothing is running or waiting.
func (c *CPU) Idle() bool {
	return c.cur == nil && c.suspended == nil && c.q[0].Len() == 0 && c.q[1].Len() == 0
}

// Compute blocks p while the CPU performs work units of computation (time
// work if never preempted) at priority prio.
func (c *CPU) Compute(p *Proc, work float64, prio Priority) {
	p.check()
	j := c.job(work, prio)
	j.p = p
	c.enqueue(j)
	p.park("cpu", c.name)
}

// Submit queues an asynchronous computation; done (if non-nil) is called
// in kernel context when it completes, with the time it first got the CPU
// and its completion time. It may be called from processes and callbacks.
func (c *CPU) Submit(work float64, prio Priority, done func(start, end float64)) {
	j := c.job(work, prio)
	j.done = done
	c.enqueue(j)
}

func (c *CPU) job(work float64, prio Priority) *cpuJob {
	if work < 0 || math.IsNaN(work) || math.IsInf(work, 0) {
		panic(fmt.Sprintf("executor: cpu %s: bad work %g", c.name, work))
	}
	if prio != Low && prio != High {
		panic(fmt.Sprintf("executor: cpu %s: bad priority %d", c.name, prio))
	}
	var j *cpuJob
	if n := len(c.free); n > 0 {
		j = c.free[n-1]
		c.free = c.free[:n-1]
	} else {
		j = new(cpuJob)
	}
	j.rem, j.prio = work, prio
	return j
}

func (c *CPU) enqueue(j *cpuJob) {
	switch {
	case c.cur == nil:
		c.run(j)
	case j.prio == High && c.cur.prio == Low:
		cur := c.cur
		el := c.sim.now - c.since
		c.busy += el
		cur.rem = math.Max(0, cur.rem-el)
		c.suspended = cur
		if c.sim.tracing {
			c.sim.record(c.name, "preempt", "")
		}
		c.run(j)
	default:
		c.q[j.prio].Push(j)
	}
}

func (c *CPU) run(j *cpuJob) {
	c.cur = j
	c.since = c.sim.now
	if !j.started {
		j.started = true
		j.start = c.sim.now
	}
	c.gen++
	c.sim.atGen(c.sim.now+j.rem, c.complete, &c.gen, c.gen)
}

// finish completes the running computation (kernel callback).
func (c *CPU) finish() {
	s := c.sim
	j := c.cur
	c.cur = nil
	c.busy += s.now - c.since
	c.jobs++
	switch {
	case c.q[High].Len() > 0:
		c.run(c.q[High].Pop())
	case c.suspended != nil:
		sj := c.suspended
		c.suspended = nil
		c.run(sj)
	case c.q[Low].Len() > 0:
		c.run(c.q[Low].Pop())
	}
	if j.p != nil {
		s.wake(j.p)
	} else if j.done != nil {
		j.done(j.start, s.now)
	}
	*j = cpuJob{}
	c.free = append(c.free, j)
}
