package nepp

import (
	"strconv"

	"github.com/dlsched/dlsched/trace"
)

// The processes and tracks of a NEPP trace. The host is one process with
// two tracks: its port, busy while it sends an assignment message (the
// sender is busy for a message's time, Section 3.1.3), and its CPU, busy
// for w_h per result. Each node is a process with its CPU (the jobs it
// computes; crashes and speed changes as instants) and its link to the
// host (READY and DONE messages).
const (
	hostName  = "host"
	trackPort = "port"
	trackCPU  = "cpu"
	trackLink = "link to host"
)

// tracer records a run into a trace.Recorder. A nil *tracer records
// nothing: every method returns at once, before building anything, so a
// run without a trace pays one nil check per activity.
type tracer struct {
	rec   trace.Recorder
	names []string   // "node 1", ...
	cur   []activity // what each node is doing (track "" when idle)
	dead  []bool     // the node has crashed
}

// activity is a span begun and not yet ended.
type activity struct {
	track, name string
	start       float64
	args        map[string]any
}

// newTracer returns a tracer for cfg's nodes, or nil when rec is nil. It
// marks the start of the run on the host (so that the host is the trace's
// first process) with the run's parameters.
func newTracer(rec trace.Recorder, cfg *Config) *tracer {
	if rec == nil {
		return nil
	}
	p := len(cfg.Speeds)
	t := &tracer{rec: rec, names: make([]string, p), cur: make([]activity, p), dead: make([]bool, p)}
	for i := range t.names {
		t.names[i] = "node " + strconv.Itoa(i+1)
	}
	q, qmin := cfg.queue()
	rec.Instant(hostName, trackPort, "start", 0, map[string]any{"algorithm": cfg.Algorithm.String(), "nodes": p,
		"jobs": cfg.Jobs, "queue": q, "qmin": qmin})
	return t
}

// begin keeps node i's activity a until end (or a crash, or the run's
// end) records it.
func (t *tracer) begin(i int, a activity) {
	t.cur[i] = a
}

// end records that node i's current activity ends at now.
func (t *tracer) end(i int, now float64) {
	if t == nil {
		return
	}
	a := t.cur[i]
	t.cur[i] = activity{}
	t.rec.Span(t.names[i], a.track, a.name, a.start, now, a.args)
}

// compute begins node i's computation of job j (0-based) of the given
// work.
func (t *tracer) compute(i, j int, work, now float64) {
	if t == nil {
		return
	}
	t.begin(i, activity{trackCPU, "job " + strconv.Itoa(j+1), now,
		map[string]any{"job": j + 1, "node": i + 1, "work": work}})
}

// tell begins node i's READY, or its DONE of job j carrying bytes.
func (t *tracer) tell(i int, kind msgKind, j int, bytes, now float64) {
	if t == nil {
		return
	}
	if kind == ready {
		t.begin(i, activity{trackLink, "READY", now, map[string]any{"node": i + 1, "bytes": bytes}})
		return
	}
	t.begin(i, activity{trackLink, "DONE job " + strconv.Itoa(j+1), now, map[string]any{"job": j + 1, "node": i + 1, "bytes": bytes}})
}

// assign records the host's assignment message of jobs (0-based) to node,
// new jobs or replicas, from start to end.
func (t *tracer) assign(node int, jobs []int, replicas bool, bytes, start, end float64) {
	if t == nil {
		return
	}
	kind := "jobs"
	if replicas {
		kind = "replicas"
	}
	name := strconv.Itoa(len(jobs)) + " " + kind + " to node " + strconv.Itoa(node+1)
	if len(jobs) == 1 {
		name = "job " + strconv.Itoa(jobs[0]+1) + " to node " + strconv.Itoa(node+1)
	}
	t.rec.Span(hostName, trackPort, name, start, end, map[string]any{"node": node + 1, "jobs": len(jobs),
		"first_job": jobs[0] + 1, "last_job": jobs[len(jobs)-1] + 1, "replicas": replicas, "bytes": bytes})
}

// result records the host's w_h on the result of job j from node, the
// first one or a redundant copy.
func (t *tracer) result(node, j int, redundant bool, start, end float64) {
	if t == nil {
		return
	}
	name := "result of job " + strconv.Itoa(j+1)
	if redundant {
		name = "redundant result of job " + strconv.Itoa(j+1)
	}
	t.rec.Span(hostName, trackCPU, name, start, end, map[string]any{"job": j + 1, "node": node + 1, "redundant": redundant})
}

// crash records node i's crash at now: the activity in progress ends
// there, lost, and an instant marks the crash.
func (t *tracer) crash(i int, now float64) {
	if t == nil {
		return
	}
	if a := t.cur[i]; a.track != "" {
		a.args["lost"] = true
		t.cur[i] = activity{}
		t.rec.Span(t.names[i], a.track, a.name, a.start, now, a.args)
	}
	t.dead[i] = true
	t.rec.Instant(t.names[i], trackCPU, "crash", now, map[string]any{"node": i + 1})
}

// slow records that node i runs at factor × its nominal speed, speed,
// from now on (a crashed node records nothing).
func (t *tracer) slow(i int, factor, speed, now float64) {
	if t == nil || t.dead[i] {
		return
	}
	t.rec.Instant(t.names[i], trackCPU, "speed × "+strconv.FormatFloat(factor, 'g', 6, 64), now,
		map[string]any{"node": i + 1, "factor": factor, "speed": speed})
}

// close ends the activities still in progress when the run stops at now
// (the nodes computing or returning redundant copies when the last result
// arrived), marked cut.
func (t *tracer) close(now float64) {
	if t == nil {
		return
	}
	for i, a := range t.cur {
		if a.track == "" {
			continue
		}
		a.args["cut"] = true
		t.cur[i] = activity{}
		t.rec.Span(t.names[i], a.track, a.name, a.start, now, a.args)
	}
}
