package executor

// timeQueue holds the future events. Events with equal times share a
// bucket, a FIFO in push (hence sequence) order; a 4-ary min-heap orders
// the distinct times. Simulations of synchronous systems (all nodes of a
// tree layer acting at the same instants) create many events per instant,
// which then cost a map lookup and an append instead of heap operations.
type timeQueue struct {
	heap []heapEnt
	byT  map[float64]*bucket
	last *bucket // the bucket of the latest push (most pushes repeat a time)
	free []*bucket
}

type bucket struct {
	t   float64
	evs []event
	hd  int
}

type heapEnt struct {
	t float64
	b *bucket
}

func (q *timeQueue) push(ev event) {
	b := q.last
	if b == nil || b.t != ev.t {
		if q.byT == nil {
			q.byT = map[float64]*bucket{}
		}
		b = q.byT[ev.t]
		if b == nil {
			if n := len(q.free); n > 0 {
				b = q.free[n-1]
				q.free = q.free[:n-1]
			} else {
				b = new(bucket)
			}
			b.t = ev.t
			q.byT[ev.t] = b
			q.heapPush(heapEnt{ev.t, b})
		}
		q.last = b
	}
	b.evs = append(b.evs, ev)
}

// top returns the earliest time, if any.
func (q *timeQueue) top() (float64, bool) {
	if len(q.heap) == 0 {
		return 0, false
	}
	return q.heap[0].t, true
}

// pop removes the first event of the earliest time; the queue must not be
// empty.
func (q *timeQueue) pop() event {
	b := q.heap[0].b
	ev := b.evs[b.hd]
	b.evs[b.hd] = event{}
	b.hd++
	if b.hd == len(b.evs) {
		q.heapPop()
		delete(q.byT, b.t)
		if q.last == b {
			q.last = nil
		}
		b.hd = 0
		if cap(b.evs) > 4096 {
			b.evs = nil
		} else {
			b.evs = b.evs[:0]
		}
		if len(q.free) < 1024 {
			q.free = append(q.free, b)
		}
	}
	return ev
}

func (q *timeQueue) heapPush(e heapEnt) {
	q.heap = append(q.heap, e)
	h := q.heap
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 4
		if h[parent].t <= e.t {
			break
		}
		h[i] = h[parent]
		i = parent
	}
	h[i] = e
}

func (q *timeQueue) heapPop() {
	h := q.heap
	last := len(h) - 1
	e := h[last]
	h[last] = heapEnt{}
	h = h[:last]
	q.heap = h
	if last == 0 {
		return
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= last {
			break
		}
		m := c
		end := min(c+4, last)
		for k := c + 1; k < end; k++ {
			if h[k].t < h[m].t {
				m = k
			}
		}
		if h[m].t >= e.t {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = e
}
