package dataflow

import "strconv"

// The trace of a run (RunOptions.Trace; docs/dataflow.md, Outputs): one
// process per PE ("PE 3", its track "compute": a span per node executed,
// instants for "disregard" tokens), one for the scheduler (a track per PE
// it serves: a span per allocation and per acknowledgement it delays,
// instants for reallocations and revocations; a track "deadlock" for a run
// that cannot finish) and one for the three buses (a track per bus: a span
// per transfer). Times are in the graph's time unit.
const (
	traceScheduler = "scheduler"
	traceBuses     = "buses"
	traceCompute   = "compute"
	traceDeadlock  = "deadlock"
)

// busTracks names the buses' tracks.
var busTracks = map[string]string{"result": "result bus", "ack": "acknowledgement bus", "istructure": "I-structure bus"}

// TimeUnit is the model's time unit, as a trace states it.
const TimeUnit = "time unit"

// peName returns the name of PE i (0-based): "PE 1".
func peName(i int) string { return "PE " + strconv.Itoa(i+1) }

// nodeName names an instance in the trace: "node 12", with its iterations
// inside loops: "node 12 [1 0]".
func nodeName(in *instance) string {
	s := "node " + strconv.Itoa(in.node)
	if len(in.iters) == 0 {
		return s
	}
	s += " ["
	for k, it := range in.iters {
		if k > 0 {
			s += " "
		}
		s += strconv.Itoa(it)
	}
	return s + "]"
}

// cause is what a transfer, a delay or a computation is for: what
// ("allocate", "result", "acknowledge", "request", "data",
// "not-available", "write", "serve", "allocate partition"; it starts the
// span's name; a computation is named by its node alone), the
// PE (0-based; -1 for the I-structure PE serving a waiting read), and the
// instance (nil for a partition's allocation, numbered part from 1).
type cause struct {
	what string
	pe   int
	in   *instance
	part int
}

// name is the span's name: "result node 12", "allocate partition 2".
func (c cause) name() string {
	if c.in == nil {
		return c.what + " " + strconv.Itoa(c.part)
	}
	return c.what + " " + nodeName(c.in)
}

// causeArgs are the details of a span: the PE (1-based), the node, its
// level, kind, time and iterations, or the partition. The spans of one
// instance on one PE share one map (the recorder keeps them, and none is
// changed once made): a traced run holds about a sixth of the maps it
// would otherwise.
func (m *machine) causeArgs(c cause) map[string]any {
	if c.in == nil {
		return map[string]any{"pe": c.pe + 1, "partition": c.part}
	}
	if m.traceArgs == nil {
		m.traceArgs = make([]map[string]any, len(m.u.inst))
	}
	if a := m.traceArgs[c.in.idx]; a != nil && a["pe"] == peArg(c.pe) {
		return a
	}
	in := c.in
	a := map[string]any{"node": in.node, "level": in.level, "kind": string(in.kind), "time": in.time}
	if p := peArg(c.pe); p != nil {
		a["pe"] = p
	}
	if len(in.iters) > 0 {
		a["iterations"] = in.iters
	}
	m.traceArgs[in.idx] = a
	return a
}

// peArg is the "pe" of a span's details: the PE's number from 1, nil for
// the I-structure PE.
func peArg(pe int) any {
	if pe < 0 {
		return nil
	}
	return pe + 1
}

// instantArgs are the details of an instant: the span's, with extra
// entries, in a map of its own.
func (m *machine) instantArgs(c cause, extra map[string]any) map[string]any {
	a := map[string]any{}
	for k, v := range m.causeArgs(c) {
		a[k] = v
	}
	for k, v := range extra {
		a[k] = v
	}
	return a
}
