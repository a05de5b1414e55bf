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
}

// NewResource returns a resource with the given number of units (>= 1).
func NewResource(s *Sim, name string, capacity int) *Resource {
	if capacity < 1 {
		panic(fmt.Sprintf("executor: resource %s: capacity %d < 1", name, capacity))
	}
	return &Resource{sim: s, name: name, cap: capacity}
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
	if r.inUse < r.cap && r.q.Len() == 0 {
		r.inUse++
		return
	}
	r.q.Push(p)
	p.park("acquire", r.name)
}

// TryAcquire takes a unit if one is free and nobody waits.
func (r *Resource) TryAcquire() bool {
	if r.inUse < r.cap && r.q.Len() == 0 {
		r.inUse++
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
		r.sim.wake(r.q.Pop()) // the unit passes on; inUse unchanged
		return
	}
	r.inUse--
}
