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
	// EIdeal is the critical path of the executed program (loops
	// unrolled, failed branches left out): the time with unlimited PEs
	// and no delays (Section 3.1's "minimum time"), a lower bound on every
	// run. (The graph's critical path, loops once, if the program is too
	// large to unroll.)
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

// Predict evaluates the model for g on the machine. The paths of the
// state diagram (the figure is missing; docs/dataflow.md) are:
//
//  1. an ordinary node (op, decision, merge) whose result the scheduler
//     acknowledges: allocation (scheduler delay + acknowledgement bus),
//     compute, result bus, scheduler delay, acknowledgement bus;
//  2. the same, acknowledged by the PEs holding its consumers: no
//     scheduler delay before the acknowledgement;
//  3. and 4. a read, likewise, with the I-structure request and data
//     before computing;
//  5. a write: allocation, compute, I-structure bus.
//
// What a policy does at run time decides the allocation and who
// acknowledges, as in Run: dynamic scheduling allocates every node (d +
// ack) and, level by level, holds every consumer when a result comes out,
// so the scheduler acknowledges every result; static scheduling allots
// every node before the start, so only the graph's outputs go to the
// scheduler; quasi-dynamic scheduling allots a partition at a time, so
// the outputs and the results consumed in a later partition go to the
// scheduler, and E_m adds one allocation (d + ack) per partition. Each
// path is traversed once (n_i = 1) with its nodes' mean compute time and
// data; bus waits are the transfer times alone (no queueing). Loops and
// conditionals count each node once, as the model's levels do.
func Predict(g *graph.Graph, m *Machine) *Prediction {
	paths := modelPaths(g, m)
	p := &Prediction{EIdeal: g.CriticalPath(), Paths: paths}
	if u, err := unroll(g); err == nil {
		p.EIdeal, _ = u.ideal()
	}
	for i := range paths {
		p.TAv += paths[i].X * paths[i].TI // T_av = Σ x_i·T_i (Section 3.4)
	}
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
		steps += math.Ceil(float64(ml) / pe) // e_L = ⌈m_L/p⌉·T_av (Section 3.5)
	}
	p.EM = steps * p.TAv // E_m = Σ_L e_L
	if m.Policy == Quasi {
		p.EM += float64(len(quasiPartitions(g, m.PEs))) * (m.SchedulerDelay + m.AckBus)
	}
	n := float64(len(g.Nodes))
	compute := g.TotalWork() / n // e_{L,m}: the mean compute time of a node
	fp := steps * compute        // f_p = Σ_L ⌈m_L/p⌉·e_{L,m} (Section 3.6.1)
	if p.EM > 0 {
		p.PEUtilisationPrinted = 100 * fp / p.EM
		p.PEUtilisation = 100 * g.TotalWork() / (pe * p.EM)
	}
	return p
}

// The model's paths, in Prediction.Paths order.
const (
	pathOrdinarySched = iota
	pathOrdinaryPE
	pathReadSched
	pathReadPE
	pathWrite
)

var pathNames = [...]string{"ordinary, scheduler acknowledges", "ordinary, PEs acknowledge",
	"read, scheduler acknowledges", "read, PEs acknowledge", "write"}

// modelPaths classifies every node into its path and returns the paths
// with x_i (the share of nodes), n_i = 1, t_i and T_i.
func modelPaths(g *graph.Graph, m *Machine) []Path {
	schedAck := schedulerAcknowledged(g, m)
	var count, time, data [len(pathNames)]float64
	for v, nd := range g.Nodes {
		k := pathOrdinarySched
		switch {
		case nd.Kind == graph.Write:
			k = pathWrite
		case nd.Kind == graph.Read:
			k = pathReadSched
		}
		if k != pathWrite && !schedAck[v] {
			k++ // the PEs acknowledge
		}
		count[k]++
		time[k] += nd.Time
		data[k] += nd.Data
	}
	d, ack, is := m.SchedulerDelay, m.AckBus, m.IStructureBus
	alloc := d + ack
	if m.Policy != Dynamic {
		alloc = 0 // allotted before the start, or with the partition
	}
	n := float64(len(g.Nodes))
	paths := make([]Path, len(pathNames))
	for k := range paths {
		mean, res := 0.0, m.ResultBus
		if count[k] > 0 {
			mean = time[k] / count[k]
			if m.BytesPerTime > 0 {
				res += data[k] / count[k] / m.BytesPerTime
			}
		}
		t := alloc + mean
		switch k {
		case pathOrdinarySched:
			t += res + d + ack
		case pathOrdinaryPE:
			t += res + ack
		case pathReadSched:
			t += 2*is + res + d + ack
		case pathReadPE:
			t += 2*is + res + ack
		case pathWrite:
			t += is
		}
		paths[k] = Path{Name: pathNames[k], X: count[k] / n, N: 1, T: t, TI: t} // T_i = n_i·t_i
	}
	return paths
}

// schedulerAcknowledged tells, per node, whether the scheduler
// acknowledges its result under the machine's policy (see Predict).
func schedulerAcknowledged(g *graph.Graph, m *Machine) []bool {
	out := make([]bool, len(g.Nodes))
	hasSucc := make([]bool, len(g.Nodes))
	for _, e := range g.Edges {
		hasSucc[e.From] = true
	}
	part := make([]int, len(g.Nodes))
	if m.Policy == Quasi {
		for k, nodes := range quasiPartitions(g, m.PEs) {
			for _, v := range nodes {
				part[v] = k
			}
		}
	}
	for v := range out {
		out[v] = m.Policy == Dynamic || !hasSucc[v]
	}
	if m.Policy == Quasi {
		for _, e := range g.Edges {
			if part[e.To] > part[e.From] {
				out[e.From] = true
			}
		}
	}
	return out
}
