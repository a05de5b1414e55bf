package executor

import (
	"fmt"
	"math"
)

type procState int

const (
	procCreated   procState = iota // spawned, goroutine not started
	procRunning                    // holds the baton
	procBlocked                    // parked, nothing scheduled to wake it yet
	procScheduled                  // parked, a wake-up event is pending
	procDone
)

// Proc is a simulated process: a goroutine that the kernel runs one at a
// time. Its methods (and the primitives that take a *Proc) may only be
// called from the process's own goroutine.
type Proc struct {
	sim      *Sim
	id       int
	name     string
	fn       func(*Proc)
	daemon   bool
	next     func() (struct{}, bool) // coroutine resume (iter.Pull)
	stop     func()
	yield    func(struct{}) bool
	panicked *PanicError
	state    procState
	gen      uint64 // wake generation: a wake event is stale unless it matches
	killed   bool

	waitKind string // what the process waits for (deadlock report, trace)
	waitObj  string

	pending int // outstanding channel sends of SendAll

	// blockers are the objects the parked process is registered with; an
	// interrupt or a kill asks each of them to forget the process.
	blockers []blocker
	sleeping bool  // parked in Wait/WaitUntil (a timer is pending)
	intr     error // pending interrupt, raised by park
	altCases []Case
	altNext  int // round-robin start of the next fair Alt
	owned    []Breakable
}

// blocker is an object a process can be parked on: cancelWait removes every
// registration of p (queued requests, a transfer or computation in
// progress) when p is interrupted or killed.
type blocker interface {
	cancelWait(p *Proc)
}

// Breakable is an object a process can own (Proc.Own): when the process is
// killed, its owned objects break — a Mailbox or Channel discards what it
// holds and everything sent to it later, a CPU drops its computations.
type Breakable interface {
	Break()
}

// Name returns the name given at Spawn.
func (p *Proc) Name() string { return p.name }

// ID returns the process's number, in creation order from 0.
func (p *Proc) ID() int { return p.id }

// Sim returns the kernel the process runs on.
func (p *Proc) Sim() *Sim { return p.sim }

// Now returns the current virtual time.
func (p *Proc) Now() float64 { return p.sim.now }

// Trace records an event of this process (when tracing is on).
func (p *Proc) Trace(event string) {
	if p.sim.tracing {
		p.sim.record(p.name, event, "")
	}
}

// Spawn starts a new process at the current time (see Sim.Spawn).
func (p *Proc) Spawn(name string, fn func(*Proc)) *Proc { return p.sim.Spawn(name, fn) }

func (p *Proc) waitDesc() string {
	if p.altCases != nil {
		return altDesc(p.altCases)
	}
	if p.waitObj == "" {
		return p.waitKind
	}
	return p.waitKind + " " + p.waitObj
}

// check panics unless p is the running process: kernel primitives must be
// called from the process's own goroutine.
func (p *Proc) check() {
	if p.sim.cur != p || p.state != procRunning {
		panic(fmt.Sprintf("executor: process %s used a blocking primitive while not running", p.name))
	}
}

// park blocks the running process until it is woken (wake or a timer): it
// yields to the kernel loop, which resumes it when its wake-up event comes.
// The caller has registered p with the objects in p.blockers. A pending
// interrupt is raised (as a panic of *Interrupted) before parking or after
// waking.
func (p *Proc) park(kind, obj string) {
	if p.killed {
		panic(killSignal{})
	}
	if p.intr != nil {
		p.cancelBlockers()
		p.raise()
	}
	if p.state == procRunning {
		p.state = procBlocked
	}
	p.waitKind, p.waitObj = kind, obj
	if !p.yield(struct{}{}) {
		panic(killSignal{}) // Run is terminating the process
	}
	p.waitKind, p.waitObj = "", ""
	p.altCases = nil
	p.sleeping = false
	p.blockers = p.blockers[:0]
	if p.intr != nil {
		p.raise()
	}
}

// block registers b as what p waits on (see blocker).
func (p *Proc) block(b blocker) { p.blockers = append(p.blockers, b) }

func (p *Proc) cancelBlockers() {
	for _, b := range p.blockers {
		b.cancelWait(p)
	}
	p.blockers = p.blockers[:0]
}

func (p *Proc) raise() {
	err := &Interrupted{Proc: p.name, Time: p.sim.now, Cause: p.intr}
	p.intr = nil
	p.altCases = nil
	if p.sim.tracing {
		p.sim.record(p.name, "interrupted", "")
	}
	panic(err)
}

// wake makes a blocked process runnable at the current time (in FIFO order
// with the other events of this instant).
func (s *Sim) wake(p *Proc) {
	if p.state != procBlocked {
		panic(fmt.Sprintf("executor: internal error: wake of process %s in state %d", p.name, p.state))
	}
	p.state = procScheduled
	p.gen++
	s.push(event{t: s.now, p: p, gen: &p.gen, g: p.gen})
}

// Wait blocks the process for d units of virtual time (d >= 0). Wait(0)
// lets the other events of the current instant run first.
func (p *Proc) Wait(d float64) {
	p.check()
	if d < 0 || math.IsNaN(d) {
		panic(fmt.Sprintf("executor: %s: Wait(%g): negative or NaN duration", p.name, d))
	}
	p.sleepUntil(p.sim.now + d)
}

// WaitUntil blocks the process until virtual time t. If t is not after the
// current time it returns at once, without yielding.
func (p *Proc) WaitUntil(t float64) {
	p.check()
	if math.IsNaN(t) {
		panic(fmt.Sprintf("executor: %s: WaitUntil(NaN)", p.name))
	}
	if t <= p.sim.now {
		return
	}
	p.sleepUntil(t)
}

func (p *Proc) sleepUntil(t float64) {
	s := p.sim
	if p.intr != nil {
		p.raise()
	}
	p.state = procScheduled
	p.sleeping = true
	p.gen++
	s.push(event{t: t, p: p, gen: &p.gen, g: p.gen})
	p.park("timeout", "")
}

// Own makes p the owner of objs: when p is killed (Sim.Kill) they break
// (see Breakable), as the memory and links of a crashed node.
func (p *Proc) Own(objs ...Breakable) { p.owned = append(p.owned, objs...) }
