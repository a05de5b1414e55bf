package executor

import "fmt"

// Resource is a pool of identical units (capacity 1: an exclusive resource
// such as a bus) granted in strict FIFO order: a unit released while
// processes wait goes to the longest-waiting one.
type Resource struct {
	sim   *Sim
	name  string
	cap   int
	inUse int
	q     FIFO[*Proc]

	count      int64
	used, qlen level
}

// NewResource returns a resource with the given number of units (>= 1).
func NewResource(s *Sim, name string, capacity int) *Resource {
	if capacity < 1 {
		panic(fmt.Sprintf("executor: resource %s: capacity %d < 1", name, capacity))
	}
	r := &Resource{sim: s, name: name, cap: capacity}
	r.used.start(s.now)
	r.qlen.start(s.now)
	s.register(r)
	return r
}

// Name returns the resource's name.
func (r *Resource) Name() string { return r.name }

// InUse returns the number of units held.
func (r *Resource) InUse() int { return r.inUse }

// Waiting returns the number of processes waiting for a unit.
func (r *Resource) Waiting() int { return r.q.Len() }

// Acquire takes one unit, blocking p (FIFO) while none is free.
func (r *Resource) Acquire(p *Proc) {
	p.check()
	if r.TryAcquire() {
		return
	}
	r.q.Push(p)
	r.qlen.set(r.sim.now, float64(r.q.Len()))
	p.block(r)
	p.park("acquire", r.name)
}

// TryAcquire takes a unit if one is free and nobody waits.
func (r *Resource) TryAcquire() bool {
	if r.inUse < r.cap && r.q.Len() == 0 {
		r.inUse++
		r.count++
		r.used.set(r.sim.now, float64(r.inUse))
		return true
	}
	return false
}

// Release returns one unit; if processes wait, the first of them gets it.
// It may be called by any process or callback.
func (r *Resource) Release() {
	if r.inUse == 0 {
		panic(fmt.Sprintf("executor: resource %s: release of a free resource", r.name))
	}
	if r.q.Len() > 0 {
		r.count++
		r.sim.wake(r.q.Pop()) // the unit passes on; inUse unchanged
		r.qlen.set(r.sim.now, float64(r.q.Len()))
		return
	}
	r.inUse--
	r.used.set(r.sim.now, float64(r.inUse))
}

// cancelWait withdraws p from the queue (interrupt or kill). A unit p holds
// is not released: the model decides what a killed holder leaves behind.
func (r *Resource) cancelWait(p *Proc) {
	if removeFromFIFO(&r.q, func(w *Proc) bool { return w == p }) {
		r.qlen.set(r.sim.now, float64(r.q.Len()))
	}
}

// Stats returns the resource's statistics up to now: Busy is the integral
// of the units in use (unit-time), Utilisation that over capacity·Elapsed,
// Count the acquisitions, MeanQueue and MaxQueue the waiting processes.
func (r *Resource) Stats() Stats {
	now := r.sim.now
	el := now - r.used.t0
	busy := r.used.integral(now)
	return Stats{Name: r.name, Kind: "resource", Elapsed: el, Busy: busy,
		Utilisation: ratio(busy, el*float64(r.cap)), Count: r.count,
		MeanQueue: r.qlen.mean(now), MaxQueue: r.qlen.max}
}
