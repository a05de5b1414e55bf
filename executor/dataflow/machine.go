package dataflow

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/executor/dataflow/graph"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/trace"
)

// IStructureError is a second write to a written location.
type IStructureError struct {
	Loc    string  `json:"loc"`
	First  int     `json:"first_writer"`
	Second int     `json:"second_writer"`
	Time   float64 `json:"time"`
}

// Result is what a run observed (JSON names are part of the CLI contract).
type Result struct {
	Makespan  float64 `json:"makespan"`
	Completed bool    `json:"completed"`
	// Deadlock is the reason the run could not finish ("" when it did).
	Deadlock string `json:"deadlock"`
	// NodeInstances counts the node executions (loops unrolled, failed
	// branches not executed).
	NodeInstances int `json:"node_instances"`
	// PEBusy[i] is the compute time of PE i+1; BusBusy the busy time of
	// the result, acknowledgement and I-structure buses.
	PEBusy  []float64          `json:"pe_busy"`
	BusBusy map[string]float64 `json:"bus_busy"`
	// DisregardTokens counts PEs released because their node's branch
	// failed; Reallocations counts same-loop reallocations.
	DisregardTokens int `json:"disregard_tokens"`
	Reallocations   int `json:"reallocations"`
	// IStructureErrors lists second writes; PendingReads counts reads
	// still waiting for data at the end.
	IStructureErrors []IStructureError `json:"istructure_errors"`
	PendingReads     int               `json:"pending_reads"`
	// Utilisation is the true busy fraction Σ compute/(p·makespan) in %.
	Utilisation float64 `json:"pe_utilisation"`
	Events      int64   `json:"events"`
}

// pe is a processing element.
type pe struct {
	idx   int
	inbox *executor.Mailbox[assignment]
	// operands is notified when the instance the PE holds may have become
	// enabled, been cancelled ("disregard") or been revoked.
	operands *executor.Condition
	current  int // instance held, -1
	bound    int // loop node bound to this PE (-1)
	outer    int // its outermost loop instance
	busy     float64
	free     bool
	working  bool  // computing or broadcasting (not waiting for operands)
	set      []int // static/quasi: instances of its set, in order
}

type assignment struct {
	inst  int
	alloc bool // pay the scheduler delay and the allocation transfer
}

// machine is the state of one run.
type machine struct {
	cfg *Machine
	opt platform.RunOptions
	rec trace.Recorder // nil: no trace
	// traceArgs holds the details shared by an instance's spans on a PE
	// (made when tracing only).
	traceArgs []map[string]any
	g         *graph.Graph
	u         *unrolled
	sim       *executor.Sim
	pes       []*pe
	buses     map[string]*executor.Resource
	res       *Result
	ready     []readyEntry // enabled, unallocated instances (kept sorted)
	stale     int          // stale entries in ready
	// free and revoke are the free PEs (in index order) and the PEs
	// holding revocable nodes (latest node first) during one scheduler run.
	free, revoke []*pe
	left         int // instances not done
	written      map[string]int
	readers      map[string][]int
	bound        map[int]int // loop node -> PE
	level        int         // barrier mode: current level
	levelN       []int       // barrier mode: instances left per level
	parts        [][]int     // quasi: instance partitions
	part         int
	waiting      int // PEs waiting to start the next quasi partition
	// eagerOrder lists every instance in (level, node) order; eagerFrom
	// skips its prefix of finished instances.
	eagerOrder []int
	eagerFrom  int
	// dispatchPending: a scheduler run is queued for the current instant.
	dispatchPending bool
}

// simulate executes the checked configuration on the kernel. A run that
// cannot finish (a deadlock, reads of locations never written) returns a
// Result with Completed false and the reason in Deadlock, not an error.
func simulate(ctx context.Context, c *Config, opt platform.RunOptions) (*Result, error) {
	u, err := unroll(c.Graph)
	if err != nil {
		return nil, err
	}
	m := newMachine(c.Graph, u, &c.Machine, opt)
	if err := m.sim.Run(ctx); err != nil {
		return nil, fmt.Errorf("dataflow: simulation: %w", err)
	}
	r := m.result()
	if m.rec != nil && !r.Completed {
		m.rec.Instant(traceScheduler, traceDeadlock, "deadlock", m.sim.Now(), map[string]any{"reason": r.Deadlock})
	}
	return r, nil
}

// newMachine builds the machine's state, its PEs and buses, and queues
// the first scheduler run.
func newMachine(g *graph.Graph, u *unrolled, cfg *Machine, opt platform.RunOptions) *machine {
	sim := executor.NewSim(executor.SimConfig{MaxEvents: opt.MaxEvents})
	m := &machine{cfg: cfg, opt: opt, rec: opt.Trace, g: g, u: u, sim: sim, written: map[string]int{}, readers: map[string][]int{}, bound: map[int]int{},
		res: &Result{PEBusy: make([]float64, cfg.PEs), BusBusy: map[string]float64{}, IStructureErrors: []IStructureError{}},
		buses: map[string]*executor.Resource{
			"result":     executor.NewResource(sim, "result bus", 1),
			"ack":        executor.NewResource(sim, "acknowledgement bus", 1),
			"istructure": executor.NewResource(sim, "I-structure bus", 1),
		}}
	m.left = len(u.inst)
	for _, in := range u.inst {
		in.enabled = in.need == 0 && !in.anyOp
	}
	for i := 0; i < cfg.PEs; i++ {
		p := &pe{idx: i, current: -1, bound: -1, outer: -1, free: true,
			inbox:    executor.NewMailbox[assignment](sim, peName(i), executor.Unbounded),
			operands: executor.NewCondition(sim, peName(i)+" operands")}
		m.pes = append(m.pes, p)
	}
	m.initPolicy(g)
	for _, in := range u.inst {
		if in.enabled {
			m.push(in.idx)
		}
	}
	for _, p := range m.pes {
		sim.SpawnDaemon(peName(p.idx), func(pr *executor.Proc) { m.peLoop(pr, p) })
	}
	sim.At(0, func() {
		if cfg.Policy == Quasi {
			m.startPartition()
		}
		m.dispatch()
	})
	return m
}

// initPolicy prepares level by level execution and the static and
// quasi-dynamic policies' sets.
func (m *machine) initPolicy(g *graph.Graph) {
	if m.cfg.Barrier {
		maxL := 0
		for _, in := range m.u.inst {
			maxL = max(maxL, in.level)
		}
		m.levelN = make([]int, maxL+1)
		for _, in := range m.u.inst {
			m.levelN[in.level]++
		}
	}
	switch m.cfg.Policy {
	case Static:
		m.deal(m.order(nil))
	case Quasi:
		m.parts = quasiPartitions(g, m.cfg.PEs) // loop-free: instance i is node i
	}
}

// result gathers what the run observed.
func (m *machine) result() *Result {
	r := m.res
	r.Events = m.sim.Events()
	r.Completed = m.left == 0
	for _, in := range m.u.inst {
		if in.pending && !in.done {
			r.PendingReads++
		}
	}
	if !r.Completed {
		r.Deadlock = m.deadlockReason()
	}
	total := 0.0
	for i, p := range m.pes {
		r.PEBusy[i] = p.busy
		total += p.busy
	}
	for name, b := range m.buses {
		r.BusBusy[name] = b.Stats().Busy
	}
	if r.Makespan > 0 {
		r.Utilisation = 100 * total / (float64(m.cfg.PEs) * r.Makespan)
	}
	return r
}

func (m *machine) less(a, b int) bool {
	x, y := m.u.inst[a], m.u.inst[b]
	if x.level != y.level {
		return x.level < y.level
	}
	if x.node != y.node {
		return x.node < y.node
	}
	return a < b
}

// readyEntry is an entry of the ready list; it is stale unless its
// instance is still queued with the same stamp (removal is lazy).
type readyEntry struct{ inst, stamp int }

// push inserts an enabled instance into the ready list, in (level, node,
// instance) order.
func (m *machine) push(i int) {
	in := m.u.inst[i]
	if in.queued {
		m.stale++ // its old entry goes stale
	}
	in.queued = true
	in.stamp++
	k := sort.Search(len(m.ready), func(j int) bool { return m.less(i, m.ready[j].inst) })
	m.ready = append(m.ready, readyEntry{})
	copy(m.ready[k+1:], m.ready[k:])
	m.ready[k] = readyEntry{i, in.stamp}
}

// remove takes an instance off the ready list (its entry goes stale).
func (m *machine) remove(i int) {
	if in := m.u.inst[i]; in.queued {
		in.queued = false
		m.stale++
	}
}

// live reports whether a ready-list entry still stands for its instance.
func (m *machine) live(e readyEntry) bool {
	in := m.u.inst[e.inst]
	return in.queued && in.stamp == e.stamp
}

// compact drops the stale entries at the head of the list, and all of
// them once they are half the list.
func (m *machine) compact() {
	for len(m.ready) > 0 && !m.live(m.ready[0]) {
		m.ready = m.ready[1:]
		m.stale--
	}
	if m.stale <= len(m.ready)/2 {
		return
	}
	out := m.ready[:0]
	for _, e := range m.ready {
		if m.live(e) {
			out = append(out, e)
		}
	}
	m.ready, m.stale = out, 0
}

// order returns the instances of the given list (all when nil) in (level,
// node, instance) order.
func (m *machine) order(list []int) []int {
	if list == nil {
		for i := range m.u.inst {
			list = append(list, i)
		}
	}
	out := append([]int(nil), list...)
	sort.SliceStable(out, func(a, b int) bool { return m.less(out[a], out[b]) })
	return out
}

// deal gives instance k of the order to PE k mod p (the static policy).
func (m *machine) deal(order []int) {
	for _, p := range m.pes {
		p.set = nil
	}
	for k, i := range order {
		m.pes[k%len(m.pes)].set = append(m.pes[k%len(m.pes)].set, i)
		m.u.inst[i].dealt = true // allotted to a PE: it captures results itself
	}
}

// quasiPartitions cuts the nodes of a loop-free graph, in (level, id)
// order, into partitions of consecutive levels holding at least 4p nodes
// each (the quasi-dynamic policy's partitions; the last may hold fewer).
func quasiPartitions(g *graph.Graph, p int) [][]int {
	lv := g.Levels()
	order := make([]int, len(g.Nodes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return lv[order[a]] < lv[order[b]] })
	var parts [][]int
	var cur []int
	for k, v := range order {
		cur = append(cur, v)
		if k == len(order)-1 || (len(cur) >= 4*p && lv[order[k+1]] != lv[v]) {
			parts = append(parts, cur)
			cur = nil
		}
	}
	return parts
}

func (m *machine) startPartition() {
	m.deal(m.parts[m.part])
	for _, p := range m.pes {
		p.free = false
		m.waiting++
		p.inbox.Put(assignment{inst: -1, alloc: true}) // the partition's allocation message
	}
}

// transfer holds a bus for its transfer time; c says what it carries,
// for the trace.
func (m *machine) transfer(pr *executor.Proc, bus string, t float64, c cause) {
	if t <= 0 {
		return
	}
	b := m.buses[bus]
	b.Acquire(pr)
	start := pr.Now()
	pr.Wait(t)
	b.Release()
	if m.rec != nil {
		m.rec.Span(traceBuses, busTracks[bus], c.name(), start, pr.Now(), m.causeArgs(c))
	}
}

// delay waits the scheduler's constant delay for a PE (an allocation or an
// acknowledgement; decision 2 of docs/dataflow.md: they do not queue).
func (m *machine) delay(pr *executor.Proc, c cause) {
	start := pr.Now()
	pr.Wait(m.cfg.SchedulerDelay)
	if m.rec != nil && m.cfg.SchedulerDelay > 0 {
		m.rec.Span(traceScheduler, peName(c.pe), c.name(), start, pr.Now(), m.causeArgs(c))
	}
}

// peLoop is a PE: it executes the assignments the scheduler sends.
func (m *machine) peLoop(pr *executor.Proc, p *pe) {
	for {
		a := p.inbox.Recv(pr)
		if a.inst < 0 { // quasi: a new partition's allocation
			c := cause{what: "allocate partition", pe: p.idx, part: m.part + 1}
			m.delay(pr, c)
			m.transfer(pr, "ack", m.cfg.AckBus, c)
			m.waiting--
			p.free = true
			m.dispatch()
			continue
		}
		m.execute(pr, p, a)
	}
}

// execute runs one assignment on PE p (the PE state diagram of Section
// 3.4): allocation, waiting for operands, the I-structure, computing,
// broadcasting the result and waiting for its acknowledgement.
func (m *machine) execute(pr *executor.Proc, p *pe, a assignment) {
	in := m.u.inst[a.inst]
	if a.alloc && m.cfg.Policy == Dynamic {
		m.delay(pr, cause{what: "allocate", pe: p.idx, in: in})
		m.transfer(pr, "ack", m.cfg.AckBus, cause{what: "allocate", pe: p.idx, in: in})
	}
	// eager allocation: wait for the operands, a "disregard" token or a
	// revocation
	p.operands.WaitFor(pr, func() bool { return in.enabled || in.failed || p.current != in.idx })
	if p.current != in.idx {
		return // revoked: the PE has a new assignment in its inbox
	}
	if in.failed { // the "disregard" token released the PE
		m.release(p)
		return
	}
	p.working = true
	if in.kind == graph.Read && !in.dataReady && !m.read(pr, p, in) {
		return
	}
	m.compute(pr, p, in)
	if in.kind == graph.Write {
		m.transfer(pr, "istructure", m.cfg.IStructureBus, cause{what: "write", pe: p.idx, in: in})
		m.write(pr, in)
	} else {
		m.broadcast(pr, p, in)
	}
	p.working = false
	m.finish(pr, in)
	if p.bound >= 0 && p.bound == in.node && m.loopRunning(p.outer) {
		p.current = -1 // stays with its loop node for the next iteration
		m.dispatch()
		return
	}
	m.release(p)
}

// read asks the I-structure for a read's location: the data comes back on
// the bus, or a "not-available" reply frees the PE and the read waits for
// the write (false).
func (m *machine) read(pr *executor.Proc, p *pe, in *instance) bool {
	m.transfer(pr, "istructure", m.cfg.IStructureBus, cause{what: "request", pe: p.idx, in: in})
	if _, ok := m.written[in.loc]; !ok {
		m.transfer(pr, "istructure", m.cfg.IStructureBus, cause{what: "not-available", pe: p.idx, in: in})
		in.pending, in.allocated = true, -1
		m.readers[in.loc] = append(m.readers[in.loc], in.idx)
		p.working = false
		m.release(p)
		return false
	}
	m.transfer(pr, "istructure", m.cfg.IStructureBus, cause{what: "data", pe: p.idx, in: in})
	return true
}

// compute executes the node's operation on PE p.
func (m *machine) compute(pr *executor.Proc, p *pe, in *instance) {
	start := pr.Now()
	pr.Wait(in.time)
	p.busy += in.time
	m.res.NodeInstances++
	if m.rec != nil {
		m.rec.Span(peName(p.idx), traceCompute, nodeName(in), start, pr.Now(), m.causeArgs(cause{pe: p.idx, in: in}))
	}
}

// broadcast sends a result on the result bus (with the data it carries,
// when the bus has a rate) and waits for its acknowledgement. The
// scheduler acknowledges, after its constant delay, when it holds a
// consumer or the result is an output of the graph ("the scheduler picks
// up the result and updates the appropriate node(s). Following this, the
// scheduler sends acknowledgement"; Section 3.2: "Each of these
// operations takes finite time ... a constant delay"); otherwise the PEs
// holding the consumers capture it and acknowledge. Either way one
// transfer on the acknowledgement bus (docs/dataflow.md).
func (m *machine) broadcast(pr *executor.Proc, p *pe, in *instance) {
	t := m.cfg.ResultBus
	if m.cfg.BytesPerTime > 0 {
		t += in.data / m.cfg.BytesPerTime
	}
	m.transfer(pr, "result", t, cause{what: "result", pe: p.idx, in: in})
	if m.cfg.SchedulerDelay > 0 && m.schedulerAcks(in) {
		m.delay(pr, cause{what: "acknowledge", pe: p.idx, in: in})
	}
	m.transfer(pr, "ack", m.cfg.AckBus, cause{what: "acknowledge", pe: p.idx, in: in})
}

// schedulerAcks reports whether the scheduler takes part in acknowledging
// in's result: it is an output of the graph, or a consumer still waiting
// for the result is not allotted to a PE (a PE bound to the consumer's
// loop node captures it too).
func (m *machine) schedulerAcks(in *instance) bool {
	live := false
	for _, list := range [][]int{in.succs, in.opSuccs} {
		for _, si := range list {
			s := m.u.inst[si]
			if s.done || s.failed {
				continue
			}
			if !m.held(s) {
				return true
			}
			live = true
		}
	}
	return !live // an output of the graph, or no consumer left
}

// held reports whether a PE holds instance s: allocated to it, dealt to
// its set before the start (static and quasi-dynamic), or the PE bound to
// s's loop node in the same loop run.
func (m *machine) held(s *instance) bool {
	if s.allocated >= 0 || s.dealt {
		return true
	}
	q, ok := m.bound[s.node]
	return ok && m.pes[q].outer == s.outer && s.outer >= 0
}

func (m *machine) loopRunning(outer int) bool { return outer >= 0 && m.u.outerSize[outer] > 0 }

// write performs an I-structure write: a second write to a location is an
// error (recorded, the run goes on); pending reads get their data.
func (m *machine) write(pr *executor.Proc, in *instance) {
	if first, ok := m.written[in.loc]; ok {
		m.res.IStructureErrors = append(m.res.IStructureErrors, IStructureError{Loc: in.loc, First: first, Second: in.node, Time: pr.Now()})
		if m.rec != nil {
			m.rec.Instant(traceBuses, busTracks["istructure"], "second write to "+in.loc, pr.Now(),
				map[string]any{"loc": in.loc, "first_writer": first, "second_writer": in.node})
		}
		return
	}
	m.written[in.loc] = in.node
	readers := m.readers[in.loc]
	delete(m.readers, in.loc)
	if len(readers) == 0 {
		return
	}
	// The I-structure PE sends the data on its bus, then the scheduler
	// allocates each read again.
	m.sim.Spawn("I-structure "+in.loc, func(ip *executor.Proc) { m.serveReads(ip, readers) })
}

// serveReads is the I-structure PE sending a written location's data to
// the reads that waited for it, one transfer each, in the order they
// asked; the scheduler then allocates them again.
func (m *machine) serveReads(ip *executor.Proc, readers []int) {
	for _, ri := range readers {
		r := m.u.inst[ri]
		m.transfer(ip, "istructure", m.cfg.IStructureBus, cause{what: "serve", pe: -1, in: r})
		r.pending, r.dataReady = false, true
		if r.enabled && !r.done {
			m.push(ri)
		}
	}
	m.dispatch()
}

// finish marks an instance done and enables its successors; a decision
// cancels its failed branch; the end of a loop frees its PEs.
func (m *machine) finish(pr *executor.Proc, in *instance) {
	in.done = true
	m.left--
	if m.opt.Progress != nil && (m.left%4096 == 0 || m.left == 0) {
		m.opt.Progress(len(m.u.inst)-m.left, len(m.u.inst))
	}
	m.res.Makespan = pr.Now()
	if m.cfg.Barrier {
		m.levelN[in.level]--
	}
	for _, ci := range in.cancels {
		m.cancel(ci, in)
	}
	for _, si := range in.succs {
		if s := m.u.inst[si]; !s.done && !s.failed && s.need > 0 {
			s.need--
			m.enable(s)
		}
	}
	for _, si := range in.opSuccs { // a merge fires on its first operand
		if s := m.u.inst[si]; !s.done && !s.failed && s.anyOp {
			s.anyOp = false
			m.enable(s)
		}
	}
	if in.outer >= 0 {
		m.u.outerSize[in.outer]--
		if m.u.outerSize[in.outer] == 0 {
			for _, p := range m.pes {
				if p.outer == in.outer {
					delete(m.bound, p.bound)
					p.bound, p.outer = -1, -1
					if p.current < 0 && !p.free {
						p.free = true
					}
				}
			}
		}
	}
	if m.left == 0 {
		m.sim.Stop()
	}
}

// enable makes s enabled once every dependency has arrived: the PE
// holding it (eagerly) is kicked, or it joins the ready list.
func (m *machine) enable(s *instance) {
	if s.need > 0 || s.anyOp || s.enabled {
		return
	}
	s.enabled = true
	if s.allocated >= 0 {
		m.pes[s.allocated].operands.Notify()
	} else if !s.pending {
		m.push(s.idx)
	}
}

// cancel deletes an instance of a failed branch of decision dec: a PE
// holding it gets a "disregard" token.
func (m *machine) cancel(i int, dec *instance) {
	in := m.u.inst[i]
	if in.done || in.failed {
		return
	}
	in.failed = true
	in.done = true
	m.left--
	if m.cfg.Barrier {
		m.levelN[in.level]--
	}
	if in.outer >= 0 {
		m.u.outerSize[in.outer]--
	}
	m.remove(i)
	if in.allocated >= 0 {
		m.res.DisregardTokens++
		m.pes[in.allocated].operands.Notify()
		if m.rec != nil {
			args := m.instantArgs(cause{pe: in.allocated, in: in}, map[string]any{"decision": dec.node})
			m.rec.Instant(peName(in.allocated), traceCompute, "disregard "+nodeName(in), m.sim.Now(), args)
		}
	}
}

// release frees a PE and lets the scheduler use it.
func (m *machine) release(p *pe) {
	if p.current >= 0 {
		m.u.inst[p.current].allocated = -1
	}
	p.current = -1
	if p.bound >= 0 && m.loopRunning(p.outer) {
		m.dispatch() // still bound to its loop
		return
	}
	if p.bound >= 0 {
		delete(m.bound, p.bound)
		p.bound, p.outer = -1, -1
	}
	p.free = true
	m.dispatch()
}

// assign gives instance i to PE p.
func (m *machine) assign(p *pe, i int, alloc bool) {
	in := m.u.inst[i]
	m.remove(i)
	p.free = false
	p.current = i
	in.allocated = p.idx
	if in.outer >= 0 && m.cfg.Policy == Dynamic {
		p.bound, p.outer = in.node, in.outer
		m.bound[in.node] = p.idx
	}
	p.inbox.Put(assignment{inst: i, alloc: alloc})
}

// dispatch asks the scheduler to run once every event of the current
// instant has been handled, so that it sees every node enabled and every
// PE freed at this time (list scheduling decides on all of them at once).
func (m *machine) dispatch() {
	if m.dispatchPending {
		return
	}
	m.dispatchPending = true
	m.sim.At(m.sim.Now(), func() {
		m.dispatchPending = false
		m.schedule()
	})
}

// schedule is the scheduler: it gives enabled instances to free PEs in
// (level, node) order, loop nodes to the PE already holding them, and,
// when nothing enabled is left, allocates not-yet-enabled nodes eagerly.
func (m *machine) schedule() {
	if m.cfg.Barrier {
		for m.level < len(m.levelN) && m.levelN[m.level] == 0 {
			m.level++
		}
	}
	if m.cfg.Policy != Dynamic {
		m.dispatchStatic()
		return
	}
	m.compact()
	m.free, m.revoke = m.free[:0], nil
	for _, p := range m.pes {
		if p.free {
			m.free = append(m.free, p)
		}
	}
	for k := 0; k < len(m.ready); k++ {
		e := m.ready[k]
		if !m.live(e) {
			continue
		}
		in := m.u.inst[e.inst]
		if m.cfg.Barrier && in.level != m.level {
			break // sorted by level: nothing further is of this level
		}
		if !m.place(in) && len(m.free) == 0 && m.u.nouter == 0 && !m.revocable(in) {
			break // no PE for this node, nor for any later one
		}
	}
	m.compact()
	if m.cfg.NoEager || m.cfg.Barrier {
		return
	}
	for p := m.freePE(); p != nil; p = m.freePE() {
		i := m.eagerCandidate()
		if i < 0 {
			return
		}
		m.u.inst[i].eager = true
		m.assign(p, i, true)
	}
}

// place gives an enabled instance a PE if one is to be had: the PE bound
// to its loop node, a free PE, an idle PE of its loop (same-loop
// reallocation), or the PE of an eagerly allocated node that is not
// enabled yet (the remedy of docs/dataflow.md).
func (m *machine) place(in *instance) bool {
	i := in.idx
	if q, ok := m.bound[in.node]; ok && m.pes[q].outer == in.outer {
		if p := m.pes[q]; p.current < 0 {
			m.assign(p, i, false) // the result is captured by the PE holding the node
			return true
		}
		return false
	}
	if p := m.freePE(); p != nil {
		m.assign(p, i, true)
		return true
	}
	if in.outer >= 0 && !m.cfg.NoRealloc {
		if p := m.idleInLoop(in.outer); p != nil {
			delete(m.bound, p.bound)
			m.res.Reallocations++
			if m.rec != nil {
				m.rec.Instant(traceScheduler, peName(p.idx), "reallocate to "+nodeName(in), m.sim.Now(),
					m.instantArgs(cause{pe: p.idx, in: in}, nil))
			}
			m.assign(p, i, true)
			return true
		}
	}
	if m.revocable(in) {
		p := m.revoke[0]
		m.revoke = m.revoke[1:]
		old := p.current
		m.u.inst[old].allocated = -1
		m.u.inst[old].eager = false
		if m.rec != nil {
			args := m.instantArgs(cause{pe: p.idx, in: in}, map[string]any{"revoked": m.u.inst[old].node})
			m.rec.Instant(traceScheduler, peName(p.idx), "revoke "+nodeName(m.u.inst[old]), m.sim.Now(), args)
		}
		m.assign(p, i, true)
		p.operands.Notify()
		return true
	}
	return false
}

// freePE takes the free PE of smallest index.
func (m *machine) freePE() *pe {
	for len(m.free) > 0 {
		p := m.free[0]
		m.free = m.free[1:]
		if p.free {
			return p
		}
	}
	return nil
}

// idleInLoop returns a PE bound to the loop instance that is waiting for
// its node's next iteration (same-loop reallocation, Section 2.2).
func (m *machine) idleInLoop(outer int) *pe {
	for _, p := range m.pes {
		if p.outer == outer && p.current < 0 && !p.free {
			return p
		}
	}
	return nil
}

// revocable reports whether an enabled instance may take the PE of an
// eagerly allocated, not yet enabled, non-loop node (the remedy for eager
// allocation deadlocks; docs/dataflow.md): m.revoke[0], the latest such
// node in (level, node) order, must come after it. The candidates are
// gathered once per scheduler run.
func (m *machine) revocable(in *instance) bool {
	if m.revoke == nil {
		m.revoke = []*pe{}
		for _, p := range m.pes {
			if p.current < 0 || p.working {
				continue
			}
			if c := m.u.inst[p.current]; c.eager && !c.enabled && c.outer < 0 {
				m.revoke = append(m.revoke, p)
			}
		}
		sort.Slice(m.revoke, func(a, b int) bool { return m.less(m.revoke[b].current, m.revoke[a].current) })
	}
	return len(m.revoke) > 0 && m.less(in.idx, m.revoke[0].current)
}

// eagerCandidate is the first unallocated instance in (level, node) order
// that is not enabled, not cancelled, not a pending read, and not a loop
// node already held by a PE.
func (m *machine) eagerCandidate() int {
	if m.eagerOrder == nil {
		m.eagerOrder = m.order(nil)
	}
	for m.eagerFrom < len(m.eagerOrder) && m.u.inst[m.eagerOrder[m.eagerFrom]].done {
		m.eagerFrom++
	}
	for _, i := range m.eagerOrder[m.eagerFrom:] {
		in := m.u.inst[i]
		if in.done || in.enabled || in.allocated >= 0 || in.pending || in.failed {
			continue
		}
		if _, ok := m.bound[in.node]; ok {
			continue
		}
		return i
	}
	return -1
}

// dispatchStatic gives each free PE the first enabled instance of its set.
func (m *machine) dispatchStatic() {
	if m.cfg.Policy == Quasi && m.waiting == 0 && m.part < len(m.parts) {
		doneAll := true
		for _, i := range m.parts[m.part] {
			if !m.u.inst[i].done {
				doneAll = false
				break
			}
		}
		if doneAll && m.part+1 < len(m.parts) {
			m.part++
			m.startPartition()
			return
		}
	}
	for _, p := range m.pes {
		if !p.free {
			continue
		}
		for _, i := range p.set {
			in := m.u.inst[i]
			if in.enabled && !in.done && in.allocated < 0 && !in.pending && !in.failed && (!m.cfg.Barrier || in.level == m.level) {
				m.assign(p, i, false)
				break
			}
		}
	}
}

func (m *machine) deadlockReason() string {
	var waiting, pending int
	for _, in := range m.u.inst {
		if in.done {
			continue
		}
		if in.pending {
			pending++
		} else {
			waiting++
		}
	}
	held := 0
	for _, p := range m.pes {
		if p.outer >= 0 {
			held++
		}
	}
	var parts []string
	parts = append(parts, fmt.Sprintf("deadlock at t=%g: %d node instances cannot run", m.sim.Now(), waiting+pending))
	if pending > 0 {
		parts = append(parts, fmt.Sprintf("%d reads wait for locations never written", pending))
	}
	if held == len(m.pes) && m.cfg.NoRealloc {
		parts = append(parts, "every PE is held by a loop and same-loop reallocation is off")
	}
	return strings.Join(parts, "; ")
}
