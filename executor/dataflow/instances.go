package dataflow

import (
	"fmt"
	"math"

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
	data  float64 // bytes its result carries (0: none)

	// succs are the instances that need this one's result (each counts it
	// in need); opSuccs are merges for which it is one of the branch
	// operands (each fires on the first of them).
	succs   []int
	opSuccs []int
	need    int  // required dependencies still missing
	anyOp   bool // a merge still waiting for its first branch operand

	// outer identifies the instance of the outermost loop around the node
	// (-1 outside loops): PEs stay with it until it ends.
	outer int

	failed  bool
	cancels []int // instances this decision instance cancels

	// state
	enabled   bool
	allocated int  // PE index or -1
	queued    bool // in the ready list, under stamp
	stamp     int
	dealt     bool
	eager     bool
	done      bool
	dataReady bool // a read whose data has arrived
	pending   bool // a read waiting for its location to be written
}

// output reports whether the instance's result goes to no other instance:
// an output of the graph, which the scheduler picks up (Section 2.1).
func (in *instance) output() bool { return len(in.succs) == 0 && len(in.opSuccs) == 0 }

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

// unroller holds what unroll needs while it builds the instance graph.
type unroller struct {
	g       *graph.Graph
	loopsOf [][]int
	u       *unrolled
	// mergeCond maps a merge node to its conditional (the first listing it);
	// side[c][v] is 1 for a node of conditional c's then branch, 2 for its
	// else branch; fed[{c, side, v}]: a forward edge goes from that branch to v.
	mergeCond map[int]int
	side      []map[int]int
	fed       map[[3]int]bool
}

// unroll expands g: an instance per node and combination of iterations of
// the loops around it. Forward edges connect instances of the same
// iteration; an edge out of a loop takes the last iteration's value, an
// edge into a loop feeds every iteration; a back edge feeds the next
// iteration of the innermost loop containing both ends; every instance of
// iteration i+1 of a loop also waits for the loop's control node in
// iteration i (the control decides whether the loop goes on). A merge
// fires on the first of its branch operands (the edges from its
// conditional's decision and branches) once its other dependencies have
// arrived. Every instance of a branch node in the iteration of a decision
// instance hangs on that decision instance.
func unroll(g *graph.Graph) (*unrolled, error) {
	if n := GraphSizes(g).Instances; n > maxInstances {
		return nil, fmt.Errorf("dataflow: the loops unroll to %.4g node instances, more than %d", n, maxInstances)
	}
	r := &unroller{g: g, loopsOf: g.LoopsOf(), u: &unrolled{byNode: make([][]int, len(g.Nodes)), outerSize: map[int]int{}},
		mergeCond: map[int]int{}, fed: map[[3]int]bool{}}
	r.branches()
	r.instances()
	r.edges()
	r.controls()
	r.conditionals()
	return r.u, nil
}

func (r *unroller) iterCount(ls []int) int {
	c := 1
	for _, l := range ls {
		c *= r.g.Loops[l].Iterations
	}
	return c
}

// instances creates the instances of every node, the iterations of its
// loops in mixed radix (outermost first).
func (r *unroller) instances() {
	g, u := r.g, r.u
	levels := g.Levels()
	outerKey := map[int]int{} // outermost loop -> its outer instance
	for v, nd := range g.Nodes {
		ls := r.loopsOf[v]
		n := r.iterCount(ls)
		for k := 0; k < n; k++ {
			its := make([]int, len(ls))
			rem := k
			for j := len(ls) - 1; j >= 0; j-- {
				it := g.Loops[ls[j]].Iterations
				its[j] = rem % it
				rem /= it
			}
			in := &instance{idx: len(u.inst), node: v, iters: its, level: levels[v], time: nd.Time, kind: nd.Kind,
				loc: nd.Loc, data: nd.Data, allocated: -1, outer: -1}
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
}

// find returns the instance of node v whose iterations agree with byLoop
// (iteration by loop index); loops of v not in the map take their last
// iteration when exit is set, else their first.
func (r *unroller) find(v int, byLoop map[int]int, exit bool) int {
	k := 0
	for _, l := range r.loopsOf[v] {
		it, ok := byLoop[l]
		if !ok {
			it = 0
			if exit {
				it = r.g.Loops[l].Iterations - 1
			}
		}
		k = k*r.g.Loops[l].Iterations + it
	}
	return r.u.byNode[v][k]
}

// block returns every instance of node v whose iterations agree with
// byLoop on the loops of v it names (the loops shared with another node
// are the outermost ones of both, so these instances are consecutive).
func (r *unroller) block(v int, byLoop map[int]int) []int {
	ls := r.loopsOf[v]
	k, j := 0, 0
	for ; j < len(ls); j++ {
		it, ok := byLoop[ls[j]]
		if !ok {
			break
		}
		k = k*r.g.Loops[ls[j]].Iterations + it
	}
	rest := r.iterCount(ls[j:])
	return r.u.byNode[v][k*rest : (k+1)*rest]
}

func (r *unroller) loopMap(in *instance) map[int]int {
	m := map[int]int{}
	for j, l := range r.loopsOf[in.node] {
		m[l] = in.iters[j]
	}
	return m
}

func (r *unroller) addEdge(from, to int, operand bool) {
	u := r.u
	if operand {
		u.inst[from].opSuccs = append(u.inst[from].opSuccs, to)
		u.inst[to].anyOp = true
		return
	}
	u.inst[from].succs = append(u.inst[from].succs, to)
	u.inst[to].need++
}

// edge kinds for an instance edge into a merge
const (
	required = iota // a dependency like any other
	operand         // one of the merge's branch operands: it fires on the first
	dropped         // from the failed branch: never delivered
)

// edges connects the instances along the graph's edges.
func (r *unroller) edges() {
	for _, e := range r.g.Edges {
		for _, ti := range r.u.byNode[e.To] {
			m := r.loopMap(r.u.inst[ti])
			if e.Back {
				common := innermostCommon(r.loopsOf[e.From], r.loopsOf[e.To])
				if m[common] == 0 {
					continue
				}
				m[common]--
			}
			kind := required
			if !e.Back {
				kind = r.mergeEdge(e.From, e.To, m)
			}
			if kind == dropped {
				continue
			}
			// loops of the source not around the target: its last iteration
			r.addEdge(r.find(e.From, restrict(m, r.loopsOf[e.From]), true), ti, kind == operand)
		}
	}
}

// branches indexes the conditionals: the merges, the two branches' nodes,
// and which branch has an edge into which node.
func (r *unroller) branches() {
	g := r.g
	r.side = make([]map[int]int, len(g.Conds))
	for ci := len(g.Conds) - 1; ci >= 0; ci-- {
		c := &g.Conds[ci]
		for _, v := range c.Merge {
			r.mergeCond[v] = ci
		}
		r.side[ci] = map[int]int{}
		for _, v := range c.Else {
			r.side[ci][v] = 2
		}
		for _, v := range c.Then {
			r.side[ci][v] = 1
		}
	}
	for _, e := range g.Edges {
		if e.Back {
			continue
		}
		if ci, ok := r.mergeCond[e.To]; ok {
			if s := r.side[ci][e.From]; s != 0 {
				r.fed[[3]int{ci, s, e.To}] = true
			}
		}
	}
}

// mergeEdge classifies the forward edge from → to for the instance of to
// in the iterations m: into a merge, an edge from the taken branch is an
// operand, one from the failed branch is dropped, and the decision's own
// edge is the operand of an empty taken branch (Section 2.1: "A merge
// node ... is 'enabled' on the availability of one of the operands").
func (r *unroller) mergeEdge(from, to int, m map[int]int) int {
	ci, ok := r.mergeCond[to]
	if !ok {
		return required
	}
	c := &r.g.Conds[ci]
	taken := 1
	if !r.outcome(c, r.find(c.Decision, restrict(m, r.loopsOf[c.Decision]), true)) {
		taken = 2
	}
	switch s := r.side[ci][from]; {
	case s == taken:
		return operand
	case s != 0:
		return dropped
	case from == c.Decision && !r.fed[[3]int{ci, taken, to}]:
		return operand
	}
	return required
}

// outcome is the decision instance's result: the conditional's outcome in
// the iteration of the innermost loop around the decision.
func (r *unroller) outcome(c *graph.Cond, di int) bool {
	its := r.u.inst[di].iters
	it := 0
	if n := len(its); n > 0 {
		it = its[n-1]
	}
	return c.OutcomeAt(it)
}

// controls makes every instance of iteration i+1 of a loop wait for the
// loop's control node in iteration i (the last iteration of any loop
// nested inside it).
func (r *unroller) controls() {
	for l, lp := range r.g.Loops {
		var around []int // the loops of the control that are l or enclose it
		for _, l2 := range r.loopsOf[lp.Control] {
			around = append(around, l2)
			if l2 == l {
				break
			}
		}
		for _, v := range lp.Nodes {
			for _, ti := range r.u.byNode[v] {
				m := r.loopMap(r.u.inst[ti])
				if m[l] == 0 {
					continue
				}
				m[l]--
				if ci := r.find(lp.Control, restrict(m, around), true); ci != ti {
					r.addEdge(ci, ti, false)
				}
			}
		}
	}
}

// conditionals ties every instance of a failed branch, in the iteration of
// the decision instance, to the decision instance that cancels it.
func (r *unroller) conditionals() {
	for ci := range r.g.Conds {
		c := &r.g.Conds[ci]
		for _, di := range r.u.byNode[c.Decision] {
			din := r.u.inst[di]
			failed := c.Else
			if !r.outcome(c, di) {
				failed = c.Then
			}
			m := r.loopMap(din)
			for _, v := range failed {
				din.cancels = append(din.cancels, r.block(v, restrict(m, r.loopsOf[v]))...)
			}
		}
	}
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

// ideal returns the critical path of the executed program — its
// instances without the failed branches, a merge waiting for the first
// operand of its taken branch — and how many instances it executes: the
// time with unlimited PEs and no delays (Section 3.1), a lower bound on
// every run.
func (u *unrolled) ideal() (cp float64, executed int) {
	failed := make([]bool, len(u.inst))
	for _, in := range u.inst {
		for _, c := range in.cancels {
			failed[c] = true
		}
	}
	need := make([]int, len(u.inst))
	start := make([]float64, len(u.inst))   // latest required operand
	opFirst := make([]float64, len(u.inst)) // earliest branch operand
	var queue []int
	for i, in := range u.inst {
		need[i] = in.need
		if in.anyOp {
			need[i]++
			opFirst[i] = math.Inf(1)
		}
		if need[i] == 0 {
			queue = append(queue, i)
		}
	}
	for k := 0; k < len(queue); k++ {
		in := u.inst[queue[k]]
		fin := math.Max(start[in.idx], opFirst[in.idx])
		if !failed[in.idx] {
			fin += in.time
			cp = math.Max(cp, fin)
			executed++
		}
		release := func(s int, operand bool) {
			if operand {
				if opFirst[s] == math.Inf(1) {
					need[s]--
				}
				opFirst[s] = math.Min(opFirst[s], fin)
			} else {
				start[s] = math.Max(start[s], fin)
				need[s]--
			}
			if need[s] == 0 {
				queue = append(queue, s)
			}
		}
		for _, s := range in.succs {
			release(s, false)
		}
		for _, s := range in.opSuccs {
			release(s, true)
		}
	}
	return cp, executed
}
