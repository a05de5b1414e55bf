package dataflow

import (
	"fmt"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
)

// Measured costs of a run, peak resident memory with Go's collector at its
// default setting (docs/dataflow.md, Limits; cmd/dlsched's
// TestDataflowMemoryEstimate checks them): bytes per node and per edge of
// the graph and of its unrolled program together, per PE (its process and
// mailboxes), and kernel events per node instance — 4 with free buses and
// no scheduler delay, one more with a delay, 3 more with a result bus, 5
// with an acknowledgement bus (two transfers), 6 for an I-structure node
// with an I-structure bus.
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
// the machine. Callers that generate or read a graph check it (Check)
// before building anything, from the sizes they know.
func EstimateRun(s Sizes, m *Machine) Estimate {
	per := float64(eventsBase)
	for _, x := range []struct {
		t float64
		n int
	}{{m.SchedulerDelay, eventsDelay}, {m.ResultBus, eventsResult}, {m.AckBus, eventsAck}} {
		if x.t > 0 {
			per += float64(x.n)
		}
	}
	io := 0.0
	if m.IStructureBus > 0 {
		io = eventsIOAccess
	}
	return Estimate{
		Bytes: bytesBase + bytesPerNode*(s.Nodes+s.Instances)/2 + bytesPerEdge*(s.Edges+s.InstanceEdges)/2 +
			bytesPerPE*float64(m.PEs),
		Events: per*s.Instances + io*s.IOInstances,
	}
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

// SizeError is a run refused before it started: its estimate exceeds a
// limit of the Machine. Field is "Machine.MaxBytes" or "Machine.MaxEvents";
// Need and Limit are in bytes or events.
type SizeError struct {
	Field       string
	Need, Limit float64
}

// Error implements error.
func (e *SizeError) Error() string {
	return e.Format(func(f string) string { return f })
}

// Format renders the error with the field named by name (the command line
// names its flag).
func (e *SizeError) Format(name func(field string) string) string {
	if e.Field == FieldMaxBytes {
		return fmt.Sprintf("the run needs about %.0f MB, more than the limit %s %.0f MB", e.Need/(1<<20), name(e.Field), e.Limit/(1<<20))
	}
	return fmt.Sprintf("the run needs about %.3g kernel events, more than the limit %s %.3g", e.Need, name(e.Field), e.Limit)
}

// The fields a SizeError names.
const (
	FieldMaxBytes  = "Machine.MaxBytes"
	FieldMaxEvents = "Machine.MaxEvents"
)

// Check refuses an estimate beyond the machine's limits (MaxBytes,
// MaxEvents; 0 is no limit).
func (m *Machine) Check(e Estimate) error {
	if m.MaxBytes > 0 && e.Bytes > float64(m.MaxBytes) {
		return &SizeError{Field: FieldMaxBytes, Need: e.Bytes, Limit: float64(m.MaxBytes)}
	}
	if m.MaxEvents > 0 && e.Events > float64(m.MaxEvents) {
		return &SizeError{Field: FieldMaxEvents, Need: e.Events, Limit: float64(m.MaxEvents)}
	}
	return nil
}

// CheckSize is Check of EstimateRun(GraphSizes(g), m).
func (m *Machine) CheckSize(g *graph.Graph) error { return m.Check(EstimateRun(GraphSizes(g), m)) }
