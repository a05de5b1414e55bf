package executor

import (
	"errors"
	"fmt"
)

// Interrupted is the panic value with which a blocking primitive gives up
// when its process is interrupted (Sim.Interrupt). Catch turns it back into
// an error; uncaught, it ends the run as a *PanicError wrapping it.
type Interrupted struct {
	// Proc is the interrupted process, Time the virtual time of the
	// interrupt.
	Proc string
	Time float64
	// Cause is the error given to Sim.Interrupt.
	Cause error
}

// Error names the process, the time and the cause.
func (e *Interrupted) Error() string {
	return fmt.Sprintf("executor: process %s interrupted at t=%g: %v", e.Proc, e.Time, e.Cause)
}

// Unwrap returns the cause.
func (e *Interrupted) Unwrap() error { return e.Cause }

// Catch runs f and returns the *Interrupted error if the process running f
// was interrupted while blocked in it (nil otherwise). Every other panic
// goes on unwinding.
func Catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if in, ok := r.(*Interrupted); ok {
				err = in
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

// Interrupt makes process p give up what it is blocked in: a Wait, a
// receive or send, a computation, an acquisition or an Alt. Its
// registrations are withdrawn (a computation of p in progress is abandoned
// and the CPU moves on; a transfer p sends or receives is aborted and the
// message lost, unless the receiving object is broken, in which case the
// transfer goes on and is discarded on arrival) and the primitive panics
// with *Interrupted{Cause: cause}, which p may handle with Catch. A process
// that is runnable rather than blocked (woken at this instant, or not yet
// started) gets the interrupt at its next blocking call. Interrupt may be
// called from another process or a kernel callback; it reports false if p
// has ended.
func (s *Sim) Interrupt(p *Proc, cause error) bool {
	if p.sim != s {
		panic("executor: Interrupt of a process of another Sim")
	}
	if p == s.cur {
		panic(fmt.Sprintf("executor: process %s interrupts itself", p.name))
	}
	if p.state == procDone || p.killed {
		return false
	}
	if cause == nil {
		cause = errors.New("interrupted")
	}
	p.intr = cause
	if s.tracing {
		s.record(p.name, "interrupt", "")
	}
	switch {
	case p.state == procBlocked, p.state == procScheduled && p.sleeping:
		p.cancelBlockers()
		p.state = procBlocked
		p.sleeping = false
		s.wake(p)
	}
	return true
}

// Kill ends process p: its waits are withdrawn as for Interrupt (a
// transfer it sends is aborted and the message lost), the objects it owns
// (Proc.Own) break, and the process is terminated without running any more
// of its code (deferred functions run, as for Run's own termination). A
// killed process is never reported as deadlocked. Kill may be called by
// another process, a callback, or p itself (then it does not return); it
// reports false if p had already ended.
func (s *Sim) Kill(p *Proc) bool {
	if p.sim != s {
		panic("executor: Kill of a process of another Sim")
	}
	if p.state == procDone || p.killed {
		return false
	}
	p.killed = true
	if s.tracing {
		s.record(p.name, "killed", "")
	}
	for _, o := range p.owned {
		o.Break()
	}
	p.owned = nil
	p.cancelBlockers()
	p.intr = nil
	p.gen++ // any pending wake-up is stale
	if p == s.cur {
		panic(killSignal{})
	}
	if p.next == nil { // never started
		s.finishProc(p)
		return true
	}
	// Unwind the coroutine from the kernel loop (not from the goroutine
	// of the killing process).
	s.push(event{t: s.now, fn: func() {
		p.stop()
		s.finishProc(p)
	}})
	return true
}

// finishProc marks a terminated process done.
func (s *Sim) finishProc(p *Proc) {
	if p.state == procDone {
		return
	}
	p.state = procDone
	s.live--
	if p.daemon {
		s.liveDaemon--
	}
}
