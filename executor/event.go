package executor

// Event is a one-shot occurrence that processes wait on, as SimPy's Event:
// it is pending until Trigger, then triggered for good. Wait returns at
// once on a triggered event; processes waiting when it triggers resume at
// the trigger's time, in the order they began to wait. An Event is also a
// case of an Alt (Event.Case).
type Event struct {
	sim     *Sim
	name    string
	fired   bool
	at      float64
	waiters []*Proc
	alts    []*Proc
}

// NewEvent returns a pending event.
func NewEvent(s *Sim, name string) *Event { return &Event{sim: s, name: name} }

// Name returns the event's name.
func (e *Event) Name() string { return e.name }

// Triggered reports whether the event has happened.
func (e *Event) Triggered() bool { return e.fired }

// Time returns when the event was triggered (0 while it is pending).
func (e *Event) Time() float64 { return e.at }

// Trigger makes the event happen now and wakes its waiters. It may be
// called from a process or a kernel callback; a second Trigger does
// nothing.
func (e *Event) Trigger() {
	if e.fired {
		return
	}
	e.fired, e.at = true, e.sim.now
	for _, w := range e.waiters {
		e.sim.wake(w)
	}
	e.waiters = nil
	e.sim.notifyWatchers(e.alts)
}

// Wait blocks p until the event has happened.
func (e *Event) Wait(p *Proc) {
	p.check()
	if e.fired {
		return
	}
	e.waiters = append(e.waiters, p)
	p.block(e)
	p.park("event", e.name)
}

// cancelWait forgets p (interrupt or kill).
func (e *Event) cancelWait(p *Proc) {
	e.waiters = removeProc(e.waiters, p)
	e.alts = removeProc(e.alts, p)
}

// Case is an Alt case that becomes ready when the event has happened; fn
// (may be nil) runs when the Alt commits to it.
func (e *Event) Case(fn func()) Case { return Case{src: &eventCase{e: e, fn: fn}} }

type eventCase struct {
	e  *Event
	fn func()
}

func (c *eventCase) ready() bool { return c.e.fired }
func (c *eventCase) commit(p *Proc) {
	if c.fn != nil {
		c.fn()
	}
}
func (c *eventCase) watch(p *Proc)      { c.e.alts = append(c.e.alts, p) }
func (c *eventCase) unwatch(p *Proc)    { c.e.alts = removeProc(c.e.alts, p) }
func (c *eventCase) cancelWait(p *Proc) { c.e.cancelWait(p) }
func (c *eventCase) describe() string   { return "event " + c.e.name }

// Condition is a condition variable of the simulation: processes wait
// until a predicate over the model's state holds, and whoever changes that
// state calls Notify. It replaces the flags and hand-made wake-up lists
// models would otherwise keep (a slot that frees, a token that arrives).
type Condition struct {
	sim     *Sim
	name    string
	waiters []*Proc
}

// NewCondition returns a condition with no waiters.
func NewCondition(s *Sim, name string) *Condition { return &Condition{sim: s, name: name} }

// Name returns the condition's name.
func (c *Condition) Name() string { return c.name }

// Waiting returns the number of processes waiting on the condition.
func (c *Condition) Waiting() int { return len(c.waiters) }

// WaitFor blocks p until pred() holds. pred is evaluated at once and again
// each time the condition is notified; it is a plain function of the
// model's state and must not block.
func (c *Condition) WaitFor(p *Proc, pred func() bool) {
	p.check()
	for !pred() {
		c.waiters = append(c.waiters, p)
		p.block(c)
		p.park("condition", c.name)
	}
}

// Notify wakes every waiting process at the current time, in the order
// they began to wait; each re-evaluates its predicate and waits again if
// it still does not hold. It may be called from a process or a callback.
func (c *Condition) Notify() {
	ws := c.waiters
	c.waiters = nil
	for _, w := range ws {
		c.sim.wake(w)
	}
}

// cancelWait forgets p (interrupt or kill).
func (c *Condition) cancelWait(p *Proc) { c.waiters = removeProc(c.waiters, p) }
