package topology

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/traverse"
)

// meshBFSGonum is MeshBFS as it was first written, on gonum's graph and
// breadth-first traversal: the reference the grid search must match.
func meshBFSGonum(rows, cols, r0, c0 int, choice BFSChoice, rng *rand.Rand) (*FarmTree, error) {
	if rows < 1 || cols < 1 || rows*cols > MaxFarmNodes || rows > MaxFarmNodes || cols > MaxFarmNodes {
		return nil, fmt.Errorf("topology: mesh %d×%d, want 1..%d processors", rows, cols, MaxFarmNodes)
	}
	if r0 < 0 || r0 >= rows || c0 < 0 || c0 >= cols {
		return nil, fmt.Errorf("topology: mesh root (%d,%d) outside the %d×%d mesh (rows 0..%d, columns 0..%d)", r0, c0, rows, cols, rows-1, cols-1)
	}
	if choice == BFSRandom && rng == nil {
		return nil, fmt.Errorf("topology: mesh: random BFS tree without a random source")
	}
	g := simple.NewUndirectedGraph()
	id := func(r, c int) int64 { return int64(r*cols + c) }
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			g.AddNode(simple.Node(id(r, c)))
		}
	}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if c+1 < cols {
				g.SetEdge(simple.Edge{F: simple.Node(id(r, c)), T: simple.Node(id(r, c+1))})
			}
			if r+1 < rows {
				g.SetEdge(simple.Edge{F: simple.Node(id(r, c)), T: simple.Node(id(r+1, c))})
			}
		}
	}
	// Breadth-first order and distances (gonum's traversal; neighbours
	// sorted by ID so that the order does not depend on map iteration).
	order := []int64{}
	dist := map[int64]int{}
	bf := traverse.BreadthFirst{Visit: func(n graph.Node) { order = append(order, n.ID()) }}
	bf.Walk(sortedGraph{g}, simple.Node(id(r0, c0)), func(n graph.Node, d int) bool {
		dist[n.ID()] = d
		return false
	})
	num := make(map[int64]int, len(order))
	for i, v := range order {
		num[v] = i
	}
	parent := make([]int, len(order))
	parent[0] = -1
	for i := 1; i < len(order); i++ {
		v := order[i]
		var cands []int // neighbours one step closer, by BFS number
		for _, u := range sortedNeighbours(g, v) {
			if dist[u] == dist[v]-1 {
				cands = append(cands, num[u])
			}
		}
		minIdx := cands[0]
		for _, c := range cands {
			minIdx = min(minIdx, c)
		}
		switch choice {
		case BFSFirst:
			parent[i] = minIdx // the earliest visited neighbour discovers v
		case BFSLast:
			p := cands[0]
			for _, c := range cands {
				p = max(p, c)
			}
			parent[i] = p
		case BFSRandom:
			parent[i] = cands[rng.IntN(len(cands))]
		}
	}
	name := fmt.Sprintf("BFS tree (%s) of the %d×%d mesh from (%d,%d)", choice, rows, cols, r0, c0)
	return fromParents(name, parent, 0), nil
}

// sortedGraph makes a traversal visit neighbours in increasing ID order.
type sortedGraph struct{ *simple.UndirectedGraph }

func (s sortedGraph) From(id int64) graph.Nodes {
	return iterator.NewOrderedNodes(nodesOf(sortedNeighbours(s.UndirectedGraph, id)))
}

func nodesOf(ids []int64) []graph.Node {
	out := make([]graph.Node, len(ids))
	for i, v := range ids {
		out[i] = simple.Node(v)
	}
	return out
}

func sortedNeighbours(g *simple.UndirectedGraph, id int64) []int64 {
	it := g.From(id)
	var out []int64
	for it.Next() {
		out = append(out, it.Node().ID())
	}
	for i := 1; i < len(out); i++ { // insertion sort: at most 4 neighbours
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// MeshBFS searches the grid directly; it builds the very trees (numbers,
// parents, names) that gonum's graph and traversal built, for every root
// of meshes up to 7×7 and random larger ones, each choice of tree, and
// the same random draws for BFSRandom.
func TestMeshBFSMatchesGonum(t *testing.T) {
	check := func(rows, cols, r0, c0 int, choice BFSChoice, seed uint64) {
		t.Helper()
		a, errA := MeshBFS(rows, cols, r0, c0, choice, rand.New(rand.NewPCG(seed, 1)))
		b, errB := meshBFSGonum(rows, cols, r0, c0, choice, rand.New(rand.NewPCG(seed, 1)))
		if fmt.Sprint(errA) != fmt.Sprint(errB) || errA == nil && (a.Name != b.Name || fmt.Sprint(a.Parent) != fmt.Sprint(b.Parent)) {
			t.Fatalf("%d×%d from (%d,%d), %s: grid %v %v, gonum %v %v", rows, cols, r0, c0, choice, a, errA, b, errB)
		}
	}
	for rows := 1; rows <= 7; rows++ {
		for cols := 1; cols <= 7; cols++ {
			for r0 := 0; r0 < rows; r0++ {
				for c0 := 0; c0 < cols; c0++ {
					for choice := BFSFirst; choice <= BFSRandom; choice++ {
						check(rows, cols, r0, c0, choice, uint64(rows*cols+r0))
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 30; k++ {
		rows, cols := 1+rng.IntN(40), 1+rng.IntN(40)
		check(rows, cols, rng.IntN(rows), rng.IntN(cols), BFSChoice(rng.IntN(3)), rng.Uint64())
	}
	check(3, 3, 3, 0, BFSFirst, 0) // outside: the same error
	check(0, 3, 0, 0, BFSFirst, 0)
}
