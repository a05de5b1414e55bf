package pfarm

import (
	"container/heap"

	"github.com/dlsched/dlsched/topology"
)

// OptTree is the result of FindOptTree.
type OptTree struct {
	// Kept lists the processors kept (original numbers, ascending).
	Kept []int `json:"kept"`
	// Tree is the pruned tree (renumbered 0..len(Kept)-1 in the order of
	// Kept).
	Tree *topology.FarmTree `json:"-"`
	// SteadyState is T_ss(M) on the pruned tree, Clamped whether it is
	// M·β_f.
	SteadyState float64 `json:"steady_state"`
	Clamped     bool    `json:"clamped"`
}

// FindOptTree is the paper's algorithm (Section 3.2): while a node is
// saturated, solve (2), take the saturated node farthest from the root
// (ties by the highest number) and remove a leaf of its subtree (the
// deepest, ties by the highest number). The result performs as well with
// fewer processors.
//
// Removing a leaf changes the rates of eq. (2) only on its path to the
// root, so each step updates that path (and stops where nothing changes)
// instead of solving (2) afresh: the removals are those of the
// algorithm as written, with the same floating-point rates, in
// O(removals × depth × degree) rather than O(removals × N).
func FindOptTree(t *topology.FarmTree, p *Params) (*OptTree, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	pr := newPruner(t, p.Alpha(), p.BetaF)
	for u := pr.deepestSaturated(); u >= 0; u = pr.deepestSaturated() {
		pr.remove(pr.best[u])
	}
	sub := induced(t, pr.alive)
	tss, clamped, _ := SteadyState(sub.tree, p, float64(p.M))
	kept := make([]int, len(sub.orig))
	for i, o := range sub.orig {
		kept[i] = o + 1
	}
	return &OptTree{Kept: kept, Tree: sub.tree, SteadyState: tss, Clamped: clamped}, nil
}

// pruner is the state of FindOptTree: the alive nodes, their rates c_i of
// eq. (2) on the alive tree, the deepest alive leaf under each node and
// the saturated nodes, deepest (then highest numbered) first.
type pruner struct {
	t            *topology.FarmTree
	alpha, betaF float64
	alive        []bool
	c            []float64
	saturated    []bool
	best         []int // deepest alive leaf of the subtree, ties by the highest number
	queue        satHeap
}

func newPruner(t *topology.FarmTree, alpha, betaF float64) *pruner {
	n := t.N()
	pr := &pruner{t: t, alpha: alpha, betaF: betaF, alive: make([]bool, n), c: make([]float64, n),
		saturated: make([]bool, n), best: make([]int, n), queue: satHeap{depth: t.Depth, in: make([]bool, n)}}
	for v := range pr.alive {
		pr.alive[v] = true
	}
	for v := n - 1; v >= 0; v-- { // children have larger numbers, as in rates
		pr.update(v)
	}
	return pr
}

// deeper reports whether node a comes before node b: deeper, or as deep
// and higher numbered.
func deeper(depth []int, a, b int) bool {
	return depth[a] > depth[b] || depth[a] == depth[b] && a > b
}

// update recomputes c, the saturation test (3) and the deepest leaf of v
// from its alive children, and reports whether c or the leaf changed.
func (pr *pruner) update(v int) bool {
	sum, best := 0.0, v
	for _, j := range pr.t.Children[v] {
		if !pr.alive[j] {
			continue
		}
		sum += pr.c[j]
		if best == v || deeper(pr.t.Depth, pr.best[j], best) {
			best = pr.best[j]
		}
	}
	c := (1 + (pr.alpha-pr.betaF)*sum) / pr.alpha
	changed := c != pr.c[v] || best != pr.best[v]
	pr.c[v], pr.best[v] = c, best
	pr.saturated[v] = c < sum*(1-1e-12) // eq. (3) fails, as in Predict
	if pr.saturated[v] && !pr.queue.in[v] {
		heap.Push(&pr.queue, v)
	}
	return changed
}

// remove deletes leaf l and updates its ancestors until nothing changes.
func (pr *pruner) remove(l int) {
	pr.alive[l] = false
	pr.saturated[l] = false
	for v := pr.t.Parent[l]; v >= 0 && pr.update(v); v = pr.t.Parent[v] {
	}
}

// deepestSaturated returns the saturated alive node farthest from the
// root (ties by the highest number), or -1.
func (pr *pruner) deepestSaturated() int {
	for pr.queue.Len() > 0 {
		u := pr.queue.nodes[0]
		if pr.alive[u] && pr.saturated[u] {
			return u
		}
		heap.Pop(&pr.queue)
	}
	return -1
}

// satHeap is a heap of nodes, deepest (then highest numbered) first; in
// marks the nodes it holds.
type satHeap struct {
	nodes []int
	depth []int
	in    []bool
}

func (h *satHeap) Len() int           { return len(h.nodes) }
func (h *satHeap) Less(i, j int) bool { return deeper(h.depth, h.nodes[i], h.nodes[j]) }
func (h *satHeap) Swap(i, j int)      { h.nodes[i], h.nodes[j] = h.nodes[j], h.nodes[i] }

func (h *satHeap) Push(x any) {
	v := x.(int)
	h.nodes = append(h.nodes, v)
	h.in[v] = true
}

func (h *satHeap) Pop() any {
	v := h.nodes[len(h.nodes)-1]
	h.nodes = h.nodes[:len(h.nodes)-1]
	h.in[v] = false
	return v
}

type subtree struct {
	tree *topology.FarmTree
	orig []int // orig[i]: node of t
}

// induced returns the subtree of the alive nodes (the root always alive,
// a node alive only if its parent is), renumbered in t's order.
func induced(t *topology.FarmTree, alive []bool) subtree {
	idx := make([]int, t.N())
	var orig []int
	for i := range idx {
		idx[i] = -1
		if alive[i] && (t.Parent[i] < 0 || idx[t.Parent[i]] >= 0) {
			idx[i] = len(orig)
			orig = append(orig, i)
		}
	}
	parent := make([]int, len(orig))
	children := make([][]int, len(orig))
	depth := make([]int, len(orig))
	for k, o := range orig {
		parent[k] = -1
		if p := t.Parent[o]; p >= 0 {
			parent[k] = idx[p]
			children[idx[p]] = append(children[idx[p]], k)
			depth[k] = depth[idx[p]] + 1
		}
	}
	return subtree{tree: &topology.FarmTree{Name: "pruned " + t.Name, Parent: parent, Children: children, Depth: depth}, orig: orig}
}
