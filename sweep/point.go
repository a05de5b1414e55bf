package sweep

import (
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/table"
	"github.com/dlsched/dlsched/topology"
)

// Point is one problem of the grid: the inputs of one solve.
type Point struct {
	// Index is the point's position in the spec's full grid (0-based,
	// the same in every shard).
	Index int
	// Label is the grid's label ("" if none).
	Label string
	// Problem holds the inputs (Buffers is 1 for stars and binomial
	// trees, Order NLF for stars).
	Problem problem.Problem
	Stages  Stages
	// Deadline, when > 0, asks for the largest load that finishes by it
	// (Problem.V is then a placeholder).
	Deadline float64
	// Key identifies the point; see Key.
	Key string
}

// Key returns the canonical key of a point: its label (if any), the
// parameters that apply to its topology in a fixed order, and the stage
// policy, e.g.
//
//	topology=star m=10 S=0.001 C=1e-06 A=0.001 D=100 V=1000 stages=min
//
// Numbers are written as the shortest decimal that reads back exactly, so
// the key depends on the values only, not on how the spec file spells them
// (1e2, 100, 100.0 give the same key).
//
// A heterogeneous star adds its processors after m (procs=S:C:A,...),
// results their ratio and order after V (result_ratio=0.5 return=fifo),
// and a deadline point names its deadline instead of V (deadline=12).
func Key(label string, p *problem.Problem, st Stages) string { return keyOf(label, p, st, 0) }

// keyOf is Key of a point that may ask for a deadline.
func keyOf(label string, p *problem.Problem, st Stages, deadline float64) string {
	var b strings.Builder
	if label != "" {
		b.WriteString("label=" + strconv.Quote(label) + " ")
	}
	b.WriteString("topology=" + p.Kind.String())
	switch p.Kind {
	case topology.Star:
		b.WriteString(" m=" + strconv.Itoa(p.M))
		if len(p.Procs) > 0 {
			b.WriteString(" procs=" + procsString(p.Procs))
		}
	case topology.Tree:
		b.WriteString(" order=" + p.Order.String() + " buffers=" + strconv.Itoa(p.Buffers) +
			" p=" + strconv.Itoa(p.P) + " h=" + strconv.Itoa(p.H))
	case topology.Binomial:
		b.WriteString(" order=" + p.Order.String() + " p=" + strconv.Itoa(p.P) + " h=" + strconv.Itoa(p.H))
	}
	load := struct {
		k string
		v float64
	}{"V", p.V}
	if deadline > 0 {
		load.k, load.v = "deadline", deadline
	}
	for _, kv := range []struct {
		k string
		v float64
	}{{"S", p.S}, {"C", p.C}, {"A", p.A}, {"D", p.D}, load} {
		if len(p.Procs) > 0 && (kv.k == "S" || kv.k == "C" || kv.k == "A") {
			continue
		}
		b.WriteString(" " + kv.k + "=" + table.FormatFloat(kv.v))
	}
	if p.Returns() {
		b.WriteString(" result_ratio=" + table.FormatFloat(p.ResultRatio) + " return=" + p.Return.String())
	}
	b.WriteString(" stages=" + st.String())
	return b.String()
}

// Points expands the spec into its points: each grid's Cartesian product
// in the fixed axis order topology, order, buffers, m, p, h, S, C, A, D, V
// (or deadline), result_ratio, return, stages (the last varies fastest),
// grids one after the other. Axes that
// do not apply to a topology are not iterated (see Grid). A point equal to
// an earlier one (same key) is dropped. The order, and so every Index, is
// deterministic and independent of the file's formatting and key order.
func (sp *Spec) Points() []Point {
	var out []Point
	seen := map[string]bool{}
	add := func(label string, p problem.Problem, st Stages, deadline float64) {
		k := keyOf(label, &p, st, deadline)
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, Point{Index: len(out), Label: label, Problem: p, Stages: st, Deadline: deadline, Key: k})
	}
	for gi := range sp.Grids {
		g := &sp.Grids[gi]
		for _, kind := range g.Topology {
			// Shapes lists the topology-specific parameters.
			type shape struct {
				order      topology.Order
				buffers    int
				m, pOut, h int
			}
			var shapes []shape
			switch kind {
			case topology.Star:
				for _, m := range g.M {
					shapes = append(shapes, shape{buffers: 1, m: m})
				}
			case topology.Tree:
				for _, o := range g.Order {
					for _, b := range g.Buffers {
						for _, pp := range g.P {
							for _, h := range g.H {
								shapes = append(shapes, shape{order: o, buffers: b, pOut: pp, h: h})
							}
						}
					}
				}
			case topology.Binomial:
				for _, o := range g.Order {
					for _, pp := range g.P {
						for _, h := range g.H {
							shapes = append(shapes, shape{order: o, buffers: 1, pOut: pp, h: h})
						}
					}
				}
			}
			for _, sh := range shapes {
				for _, s := range g.S {
					for _, c := range g.C {
						for _, a := range g.A {
							base := problem.Problem{Kind: kind, Order: sh.order, Buffers: sh.buffers,
								M: sh.m, P: sh.pOut, H: sh.h, S: s, C: c, A: a, Procs: g.Procs}
							g.loads(base, func(p problem.Problem, st Stages, deadline float64) { add(g.Label, p, st, deadline) })
						}
					}
				}
			}
		}
	}
	return out
}

// loads calls add with base completed by every value of the grid's axes
// D, V (or deadline), result_ratio, return and stages, in that order.
func (g *Grid) loads(base problem.Problem, add func(problem.Problem, Stages, float64)) {
	loads, deadlines := g.V, []float64{0}
	if g.Deadline != nil {
		loads, deadlines = []float64{1}, g.Deadline
	}
	betas, rets := g.results()
	for _, d := range g.D {
		for _, v := range loads {
			for _, dl := range deadlines {
				for _, beta := range betas {
					for _, ret := range rets {
						for _, st := range g.Stages {
							p := base
							p.D, p.V, p.ResultRatio, p.Return = d, v, beta, ret
							if beta == 0 {
								p.Return = problem.ReturnFIFO // no results: the order does not apply
							}
							add(p, st, dl)
						}
					}
				}
			}
		}
	}
}

// results returns the result axes, defaults [0] and [fifo] when unset.
func (g *Grid) results() ([]float64, []problem.ReturnOrder) {
	betas, rets := g.ResultRatio, g.Return
	if len(betas) == 0 {
		betas = []float64{0}
	}
	if len(rets) == 0 {
		rets = []problem.ReturnOrder{problem.ReturnFIFO}
	}
	return betas, rets
}
