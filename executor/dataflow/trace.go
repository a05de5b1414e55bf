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
// "not-available", "write", "serve", "allocate partition", "compute"), the
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

// causeArgs are the details of a span or instant: the PE (1-based), the
// node, its iterations, level and kind, or the partition.
func (m *machine) causeArgs(c cause) map[string]any {
	args := map[string]any{"what": c.what}
	if c.pe >= 0 {
		args["pe"] = c.pe + 1
	}
	if c.in == nil {
		args["partition"] = c.part
		return args
	}
	args["node"] = c.in.node
	args["level"] = c.in.level
	args["kind"] = string(c.in.kind)
	if len(c.in.iters) > 0 {
		args["iterations"] = c.in.iters
	}
	if c.what == "compute" {
		args["time"] = c.in.time
	}
	return args
}
