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
type Mailbox[T any] struct {
	sim    *Sim
	name   string
	cap    int
	q      FIFO[T]
	recvq  FIFO[*recvWaiter[T]]
	sendq  FIFO[*sendWaiter[T]]
	free   []*recvWaiter[T]
	closed bool
}

// NewMailbox returns a mailbox of the given capacity (0: rendezvous,
// k > 0: bounded buffer, Unbounded). name appears in deadlock reports.
func NewMailbox[T any](s *Sim, name string, capacity int) *Mailbox[T] {
	if capacity < Unbounded {
		panic(fmt.Sprintf("executor: mailbox %s: bad capacity %d", name, capacity))
	}
	return &Mailbox[T]{sim: s, name: name, cap: capacity}
}

// Name returns the mailbox's name.
func (m *Mailbox[T]) Name() string { return m.name }

// Len returns the number of queued messages.
func (m *Mailbox[T]) Len() int { return m.q.Len() }

// Send delivers v, blocking p while the mailbox cannot take it (no receiver
// for a rendezvous, a full buffer). Send on a closed mailbox panics.
func (m *Mailbox[T]) Send(p *Proc, v T) {
	p.check()
	if m.Put(v) {
		return
	}
	w := &sendWaiter[T]{p: p, v: v}
	m.sendq.Push(w)
	p.park("send to", m.name)
}

// Put delivers v without blocking, from a process or a kernel callback: to
// a waiting receiver, or into the buffer if there is room. It reports
// whether v was delivered. Put on a closed mailbox panics.
func (m *Mailbox[T]) Put(v T) bool {
	if m.closed {
		panic(fmt.Sprintf("executor: send on closed mailbox %s", m.name))
	}
	if m.recvq.Len() > 0 {
		w := m.recvq.Pop()
		w.v, w.ok = v, true
		m.sim.wake(w.p)
		return true
	}
	if m.cap < 0 || m.q.Len() < m.cap {
		m.q.Push(v)
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
			m.sim.wake(w.p)
		}
		return v, true
	}
	if m.sendq.Len() > 0 { // rendezvous
		w := m.sendq.Pop()
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
