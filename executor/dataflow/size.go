package dataflow

import (
	"fmt"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
)

// Measured costs of a run (docs/dataflow.md, Limits): bytes per node and
// edge of the graph, per node instance and instance edge of the unrolled
// program, per PE (its process and mailboxes), and kernel events per node
// instance.
const (
	bytesPerNode          = 400
	bytesPerEdge          = 64
	bytesPerInstance      = 400
	bytesPerInstanceEdge  = 16
	bytesPerPE            = 4096
	eventsPerInstance     = 12
	eventsPerInstanceEdge = 0
)

// Estimate is what a run is expected to cost.
type Estimate struct {
	// Bytes is the memory of the graph and the simulation; Events the
	// kernel events of the simulation.
	Bytes, Events float64
}

// EstimateRun predicts the cost of running a graph of the given size:
// nodes and edges of the graph, instances and instance edges of its
// unrolled program (equal to nodes and edges without loops), on pes PEs.
// Callers that generate or read a graph check it first, from the sizes
// they know before building anything.
func EstimateRun(nodes, edges, instances, instanceEdges float64, pes int) Estimate {
	return Estimate{
		Bytes: bytesPerNode*nodes + bytesPerEdge*edges + bytesPerInstance*instances +
			bytesPerInstanceEdge*instanceEdges + bytesPerPE*float64(pes),
		Events: eventsPerInstance*instances + eventsPerInstanceEdge*instanceEdges,
	}
}

// EstimateGraph is EstimateRun for g: its unrolled size is counted, not
// built.
func EstimateGraph(g *graph.Graph, pes int) Estimate {
	inst, instEdges := unrolledSize(g)
	return EstimateRun(float64(len(g.Nodes)), float64(len(g.Edges)), inst, instEdges, pes)
}

// unrolledSize counts the instances and instance edges unroll would make.
func unrolledSize(g *graph.Graph) (instances, edges float64) {
	loopsOf := g.LoopsOf()
	per := make([]float64, len(g.Nodes))
	for v, ls := range loopsOf {
		per[v] = 1
		for _, l := range ls {
			per[v] *= float64(g.Loops[l].Iterations)
		}
		instances += per[v]
	}
	for _, e := range g.Edges {
		edges += per[e.To]
	}
	for _, l := range g.Loops {
		for _, v := range l.Nodes {
			edges += per[v]
		}
	}
	return instances, edges
}

// SizeError is a run refused before it started: its estimate exceeds a
// limit of the Machine (Field: "Machine.MaxBytes" or "Machine.MaxEvents").
type SizeError struct {
	Field        string
	Need, Limit  float64
	What, Advice string
}

// Error implements error.
func (e *SizeError) Error() string {
	return fmt.Sprintf("dataflow: the run needs about %.4g %s, more than %s = %.4g", e.Need, e.What, e.Field, e.Limit)
}

// Check refuses an estimate beyond the machine's limits (MaxBytes,
// MaxEvents; 0 is no limit).
func (m *Machine) Check(e Estimate) error {
	if m.MaxBytes > 0 && e.Bytes > float64(m.MaxBytes) {
		return &SizeError{Field: "Machine.MaxBytes", Need: e.Bytes, Limit: float64(m.MaxBytes), What: "bytes"}
	}
	if m.MaxEvents > 0 && e.Events > float64(m.MaxEvents) {
		return &SizeError{Field: "Machine.MaxEvents", Need: e.Events, Limit: float64(m.MaxEvents), What: "kernel events"}
	}
	return nil
}

// CheckSize is Check of EstimateGraph(g, m.PEs).
func (m *Machine) CheckSize(g *graph.Graph) error { return m.Check(EstimateGraph(g, m.PEs)) }
