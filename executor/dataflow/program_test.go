package dataflow

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
)

// A structured program: the test builds it into a graph and computes, by
// construction and independently of the package's unrolling, the
// executed work and the critical path of the unrolled program.
type block struct {
	kind     string // op, seq, par, cond, loop
	time     float64
	parts    []*block // seq, par: children; cond: then, else; loop: body
	fork     float64  // par: fork and join times; cond: decision and merge
	join     float64
	outcomes []bool // cond: per iteration of the innermost loop around it
	iters    int    // loop
}

// drawBlock draws a block of at most depth levels of nesting.
func drawBlock(t *rapid.T, depth int) *block {
	times := rapid.SampledFrom([]float64{0, 1, 1, 2, 3})
	kinds := []string{"op"}
	if depth > 0 {
		kinds = append(kinds, "seq", "par", "cond", "loop")
	}
	b := &block{kind: rapid.SampledFrom(kinds).Draw(t, "kind")}
	switch b.kind {
	case "op":
		b.time = times.Draw(t, "time")
	case "seq", "par":
		n := rapid.IntRange(1, 3).Draw(t, "parts")
		for i := 0; i < n; i++ {
			b.parts = append(b.parts, drawBlock(t, depth-1))
		}
		b.fork, b.join = times.Draw(t, "fork"), times.Draw(t, "join")
	case "cond":
		for i := 0; i < 2; i++ {
			var part *block
			if rapid.IntRange(0, 3).Draw(t, "empty branch") > 0 {
				part = drawBlock(t, depth-1)
			}
			b.parts = append(b.parts, part)
		}
		b.fork, b.join = times.Draw(t, "decision"), times.Draw(t, "merge")
		b.outcomes = rapid.SliceOfN(rapid.Bool(), 1, 4).Draw(t, "outcomes")
	case "loop":
		b.parts = []*block{drawBlock(t, depth-1)}
		b.iters = rapid.IntRange(1, 4).Draw(t, "iterations")
	}
	return b
}

// cost returns the block's executed work, critical path and executed
// node instances in iteration it of the innermost loop around it: a
// sequence adds, a fork-join waits for its slowest part, a conditional
// runs its decision, the branch its outcome selects and its merge (which
// fires on the taken branch's operand), a loop runs its body once per
// iteration, iteration i+1 after iteration i's control (the body's exit).
func (b *block) cost(it int) (work, cp float64, n int) {
	switch b.kind {
	case "op":
		return b.time, b.time, 1
	case "seq":
		for _, p := range b.parts {
			w, c, k := p.cost(it)
			work, cp, n = work+w, cp+c, n+k
		}
		return work, cp, n
	case "par":
		for _, p := range b.parts {
			w, c, k := p.cost(it)
			work, cp, n = work+w, math.Max(cp, c), n+k
		}
		return work + b.fork + b.join, cp + b.fork + b.join, n + 2
	case "cond":
		taken := b.parts[0]
		if !b.outcomes[it%len(b.outcomes)] {
			taken = b.parts[1]
		}
		if taken != nil {
			work, cp, n = taken.cost(it)
		}
		return work + b.fork + b.join, cp + b.fork + b.join, n + 2
	}
	for i := 0; i < b.iters; i++ {
		w, c, k := b.parts[0].cost(i)
		work, cp, n = work+w, cp+c, n+k
	}
	return work, cp, n
}

// builder emits a block into a graph.
type builder struct {
	g     graph.Graph
	loops int
}

func (bd *builder) node(kind graph.Kind, t float64) int {
	id := len(bd.g.Nodes)
	bd.g.Nodes = append(bd.g.Nodes, graph.Node{ID: id, Kind: kind, Time: t})
	return id
}

func (bd *builder) edge(u, v int) { bd.g.Edges = append(bd.g.Edges, graph.Edge{From: u, To: v}) }

// emit writes b and returns its entry and exit nodes; parent is the
// enclosing loop's id (nil outside loops).
func (bd *builder) emit(b *block, parent *int) (entry, exit int) {
	switch b.kind {
	case "op":
		v := bd.node(graph.Op, b.time)
		return v, v
	case "seq":
		entry, exit = bd.emit(b.parts[0], parent)
		for _, p := range b.parts[1:] {
			e, x := bd.emit(p, parent)
			bd.edge(exit, e)
			exit = x
		}
		return entry, exit
	case "par":
		entry = bd.node(graph.Op, b.fork)
		var exits []int
		for _, p := range b.parts {
			e, x := bd.emit(p, parent)
			bd.edge(entry, e)
			exits = append(exits, x)
		}
		exit = bd.node(graph.Op, b.join)
		for _, x := range exits {
			bd.edge(x, exit)
		}
		return entry, exit
	case "cond":
		return bd.emitCond(b, parent)
	}
	first := len(bd.g.Nodes)
	id := bd.loops
	bd.loops++
	bd.g.Loops = append(bd.g.Loops, graph.Loop{ID: id, Iterations: b.iters, Parent: parent})
	k := len(bd.g.Loops) - 1
	entry, exit = bd.emit(b.parts[0], &id)
	bd.g.Edges = append(bd.g.Edges, graph.Edge{From: exit, To: entry, Back: true})
	for v := first; v < len(bd.g.Nodes); v++ {
		bd.g.Loops[k].Nodes = append(bd.g.Loops[k].Nodes, v)
	}
	bd.g.Loops[k].Control = exit
	return entry, exit
}

func (bd *builder) emitCond(b *block, parent *int) (entry, exit int) {
	dec := bd.node(graph.Decision, b.fork)
	c := graph.Cond{Decision: dec, Outcome: b.outcomes[0]}
	if len(b.outcomes) > 1 {
		c.Outcomes = b.outcomes
	}
	var exits []int
	direct := false
	for i, p := range b.parts {
		if p == nil {
			direct = true
			continue
		}
		first := len(bd.g.Nodes)
		e, x := bd.emit(p, parent)
		bd.edge(dec, e)
		exits = append(exits, x)
		for v := first; v < len(bd.g.Nodes); v++ {
			if i == 0 {
				c.Then = append(c.Then, v)
			} else {
				c.Else = append(c.Else, v)
			}
		}
	}
	merge := bd.node(graph.Merge, b.join)
	if direct {
		bd.edge(dec, merge)
	}
	for _, x := range exits {
		bd.edge(x, merge)
	}
	c.Merge = []int{merge}
	bd.g.Conds = append(bd.g.Conds, c)
	return dec, merge
}

// drawProgram draws a program and builds its graph.
func drawProgram(t *rapid.T) (*block, *graph.Graph) {
	root := drawBlock(t, rapid.IntRange(1, 4).Draw(t, "depth"))
	bd := &builder{}
	bd.emit(root, nil)
	if err := bd.g.Validate(); err != nil {
		t.Fatalf("generated graph invalid: %v", err)
	}
	return root, &bd.g
}

// Property (issue 28 item 8; Section 3.1: under ideal conditions "the
// given graph will be executed asynchronously in minimum time"): with zero
// delays, on any number of PEs, with or without eager allocation, every
// run completes, executes exactly the instances of the taken branches,
// takes at least the critical path of the unrolled program and at most
// its executed work, which one PE takes exactly. With delays the critical
// path is still a lower bound (a delay only adds time).
func TestProgramBounds(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		root, g := drawProgram(rt)
		work, cp, n := root.cost(0)
		m := &Machine{PEs: rapid.IntRange(1, 6).Draw(rt, "pes"), NoEager: rapid.Bool().Draw(rt, "no eager")}
		if len(g.Loops) == 0 {
			m.Barrier = rapid.Bool().Draw(rt, "barrier")
		}
		r := run(rt, g, m)
		desc := fmt.Sprintf("%d PEs, no eager %v, barrier %v", m.PEs, m.NoEager, m.Barrier)
		if !r.Completed || r.NodeInstances != n {
			rt.Fatalf("%s: completed %v (%s), %d instances, want %d", desc, r.Completed, r.Deadlock, r.NodeInstances, n)
		}
		if ideal := Predict(g, m).EIdeal; math.Abs(ideal-cp) > 1e-9 {
			rt.Fatalf("E_ideal %g, the unrolled critical path %g", ideal, cp)
		}
		if u, err := unroll(g); err != nil {
			rt.Fatal(err)
		} else if _, k := u.ideal(); k != n {
			rt.Fatalf("ideal: %d executed instances, want %d", k, n)
		}
		if r.Makespan < cp-1e-9 || r.Makespan > work+1e-9 {
			rt.Fatalf("%s: makespan %g outside [critical path %g, work %g]", desc, r.Makespan, cp, work)
		}
		if one := run(rt, g, &Machine{PEs: 1, NoEager: m.NoEager}); math.Abs(one.Makespan-work) > 1e-9 {
			rt.Fatalf("1 PE: makespan %g, want the executed work %g", one.Makespan, work)
		}
		m.SchedulerDelay = float64(rapid.IntRange(0, 3).Draw(rt, "delay"))
		m.ResultBus = float64(rapid.IntRange(0, 2).Draw(rt, "bus"))
		m.AckBus = m.ResultBus
		if r = run(rt, g, m); !r.Completed || r.Makespan < cp-1e-9 {
			rt.Fatalf("%s, delay %g, bus %g: completed %v (%s), makespan %g, critical path %g",
				desc, m.SchedulerDelay, m.ResultBus, r.Completed, r.Deadlock, r.Makespan, cp)
		}
	})
}
