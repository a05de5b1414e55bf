package pfarm

import "github.com/dlsched/dlsched/topology"

// Spec is the farm topology of a Config: a chain, a k-ary tree or the BFS
// spanning tree of a mesh (package topology's FarmSpec).
type Spec = topology.FarmSpec

// CheckBFS checks the tie-break rule of a mesh's BFS spanning tree:
// first, last or random.
func CheckBFS(s string) error {
	_, err := topology.ParseBFSChoice(s)
	return err
}
