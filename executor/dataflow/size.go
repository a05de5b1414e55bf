package dataflow

import (
	"fmt"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
	"github.com/dlsched/dlsched/platform"
)

// Measured costs of a run, peak resident memory with Go's collector at its
// default setting (docs/dataflow.md, Limits; cmd/dlsched's
// TestDataflowLargeRun and TestDataflowTraceMemory check them): bytes per
// node and per edge of the graph and of its unrolled program together,
// per PE (its process, mailbox and condition), and kernel events per node
// instance — 4 with free buses and no scheduler delay, one more with a
// delay, 3 more with a result bus, 5 with an acknowledgement bus (two
// transfers), 6 for an I-structure node with an I-structure bus.
const (
	bytesPerNode   = 600
	bytesPerEdge   = 100
	bytesPerPE     = 4500
	bytesBase      = 16 << 20
	eventsBase     = 4
	eventsDelay    = 1
	eventsResult   = 3
	eventsAck      = 5
	eventsIOAccess = 6
	// bytesPerSpan is the memory of one span of a trace recorded in
	// memory (trace.Trace), its share of the arguments included: measured
	// 396, 362 and 347 bytes of peak memory per span for --random 50000,
	// 200000 and 400000 on 16 PEs with delays and buses of 1 (6 spans per
	// node instance).
	bytesPerSpan = 400
)

// Sizes are the sizes a run's cost depends on: the graph's nodes and
// edges, and its unrolled program's node instances, instance edges and
// I-structure instances (equal to the graph's without loops).
type Sizes struct {
	Nodes, Edges, Instances, InstanceEdges, IOInstances float64
}

// Estimate is what a run is expected to cost.
type Estimate struct {
	// Bytes is the peak memory of building the graph and simulating it;
	// Events the kernel events of the simulation.
	Bytes, Events float64
}

// EstimateRun predicts the cost of running a program of the given sizes on
// the machine, with its trace in memory when traced. Callers that
// generate or read a graph check it (CheckRun) before building anything,
// from the sizes they know.
func EstimateRun(s Sizes, m *Machine, traced bool) Estimate {
	per := float64(eventsBase)
	spans := 1.0 // the computation
	for _, x := range []struct {
		t            float64
		events, span int
	}{{m.SchedulerDelay, eventsDelay, 2}, {m.ResultBus, eventsResult, 1}, {m.AckBus, eventsAck, 2}} {
		if x.t > 0 {
			per += float64(x.events)
			spans += float64(x.span) // the delay of the allocation and of the acknowledgement; the transfers
		}
	}
	io, ioSpans := 0.0, 0.0
	if m.IStructureBus > 0 {
		io, ioSpans = eventsIOAccess, 3 // request, reply or "not-available", served read
	}
	e := Estimate{
		Bytes: bytesBase + bytesPerNode*(s.Nodes+s.Instances)/2 + bytesPerEdge*(s.Edges+s.InstanceEdges)/2 +
			bytesPerPE*float64(m.PEs),
		Events: per*s.Instances + io*s.IOInstances,
	}
	if traced {
		e.Bytes += bytesPerSpan * (spans*s.Instances + ioSpans*s.IOInstances)
	}
	return e
}

// GraphSizes counts g's sizes; its unrolled program is counted, not built.
func GraphSizes(g *graph.Graph) Sizes {
	s := Sizes{Nodes: float64(len(g.Nodes)), Edges: float64(len(g.Edges))}
	per := make([]float64, len(g.Nodes))
	for v, ls := range g.LoopsOf() {
		per[v] = 1
		for _, l := range ls {
			per[v] *= float64(g.Loops[l].Iterations)
		}
		s.Instances += per[v]
		if k := g.Nodes[v].Kind; k == graph.Read || k == graph.Write {
			s.IOInstances += per[v]
		}
	}
	for _, e := range g.Edges {
		s.InstanceEdges += per[e.To]
	}
	for _, l := range g.Loops {
		for _, v := range l.Nodes {
			s.InstanceEdges += per[v] // the wait for the previous iteration's control
		}
	}
	return s
}

// Check refuses an estimate beyond the limits (0: no limit) with a
// *platform.LimitError: what names the run ("a run of 16 node instances on
// 4 PEs"), fewer what else the caller could reduce for memory (may name
// fields as {Field}; "" for nothing).
func (e Estimate) Check(l platform.Limits, what, fewer string) error {
	if l.MaxBytes > 0 && e.Bytes > float64(l.MaxBytes) {
		return &platform.LimitError{Pkg: pkg, What: what, Need: e.Bytes / (1 << 20), Limit: float64(l.MaxBytes) / (1 << 20),
			Unit: "MB of memory", Field: FieldMaxBytes, Fewer: fewer}
	}
	if l.MaxEvents > 0 && e.Events > float64(l.MaxEvents) {
		return &platform.LimitError{Pkg: pkg, What: what, Need: e.Events, Limit: float64(l.MaxEvents),
			Unit: "simulation events", Field: FieldMaxEvents, Fewer: "nodes"}
	}
	return nil
}

// CheckRun refuses, before anything in proportion to it is built, a run
// of a program of the given sizes on the machine estimated to exceed
// opt's limits (its trace included when opt.Trace is set; the events
// only when it simulates).
func CheckRun(s Sizes, m *Machine, opt platform.RunOptions) error {
	e := EstimateRun(s, m, opt.Trace != nil && !opt.NoSim)
	if opt.NoSim {
		e.Events = 0
	}
	what := fmt.Sprintf("a run of %.0f node instances on %d PEs", s.Instances, m.PEs)
	if opt.Trace != nil && !opt.NoSim {
		what = "a traced" + what[1:]
	}
	return e.Check(opt.Limits, what, "nodes or {"+FieldPEs+"}")
}

// CheckRead refuses, before it is read, a graph file of the given
// extension and size whose reading is estimated (graph.ReadCost) to need
// more memory than l allows.
func CheckRead(ext string, size int64, l platform.Limits) error {
	e := Estimate{Bytes: graph.ReadCost(ext, size)}
	return e.Check(platform.Limits{MaxBytes: l.MaxBytes}, fmt.Sprintf("reading the graph file (%s, %d MB)", ext, size>>20), "")
}
