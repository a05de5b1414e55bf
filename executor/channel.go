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
	// Size, if set, measures a message (bytes, load units) for the
	// channel's statistics (Stats.Units).
	Size func(v T) float64
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
	size      func(T) float64

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
	units     float64
	lost      int64
	gen       uint64
	broken    bool
	watchers  []*Proc
	t0        float64
	qlen      level // senders waiting or transferring
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
		onStart: cfg.OnStart, intercept: cfg.Intercept, size: cfg.Size,
		slotBusy: make([]bool, cfg.Buffers), t0: s.now,
	}
	c.qlen.start(s.now)
	c.complete = c.finish
	s.register(c)
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

// Lost returns the number of messages discarded because the channel is
// broken.
func (c *Channel[T]) Lost() int64 { return c.lost }

// Send transfers v over the link, blocking p until the transfer has ended.
func (c *Channel[T]) Send(p *Proc, v T) {
	p.check()
	c.enqueue(p, v)
	p.pending++
	p.block(c)
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
		p.block(c)
	}
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
	c.qlen.set(c.sim.now, float64(c.sendq.Len()+btoi(c.busy)))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// tryStart starts the next transfer if the link, a sender and the receive
// side (a waiting receiver or a free buffer) are ready.
func (c *Channel[T]) tryStart() {
	if c.busy || c.sendq.Len() == 0 {
		return
	}
	buf := -1
	if c.broken {
		// the receiving end is gone: transfers go on, and are discarded
	} else if c.nbuf == 0 {
		if c.recvq.Len() == 0 {
			c.sim.notifyWatchers(c.watchers) // a sender waits, the link is free
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
	c.gen++
	c.sim.atGen(c.sim.now+d, c.complete, &c.gen, c.gen)
}

// finish ends the current transfer (kernel callback).
func (c *Channel[T]) finish() {
	s := c.sim
	w := c.cur
	c.cur = nil
	c.busy = false
	c.transfers++
	c.busyTime += s.now - c.lastStart
	if c.size != nil {
		c.units += c.size(w.v)
	}
	c.qlen.set(s.now, float64(c.sendq.Len()))
	if s.tracing {
		s.record(c.name, "transfer end", "")
	}
	switch {
	case c.broken:
		c.lost++
		if c.curBuf >= 0 {
			c.slotBusy[c.curBuf] = false
		}
		c.curRecv = nil
	case c.nbuf == 0:
		r := c.curRecv
		c.curRecv = nil
		r.v, r.ok, r.tag = w.v, true, -1
		s.wake(r.p)
	default:
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
			s.notifyWatchers(c.watchers)
		}
	}
	if w.p != nil {
		w.p.pending--
		if w.p.pending == 0 {
			s.wake(w.p)
		}
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
	p.block(c)
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

// cancelWait withdraws every registration of p (interrupt or kill): its
// queued sends are dropped, a transfer it sends is aborted (the message is
// lost, the link freed), a transfer it receives on a rendezvous channel is
// aborted (its sender resumes), and it stops waiting to receive. On a
// broken channel a transfer in progress is not aborted: it ends and is
// discarded as every other message.
func (c *Channel[T]) cancelWait(p *Proc) {
	c.watchers = removeProc(c.watchers, p)
	for removeFromFIFO(&c.sendq, func(w *chanSend[T]) bool { return w.p == p }) {
		p.pending--
	}
	removeFromFIFO(&c.recvq, func(r *recvWaiter[T]) bool { return r.p == p })
	if c.cur == nil {
		return
	}
	switch {
	case c.cur.p == p:
		p.pending--
		if c.broken {
			c.cur.p = nil // goes on, discarded on arrival
			return
		}
		c.abort()
	case c.curRecv != nil && c.curRecv.p == p:
		if c.broken {
			c.curRecv = nil
			return
		}
		sender := c.cur.p
		c.abort()
		if sender != nil {
			sender.pending--
			if sender.pending == 0 {
				c.sim.wake(sender)
			}
		}
	}
	c.qlen.set(c.sim.now, float64(c.sendq.Len()+btoi(c.busy)))
}

// abort ends the current transfer now without delivering its message.
func (c *Channel[T]) abort() {
	w := c.cur
	c.cur = nil
	c.curRecv = nil
	c.busy = false
	c.gen++
	c.busyTime += c.sim.now - c.lastStart
	c.lost++
	if c.curBuf >= 0 {
		c.slotBusy[c.curBuf] = false
	}
	if c.sim.tracing {
		c.sim.record(c.name, "transfer aborted", "")
	}
	var zero T
	w.p, w.v = nil, zero
	c.freeS = append(c.freeS, w)
	c.tryStart()
}

// Break makes the channel's receiving end gone: delivered messages are
// discarded, and every transfer, the one in progress included, still
// occupies the link for its cost (the sender pays) and is discarded on
// arrival (Lost counts them). Kill breaks the channels a killed process
// owns.
func (c *Channel[T]) Break() {
	if c.broken {
		return
	}
	c.broken = true
	c.lost += int64(c.q.Len())
	for c.q.Len() > 0 {
		d := c.q.Pop()
		if d.buf >= 0 {
			c.slotBusy[d.buf] = false
		}
	}
	c.tryStart()
}

// Case is an Alt case that receives from the channel and passes the
// message to fn (which may be nil). On a buffered channel it is ready when
// a delivered message waits; on a rendezvous channel when a sender waits
// and the link is free, and the Alt then performs the transfer (the process
// resumes when it ends). A broken channel is never ready.
func (c *Channel[T]) Case(fn func(v T)) Case {
	return Case{src: &channelCase[T]{c: c, fn: fn}}
}

type channelCase[T any] struct {
	c  *Channel[T]
	fn func(T)
}

func (k *channelCase[T]) ready() bool {
	c := k.c
	if c.broken {
		return false
	}
	if c.nbuf == 0 {
		return c.sendq.Len() > 0 && !c.busy
	}
	return c.q.Len() > 0
}

func (k *channelCase[T]) commit(p *Proc) {
	v := k.c.Recv(p)
	if k.fn != nil {
		k.fn(v)
	}
}

func (k *channelCase[T]) watch(p *Proc)      { k.c.watchers = append(k.c.watchers, p) }
func (k *channelCase[T]) unwatch(p *Proc)    { k.c.watchers = removeProc(k.c.watchers, p) }
func (k *channelCase[T]) cancelWait(p *Proc) { k.c.cancelWait(p) }
func (k *channelCase[T]) describe() string   { return "channel " + k.c.name }

// Stats returns the channel's statistics up to now: Busy and Utilisation
// of the link, Count (transfers completed), Units (their total Size),
// MeanQueue and MaxQueue (senders waiting or transferring), Lost.
func (c *Channel[T]) Stats() Stats {
	now := c.sim.now
	el := now - c.t0
	busy := c.busyTime
	if c.busy {
		busy += now - c.lastStart
	}
	return Stats{Name: c.name, Kind: "channel", Elapsed: el, Busy: busy,
		Utilisation: ratio(busy, el), Count: c.transfers, Units: c.units,
		MeanQueue: c.qlen.mean(now), MaxQueue: c.qlen.max, Lost: c.lost}
}
