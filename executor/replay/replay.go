package replay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/dlsched/dlsched/executor"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
	"github.com/dlsched/dlsched/trace"
)

// DefaultTolerance is the relative tolerance of Verify's comparisons.
const DefaultTolerance = 1e-9

// DefaultMaxEvents is the event budget of one replay when Options.MaxEvents
// is 0.
const DefaultMaxEvents = 2_000_000_000

// Options tunes the replay.
type Options struct {
	// Tolerance is the relative tolerance of every comparison (default
	// DefaultTolerance). Times are compared with the absolute tolerance
	// Tolerance·T, T = max(|Cmax|, timed makespan, earliest makespan),
	// loads with Tolerance·|V|, message sizes with Tolerance·D.
	Tolerance float64
	// Trace records a kernel trace of each run and returns its SHA-256 in
	// Result.TraceHash (costs time and memory on big trees).
	Trace bool
	// MaxEvents bounds the events of one run (0: DefaultMaxEvents;
	// negative: no bound).
	MaxEvents int64
	// Context cancels the runs (nil: context.Background()).
	Context context.Context
	// MaxBytes refuses, before building the platform, a replay whose
	// EstimateBytes exceeds it (0: DefaultMaxBytes; negative: no limit);
	// the error is a *SizeError.
	MaxBytes int64
	// SkipStatedTimes turns off the comparison of the schedule's stated
	// End, Arrival and Compute* fields with the replay (kind stated_times).
	SkipStatedTimes bool
	// Faults are events of the real platform that the schedule did not
	// plan for (Earliest only): a processor slowed, sped up or stalled
	// from a time on, or crashed. The replay then runs the schedule's
	// message order and loads on the perturbed platform, and Result
	// reports the work that was lost.
	Faults []Fault
	// Recorder, if set, receives the trace of the replay (trace.go for
	// its processes, tracks and events): Earliest and Timed record their
	// run, Verify its timed run (the verdict's, whose makespan is
	// Verification.Makespan). Nil records nothing at no cost.
	Recorder trace.Recorder
}

// Fault changes the real platform during an earliest-mode replay.
type Fault struct {
	// Node is the processor: 1..m for a star, a node ID of topology.Build
	// for a tree (the originator, 0, cannot fail).
	Node int
	// At is the time of the fault (>= 0).
	At float64
	// Speed is the processor's new speed factor from At on (1: nominal,
	// 0.2: five times slower, 0: stalled); the computation in progress is
	// re-timed. Ignored when Crash is set.
	Speed float64
	// Crash ends the processor at At: its computation in progress and
	// its queue are lost, messages still to arrive at it are lost (their
	// senders still pay the link), and for a tree it relays nothing more,
	// so its subtree gets nothing more either.
	Crash bool
}

func (o *Options) tolerance() float64 {
	if o.Tolerance > 0 {
		return o.Tolerance
	}
	return DefaultTolerance
}

func (o *Options) maxEvents() int64 {
	switch {
	case o.MaxEvents == 0:
		return DefaultMaxEvents
	case o.MaxEvents < 0:
		return 0
	}
	return o.MaxEvents
}

func (o *Options) context() context.Context {
	if o.Context != nil {
		return o.Context
	}
	return context.Background()
}

// ChunkTimes is what a replay observed of one message (for a tree layer,
// the latest over the layer's processors; in both modes all processors of a
// layer act in lock-step).
type ChunkTimes struct {
	// HopLoad[h] is the load one link carries in hop h; HopStart[h] and
	// HopEnd[h] delimit the hop.
	HopLoad  []float64
	HopStart []float64
	HopEnd   []float64
	// Arrival is the end of the last hop (at the destination processors).
	Arrival float64
	// ComputeStart and ComputeEnd delimit the computation of the chunk on
	// a destination processor (both equal Arrival for a chunk that is
	// not computed, i.e. addressed to a relay-only layer).
	ComputeStart float64
	ComputeEnd   float64
}

// Result is the outcome of one replay.
type Result struct {
	// Makespan is the latest computation end or message arrival.
	Makespan float64
	// Finish[id] is the end of the last computation of node id (node IDs
	// of topology.Build: for a star, Finish[i] is processor i); 0 for the
	// originator, relay-only nodes and idle processors.
	Finish []float64
	// Busy[id] is the time node id spent computing the chunks it finished
	// (same node IDs; a computation a crash cut short is not counted).
	// Speed changes (Options.Faults) are in it: a chunk computed at half
	// speed counts twice its nominal time.
	Busy []float64
	// Chunks follows the schedule's chunk list.
	Chunks []ChunkTimes
	// Events is the number of kernel events of the run.
	Events int64
	// Processors is the number of computing processors simulated.
	Processors int
	// Violations lists the breaches found (timed mode only).
	Violations []schedule.Violation
	// TraceHash is the SHA-256 of the run's trace (Options.Trace).
	TraceHash [32]byte
	// Incomplete lists (0-based, ascending) the chunks that some
	// destination processor did not finish computing because of a fault
	// (Options.Faults), and LostLoad the load they leave uncomputed.
	Incomplete []int
	LostLoad   float64
	// Returns follows the schedule's result messages (stars with a result
	// ratio); Makespan includes their ends.
	Returns []ReturnTimes
}

// Apply writes the replay's times into s: every chunk's hops (from, to,
// load, start, end), start, arrival and computing interval, and s.Cmax =
// r.Makespan. It is how a schedule with earliest-possible times is built
// from loads alone: Earliest, then Apply.
func (r *Result) Apply(s *schedule.Schedule) error {
	if len(r.Chunks) != len(s.Chunks) {
		return fmt.Errorf("executor: Apply: result has %d chunks, schedule %d", len(r.Chunks), len(s.Chunks))
	}
	for i := range s.Chunks {
		c, t := &s.Chunks[i], &r.Chunks[i]
		c.Hops = make([]schedule.Hop, len(t.HopStart))
		for h := range c.Hops {
			from, to := h, h+1
			if s.Problem.Topology == "star" {
				from, to = 0, 1
			}
			c.Hops[h] = schedule.Hop{From: from, To: to, Load: t.HopLoad[h], Start: t.HopStart[h], End: t.HopEnd[h]}
		}
		if len(c.Hops) > 0 {
			c.Start = c.Hops[0].Start
		}
		c.Arrival = t.Arrival
		c.ComputeStart, c.ComputeEnd = t.ComputeStart, t.ComputeEnd
	}
	for k := range s.Returns {
		if k < len(r.Returns) {
			s.Returns[k].Start, s.Returns[k].End = r.Returns[k].Start, r.Returns[k].End
		}
	}
	s.Cmax = r.Makespan
	return nil
}

// recorder collects per-chunk observations (maxima over a layer's nodes).
type recorder struct {
	pl       *plan
	hopOff   []int
	hopStart []float64
	arrival  []float64
	cstart   []float64
	cend     []float64
	finish   []float64
	busy     []float64
	makespan float64
	done     []int32 // completed computations per chunk
	// retStart and retEnd: the result messages' transfers.
	retStart, retEnd []float64
}

func newRecorder(pl *plan) *recorder {
	r := &recorder{pl: pl, hopOff: make([]int, len(pl.ch)+1)}
	for i := range pl.ch {
		r.hopOff[i+1] = r.hopOff[i] + len(pl.ch[i].dur)
	}
	ninf := math.Inf(-1)
	fill := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = ninf
		}
		return x
	}
	r.hopStart = fill(r.hopOff[len(pl.ch)])
	r.arrival = fill(len(pl.ch))
	r.cstart = fill(len(pl.ch))
	r.cend = fill(len(pl.ch))
	r.finish = make([]float64, len(pl.g.Nodes))
	r.busy = make([]float64, len(pl.g.Nodes))
	r.makespan = ninf
	r.done = make([]int32, len(pl.ch))
	r.retStart, r.retEnd = fill(len(pl.rets)), fill(len(pl.rets))
	return r
}

func (r *recorder) start(c int32, hop int, t float64) {
	i := r.hopOff[c] + hop
	if t > r.hopStart[i] {
		r.hopStart[i] = t
	}
}

func (r *recorder) arrive(c int32, t float64) {
	if t > r.arrival[c] {
		r.arrival[c] = t
	}
	if t > r.makespan {
		r.makespan = t
	}
}

func (r *recorder) computed(id int, c int32, st, en float64) {
	r.done[c]++
	if st > r.cstart[c] {
		r.cstart[c] = st
	}
	if en > r.cend[c] {
		r.cend[c] = en
	}
	if en > r.finish[id] {
		r.finish[id] = en
	}
	r.busy[id] += en - st
	if en > r.makespan {
		r.makespan = en
	}
}

func (r *recorder) result(sim *executor.Sim) Result {
	pl := r.pl
	res := Result{Finish: r.finish, Busy: r.busy, Events: sim.Events(), Processors: pl.computing, TraceHash: sim.TraceHash(), Returns: r.returnTimes()}
	res.Makespan = r.makespan
	if math.IsInf(res.Makespan, -1) {
		res.Makespan = 0
	}
	res.Chunks = make([]ChunkTimes, len(pl.ch))
	for i := range pl.ch {
		pc := &pl.ch[i]
		t := &res.Chunks[i]
		t.HopLoad = pc.linkLoad
		t.HopStart = r.hopStart[r.hopOff[i]:r.hopOff[i+1]:r.hopOff[i+1]]
		t.HopEnd = make([]float64, len(pc.dur))
		for h := range pc.dur {
			t.HopEnd[h] = t.HopStart[h] + pc.dur[h]
		}
		t.Arrival = r.arrival[i]
		t.ComputeStart, t.ComputeEnd = r.cstart[i], r.cend[i]
		if !pc.computed {
			t.ComputeStart, t.ComputeEnd = t.Arrival, t.Arrival
			continue
		}
		if want := pl.destinations(i); int(r.done[i]) < want {
			res.Incomplete = append(res.Incomplete, i)
			res.LostLoad += float64(want-int(r.done[i])) * pc.sim
		}
	}
	return res
}

// destinations returns the number of processors that compute chunk i.
func (pl *plan) destinations(i int) int {
	if pl.kind == topology.Star {
		return 1
	}
	return len(pl.g.ByLayer[pl.ch[i].dest])
}

// cpuNode is a computing node: its CPU computes the chunks in arrival
// order (FIFO of chunk indices, matched to the CPU's completions).
type cpuNode struct {
	id   int
	rec  *recorder
	cpu  *executor.CPU
	q    executor.FIFO[int32]
	done func(st, en float64)
	// onDone, if set, is called with (node, chunk, end) after each
	// computation (timed mode records the ends per node).
	onDone func(id int, c int32, en float64)
	// tr, if set, records the computations (trace.go); arrived holds the
	// submission times of the queued chunks and lastEnd the end of the
	// last computation, from which a computation a crash cuts short
	// started.
	tr      *tracer
	sim     *executor.Sim
	arrived executor.FIFO[float64]
	lastEnd float64
}

func (n *cpuNode) finish(st, en float64) {
	c := n.q.Pop()
	n.rec.computed(n.id, c, st, en)
	if n.tr != nil {
		n.arrived.Pop()
		n.lastEnd = en
		n.tr.compute(n.id, c, st, en, false)
	}
	if n.onDone != nil {
		n.onDone(n.id, c, en)
	}
}

func (n *cpuNode) submit(pc *pchunk) {
	n.q.Push(int32(pc.idx))
	if n.tr != nil {
		n.arrived.Push(n.sim.Now())
	}
	n.cpu.Submit(pc.work, executor.Low, n.done)
}

func newCPUNodes(pl *plan, sim *executor.Sim, rec *recorder) []*cpuNode {
	nodes := make([]*cpuNode, len(pl.g.Nodes))
	for id := 1; id < len(nodes); id++ {
		if pl.kind != topology.Star && pl.relay[pl.g.Nodes[id].Layer] {
			continue
		}
		n := &cpuNode{id: id, rec: rec, cpu: executor.NewCPU(sim, "cpu"+strconv.Itoa(id))}
		n.done = n.finish
		nodes[id] = n
	}
	return nodes
}

func nodeName(id int) string {
	if id == 0 {
		return "P0"
	}
	return "P" + strconv.Itoa(id)
}

// runEarliest replays the schedule's order and loads with every transfer
// as early as the physical model allows.
//
// Every node but the originator has one inbound Channel (the link from its
// parent) with the node's receive buffers: 1 (star, binomial, 1-buffer
// tree) or 2 used alternately (2-buffer tree); a buffer holding a message
// to relay is freed by the node's process when the relay has ended, a
// message addressed to the node is intercepted on arrival, frees its
// buffer at once and goes to the node's CPU. Every node that sends (the
// originator, inner tree nodes) runs one process: receive the next
// message in FIFO order (store and forward), send it on over the ports
// (executor.SendAll: all p ports at once; a binomial node one step after the
// other), free its buffer. Port exclusivity follows from the process being
// sequential, link exclusivity from the Channel, and the buffer rules from
// a transfer starting only when the receiver's buffer is free.
func runEarliest(pl *plan, opt *Options) (Result, error) {
	sim := executor.NewSim(executor.SimConfig{MaxEvents: opt.maxEvents(), Trace: opt.Trace})
	rec := newRecorder(pl)
	tr := newTracer(pl, opt, opt.Faults)
	cpus := newCPUNodes(pl, sim, rec)
	traceCPUs(tr, sim, cpus)
	in := earliestLinks(pl, sim, rec, tr, cpus)
	n := len(pl.g.Nodes)
	procs := make([]*executor.Proc, n)
	computed := computedEvents(pl, sim, cpus)
	for l := 0; l < len(pl.sends); l++ {
		sends := pl.sends[l]
		for _, id := range pl.g.ByLayer[l] {
			if len(sends) == 0 && (id != 0 || computed == nil) {
				continue
			}
			procs[id] = sim.Spawn(nodeName(id), func(p *executor.Proc) {
				relayNode(p, pl, in, id, sends)
				if id == 0 && computed != nil {
					receiveResults(p, pl, rec, tr, computed)
				}
			})
		}
	}
	crashed, err := injectFaults(pl, sim, opt.Faults, cpus, in, procs, tr)
	if err != nil {
		return Result{}, err
	}
	if err := sim.Run(opt.context()); err != nil && !starvedByCrash(pl, err, crashed) {
		return Result{}, fmt.Errorf("executor: earliest replay: %w", err)
	}
	return rec.result(sim), nil
}

// earliestLinks builds the inbound Channel of every node but the
// originator for the earliest replay (see runEarliest); in[id] is the link
// from id's parent.
func earliestLinks(pl *plan, sim *executor.Sim, rec *recorder, tr *tracer, cpus []*cpuNode) []*executor.Channel[int32] {
	n := len(pl.g.Nodes)
	in := make([]*executor.Channel[int32], n)
	costs := make([]func(int32) float64, len(pl.recv))
	starts := make([]func(int32), len(pl.recv))
	for grp := 1; grp < len(pl.recv); grp++ {
		hop := pl.hopOf(grp)
		costs[grp] = func(c int32) float64 { return pl.ch[c].dur[hop] }
		starts[grp] = func(c int32) {
			rec.start(c, hop, sim.Now())
			if sim.Tracing() {
				sim.Trace("hop "+strconv.Itoa(hop)+" into group "+strconv.Itoa(grp), "start chunk "+strconv.Itoa(int(c)+1))
			}
		}
	}
	for id := 1; id < n; id++ {
		grp := pl.group(id)
		cn := cpus[id]
		intercept := func(c int32) bool {
			pc := &pl.ch[c]
			if pc.dest != grp {
				return false
			}
			rec.arrive(c, sim.Now())
			if sim.Tracing() {
				sim.Trace(nodeName(id), "arrive chunk "+strconv.Itoa(int(c)+1))
			}
			if cn != nil {
				cn.submit(pc)
			}
			return true
		}
		parent, onStart := pl.g.Nodes[id].Parent, starts[grp]
		if tr != nil { // one closure per link only when traced
			hop := pl.hopOf(grp)
			onStart = func(c int32) {
				starts[grp](c)
				tr.transfer(parent, id, c, hop, sim.Now())
			}
		}
		in[id] = executor.NewChannel(sim, executor.ChannelConfig[int32]{
			Name:          "link " + nodeName(parent) + "→" + nodeName(id),
			Cost:          costs[grp],
			Buffers:       pl.nbuf,
			Alternate:     true,
			ManualRelease: true,
			OnStart:       onStart,
			Intercept:     intercept,
		})
	}
	return in
}

// injectFaults validates the faults and schedules them on the kernel. It
// returns the crashed nodes.
func injectFaults(pl *plan, sim *executor.Sim, faults []Fault, cpus []*cpuNode,
	in []*executor.Channel[int32], procs []*executor.Proc, tr *tracer) (map[int]bool, error) {
	crashed := map[int]bool{}
	for k, f := range faults {
		switch {
		case f.Node < 1 || f.Node >= len(pl.g.Nodes):
			return nil, fmt.Errorf("executor: faults[%d]: node %d, want 1..%d", k, f.Node, len(pl.g.Nodes)-1)
		case f.At < 0 || !finite(f.At):
			return nil, fmt.Errorf("executor: faults[%d]: time %g, want a finite time >= 0", k, f.At)
		case !f.Crash && (f.Speed < 0 || !finite(f.Speed)):
			return nil, fmt.Errorf("executor: faults[%d]: speed %g, want a finite factor >= 0", k, f.Speed)
		}
		id := f.Node
		if f.Crash {
			crashed[id] = true
			sim.At(f.At, func() {
				tr.fault(f, cpus[id])
				if cn := cpus[id]; cn != nil {
					cn.cpu.Break()
				}
				in[id].Break()
				if procs[id] != nil {
					sim.Kill(procs[id])
				}
			})
			continue
		}
		speed := f.Speed
		sim.At(f.At, func() {
			tr.fault(f, cpus[id])
			if cn := cpus[id]; cn != nil {
				cn.cpu.SetSpeed(speed)
			}
		})
	}
	return crashed, nil
}

// starvedByCrash reports whether err is a deadlock of relay processes
// that only wait for messages a crashed ancestor will never send.
func starvedByCrash(pl *plan, err error, crashed map[int]bool) bool {
	var d *executor.DeadlockError
	if len(crashed) == 0 || !errors.As(err, &d) {
		return false
	}
	byName := map[string]int{}
	for id := range pl.g.Nodes {
		byName[nodeName(id)] = id
	}
	for _, w := range d.Waiting {
		id, ok := byName[w.Proc]
		if !ok {
			return false
		}
		starved := false
		for a := pl.g.Nodes[id].Parent; a > 0; a = pl.g.Nodes[a].Parent {
			if crashed[a] {
				starved = true
				break
			}
		}
		if !starved {
			return false
		}
	}
	return true
}

// relayNode is the process of a sending node in the earliest replay.
func relayNode(p *executor.Proc, pl *plan, in []*executor.Channel[int32], id int, sends []sendRef) {
	var inCh *executor.Channel[int32]
	if id != 0 {
		inCh = in[id]
	}
	var outs []*executor.Channel[int32]
	var byLayer map[int][]*executor.Channel[int32]
	node := &pl.g.Nodes[id]
	switch pl.kind {
	case topology.Tree:
		for _, c := range node.Children {
			outs = append(outs, in[c])
		}
	case topology.Binomial:
		byLayer = map[int][]*executor.Channel[int32]{}
		for t, cs := range node.ChildrenByLayer {
			for _, c := range cs {
				byLayer[t] = append(byLayer[t], in[c])
			}
		}
	}
	vals := make([]int32, max(pl.p, 1))
	for k := 0; k < len(sends); {
		c := sends[k].c
		var buf executor.Buf
		if inCh == nil && pl.release != nil {
			p.WaitUntil(pl.release[c])
		}
		if inCh != nil {
			got, b := inCh.RecvBuf(p)
			if got != c {
				panic(fmt.Sprintf("internal error: node %d received chunk %d, expected %d", id, got+1, c+1))
			}
			buf = b
		}
		for ; k < len(sends) && sends[k].c == c; k++ {
			var chs []*executor.Channel[int32]
			switch pl.kind {
			case topology.Star:
				chs = in[pl.ch[c].dest : pl.ch[c].dest+1]
			case topology.Tree:
				chs = outs
			case topology.Binomial:
				chs = byLayer[int(sends[k].hop)+1]
			}
			for i := range chs {
				vals[i] = c
			}
			executor.SendAll(p, chs, vals[:len(chs)])
		}
		if inCh != nil {
			inCh.Release(buf)
		}
	}
}

// timedState holds the per-node records of a timed replay, in slabs: the
// receive records of node id start at recvOff[id] (one per message of its
// group's receive list), its send records at sendOff[id].
type timedState struct {
	recvOff []int
	sendOff []int
	arr     []float64 // arrival of the node's j-th message
	leave   []float64 // when it left the buffer (relayed, or arrived if own)
	cend    []float64 // computation end of own messages
	sStart  []float64
	sEnd    []float64
}

func newTimedState(pl *plan) *timedState {
	n := len(pl.g.Nodes)
	ts := &timedState{recvOff: make([]int, n+1), sendOff: make([]int, n+1)}
	for id := 0; id < n; id++ {
		nr, ns := 0, 0
		if id > 0 {
			nr = len(pl.recv[pl.group(id)])
		}
		if l := pl.g.Nodes[id].Layer; l < len(pl.sends) && (pl.kind != topology.Star || id == 0) {
			ns = len(pl.sends[l])
		}
		ts.recvOff[id+1] = ts.recvOff[id] + nr
		ts.sendOff[id+1] = ts.sendOff[id] + ns
	}
	nan := math.NaN()
	fill := func(k int) []float64 {
		x := make([]float64, k)
		for i := range x {
			x[i] = nan
		}
		return x
	}
	nr, ns := ts.recvOff[n], ts.sendOff[n]
	ts.arr, ts.leave, ts.cend = fill(nr), fill(nr), fill(nr)
	ts.sStart, ts.sEnd = fill(ns), fill(ns)
	return ts
}

// runTimed replays the schedule with every transfer starting exactly at
// its stated hop start, on every node, and records what happens; the
// checks are made by check afterwards.
//
// Nothing is decided by the nodes in this mode: the schedule states one
// start per hop for all the nodes of a layer. One clock process per sending
// layer therefore starts, at each stated start, the transfer on every link
// of every node of the layer, in the order of the stated times (one process
// per node would repeat the same wake-ups layer-size times and made the
// timed replay of the p=2, h=10 tree 2.5 times slower). Every transfer is
// its own event, and arrivals, buffers and CPUs are simulated per node.
func runTimed(pl *plan, opt *Options) (Result, *timedState, error) {
	s := pl.s
	t0 := 0.0
	for i := range s.Chunks {
		for _, h := range s.Chunks[i].Hops {
			t0 = math.Min(t0, h.Start)
		}
	}
	sim := executor.NewSim(executor.SimConfig{Start: t0, MaxEvents: opt.maxEvents(), Trace: opt.Trace})
	rec := newRecorder(pl)
	tr := newTracer(pl, opt, nil)
	cpus := newCPUNodes(pl, sim, rec)
	traceCPUs(tr, sim, cpus)
	ts := newTimedState(pl)
	for _, cn := range cpus {
		if cn != nil {
			cn.onDone = func(id int, c int32, en float64) {
				ts.cend[ts.recvOff[id]+int(pl.ch[c].pos[recvLayer(pl, id)])] = en
			}
		}
	}
	arrive := func(y int, c int32, j int) {
		now := sim.Now()
		ts.arr[ts.recvOff[y]+j] = now
		pc := &pl.ch[c]
		if sim.Tracing() {
			sim.Trace(nodeName(y), "arrive chunk "+strconv.Itoa(int(c)+1))
		}
		if pc.dest == pl.group(y) {
			ts.leave[ts.recvOff[y]+j] = now
			rec.arrive(c, now)
			if cn := cpus[y]; cn != nil {
				cn.submit(pc)
			}
		}
	}
	for l := 0; l < len(pl.sends); l++ {
		sends := pl.sends[l]
		if len(sends) == 0 {
			continue
		}
		order := make([]int, len(sends))
		for k := range order {
			order[k] = k
		}
		at := func(k int) float64 { return s.Chunks[sends[k].c].Hops[sends[k].hop].Start }
		sort.SliceStable(order, func(a, b int) bool { return at(order[a]) < at(order[b]) })
		ids := pl.g.ByLayer[l]
		sim.Spawn("clock of layer "+strconv.Itoa(l), func(p *executor.Proc) {
			for _, k := range order {
				sd := sends[k]
				pc := &pl.ch[sd.c]
				c := sd.c
				p.WaitUntil(at(k))
				st := p.Now()
				en := st + pc.dur[sd.hop]
				rec.start(c, int(sd.hop), st)
				for _, id := range ids {
					base := ts.sendOff[id]
					ts.sStart[base+k], ts.sEnd[base+k] = st, en
					if sd.last && id != 0 {
						ts.leave[ts.recvOff[id]+int(sd.pos)] = en
					}
					for _, y := range pl.targets(id, sd) {
						tr.transfer(id, y, c, int(sd.hop), st)
						j := int(pc.pos[recvLayer(pl, y)])
						sim.At(en, func() { arrive(y, c, j) })
					}
				}
			}
		})
	}
	timedResults(pl, sim, rec, tr)
	if err := sim.Run(opt.context()); err != nil {
		return Result{}, nil, fmt.Errorf("executor: timed replay: %w", err)
	}
	return rec.result(sim), ts, nil
}

// recvLayer is the index into pchunk.pos for node y: its layer (trees) or
// 0 (star).
func recvLayer(pl *plan, y int) int {
	if pl.kind == topology.Star {
		return 0
	}
	return pl.g.Nodes[y].Layer
}
