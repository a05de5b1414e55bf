package dataflow

import (
	"fmt"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
)

// instance is one execution of a node: the node in one iteration of each
// loop around it.
type instance struct {
	idx   int
	node  int
	iters []int // iteration per loop around the node, outermost first
	level int
	time  float64
	kind  graph.Kind
	loc   string

	succs []int
	need  int  // operands (done predecessors) still missing
	merge bool // fires on one operand

	// outer identifies the instance of the outermost loop around the node
	// (-1 outside loops): PEs stay with it until it ends.
	outer int

	// cancelBy is the decision instance whose failure cancels this one
	// (-1: none); failed marks it cancelled.
	cancelBy int
	failed   bool
	cancels  []int // instances this decision instance may cancel
	outcome  bool  // for a decision instance
	taken    []int // instances of the branch taken (for merges' sake)

	// state
	enabled   bool
	allocated int // PE index or -1
	eager     bool
	done      bool
	dataReady bool // a read whose data has arrived
	pending   bool // a read waiting for its location to be written
}

// unrolled is the instance graph of a program: loops expanded into
// iterations, conditionals tied to their decision instances.
type unrolled struct {
	inst      []*instance
	byNode    [][]int     // instances of each node
	outerSize map[int]int // outermost loop instance -> instances left
	nouter    int
}

// maxInstances bounds the unrolled program.
const maxInstances = 20_000_000

// unroll expands g: an instance per node and combination of iterations of
// the loops around it. Forward edges connect instances of the same
// iteration; an edge out of a loop takes the last iteration's value, an
// edge into a loop feeds every iteration; a back edge feeds the next
// iteration of the innermost loop containing both ends; every instance of
// iteration i+1 of a loop also waits for the loop's control node in
// iteration i (the control decides whether the loop goes on). Branch
// instances are tied to their decision instance.
func unroll(g *graph.Graph) (*unrolled, error) {
	loopsOf := g.LoopsOf()
	levels := g.Levels()
	iterCount := func(ls []int) int {
		c := 1
		for _, l := range ls {
			c *= g.Loops[l].Iterations
			if c > maxInstances {
				return maxInstances + 1
			}
		}
		return c
	}
	u := &unrolled{byNode: make([][]int, len(g.Nodes)), outerSize: map[int]int{}}
	total := 0
	for v := range g.Nodes {
		total += iterCount(loopsOf[v])
		if total > maxInstances {
			return nil, fmt.Errorf("dataflow: the loops unroll to more than %d node instances", maxInstances)
		}
	}
	// outermost loop instances: (loop index, its iteration is not part of
	// the key: the whole loop run is one outer instance)
	outerKey := map[int]int{}
	for v, nd := range g.Nodes {
		ls := loopsOf[v]
		n := iterCount(ls)
		for k := 0; k < n; k++ {
			its := make([]int, len(ls))
			r := k
			for j := len(ls) - 1; j >= 0; j-- {
				it := g.Loops[ls[j]].Iterations
				its[j] = r % it
				r /= it
			}
			in := &instance{idx: len(u.inst), node: v, iters: its, level: levels[v], time: nd.Time, kind: nd.Kind,
				loc: nd.Loc, allocated: -1, cancelBy: -1, outer: -1, merge: nd.Kind == graph.Merge}
			if len(ls) > 0 {
				o, ok := outerKey[ls[0]]
				if !ok {
					o = u.nouter
					u.nouter++
					outerKey[ls[0]] = o
				}
				in.outer = o
				u.outerSize[o]++
			}
			u.byNode[v] = append(u.byNode[v], in.idx)
			u.inst = append(u.inst, in)
		}
	}
	// find returns the instance of node v whose iterations agree with its
	// (taken by loop index); loops of v not in the map take last or first.
	find := func(v int, byLoop map[int]int, exit bool) int {
		ls := loopsOf[v]
		k := 0
		for _, l := range ls {
			it, ok := byLoop[l]
			if !ok {
				it = 0
				if exit {
					it = g.Loops[l].Iterations - 1
				}
			}
			k = k*g.Loops[l].Iterations + it
		}
		return u.byNode[v][k]
	}
	loopMap := func(in *instance) map[int]int {
		m := map[int]int{}
		for j, l := range loopsOf[in.node] {
			m[l] = in.iters[j]
		}
		return m
	}
	addEdge := func(from, to int) {
		u.inst[from].succs = append(u.inst[from].succs, to)
		u.inst[to].need++
	}
	for _, e := range g.Edges {
		for _, ti := range u.byNode[e.To] {
			tin := u.inst[ti]
			m := loopMap(tin)
			if e.Back {
				common := innermostCommon(loopsOf[e.From], loopsOf[e.To])
				if m[common] == 0 {
					continue
				}
				m[common]--
			}
			// loops of the source not around the target: its last iteration
			keep := map[int]int{}
			for _, l := range loopsOf[e.From] {
				if it, ok := m[l]; ok {
					keep[l] = it
				}
			}
			addEdge(find(e.From, keep, true), ti)
		}
	}
	// iteration i+1 waits for the control node of iteration i
	for l, lp := range g.Loops {
		for _, v := range lp.Nodes {
			for _, ti := range u.byNode[v] {
				tin := u.inst[ti]
				m := loopMap(tin)
				if m[l] == 0 {
					continue
				}
				m[l]--
				keep := map[int]int{}
				for _, l2 := range loopsOf[lp.Control] {
					if it, ok := m[l2]; ok {
						keep[l2] = it
					}
				}
				ci := find(lp.Control, keep, true)
				if ci != ti {
					addEdge(ci, ti)
				}
			}
		}
	}
	// conditionals: branch instances of the same iterations hang on the
	// decision instance
	for ci := range g.Conds {
		c := &g.Conds[ci]
		for _, di := range u.byNode[c.Decision] {
			din := u.inst[di]
			it := 0
			if n := len(din.iters); n > 0 {
				it = din.iters[n-1]
			}
			din.outcome = c.OutcomeAt(it)
			failed, taken := c.Else, c.Then
			if !din.outcome {
				failed, taken = c.Then, c.Else
			}
			m := loopMap(din)
			for _, v := range failed {
				bi := find(v, restrict(m, loopsOf[v]), false)
				din.cancels = append(din.cancels, bi)
				u.inst[bi].cancelBy = di
			}
			for _, v := range taken {
				din.taken = append(din.taken, find(v, restrict(m, loopsOf[v]), false))
			}
		}
	}
	for _, in := range u.inst {
		if in.merge && in.need > 1 {
			in.need = 1 // a merge fires on one operand
		}
	}
	return u, nil
}

func restrict(m map[int]int, ls []int) map[int]int {
	out := map[int]int{}
	for _, l := range ls {
		if it, ok := m[l]; ok {
			out[l] = it
		}
	}
	return out
}

func innermostCommon(a, b []int) int {
	best := -1
	for _, x := range a {
		for _, y := range b {
			if x == y {
				best = x
			}
		}
	}
	return best
}
