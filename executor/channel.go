package executor

import (
	"fmt"
	"math"
)

// Buf identifies the receive buffer a message of a Channel occupies.
type Buf int

// ChannelConfig describes a Channel.
type ChannelConfig[T any] struct {
	// Name appears in deadlock reports and traces.
	Name string
	// Cost returns the duration of the transfer of v, typically S + C·x
	// for a message of x units. Nil means instantaneous transfers.
	Cost func(v T) float64
	// Buffers is the number of receive buffers. 0 makes the channel an
	// occam-like rendezvous: a transfer starts only when a receiver waits
	// in Recv, and sender and receiver both resume when it ends. With
	// Buffers = k > 0 a transfer starts when a buffer is free and the
	// message waits in the buffer until received.
	Buffers int
	// Alternate makes the j-th message (j = 0, 1, ...) use buffer
	// j mod Buffers, waiting for that very buffer to be free, instead of
	// taking any free buffer.
	Alternate bool
	// ManualRelease keeps a received message's buffer occupied until the
	// receiver calls Release (e.g. until it has relayed the message);
	// otherwise Recv frees it.
	ManualRelease bool
	// OnStart, if set, is called in kernel context when a transfer starts.
	OnStart func(v T)
	// Intercept, if set, is called in kernel context when a transfer ends
	// (buffered channels only). If it returns true the message is consumed
	// on arrival: its buffer is freed at once and Recv never sees it.
	Intercept func(v T) bool
}

// chanSend is a message waiting for, or using, the link.
type chanSend[T any] struct {
	p *Proc
	v T
}

type delivered[T any] struct {
	v   T
	buf int
}

// Channel is a point-to-point (or shared) communication link with a
// transfer cost: a message v occupies the link for Cost(v) units of virtual
// time, one message at a time, senders served in FIFO order. A sender
// blocks until its transfer has ended. See ChannelConfig for rendezvous and
// buffered operation.
type Channel[T any] struct {
	sim       *Sim
	name      string
	cost      func(T) float64
	nbuf      int
	alternate bool
	manual    bool
	onStart   func(T)
	intercept func(T) bool

	busy     bool
	sendq    FIFO[*chanSend[T]]
	recvq    FIFO[*recvWaiter[T]]
	q        FIFO[delivered[T]]
	slotBusy []bool
	count    uint64 // transfers started
	cur      *chanSend[T]
	curRecv  *recvWaiter[T]
	curBuf   int
	complete func()
	freeS    []*chanSend[T]
	freeR    []*recvWaiter[T]

	transfers int64
	busyTime  float64
	lastStart float64
}

// NewChannel returns a link configured by cfg. It panics on a negative
// buffer count, or on Intercept or Alternate without buffers.
func NewChannel[T any](s *Sim, cfg ChannelConfig[T]) *Channel[T] {
	if cfg.Buffers < 0 {
		panic(fmt.Sprintf("executor: channel %s: negative buffer count %d", cfg.Name, cfg.Buffers))
	}
	if cfg.Buffers == 0 && (cfg.Intercept != nil || cfg.Alternate || cfg.ManualRelease) {
		panic(fmt.Sprintf("executor: channel %s: Intercept, Alternate and ManualRelease need buffers", cfg.Name))
	}
	c := &Channel[T]{
		sim: s, name: cfg.Name, cost: cfg.Cost, nbuf: cfg.Buffers,
		alternate: cfg.Alternate, manual: cfg.ManualRelease,
		onStart: cfg.OnStart, intercept: cfg.Intercept,
		slotBusy: make([]bool, cfg.Buffers),
	}
	c.complete = c.finish
	return c
}

// Name returns the channel's name.
func (c *Channel[T]) Name() string { return c.name }

// Transfers returns the number of transfers completed so far.
func (c *Channel[T]) Transfers() int64 { return c.transfers }

// BusyTime returns the total time the link has carried messages.
func (c *Channel[T]) BusyTime() float64 { return c.busyTime }

// Len returns the number of delivered messages waiting to be received.
func (c *Channel[T]) Len() int { return c.q.Len() }

// Send transfers v over the link, blocking p until the transfer has ended.
func (c *Channel[T]) Send(p *Proc, v T) {
	p.check()
	c.enqueue(p, v)
	p.pending++
	c.tryStart()
	p.park("send on", c.name)
}

// SendAll starts one transfer per channel (vs[i] over chs[i]) at once, as
// a node sending over several ports in parallel, and blocks p until all of
// them have ended. Each transfer starts as soon as its own link allows.
func SendAll[T any](p *Proc, chs []*Channel[T], vs []T) {
	p.check()
	if len(chs) != len(vs) {
		panic("executor: SendAll: channels and values differ in length")
	}
	if len(chs) == 0 {
		return
	}
	for i, c := range chs {
		c.enqueue(p, vs[i])
	}
	p.pending += len(chs)
	for _, c := range chs {
		c.tryStart()
	}
	p.park("send on", chs[0].name)
}

func (c *Channel[T]) enqueue(p *Proc, v T) {
	var w *chanSend[T]
	if n := len(c.freeS); n > 0 {
		w = c.freeS[n-1]
		c.freeS = c.freeS[:n-1]
	} else {
		w = new(chanSend[T])
	}
	w.p, w.v = p, v
	c.sendq.Push(w)
}

// tryStart starts the next transfer if the link, a sender and the receive
// side (a waiting receiver or a free buffer) are ready.
func (c *Channel[T]) tryStart() {
	if c.busy || c.sendq.Len() == 0 {
		return
	}
	buf := -1
	if c.nbuf == 0 {
		if c.recvq.Len() == 0 {
			return
		}
		c.curRecv = c.recvq.Pop()
	} else if c.alternate {
		b := int(c.count % uint64(c.nbuf))
		if c.slotBusy[b] {
			return
		}
		buf = b
	} else {
		for b, busy := range c.slotBusy {
			if !busy {
				buf = b
				break
			}
		}
		if buf < 0 {
			return
		}
	}
	if buf >= 0 {
		c.slotBusy[buf] = true
	}
	w := c.sendq.Pop()
	c.count++
	c.busy = true
	c.cur = w
	c.curBuf = buf
	d := 0.0
	if c.cost != nil {
		d = c.cost(w.v)
	}
	if d < 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		panic(fmt.Sprintf("executor: channel %s: transfer cost %g", c.name, d))
	}
	c.lastStart = c.sim.now
	if c.onStart != nil {
		c.onStart(w.v)
	}
	if c.sim.tracing {
		c.sim.record(c.name, "transfer start", "")
	}
	c.sim.push(event{t: c.sim.now + d, fn: c.complete})
}

// finish ends the current transfer (kernel callback).
func (c *Channel[T]) finish() {
	s := c.sim
	w := c.cur
	c.cur = nil
	c.busy = false
	c.transfers++
	c.busyTime += s.now - c.lastStart
	if s.tracing {
		s.record(c.name, "transfer end", "")
	}
	if c.nbuf == 0 {
		r := c.curRecv
		c.curRecv = nil
		r.v, r.ok, r.tag = w.v, true, -1
		s.wake(r.p)
	} else {
		b := c.curBuf
		switch {
		case c.intercept != nil && c.intercept(w.v):
			c.slotBusy[b] = false
		case c.recvq.Len() > 0:
			r := c.recvq.Pop()
			r.v, r.ok, r.tag = w.v, true, b
			if !c.manual {
				c.slotBusy[b] = false
			}
			s.wake(r.p)
		default:
			c.q.Push(delivered[T]{v: w.v, buf: b})
		}
	}
	w.p.pending--
	if w.p.pending == 0 {
		s.wake(w.p)
	}
	var zero T
	w.p, w.v = nil, zero
	c.freeS = append(c.freeS, w)
	c.tryStart()
}

// Recv returns the next message, blocking p until one has arrived. With
// ManualRelease use RecvBuf instead, to be able to free the buffer.
func (c *Channel[T]) Recv(p *Proc) T {
	v, _ := c.RecvBuf(p)
	return v
}

// RecvBuf returns the next message and the buffer it occupies (-1 for a
// rendezvous), blocking p until one has arrived.
func (c *Channel[T]) RecvBuf(p *Proc) (T, Buf) {
	p.check()
	if c.q.Len() > 0 {
		d := c.q.Pop()
		if !c.manual {
			c.slotBusy[d.buf] = false
			c.tryStart()
		}
		return d.v, Buf(d.buf)
	}
	var r *recvWaiter[T]
	if n := len(c.freeR); n > 0 {
		r = c.freeR[n-1]
		c.freeR = c.freeR[:n-1]
	} else {
		r = new(recvWaiter[T])
	}
	r.p = p
	c.recvq.Push(r)
	if c.nbuf == 0 {
		c.tryStart()
	}
	p.park("receive on", c.name)
	v, b := r.v, r.tag
	*r = recvWaiter[T]{}
	c.freeR = append(c.freeR, r)
	return v, Buf(b)
}

// Release frees buffer b of a ManualRelease channel, letting a transfer
// waiting for it start. It may be called from processes and callbacks.
func (c *Channel[T]) Release(b Buf) {
	if !c.manual {
		panic(fmt.Sprintf("executor: channel %s: Release without ManualRelease", c.name))
	}
	if b < 0 || int(b) >= c.nbuf || !c.slotBusy[b] {
		panic(fmt.Sprintf("executor: channel %s: Release of free buffer %d", c.name, b))
	}
	c.slotBusy[b] = false
	c.tryStart()
}
