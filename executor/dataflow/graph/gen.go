package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Levelled returns the graph with the given level sizes in which every
// node of a level depends on every node of the previous level (all node
// times t): --levels 5,3,8.
func Levelled(sizes []int, t float64) (*Graph, error) {
	total := 0
	for i, s := range sizes {
		if s < 1 {
			return nil, fmt.Errorf("graph: levels[%d] = %d, want >= 1", i, s)
		}
		total += s
		if total > MaxNodes {
			return nil, fmt.Errorf("graph: levels: more than %d nodes", MaxNodes)
		}
	}
	if len(sizes) == 0 {
		return nil, fmt.Errorf("graph: levels: no levels")
	}
	edges := 0
	for i := 1; i < len(sizes); i++ {
		edges += sizes[i-1] * sizes[i]
		if edges > 50*MaxNodes {
			return nil, fmt.Errorf("graph: levels: more than %d edges", 50*MaxNodes)
		}
	}
	g := &Graph{}
	var prev []int
	for _, s := range sizes {
		var cur []int
		for k := 0; k < s; k++ {
			id := len(g.Nodes)
			g.Nodes = append(g.Nodes, Node{ID: id, Kind: Op, Time: t})
			for _, u := range prev {
				g.Edges = append(g.Edges, Edge{From: u, To: id})
			}
			cur = append(cur, id)
		}
		prev = cur
	}
	return g, g.Validate()
}

// Random returns a levelled random program of n fine-grain nodes (time 1
// each) with grain g: about √n levels of random widths (at least 1), every
// node beyond the first level depending on 1 to 3 distinct random nodes of
// the level before; then g consecutive nodes of a level are merged into
// one node of time g (or fewer at a level's end), which inherits every
// dependency of its members. The same seed gives the same graph for every
// grain, so grains of one program can be compared.
func Random(n, grain int, seed uint64) (*Graph, error) {
	if n < 1 || n > MaxNodes {
		return nil, fmt.Errorf("graph: random: %d nodes, want 1..%d", n, MaxNodes)
	}
	if grain < 1 || grain > n {
		return nil, fmt.Errorf("graph: random: grain %d, want 1..%d", grain, n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x64666c6f77)) // "dflow"
	levels := max(1, int(math.Round(math.Sqrt(float64(n)))))
	widths := make([]int, levels)
	for i := range widths {
		widths[i] = 1
	}
	for k := levels; k < n; k++ { // spread the rest at random
		widths[rng.IntN(levels)]++
	}
	// fine graph
	level := make([][]int, levels)
	var preds [][]int
	id := 0
	for l, w := range widths {
		for k := 0; k < w; k++ {
			level[l] = append(level[l], id)
			var ps []int
			if l > 0 {
				prev := level[l-1]
				np := min(1+rng.IntN(3), len(prev))
				for len(ps) < np { // np distinct nodes of the level before
					u := prev[rng.IntN(len(prev))]
					if !slices.Contains(ps, u) {
						ps = append(ps, u)
					}
				}
				sort.Ints(ps)
			}
			preds = append(preds, ps)
			id++
		}
	}
	// merge by grain
	group := make([]int, n)
	g := &Graph{}
	for _, members := range level {
		for s := 0; s < len(members); s += grain {
			e := min(s+grain, len(members))
			gid := len(g.Nodes)
			g.Nodes = append(g.Nodes, Node{ID: gid, Kind: Op, Time: float64(e - s)})
			for _, v := range members[s:e] {
				group[v] = gid
			}
		}
	}
	for v, ps := range preds {
		for _, u := range ps {
			g.Edges = append(g.Edges, Edge{From: group[u], To: group[v]})
		}
	}
	sort.Slice(g.Edges, func(a, b int) bool {
		if g.Edges[a].To != g.Edges[b].To {
			return g.Edges[a].To < g.Edges[b].To
		}
		return g.Edges[a].From < g.Edges[b].From
	})
	g.Edges = slices.Compact(g.Edges) // each dependency once
	return g, g.Validate()
}

// LevelledSize returns the nodes and edges Levelled(sizes, t) would make,
// without making them (so that a caller can refuse a graph too large).
func LevelledSize(sizes []int) (nodes, edges float64) {
	for i, s := range sizes {
		nodes += float64(s)
		if i > 0 {
			edges += float64(sizes[i-1]) * float64(s)
		}
	}
	return nodes, edges
}

// RandomSize returns the nodes and the expected edges of Random(n, 1, seed)
// (every node beyond the first level depends on 2 nodes on average), an
// upper bound for every grain.
func RandomSize(n int) (nodes, edges float64) { return float64(n), 2 * float64(n) }
