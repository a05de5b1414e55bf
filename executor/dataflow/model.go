package dataflow

import (
	"math"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
)

// Path is one path of the PE state diagram (Section 3.4): the kind of node
// it serves, the probability x_i that a node takes it (the share of such
// nodes in the graph), the traversals n_i, the time t_i of one traversal,
// and T_i = n_i·t_i.
type Path struct {
	Name string  `json:"name"`
	X    float64 `json:"x"`
	N    float64 `json:"n"`
	T    float64 `json:"t"`
	TI   float64 `json:"T"`
}

// Prediction is the analytic model of Section 3 (JSON names are part of
// the CLI contract).
type Prediction struct {
	// EM is E_m = Σ_L ⌈m_L/p⌉·T_av (Section 3.5).
	EM float64 `json:"E_m"`
	// TAv is T_av = Σ x_i·T_i (Section 3.4).
	TAv float64 `json:"T_av"`
	// EIdeal is the critical path: the time with unlimited PEs and no
	// delays (Section 3.1's "minimum time").
	EIdeal float64 `json:"E_ideal"`
	// PEUtilisationPrinted is the printed %PE utilisation f_p/E_m·100,
	// f_p = Σ_L ⌈m_L/p⌉·e_{L,m} with e_{L,m} the mean compute time of a
	// node: it reduces to 100·e_{L,m}/T_av whatever p.
	PEUtilisationPrinted float64 `json:"pe_utilisation_printed"`
	// PEUtilisation is the true busy fraction Σ node times/(p·E_m)·100.
	PEUtilisation float64 `json:"pe_utilisation"`
	Paths         []Path  `json:"paths"`
	Levels        []int   `json:"level_sizes"`
}

// Predict evaluates the model for g on the machine. The three paths of
// the state diagram (the figure is missing; docs/dataflow.md) are:
//
//  1. an ordinary node (op, decision, merge): allocation (scheduler delay
//     + acknowledgement bus), compute, result bus, acknowledgement bus;
//  2. a read: allocation, I-structure request and data, compute, result
//     bus, acknowledgement bus;
//  3. a write: allocation, compute, I-structure bus.
//
// Each is traversed once (n_i = 1) and takes the kind's mean compute time;
// bus waits are the transfer times alone (no queueing). Loops and
// conditionals count each node once, as the model's levels do.
func Predict(g *graph.Graph, m *Machine) *Prediction {
	n := float64(len(g.Nodes))
	d, res, ack, is := m.SchedulerDelay, m.ResultBus, m.AckBus, m.IStructureBus
	alloc := d + ack
	if m.Policy != Dynamic {
		alloc = 0 // sets are allocated before the start
	}
	type acc struct{ count, time float64 }
	kinds := map[string]*acc{"ordinary": {}, "read": {}, "write": {}}
	for _, nd := range g.Nodes {
		k := "ordinary"
		switch nd.Kind {
		case graph.Read:
			k = "read"
		case graph.Write:
			k = "write"
		}
		kinds[k].count++
		kinds[k].time += nd.Time
	}
	mean := func(a *acc) float64 {
		if a.count == 0 {
			return 0
		}
		return a.time / a.count
	}
	paths := []Path{
		{Name: "ordinary", T: alloc + mean(kinds["ordinary"]) + res + ack},
		{Name: "read", T: alloc + 2*is + mean(kinds["read"]) + res + ack},
		{Name: "write", T: alloc + mean(kinds["write"]) + is},
	}
	p := &Prediction{EIdeal: g.CriticalPath()}
	for i := range paths {
		paths[i].X = kinds[paths[i].Name].count / n
		paths[i].N = 1
		paths[i].TI = paths[i].N * paths[i].T
		p.TAv += paths[i].X * paths[i].TI
	}
	p.Paths = paths
	levels := g.Levels()
	maxL := 0
	for _, l := range levels {
		maxL = max(maxL, l)
	}
	p.Levels = make([]int, maxL+1)
	for _, l := range levels {
		p.Levels[l]++
	}
	pe := float64(m.PEs)
	steps := 0.0
	for _, ml := range p.Levels {
		steps += math.Ceil(float64(ml) / pe)
	}
	p.EM = steps * p.TAv
	compute := g.TotalWork() / n // e_{L,m}: the mean compute time of a node
	fp := steps * compute
	if p.EM > 0 {
		p.PEUtilisationPrinted = 100 * fp / p.EM
		p.PEUtilisation = 100 * g.TotalWork() / (pe * p.EM)
	}
	return p
}
