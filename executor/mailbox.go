package executor

import "fmt"

// Unbounded is the capacity of a mailbox that never blocks its senders.
const Unbounded = -1

// recvWaiter is a process blocked in Recv; the value is handed over in it.
type recvWaiter[T any] struct {
	p   *Proc
	v   T
	ok  bool
	tag int
}

// sendWaiter is a process blocked in Send with its value.
type sendWaiter[T any] struct {
	p *Proc
	v T
}

// Mailbox is a message queue between processes that costs no virtual time:
// with capacity 0 it is an occam-like rendezvous (a sender waits for a
// receiver; both continue at the same instant), with capacity k > 0 a
// bounded FIFO buffer (a sender waits while k messages are queued), and with
// capacity Unbounded a FIFO that never blocks senders. Receivers are served
// in FIFO order, and so are blocked senders.
//
// A mailbox owned by a killed process (Proc.Own) is broken: what it holds
// is lost, blocked senders are released, and later messages are accepted
// and discarded (Lost counts them all).
type Mailbox[T any] struct {
	sim      *Sim
	name     string
	cap      int
	q        FIFO[T]
	recvq    FIFO[*recvWaiter[T]]
	sendq    FIFO[*sendWaiter[T]]
	free     []*recvWaiter[T]
	watchers []*Proc
	closed   bool
	broken   bool

	puts, lost int64
	qlen       level
}

// NewMailbox returns a mailbox of the given capacity (0: rendezvous,
// k > 0: bounded buffer, Unbounded). name appears in deadlock reports.
func NewMailbox[T any](s *Sim, name string, capacity int) *Mailbox[T] {
	if capacity < Unbounded {
		panic(fmt.Sprintf("executor: mailbox %s: bad capacity %d", name, capacity))
	}
	m := &Mailbox[T]{sim: s, name: name, cap: capacity}
	m.qlen.start(s.now)
	s.register(m)
	return m
}

// Name returns the mailbox's name.
func (m *Mailbox[T]) Name() string { return m.name }

// Len returns the number of queued messages.
func (m *Mailbox[T]) Len() int { return m.q.Len() }

// Lost returns the number of messages discarded because the mailbox is
// broken.
func (m *Mailbox[T]) Lost() int64 { return m.lost }

// Send delivers v, blocking p while the mailbox cannot take it (no receiver
// for a rendezvous, a full buffer). Send on a closed mailbox panics.
func (m *Mailbox[T]) Send(p *Proc, v T) {
	p.check()
	if m.Put(v) {
		return
	}
	w := &sendWaiter[T]{p: p, v: v}
	m.sendq.Push(w)
	p.block(m)
	m.sim.notifyWatchers(m.watchers)
	p.park("send to", m.name)
}

// Put delivers v without blocking, from a process or a kernel callback: to
// a waiting receiver, or into the buffer if there is room. It reports
// whether v was delivered. Put on a closed mailbox panics.
func (m *Mailbox[T]) Put(v T) bool {
	if m.closed {
		panic(fmt.Sprintf("executor: send on closed mailbox %s", m.name))
	}
	if m.broken {
		m.lost++
		return true
	}
	if m.recvq.Len() > 0 {
		w := m.recvq.Pop()
		w.v, w.ok = v, true
		m.puts++
		m.sim.wake(w.p)
		return true
	}
	if m.cap < 0 || m.q.Len() < m.cap {
		m.q.Push(v)
		m.puts++
		m.qlen.set(m.sim.now, float64(m.q.Len()))
		m.sim.notifyWatchers(m.watchers)
		return true
	}
	return false
}

// Recv returns the next message, blocking p until there is one. On a
// closed and drained mailbox it returns the zero value.
func (m *Mailbox[T]) Recv(p *Proc) T {
	v, _ := m.RecvOK(p)
	return v
}

// RecvOK is Recv that also reports false when the mailbox is closed and
// drained.
func (m *Mailbox[T]) RecvOK(p *Proc) (T, bool) {
	p.check()
	if v, ok := m.TryRecv(); ok {
		return v, true
	}
	if m.closed {
		var zero T
		return zero, false
	}
	var w *recvWaiter[T]
	if n := len(m.free); n > 0 {
		w = m.free[n-1]
		m.free = m.free[:n-1]
	} else {
		w = new(recvWaiter[T])
	}
	w.p = p
	m.recvq.Push(w)
	p.block(m)
	p.park("receive from", m.name)
	v, ok := w.v, w.ok
	*w = recvWaiter[T]{}
	m.free = append(m.free, w)
	return v, ok
}

// TryRecv returns the next message if one can be taken without blocking.
func (m *Mailbox[T]) TryRecv() (T, bool) {
	if m.q.Len() > 0 {
		v := m.q.Pop()
		if m.sendq.Len() > 0 {
			w := m.sendq.Pop()
			m.q.Push(w.v)
			m.puts++
			m.sim.wake(w.p)
		}
		m.qlen.set(m.sim.now, float64(m.q.Len()))
		return v, true
	}
	if m.sendq.Len() > 0 { // rendezvous
		w := m.sendq.Pop()
		m.puts++
		m.sim.wake(w.p)
		return w.v, true
	}
	var zero T
	return zero, false
}

// Close marks the mailbox closed: queued messages can still be received,
// after which receivers get ok == false instead of blocking. Blocked
// receivers are woken.
func (m *Mailbox[T]) Close() {
	if m.closed {
		return
	}
	m.closed = true
	for m.recvq.Len() > 0 {
		w := m.recvq.Pop()
		m.sim.wake(w.p)
	}
}

// Break discards the queued messages, releases blocked senders (their
// messages are lost) and makes every later Put or Send succeed at once and
// discard its message. Kill breaks the mailboxes a killed process owns.
func (m *Mailbox[T]) Break() {
	if m.broken {
		return
	}
	m.broken = true
	m.lost += int64(m.q.Len())
	m.q.Clear()
	m.qlen.set(m.sim.now, 0)
	for m.sendq.Len() > 0 {
		w := m.sendq.Pop()
		m.lost++
		m.sim.wake(w.p)
	}
}

// Case is an Alt case that receives from the mailbox and passes the message
// to fn (which may be nil). It is ready when a message is queued or a
// sender waits; a closed, drained mailbox is never ready.
func (m *Mailbox[T]) Case(fn func(v T)) Case {
	return Case{src: &mailboxCase[T]{m: m, fn: fn}}
}

type mailboxCase[T any] struct {
	m  *Mailbox[T]
	fn func(T)
}

func (c *mailboxCase[T]) ready() bool {
	return c.m.q.Len() > 0 || c.m.sendq.Len() > 0
}

func (c *mailboxCase[T]) commit(p *Proc) {
	v, _ := c.m.TryRecv()
	if c.fn != nil {
		c.fn(v)
	}
}

func (c *mailboxCase[T]) watch(p *Proc)      { c.m.watchers = append(c.m.watchers, p) }
func (c *mailboxCase[T]) unwatch(p *Proc)    { c.m.watchers = removeProc(c.m.watchers, p) }
func (c *mailboxCase[T]) cancelWait(p *Proc) { c.m.cancelWait(p) }
func (c *mailboxCase[T]) describe() string   { return "mailbox " + c.m.name }

// cancelWait withdraws every registration of p (interrupt or kill).
func (m *Mailbox[T]) cancelWait(p *Proc) {
	m.watchers = removeProc(m.watchers, p)
	removeFromFIFO(&m.recvq, func(w *recvWaiter[T]) bool { return w.p == p })
	removeFromFIFO(&m.sendq, func(w *sendWaiter[T]) bool { return w.p == p })
}

// Stats returns the mailbox's statistics up to now: Count is the number
// of messages delivered, MeanQueue and MaxQueue the time-weighted mean and
// the maximum number of queued messages.
func (m *Mailbox[T]) Stats() Stats {
	return Stats{Name: m.name, Kind: "mailbox", Elapsed: m.sim.now - m.qlen.t0,
		Count: m.puts, Lost: m.lost, MeanQueue: m.qlen.mean(m.sim.now), MaxQueue: m.qlen.max}
}
