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
func Key(label string, p *problem.Problem, st Stages) string {
	var b strings.Builder
	if label != "" {
		b.WriteString("label=" + strconv.Quote(label) + " ")
	}
	b.WriteString("topology=" + p.Kind.String())
	switch p.Kind {
	case topology.Star:
		b.WriteString(" m=" + strconv.Itoa(p.M))
	case topology.Tree:
		b.WriteString(" order=" + p.Order.String() + " buffers=" + strconv.Itoa(p.Buffers) +
			" p=" + strconv.Itoa(p.P) + " h=" + strconv.Itoa(p.H))
	case topology.Binomial:
		b.WriteString(" order=" + p.Order.String() + " p=" + strconv.Itoa(p.P) + " h=" + strconv.Itoa(p.H))
	}
	for _, kv := range []struct {
		k string
		v float64
	}{{"S", p.S}, {"C", p.C}, {"A", p.A}, {"D", p.D}, {"V", p.V}} {
		b.WriteString(" " + kv.k + "=" + table.FormatFloat(kv.v))
	}
	b.WriteString(" stages=" + st.String())
	return b.String()
}

// Points expands the spec into its points: each grid's Cartesian product
// in the fixed axis order topology, order, buffers, m, p, h, S, C, A, D, V,
// stages (the last varies fastest), grids one after the other. Axes that
// do not apply to a topology are not iterated (see Grid). A point equal to
// an earlier one (same key) is dropped. The order, and so every Index, is
// deterministic and independent of the file's formatting and key order.
func (sp *Spec) Points() []Point {
	var out []Point
	seen := map[string]bool{}
	add := func(label string, p problem.Problem, st Stages) {
		k := Key(label, &p, st)
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, Point{Index: len(out), Label: label, Problem: p, Stages: st, Key: k})
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
							for _, d := range g.D {
								for _, v := range g.V {
									for _, st := range g.Stages {
										add(g.Label, problem.Problem{
											Kind: kind, Order: sh.order, Buffers: sh.buffers,
											M: sh.m, P: sh.pOut, H: sh.h,
											S: s, C: c, A: a, D: d, V: v,
										}, st)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}
