package replay

import (
	"math"
	"strconv"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/topology"
	"github.com/dlsched/dlsched/trace"
)

// The trace of a replay (Options.Recorder), in package trace's terms: one
// process per physical node, named as in the violations ("P0" the
// originator, "P3" node 3 of topology.Build or star processor 3), and on
// it these tracks:
//
//   - "port" of a star's originator: its one port, every transfer to a
//     processor ("stage 2 → P3") and every result message it receives
//     ("results P3 → P0");
//   - "link to Pk" of a tree node: the link to its child k, every hop of
//     a message over it ("stage 2 → Pk"); a tree node's p ports are its p
//     links;
//   - "cpu" of a computing node: every computation ("compute stage 2").
//
// A transfer's args give the chunk (1-based, the schedule's list order),
// its stage, the load one link carries, the hop (1-based) and the
// message's destination ("processor" of a star, "layer" of a tree); a
// computation's the chunk, stage, load and the node ("processor", and
// "layer" in a tree); a result message's the processor and its load (β
// times the processor's load). A fault (Options.Faults) is an instant on
// the node's cpu track ("crash", "speed" with the new factor); the
// computation a crash cuts short is a span to the crash, named "… (lost)"
// with lost: true, and so is a transfer into a crashed node (its sender
// still pays the link). A fault at a relay-only node of a tree is on its
// "node" track. Times are model seconds; a time before 0 (a schedule that
// states one, which Verify reports as negative) is written as 0 with the
// true start in args ("start"). A span that starts before the last one of
// its track ends by no more than the replay's tolerance (Options.Tolerance
// times the larger of the schedule's Cmax and that end: the rounding of
// an LP's stated times, 1.8e-18 s on the README's demo star) starts at
// that end: viewers draw spans that overlap at all as nested.
//
// In both modes no two spans of a track overlap when the schedule obeys
// the physical model; a timed replay of a schedule that breaks it shows
// the breach as spans that overlap (link_busy). The latest end is the
// replay's Makespan, save a lost transfer into a crashed node, which may
// end after it.

// traceUnit is the model's time unit in a trace.
const traceUnit = "s"

// tracer records a replay; a nil *tracer records nothing.
type tracer struct {
	pl  *plan
	rec trace.Recorder
	// crashAt[id] is the time node id crashes (+Inf: never).
	crashAt []float64
	// tol is the relative tolerance, last the latest end on each track.
	tol  float64
	last map[[2]string]float64
}

// newTracer returns the tracer of a run of pl, nil without a recorder.
func newTracer(pl *plan, opt *Options, faults []Fault) *tracer {
	if opt.Recorder == nil {
		return nil
	}
	t := &tracer{pl: pl, rec: opt.Recorder, crashAt: make([]float64, len(pl.g.Nodes)),
		tol: opt.tolerance(), last: map[[2]string]float64{}}
	for id := range t.crashAt {
		t.crashAt[id] = math.Inf(1)
	}
	for _, f := range faults {
		if f.Crash && f.Node >= 0 && f.Node < len(t.crashAt) {
			t.crashAt[f.Node] = math.Min(t.crashAt[f.Node], f.At)
		}
	}
	return t
}

// span records a span, moved to start at 0 if it starts before, or at
// the end of the last span of its track if it overlaps it within the
// tolerance.
func (t *tracer) span(process, track, name string, st, en float64, args map[string]any) {
	if st < 0 {
		args["start"] = st
		st = math.Max(0, math.Min(st, en))
		en = math.Max(en, 0)
	}
	k := [2]string{process, track}
	if last, ok := t.last[k]; ok && st < last && last-st <= t.tol*math.Max(math.Abs(t.pl.s.Cmax), last) {
		st, en = last, math.Max(en, last)
	}
	t.last[k] = math.Max(t.last[k], en)
	t.rec.Span(process, track, name, st, en, args)
}

// destArg names a message's destination in args: its processor (star) or
// layer (trees).
func (t *tracer) destArg(args map[string]any, dest int) {
	if t.pl.kind == topology.Star {
		args["processor"] = dest
	} else {
		args["layer"] = dest
	}
}

// transfer records hop hop of chunk c from node from to node to, starting
// at st.
func (t *tracer) transfer(from, to int, c int32, hop int, st float64) {
	if t == nil {
		return
	}
	pc := &t.pl.ch[c]
	en := st + pc.dur[hop]
	args := map[string]any{"chunk": int(c) + 1, "stage": t.pl.s.Chunks[c].Stage, "load": pc.linkLoad[hop], "hop": hop + 1}
	t.destArg(args, pc.dest)
	name := "stage " + strconv.Itoa(t.pl.s.Chunks[c].Stage) + " → " + nodeName(to)
	if en > t.crashAt[to] {
		name += " (lost)"
		args["lost"] = true
	}
	track := "port"
	if t.pl.kind != topology.Star {
		track = "link to " + nodeName(to)
	}
	t.span(nodeName(from), track, name, st, en, args)
}

// compute records the computation of chunk c on node id from st to en.
func (t *tracer) compute(id int, c int32, st, en float64, lost bool) {
	if t == nil {
		return
	}
	pc := &t.pl.ch[c]
	args := map[string]any{"chunk": int(c) + 1, "stage": t.pl.s.Chunks[c].Stage, "load": pc.sim, "processor": id}
	if t.pl.kind != topology.Star {
		args["layer"] = pc.dest
	}
	name := "compute stage " + strconv.Itoa(t.pl.s.Chunks[c].Stage)
	if lost {
		name += " (lost)"
		args["lost"] = true
	}
	t.span(nodeName(id), "cpu", name, st, en, args)
}

// result records result message k on the originator's port.
func (t *tracer) result(k int, st, en float64) {
	if t == nil {
		return
	}
	r := &t.pl.rets[k]
	t.span("P0", "port", "results "+nodeName(r.proc)+" → P0", st, en,
		map[string]any{"processor": r.proc, "load": r.want, "message": k + 1})
}

// fault records a fault at node id, and the computation it cuts short.
func (t *tracer) fault(f Fault, cn *cpuNode) {
	if t == nil {
		return
	}
	name, args := "crash", map[string]any{"node": f.Node}
	if !f.Crash {
		name, args["factor"] = "speed", f.Speed
	}
	track := "cpu"
	if cn == nil {
		track = "node" // a relay-only node of a tree
	}
	t.rec.Instant(nodeName(f.Node), track, name, f.At, args)
	if f.Crash && cn != nil && cn.q.Len() > 0 && !cn.cpu.Idle() {
		t.compute(f.Node, cn.q.Peek(), math.Max(cn.arrived.Peek(), cn.lastEnd), f.At, true)
	}
}

// traceCPUs makes the computing nodes record their computations through
// t (nothing when t is nil).
func traceCPUs(t *tracer, sim *executor.Sim, cpus []*cpuNode) {
	if t == nil {
		return
	}
	for _, cn := range cpus {
		if cn != nil {
			cn.tr, cn.sim = t, sim
		}
	}
}
