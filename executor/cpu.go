package executor

import (
	"fmt"
	"math"
)

// Priority is the priority level of a computation on a CPU: any
// non-negative integer, a higher level preempting a lower one.
type Priority int

const (
	// Low is the priority of worker computations.
	Low Priority = 0
	// High is the priority of communication (router) processes: a High
	// computation preempts a running Low one.
	High Priority = 1
)

// maxPriority bounds the priority levels (they index a slice).
const maxPriority = 1 << 10

// cpuJob is one computation: a blocked process or an asynchronous job.
type cpuJob struct {
	rem     float64 // work units left
	prio    Priority
	p       *Proc
	done    func(start, end float64)
	start   float64
	started bool
}

// CPU is a processor with priority levels, as in a transputer processor
// farm (two levels, High for communication, Low for work) or an operating
// system (more). Computations of the same level run one at a time in FIFO
// order and do not preempt each other; a computation of a higher level
// preempts a running lower one, which is suspended and later resumes with
// its remaining work before the other computations of its level.
//
// Work is measured in work units: at speed f (SetSpeed; default 1) the CPU
// does f units per unit of time, and a speed change re-times the
// computation in progress (a slowed or stalled node).
//
// A CPU owned by a killed process (Proc.Own) is broken: its computations
// are dropped (their processes stay blocked unless killed too) and later
// ones are ignored.
type CPU struct {
	sim      *Sim
	name     string
	q        []FIFO[*cpuJob] // by priority
	queued   int
	cur      *cpuJob
	since    float64 // start of the current slice
	speed    float64
	gen      uint64
	complete func()
	busy     float64
	jobs     int64
	preempts int64
	lost     int64
	broken   bool
	free     []*cpuJob
	t0       float64
	qlen     level
}

// NewCPU returns an idle CPU of speed 1.
func NewCPU(s *Sim, name string) *CPU {
	c := &CPU{sim: s, name: name, speed: 1, q: make([]FIFO[*cpuJob], 2), t0: s.now}
	c.qlen.start(s.now)
	c.complete = c.finish
	s.register(c)
	return c
}

// Name returns the CPU's name.
func (c *CPU) Name() string { return c.name }

// BusyTime returns the total time the CPU has held a computation so far,
// the current one included.
func (c *CPU) BusyTime() float64 {
	if c.cur != nil {
		return c.busy + c.sim.now - c.since
	}
	return c.busy
}

// Jobs returns the number of completed computations.
func (c *CPU) Jobs() int64 { return c.jobs }

// Speed returns the current speed (work units per time unit).
func (c *CPU) Speed() float64 { return c.speed }

// Idle reports whether nothing is running or waiting.
func (c *CPU) Idle() bool { return c.cur == nil && c.queued == 0 }

// Compute blocks p while the CPU performs work units of computation (time
// work/speed if never preempted or re-timed) at priority prio.
func (c *CPU) Compute(p *Proc, work float64, prio Priority) {
	p.check()
	j := c.job(work, prio)
	j.p = p
	p.block(c)
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
	if prio < 0 || prio >= maxPriority {
		panic(fmt.Sprintf("executor: cpu %s: bad priority %d", c.name, prio))
	}
	for int(prio) >= len(c.q) {
		c.q = append(c.q, FIFO[*cpuJob]{})
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
	case c.broken:
		c.lost++
		c.recycle(j)
	case c.cur == nil:
		c.run(j)
	case j.prio > c.cur.prio:
		c.suspend()
		c.preempts++
		if c.sim.tracing {
			c.sim.record(c.name, "preempt", "")
		}
		c.run(j)
	default:
		c.q[j.prio].Push(j)
		c.queued++
		c.qlen.set(c.sim.now, float64(c.queued))
	}
}

// account charges the current slice: busy time and work done.
func (c *CPU) account() {
	el := c.sim.now - c.since
	c.busy += el
	c.cur.rem = math.Max(0, c.cur.rem-el*c.speed)
	c.since = c.sim.now
}

// suspend puts the running computation back at the head of its level.
func (c *CPU) suspend() {
	cur := c.cur
	c.account()
	c.cur = nil
	c.gen++
	c.q[cur.prio].pushFront(cur)
	c.queued++
	c.qlen.set(c.sim.now, float64(c.queued))
}

func (c *CPU) run(j *cpuJob) {
	c.cur = j
	c.since = c.sim.now
	if !j.started {
		j.started = true
		j.start = c.sim.now
	}
	c.schedule()
}

// schedule sets the completion event of the running computation.
func (c *CPU) schedule() {
	c.gen++
	if c.speed > 0 {
		c.sim.atGen(c.sim.now+c.cur.rem/c.speed, c.complete, &c.gen, c.gen)
	}
}

// runNext starts the highest-priority waiting computation, if any.
func (c *CPU) runNext() {
	for l := len(c.q) - 1; l >= 0; l-- {
		if c.q[l].Len() > 0 {
			j := c.q[l].Pop()
			c.queued--
			c.qlen.set(c.sim.now, float64(c.queued))
			c.run(j)
			return
		}
	}
}

// finish completes the running computation (kernel callback).
func (c *CPU) finish() {
	s := c.sim
	j := c.cur
	c.busy += s.now - c.since
	c.cur = nil
	c.jobs++
	c.runNext()
	if j.p != nil {
		s.wake(j.p)
	} else if j.done != nil {
		j.done(j.start, s.now)
	}
	c.recycle(j)
}

func (c *CPU) recycle(j *cpuJob) {
	*j = cpuJob{}
	c.free = append(c.free, j)
}

// SetSpeed changes the speed to f work units per time unit (f >= 0; 0
// stalls the CPU): the computation in progress keeps the work it has done
// and finishes its remaining work at the new speed. It may be called from
// processes and callbacks.
func (c *CPU) SetSpeed(f float64) {
	if f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		panic(fmt.Sprintf("executor: cpu %s: bad speed %g", c.name, f))
	}
	if c.cur != nil {
		c.account()
	}
	c.speed = f
	if c.sim.tracing {
		c.sim.record(c.name, "speed", fmt.Sprint(f))
	}
	if c.cur != nil {
		c.schedule()
	}
}

// cancelWait abandons p's computation (interrupt or kill): the CPU moves
// on to the next one.
func (c *CPU) cancelWait(p *Proc) {
	if c.cur != nil && c.cur.p == p {
		j := c.cur
		c.account()
		c.cur = nil
		c.gen++
		c.recycle(j)
		c.runNext()
		return
	}
	for l := range c.q {
		if removeFromFIFO(&c.q[l], func(j *cpuJob) bool { return j.p == p }) {
			c.queued--
			c.qlen.set(c.sim.now, float64(c.queued))
			return
		}
	}
}

// Break drops every computation, running or waiting (counted in
// Stats.Lost), and makes the CPU ignore later ones. Kill breaks the CPUs a
// killed process owns.
func (c *CPU) Break() {
	if c.broken {
		return
	}
	c.broken = true
	if c.cur != nil {
		c.account()
		c.cur = nil
		c.gen++
		c.lost++
	}
	for l := range c.q {
		c.lost += int64(c.q[l].Len())
		c.q[l].Clear()
	}
	c.queued = 0
	c.qlen.set(c.sim.now, 0)
}

// Stats returns the CPU's statistics up to now: Busy and Utilisation,
// Count (completed computations), Preemptions, MeanQueue and MaxQueue
// (waiting computations, preempted ones included), Lost.
func (c *CPU) Stats() Stats {
	now := c.sim.now
	el := now - c.t0
	busy := c.BusyTime()
	return Stats{Name: c.name, Kind: "cpu", Elapsed: el, Busy: busy,
		Utilisation: ratio(busy, el), Count: c.jobs, Preemptions: c.preempts,
		MeanQueue: c.qlen.mean(now), MaxQueue: c.qlen.max, Lost: c.lost}
}
