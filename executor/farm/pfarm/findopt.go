package pfarm

import (
	"container/heap"
	"fmt"

	"github.com/dlsched/dlsched/platform"
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
// fewer processors. Like the analysis behind it ("We also assume that
// α > β_f"), it needs α >= β_f; otherwise the error names Params.BetaF.
//
// No step solves (2) afresh, yet the removals are those of the algorithm
// as written, with the same floating-point rates: a removal changes the
// rates only on the leaf's path to the root, and with α >= β_f it can
// only end saturation (c_i grows with Σ c_children), so the path is
// marked stale and brought up to date when a node on it is examined. A
// subtree that is a path has the rates of a chain, c = g[height], kept
// once in a table, so that trimming a long path costs O(1).
func FindOptTree(t *topology.FarmTree, p *Params) (*OptTree, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Alpha() < p.BetaF {
		return nil, platform.Bad(pkg, "Params.BetaF", g(p.BetaF), fmt.Sprintf("at most alpha = T_e + beta_e = %s for FindOptTree (Section 3.2: \"We also assume that alpha > beta_f\")", g(p.Alpha())))
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

// pruner is the state of FindOptTree. A node whose subtree is a path (a
// chain down to one leaf) is a path node; the highest node of a path, its
// top, records its length and its leaf, and the leaf records the top.
// Every other node keeps its rate c_i of eq. (2) on the alive tree, the
// saturation test (3) and the deepest alive leaf of its subtree; these
// are out of date while it is stale, and the ancestors of a stale node
// are stale. The queue holds the nodes that are (or were) saturated,
// deepest (then highest numbered) first.
type pruner struct {
	t            *topology.FarmTree
	alpha, betaF float64
	alive, stale []bool
	path         []bool
	length       []int // of a path, at its top
	bottom       []int // the leaf of a path, at its top; the top, at the leaf
	kids         []int // alive children
	c            []float64
	chain        []float64 // chain[h]: c of a path of h nodes
	saturated    []bool
	best         []int // deepest alive leaf of the subtree, ties by the highest number
	queue        satHeap
	stack        []frame
}

// frame is a node of the post-order walk of clean and its next child.
type frame struct{ v, next int }

func newPruner(t *topology.FarmTree, alpha, betaF float64) *pruner {
	n := t.N()
	pr := &pruner{t: t, alpha: alpha, betaF: betaF, alive: make([]bool, n), stale: make([]bool, n),
		path: make([]bool, n), length: make([]int, n), bottom: make([]int, n), kids: make([]int, n),
		c: make([]float64, n), chain: []float64{0}, saturated: make([]bool, n), best: make([]int, n),
		queue: satHeap{depth: t.Depth, in: make([]bool, n)}}
	for v := n - 1; v >= 0; v-- { // children have larger numbers, as in rates
		pr.alive[v] = true
		pr.kids[v] = len(t.Children[v])
		switch {
		case pr.kids[v] == 0:
			pr.path[v], pr.length[v], pr.bottom[v] = true, 1, v
		case pr.kids[v] == 1 && pr.path[t.Children[v][0]]:
			j := t.Children[v][0]
			pr.path[v], pr.length[v], pr.bottom[v] = true, pr.length[j]+1, pr.bottom[j]
		default:
			pr.update(v)
		}
	}
	for v := 0; v < n; v++ { // leaves point to the tops of their paths
		if pr.path[v] && (t.Parent[v] < 0 || !pr.path[t.Parent[v]]) {
			pr.bottom[pr.bottom[v]] = v
		}
	}
	return pr
}

// rate returns c of eq. (2) for a path of h nodes: the recurrence of
// rates for a chain, in the same floating-point operations.
func (pr *pruner) rate(h int) float64 {
	for len(pr.chain) <= h {
		pr.chain = append(pr.chain, (1+(pr.alpha-pr.betaF)*(0.0+pr.chain[len(pr.chain)-1]))/pr.alpha)
	}
	return pr.chain[h]
}

// child returns c and the deepest leaf of the subtree of alive child j.
func (pr *pruner) child(j int) (float64, int) {
	if pr.path[j] {
		return pr.rate(pr.length[j]), pr.bottom[j]
	}
	return pr.c[j], pr.best[j]
}

// deeper reports whether node a comes before node b: deeper, or as deep
// and higher numbered.
func deeper(depth []int, a, b int) bool {
	return depth[a] > depth[b] || depth[a] == depth[b] && a > b
}

// update recomputes c, the saturation test (3) and the deepest leaf of
// the node v (not a path node) from its alive children.
func (pr *pruner) update(v int) {
	sum, best := 0.0, v
	for _, j := range pr.t.Children[v] {
		if !pr.alive[j] {
			continue
		}
		cj, bj := pr.child(j)
		sum += cj
		if best == v || deeper(pr.t.Depth, bj, best) {
			best = bj
		}
	}
	pr.c[v], pr.best[v] = (1+(pr.alpha-pr.betaF)*sum)/pr.alpha, best
	pr.saturated[v] = pr.c[v] < sum*(1-1e-12) // eq. (3) fails, as in Predict
	if pr.saturated[v] && !pr.queue.in[v] {
		heap.Push(&pr.queue, v)
	}
}

// remove deletes leaf l, the bottom of a path, and marks stale the nodes
// whose rates change.
func (pr *pruner) remove(l int) {
	top, p := pr.bottom[l], pr.t.Parent[l]
	pr.alive[l] = false
	pr.kids[p]--
	if top != l { // the path loses its leaf
		pr.length[top]--
		pr.bottom[top], pr.bottom[p] = p, top
		pr.markStale(pr.t.Parent[top])
		return
	}
	// l was a path of its own under p, which may now head a path.
	if pr.kids[p] == 1 {
		j := pr.onlyChild(p)
		if pr.path[j] {
			pr.extend(p, j)
			return
		}
	}
	pr.markStale(p)
}

// onlyChild returns the alive child of v, which has one.
func (pr *pruner) onlyChild(v int) int {
	for _, j := range pr.t.Children[v] {
		if pr.alive[j] {
			return j
		}
	}
	return -1
}

// extend makes v, whose only child j tops a path, and the ancestors
// above it with one child, path nodes on top of j's path.
func (pr *pruner) extend(v, j int) {
	length, leaf := pr.length[j], pr.bottom[j]
	for {
		pr.path[v], pr.stale[v], pr.saturated[v] = true, false, false
		length++
		p := pr.t.Parent[v]
		if p < 0 || pr.kids[p] != 1 {
			break
		}
		v = p
	}
	pr.length[v], pr.bottom[v], pr.bottom[leaf] = length, leaf, v
	pr.markStale(pr.t.Parent[v])
}

// markStale marks v and its ancestors stale, up to the first stale one.
func (pr *pruner) markStale(v int) {
	for ; v >= 0 && !pr.stale[v]; v = pr.t.Parent[v] {
		pr.stale[v] = true
	}
}

// clean brings the stale part of w's subtree up to date, children first.
func (pr *pruner) clean(w int) {
	if !pr.stale[w] {
		return
	}
	st := append(pr.stack[:0], frame{w, 0})
	for len(st) > 0 {
		f := &st[len(st)-1]
		kids := pr.t.Children[f.v]
		for f.next < len(kids) && !(pr.alive[kids[f.next]] && pr.stale[kids[f.next]]) {
			f.next++
		}
		if f.next < len(kids) {
			child := kids[f.next]
			f.next++
			st = append(st, frame{child, 0})
			continue
		}
		pr.update(f.v)
		pr.stale[f.v] = false
		st = st[:len(st)-1]
	}
	pr.stack = st
}

// deepestSaturated returns the saturated alive node farthest from the
// root (ties by the highest number), or -1.
func (pr *pruner) deepestSaturated() int {
	for pr.queue.Len() > 0 {
		u := pr.queue.nodes[0]
		if pr.alive[u] && !pr.path[u] {
			pr.clean(u)
			if pr.saturated[u] {
				return u
			}
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
