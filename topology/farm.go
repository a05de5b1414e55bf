package topology

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// MaxFarmNodes bounds the farm trees Chain, KAry and MeshBFS build.
const MaxFarmNodes = 1_000_000

// FarmTree is a rooted tree of processors on which a farm distributes
// tasks from the root toward the leaves and returns results to the root:
// the spanning tree of a farm (Pfarm, Day's line and tree farms). Nodes
// are numbered 0..N-1, node 0 the root; processor numbers in output are
// 1-based (node i is processor i+1). Children are listed in port order,
// the order in which a node hands tasks out round-robin.
type FarmTree struct {
	// Name describes the tree ("chain N=8", "3-ary depth 3", ...).
	Name string
	// Parent[i] is the parent of node i, -1 for the root.
	Parent []int
	// Children[i] lists the children of node i in port order.
	Children [][]int
	// Depth[i] is the distance of node i from the root.
	Depth []int
	// Arity is k for a complete k-ary tree (1 for a chain), 0 otherwise.
	Arity int
}

// N returns the number of processors.
func (t *FarmTree) N() int { return len(t.Parent) }

// Levels returns the number of levels (the depth of the deepest node + 1).
func (t *FarmTree) Levels() int {
	d := 0
	for _, x := range t.Depth {
		d = max(d, x)
	}
	return d + 1
}

// LevelSizes returns the number of nodes at each depth.
func (t *FarmTree) LevelSizes() []int {
	out := make([]int, t.Levels())
	for _, x := range t.Depth {
		out[x]++
	}
	return out
}

// Leaf reports whether node i has no children.
func (t *FarmTree) Leaf(i int) bool { return len(t.Children[i]) == 0 }

// fromParents completes a tree from its parent array (children in
// increasing node order, depths).
func fromParents(name string, parent []int, arity int) *FarmTree {
	t := &FarmTree{Name: name, Parent: parent, Children: make([][]int, len(parent)), Depth: make([]int, len(parent)), Arity: arity}
	for i, p := range parent {
		if p >= 0 {
			t.Children[p] = append(t.Children[p], i)
		}
	}
	for i, p := range parent { // parents precede children in every numbering used here
		if p >= 0 {
			t.Depth[i] = t.Depth[p] + 1
		}
	}
	return t
}

// Chain returns a chain of n processors: node i's child is node i+1.
func Chain(n int) (*FarmTree, error) {
	if n < 1 || n > MaxFarmNodes {
		return nil, fmt.Errorf("topology: chain: N = %d, want 1..%d", n, MaxFarmNodes)
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i - 1
	}
	return fromParents(fmt.Sprintf("chain N=%d", n), parent, 1), nil
}

// KAryNodes returns the number of processors of a complete k-ary tree
// with depth levels, (k^depth − 1)/(k − 1) (depth for k = 1), or -1 when
// it exceeds MaxFarmNodes.
func KAryNodes(k, depth int) int {
	n, level := 0, 1
	for d := 0; d < depth; d++ {
		n += level
		if n > MaxFarmNodes {
			return -1
		}
		level *= k
		if level > MaxFarmNodes {
			level = MaxFarmNodes + 1
		}
	}
	return n
}

// KAry returns the complete k-ary tree with depth levels (level i has k^i
// processors) numbered in heap order: the root is processor 1 and the
// children of processor i are k(i−1)+2 … k·i+1.
func KAry(k, depth int) (*FarmTree, error) {
	if k < 1 {
		return nil, fmt.Errorf("topology: k-ary tree: k = %d, want >= 1", k)
	}
	if depth < 1 {
		return nil, fmt.Errorf("topology: k-ary tree: depth = %d, want >= 1", depth)
	}
	n := KAryNodes(k, depth)
	if n < 0 {
		return nil, fmt.Errorf("topology: k-ary tree: k = %d, depth = %d has more than %d processors", k, depth, MaxFarmNodes)
	}
	parent := make([]int, n)
	parent[0] = -1
	for i := 1; i < n; i++ {
		parent[i] = (i - 1) / k // 0-based heap order
	}
	if k == 1 {
		return fromParents(fmt.Sprintf("chain N=%d", n), parent, 1), nil
	}
	return fromParents(fmt.Sprintf("%d-ary tree of depth %d", k, depth), parent, k), nil
}

// BFSChoice selects which breadth-first spanning tree of a mesh MeshBFS
// builds: every node at distance d from the root hangs on one of its
// neighbours at distance d−1.
type BFSChoice int

const (
	// BFSFirst hangs a node on the neighbour that discovered it first
	// (the ordinary breadth-first search tree).
	BFSFirst BFSChoice = iota
	// BFSLast hangs it on the last such neighbour in BFS order.
	BFSLast
	// BFSRandom hangs it on a neighbour drawn at random.
	BFSRandom
)

// ParseBFSChoice reads "first", "last" or "random".
func ParseBFSChoice(s string) (BFSChoice, error) {
	switch s {
	case "first":
		return BFSFirst, nil
	case "last":
		return BFSLast, nil
	case "random":
		return BFSRandom, nil
	}
	return 0, fmt.Errorf("topology: BFS tree %q, want first, last or random", s)
}

// String returns the choice's name.
func (c BFSChoice) String() string {
	return [...]string{"first", "last", "random"}[c]
}

// MeshBFS returns a breadth-first spanning tree of the rows×cols mesh
// rooted at (r0, c0) (row and column counted from 0). Processors are
// numbered in the order of a breadth-first search from the root (the mesh
// node (r, c) has graph ID r·cols + c; neighbours are visited in
// increasing ID order), so the numbering is the same for every choice of
// tree. rng is used by BFSRandom only. The search runs on the grid
// directly, in O(rows·cols) time and three integers of memory per node.
func MeshBFS(rows, cols, r0, c0 int, choice BFSChoice, rng *rand.Rand) (*FarmTree, error) {
	if rows < 1 || cols < 1 || rows*cols > MaxFarmNodes || rows > MaxFarmNodes || cols > MaxFarmNodes {
		return nil, fmt.Errorf("topology: mesh %d×%d, want 1..%d processors", rows, cols, MaxFarmNodes)
	}
	if r0 < 0 || r0 >= rows || c0 < 0 || c0 >= cols {
		return nil, fmt.Errorf("topology: mesh root (%d,%d) outside the %d×%d mesh (rows 0..%d, columns 0..%d)", r0, c0, rows, cols, rows-1, cols-1)
	}
	if choice == BFSRandom && rng == nil {
		return nil, fmt.Errorf("topology: mesh: random BFS tree without a random source")
	}
	g := grid{rows: rows, cols: cols, r0: r0, c0: c0}
	order, num := g.bfs()
	parent := make([]int, len(order))
	parent[0] = -1
	var cands []int // neighbours one step closer, in increasing ID order, by BFS number
	for i := 1; i < len(order); i++ {
		v := order[i]
		cands = cands[:0]
		for _, u := range g.neighbours(v) {
			if u >= 0 && g.dist(u) == g.dist(v)-1 {
				cands = append(cands, num[u])
			}
		}
		switch choice {
		case BFSFirst:
			parent[i] = slices.Min(cands) // the earliest visited neighbour discovers v
		case BFSLast:
			parent[i] = slices.Max(cands)
		case BFSRandom:
			parent[i] = cands[rng.IntN(len(cands))]
		}
	}
	name := fmt.Sprintf("BFS tree (%s) of the %d×%d mesh from (%d,%d)", choice, rows, cols, r0, c0)
	return fromParents(name, parent, 0), nil
}

// grid is a rows×cols mesh searched from (r0, c0); node (r, c) has ID
// r·cols + c.
type grid struct{ rows, cols, r0, c0 int }

// neighbours returns the IDs of v's neighbours in increasing order (up,
// left, right, down), -1 where the mesh ends.
func (g grid) neighbours(v int) [4]int {
	r, c := v/g.cols, v%g.cols
	nb := [4]int{-1, -1, -1, -1}
	if r > 0 {
		nb[0] = v - g.cols
	}
	if c > 0 {
		nb[1] = v - 1
	}
	if c+1 < g.cols {
		nb[2] = v + 1
	}
	if r+1 < g.rows {
		nb[3] = v + g.cols
	}
	return nb
}

// dist is the distance of node v from the root: on a mesh, |r − r0| +
// |c − c0|.
func (g grid) dist(v int) int {
	r, c := v/g.cols, v%g.cols
	return max(r-g.r0, g.r0-r) + max(c-g.c0, g.c0-c)
}

// bfs returns the IDs in breadth-first order from the root, each node
// numbered when first discovered, neighbours in increasing ID order, and
// the number of each ID.
func (g grid) bfs() (order, num []int) {
	n := g.rows * g.cols
	num = make([]int, n)
	for i := range num {
		num[i] = -1
	}
	order = make([]int, 1, n)
	order[0] = g.r0*g.cols + g.c0
	num[order[0]] = 0
	for q := 0; q < len(order); q++ {
		for _, u := range g.neighbours(order[q]) {
			if u >= 0 && num[u] < 0 {
				num[u] = len(order)
				order = append(order, u)
			}
		}
	}
	return order, num
}

// FarmSpec describes a farm tree in the words of the command line and the
// JSON reports: a chain of N, a complete k-ary tree of Depth levels, or a
// breadth-first spanning tree of a Rows×Cols mesh rooted at (Row, Col).
type FarmSpec struct {
	Kind  string `json:"kind"` // "chain", "kary" or "mesh"
	N     int    `json:"N,omitempty"`
	K     int    `json:"k,omitempty"`
	Depth int    `json:"depth,omitempty"`
	Rows  int    `json:"rows,omitempty"`
	Cols  int    `json:"cols,omitempty"`
	Row   int    `json:"root_row,omitempty"`
	Col   int    `json:"root_col,omitempty"`
	BFS   string `json:"bfs,omitempty"` // first, last or random
	Seed  uint64 `json:"bfs_seed,omitempty"`
}

// Build constructs the tree the spec describes.
func (s FarmSpec) Build() (*FarmTree, error) {
	switch s.Kind {
	case "chain":
		return Chain(s.N)
	case "kary":
		return KAry(s.K, s.Depth)
	case "mesh":
		choice, err := ParseBFSChoice(s.BFS)
		if err != nil {
			return nil, err
		}
		var rng *rand.Rand
		if choice == BFSRandom {
			rng = rand.New(rand.NewPCG(s.Seed, 0x6d657368)) // "mesh"
		}
		return MeshBFS(s.Rows, s.Cols, s.Row, s.Col, choice, rng)
	}
	return nil, fmt.Errorf("topology: farm topology %q, want chain, kary or mesh", s.Kind)
}
