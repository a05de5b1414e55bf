package problem

import "github.com/dlsched/dlsched/topology"

// Kind is the topology of a problem (package topology's type).
type Kind = topology.Kind

// Order is the layer activation order of a tree (package topology's type).
type Order = topology.Order

// The topologies and orders, so that callers of this package need not
// import topology.
const (
	Star     = topology.Star
	Tree     = topology.Tree
	Binomial = topology.Binomial
	NLF      = topology.NLF
	LLF      = topology.LLF
)
