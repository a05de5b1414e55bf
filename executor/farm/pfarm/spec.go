package pfarm

import (
	"fmt"
	"strconv"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/topology"
)

// shape is the size of a farm tree, known from its topology.FarmSpec
// before the tree is built: levels[d] is the number of processors at
// distance d from the root (the same for every BFS tree of a mesh).
type shape struct {
	n      int
	levels []int
}

// checkSpec validates a farm topology with errors that name the fields
// of Config.Topology, and returns its shape; it allocates nothing in
// proportion to the tree but the list of level sizes.
func checkSpec(s topology.FarmSpec) (shape, error) {
	most := topology.MaxFarmNodes
	bad := func(field string, v int, want string) error {
		return platform.Bad(pkg, "Topology."+field, v, want)
	}
	switch s.Kind {
	case "chain":
		if s.N < 1 || s.N > most {
			return shape{}, bad("N", s.N, fmt.Sprintf("a number of processors from 1 to %d", most))
		}
		levels := make([]int, s.N)
		for i := range levels {
			levels[i] = 1
		}
		return shape{s.N, levels}, nil
	case "kary":
		return karyShape(s.K, s.Depth, bad)
	case "mesh":
		return meshShape(s)
	}
	return shape{}, platform.Bad(pkg, "Topology.Kind", strconv.Quote(s.Kind), "chain, kary or mesh")
}

// karyShape is the shape of the complete k-ary tree of depth levels.
func karyShape(k, depth int, bad func(string, int, string) error) (shape, error) {
	if k < 1 {
		return shape{}, bad("K", k, "an arity >= 1")
	}
	if depth < 1 {
		return shape{}, bad("Depth", depth, "a number of levels >= 1")
	}
	if topology.KAryNodes(k, depth) < 0 {
		deepest, n, size := 0, 0, 1 // the most levels that fit
		for size <= topology.MaxFarmNodes-n {
			n += size
			deepest++
			if size > topology.MaxFarmNodes/k {
				break
			}
			size *= k
		}
		return shape{}, bad("Depth", depth, fmt.Sprintf("at most %d levels for k = %d (at most %d processors)", deepest, k, topology.MaxFarmNodes))
	}
	levels := make([]int, depth)
	n := 0
	for d, size := 0, 1; d < depth; d, size = d+1, size*k {
		levels[d] = size
		n += size
	}
	return shape{n, levels}, nil
}

// meshShape is the shape of a BFS tree of the mesh rooted at (Row, Col):
// the processors at Manhattan distance d from the root.
func meshShape(s topology.FarmSpec) (shape, error) {
	most := topology.MaxFarmNodes
	switch {
	case s.Rows < 1 || s.Rows > most:
		return shape{}, platform.Bad(pkg, "Topology.Rows", s.Rows, fmt.Sprintf("1 to %d rows", most))
	case s.Cols < 1 || s.Cols > most || s.Rows*s.Cols > most:
		return shape{}, platform.Bad(pkg, "Topology.Cols", s.Cols, fmt.Sprintf("1 to %d columns (at most %d processors)", most/s.Rows, most))
	case s.Row < 0 || s.Row >= s.Rows || s.Col < 0 || s.Col >= s.Cols:
		return shape{}, platform.Bad(pkg, "Topology.Root", fmt.Sprintf("%d,%d", s.Row, s.Col),
			fmt.Sprintf("a processor of the %d×%d mesh: row 0..%d, column 0..%d", s.Rows, s.Cols, s.Rows-1, s.Cols-1))
	}
	if _, err := topology.ParseBFSChoice(s.BFS); err != nil {
		return shape{}, platform.Bad(pkg, "Topology.BFS", strconv.Quote(s.BFS), "first, last or random")
	}
	levels := make([]int, max(s.Row, s.Rows-1-s.Row)+max(s.Col, s.Cols-1-s.Col)+1)
	for r := 0; r < s.Rows; r++ {
		dr := abs(r - s.Row)
		for c := 0; c < s.Cols; c++ {
			levels[dr+abs(c-s.Col)]++
		}
	}
	return shape{s.Rows * s.Cols, levels}, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
