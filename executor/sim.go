package executor

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"iter"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"sort"
	"strings"
)

// SimConfig configures a Sim.
type SimConfig struct {
	// Start is the initial value of the virtual clock (default 0).
	Start float64
	// MaxEvents bounds the number of events Run dispatches; 0 means no
	// bound. When the bound is exceeded Run stops with an error wrapping
	// ErrEventLimit.
	MaxEvents int64
	// Trace makes the kernel hash every trace record (see TraceHash).
	Trace bool
	// KeepTrace makes the kernel also keep the records in memory (see
	// TraceRecords). It implies Trace.
	KeepTrace bool
	// Seed seeds the named random streams (Sim.Rand).
	Seed uint64
	// Progress, if set, is called from the kernel loop every
	// ProgressEvery events (default 1<<16) with the current time and the
	// number of events so far, e.g. to draw a progress bar. It must not
	// touch the simulation.
	Progress      func(now float64, events int64)
	ProgressEvery int64
}

// ErrEventLimit is wrapped by the error Run returns when more events than
// SimConfig.MaxEvents would be dispatched.
var ErrEventLimit = errors.New("executor: event limit exceeded")

// event is one entry of the event queue: either the wake-up of a process or
// a kernel callback. gen, when non-nil, makes the event stale unless *gen
// still equals g at dispatch time (cancellation by generation counting).
// Events are dispatched in (time, sequence) order, the sequence being the
// order of scheduling; it is implicit in the FIFO order of the queues.
type event struct {
	t   float64
	p   *Proc
	fn  func()
	gen *uint64
	g   uint64
}

type simState int

const (
	simIdle simState = iota
	simRunning
	simDone
)

// Sim is a deterministic virtual-time discrete-event kernel. Every simulated
// process is a goroutine, but exactly one of them runs at a time: a process
// runs until it blocks on a kernel primitive (a timeout, a mailbox, a
// channel, a resource, a CPU), and the kernel then resumes the owner of the
// earliest pending event. Events are ordered by (time, sequence number), so
// the same program gives the same trace, bit for bit.
//
// The kernel loop runs in the goroutine that calls Run. Processes are
// coroutines (iter.Pull): resuming one and getting control back when it
// blocks is a direct goroutine handoff, much cheaper than a handoff through
// channels and the scheduler's run queues. Kernel callbacks (Sim.At,
// transfer and CPU completions) run in the kernel loop without any switch.
//
// A Sim is not safe for use by goroutines other than its own processes and
// the goroutine that calls Run.
type Sim struct {
	now       float64
	tq        timeQueue
	ready     []event // events at time now, FIFO (see next)
	readyHd   int
	nevents   int64
	switches  int64
	maxEvents int64

	procs      []*Proc
	live       int // spawned, not finished
	liveDaemon int // of which daemons
	nextID     int
	cur        *Proc
	err        error
	ctx        context.Context
	done       <-chan struct{}
	state      simState

	tracing   bool
	keepTrace bool
	records   []TraceRecord
	hash      hash.Hash
	hbuf      []byte

	horizon  float64 // RunUntil's end time (+Inf for Run)
	stopped  bool    // Stop was called, or the horizon was reached
	progress func(float64, int64)
	progEvry int64
	seed     uint64
	rngs     map[string]*rand.Rand
	objects  []statser
}

// NewSim returns an idle kernel with its clock at cfg.Start.
func NewSim(cfg SimConfig) *Sim {
	s := &Sim{
		now:       cfg.Start,
		maxEvents: cfg.MaxEvents,
		tracing:   cfg.Trace || cfg.KeepTrace,
		keepTrace: cfg.KeepTrace,
		horizon:   math.Inf(1),
		progress:  cfg.Progress,
		progEvry:  cfg.ProgressEvery,
		seed:      cfg.Seed,
	}
	if s.progEvry <= 0 {
		s.progEvry = 1 << 16
	}
	if s.tracing {
		s.hash = sha256.New()
	}
	return s
}

// Now returns the current virtual time.
func (s *Sim) Now() float64 { return s.now }

// Events returns the number of events dispatched so far (process
// resumptions and kernel callbacks; cancelled events are not counted).
func (s *Sim) Events() int64 { return s.nevents }

// Switches returns the number of process resumptions so far.
func (s *Sim) Switches() int64 { return s.switches }

// Current returns the running process, or nil when the kernel itself
// (a callback, or the code around Run) is running.
func (s *Sim) Current() *Proc { return s.cur }

// push inserts an event. Events at the current time go to the ready FIFO:
// every event already in the time queue with that time was pushed while the
// clock was earlier, hence has a smaller sequence number than anything in
// the FIFO, so popping "time queue if its earliest time is now, else FIFO,
// else time queue" preserves the (time, sequence) order.
func (s *Sim) push(ev event) {
	if ev.t == s.now {
		s.ready = append(s.ready, ev)
		return
	}
	if ev.t < s.now || math.IsNaN(ev.t) {
		panic(fmt.Sprintf("executor: event scheduled at %g, before the current time %g", ev.t, s.now))
	}
	s.tq.push(ev)
}

// pop removes the earliest event; ok is false when there is none.
func (s *Sim) pop() (ev event, ok bool) {
	t, has := s.tq.top()
	if has && t == s.now {
		return s.tq.pop(), true
	}
	if s.readyHd < len(s.ready) {
		ev = s.ready[s.readyHd]
		s.ready[s.readyHd] = event{}
		s.readyHd++
		if s.readyHd == len(s.ready) {
			s.ready = s.ready[:0]
			s.readyHd = 0
		}
		return ev, true
	}
	if has {
		return s.tq.pop(), true
	}
	return event{}, false
}

// At schedules fn to run in kernel context at time t (t >= Now()). The
// callback must not block; it may wake processes, put into mailboxes, start
// transfers and schedule further callbacks.
func (s *Sim) At(t float64, fn func()) {
	s.push(event{t: t, fn: fn})
}

// After schedules fn to run in kernel context d time units from now.
func (s *Sim) After(d float64, fn func()) {
	if d < 0 || math.IsNaN(d) {
		panic(fmt.Sprintf("executor: After(%g): negative or NaN delay", d))
	}
	s.push(event{t: s.now + d, fn: fn})
}

// atGen schedules a cancellable callback: it is skipped unless *gen == g.
func (s *Sim) atGen(t float64, fn func(), gen *uint64, g uint64) {
	s.push(event{t: t, fn: fn, gen: gen, g: g})
}

// next dispatches events until one resumes a process, which it returns.
// It returns nil when there are no events left or the run must stop.
func (s *Sim) next() *Proc {
	for s.err == nil && !s.stopped {
		if s.readyHd == len(s.ready) {
			if t, has := s.tq.top(); has && t > s.horizon {
				s.now = s.horizon
				s.stopped = true
				return nil
			}
		}
		ev, ok := s.pop()
		if !ok {
			return nil
		}
		if ev.gen != nil && *ev.gen != ev.g {
			continue
		}
		s.now = ev.t
		s.nevents++
		if s.progress != nil && s.nevents%s.progEvry == 0 {
			s.progress(s.now, s.nevents)
		}
		if s.maxEvents > 0 && s.nevents > s.maxEvents {
			s.err = fmt.Errorf("%w: more than %d events at t=%g", ErrEventLimit, s.maxEvents, s.now)
			return nil
		}
		if s.done != nil && s.nevents&255 == 0 {
			select {
			case <-s.done:
				s.err = fmt.Errorf("executor: run cancelled at t=%g: %w", s.now, s.ctx.Err())
				return nil
			default:
			}
		}
		if ev.fn != nil {
			s.callback(ev.fn)
			continue
		}
		p := ev.p
		s.cur = p
		if s.tracing {
			if p.state == procCreated {
				s.record(p.name, "start", "")
			} else {
				s.record(p.name, "resume", p.waitKind)
			}
		}
		return p
	}
	return nil
}

// callback runs a kernel callback, turning a panic into the run's error.
func (s *Sim) callback(fn func()) {
	s.cur = nil
	defer func() {
		if r := recover(); r != nil {
			if s.err == nil {
				s.err = &PanicError{Proc: "(kernel callback)", Time: s.now, Value: r, Stack: debug.Stack()}
			}
		}
	}()
	fn()
}

// Spawn creates a process running fn and makes it runnable at the current
// time. It may be called before Run and, during Run, from processes and
// callbacks. The goroutine is created when the process first runs.
func (s *Sim) Spawn(name string, fn func(p *Proc)) *Proc {
	return s.spawn(name, fn, false)
}

// SpawnDaemon is Spawn for a service process that may stay blocked forever
// (a router, a server loop): the run ends normally when only daemons are
// left, which are then terminated, and daemons never count as deadlocked.
func (s *Sim) SpawnDaemon(name string, fn func(p *Proc)) *Proc {
	return s.spawn(name, fn, true)
}

func (s *Sim) spawn(name string, fn func(p *Proc), daemon bool) *Proc {
	if s.state == simDone {
		panic("executor: Spawn after Run finished")
	}
	p := &Proc{sim: s, id: s.nextID, name: name, fn: fn, daemon: daemon}
	s.nextID++
	s.procs = append(s.procs, p)
	s.live++
	if daemon {
		s.liveDaemon++
	}
	p.gen++
	s.push(event{t: s.now, p: p, gen: &p.gen, g: p.gen})
	return p
}

// resume runs process p until it blocks or ends. Processes are
// coroutines (iter.Pull): the switch into the process and back is a direct
// goroutine handoff that bypasses the Go scheduler's run queues.
func (s *Sim) resume(p *Proc) {
	if p.next == nil {
		p.next, p.stop = iter.Pull(func(yield func(struct{}) bool) {
			p.yield = yield
			s.runProc(p)
		})
	}
	s.switches++
	s.cur = p
	p.state = procRunning
	_, alive := p.next()
	s.cur = nil
	if alive {
		return
	}
	// The process function returned (or panicked, see runProc).
	s.finishProc(p)
	if p.panicked != nil {
		if s.err == nil {
			s.err = p.panicked
		}
	} else if s.tracing && !p.killed {
		s.record(p.name, "end", "")
	}
}

// runProc runs the process function in its coroutine, turning a panic into
// p.panicked (with the process's own stack).
func (s *Sim) runProc(p *Proc) {
	defer func() {
		if r := recover(); r != nil {
			if _, killed := r.(killSignal); !killed {
				p.panicked = &PanicError{Proc: p.name, Time: s.now, Value: r, Stack: debug.Stack()}
			}
		}
	}()
	p.fn(p)
}

// Run executes the simulation until no event is left, and returns nil if
// every process (daemons aside) has finished. It returns a *DeadlockError
// when processes are still blocked with nothing left to wake them, a
// *PanicError when a process or callback panicked, an error wrapping
// ErrEventLimit, or the context's error when ctx is cancelled. In every
// case, no goroutine of the simulation outlives Run. Run may be called once.
func (s *Sim) Run(ctx context.Context) error {
	return s.run(ctx)
}

// RunUntil is Run with a horizon: it dispatches the events up to time t
// (included) and ends the run there, with the clock at t if events were
// left beyond it. Processes still blocked at the horizon are terminated and
// are not a deadlock; a deadlock before t is reported as by Run.
func (s *Sim) RunUntil(ctx context.Context, t float64) error {
	if math.IsNaN(t) || t < s.now {
		return fmt.Errorf("executor: RunUntil(%g): before the current time %g", t, s.now)
	}
	s.horizon = t
	return s.run(ctx)
}

// Stop ends the run after the current event: Run returns nil and the
// processes still alive are terminated without a deadlock report. It may
// be called by a process (which goes on until it next blocks) or a
// callback, e.g. when the last result of a farm has arrived.
func (s *Sim) Stop() {
	if !s.stopped && s.tracing {
		s.record("(kernel)", "stop", "")
	}
	s.stopped = true
}

// Stopped reports whether the run ended by Stop or at RunUntil's horizon.
func (s *Sim) Stopped() bool { return s.stopped }

func (s *Sim) run(ctx context.Context) error {
	if s.state != simIdle {
		return errors.New("executor: Run called twice")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	s.state = simRunning
	s.ctx = ctx
	s.done = ctx.Done()
	// If a process ends the calling goroutine (runtime.Goexit, e.g.
	// t.FailNow in a test), the other coroutines are still terminated.
	defer func() {
		if s.state != simDone {
			s.killAll()
			s.state = simDone
			s.cur = nil
		}
	}()
	for {
		q := s.next()
		if q == nil {
			break
		}
		s.resume(q)
	}
	if s.err == nil && !s.stopped && s.live > s.liveDaemon {
		s.err = s.deadlock()
	}
	s.killAll()
	s.state = simDone
	s.cur = nil
	return s.err
}

// killAll terminates every started process that is still blocked, one at a
// time, and forgets the ones that never started.
func (s *Sim) killAll() {
	for _, p := range s.procs {
		switch {
		case p.state == procDone:
		case p.next == nil: // never started
			s.finishProc(p)
		default:
			p.killed = true
			p.stop() // yield returns false: park panics killSignal
			s.finishProc(p)
		}
	}
	s.procs = nil
	s.tq = timeQueue{}
	s.ready = nil
}

func (s *Sim) deadlock() *DeadlockError {
	e := &DeadlockError{Time: s.now}
	for _, p := range s.procs {
		if p.state == procBlocked && !p.daemon {
			e.Waiting = append(e.Waiting, Waiter{Proc: p.name, Waits: p.waitDesc()})
		}
	}
	return e
}

// Waiter names a blocked process and what it waits for.
type Waiter struct {
	Proc  string
	Waits string
}

// DeadlockError reports that every live process was blocked and no event
// was pending: nothing could ever wake them.
type DeadlockError struct {
	// Time is the virtual time of the deadlock.
	Time float64
	// Waiting lists the blocked processes in creation order.
	Waiting []Waiter
}

// Error lists the waiting processes (at most 20 of them).
func (e *DeadlockError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "executor: deadlock at t=%g: %d process(es) blocked", e.Time, len(e.Waiting))
	for i, w := range e.Waiting {
		if i == 20 {
			fmt.Fprintf(&b, "; ... and %d more", len(e.Waiting)-20)
			break
		}
		fmt.Fprintf(&b, "; %s waits for %s", w.Proc, w.Waits)
	}
	return b.String()
}

// PanicError reports a panic inside a process or a kernel callback.
type PanicError struct {
	// Proc is the name of the process, or "(kernel callback)".
	Proc string
	// Time is the virtual time of the panic.
	Time float64
	// Value is the value passed to panic, Stack the goroutine's stack.
	Value any
	Stack []byte
}

// Error names the process, the time and the panic value.
func (e *PanicError) Error() string {
	return fmt.Sprintf("executor: process %s panicked at t=%g: %v", e.Proc, e.Time, e.Value)
}

// Unwrap returns the panic value if it is an error.
func (e *PanicError) Unwrap() error {
	if err, ok := e.Value.(error); ok {
		return err
	}
	return nil
}

// killSignal unwinds a process that Run terminates.
type killSignal struct{}

// TraceRecord is one entry of the trace: at Time, process (or object)
// Proc did Event.
type TraceRecord struct {
	Time  float64
	Proc  string
	Event string
}

// Tracing reports whether the kernel records a trace; callers use it to
// skip building trace strings.
func (s *Sim) Tracing() bool { return s.tracing }

// Trace records an event at the current time on behalf of who (a process
// or object name). It does nothing unless tracing is on.
func (s *Sim) Trace(who, event string) {
	if s.tracing {
		s.record(who, event, "")
	}
}

func (s *Sim) record(who, ev, detail string) {
	b := s.hbuf[:0]
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.now))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(who)))
	b = append(b, who...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ev)+len(detail)+1))
	b = append(b, ev...)
	b = append(b, ' ')
	b = append(b, detail...)
	s.hbuf = b
	s.hash.Write(b)
	if s.keepTrace {
		e := ev
		if detail != "" {
			e = ev + " " + detail
		}
		s.records = append(s.records, TraceRecord{Time: s.now, Proc: who, Event: e})
	}
}

// TraceHash returns the SHA-256 of the trace recorded so far (all zero
// bytes if tracing is off). Two runs of the same program give the same hash.
func (s *Sim) TraceHash() [32]byte {
	if !s.tracing {
		return [32]byte{}
	}
	var out [32]byte
	copy(out[:], s.hash.Sum(nil))
	return out
}

// TraceRecords returns the records kept with SimConfig.KeepTrace.
func (s *Sim) TraceRecords() []TraceRecord { return s.records }

// Processes returns the names of the processes still alive (blocked or
// runnable), sorted; useful in tests and error reports.
func (s *Sim) Processes() []string {
	var out []string
	for _, p := range s.procs {
		if p.state != procDone {
			out = append(out, p.name)
		}
	}
	sort.Strings(out)
	return out
}
