package topology

import "fmt"

// Node is one physical node of a topology. Node 0 is the originator.
type Node struct {
	// ID is the node's index in Graph.Nodes.
	ID int
	// Layer is 0 for the originator; for a star every processor is in
	// layer 1.
	Layer int
	// Parent is the ID of the node that sends to this one, -1 for the
	// originator.
	Parent int
	// Children lists the IDs of the nodes this one sends to. For an
	// ordinary tree children[q] hangs on port q. For a binomial tree the
	// children are grouped by layer: ChildrenByLayer[l] are the p children
	// in layer l, child q of each group on port q.
	Children []int
	// ChildrenByLayer maps a layer to the p children there (binomial
	// trees only).
	ChildrenByLayer map[int][]int
}

// Graph is the explicit node structure of a topology.
type Graph struct {
	Kind  Kind
	P, H  int
	Nodes []Node
	// ByLayer lists node IDs per layer; ByLayer[0] = [0].
	ByLayer [][]int
}

// MaxNodes bounds the size of graphs Build will construct.
const MaxNodes = 5_000_000

// Build constructs the explicit graph: a star with m processors, or a tree
// of out-degree p and height h.
func Build(k Kind, m, p, h int) (*Graph, error) {
	g := &Graph{Kind: k, P: p, H: h}
	switch k {
	case Star:
		if m < 1 {
			return nil, fmt.Errorf("topology: star needs m >= 1, got %d", m)
		}
		if m+1 > MaxNodes {
			return nil, fmt.Errorf("topology: star m=%d has %d nodes, more than %d", m, m+1, MaxNodes)
		}
		g.H = 1
		g.Nodes = make([]Node, m+1)
		g.Nodes[0] = Node{ID: 0, Parent: -1}
		g.ByLayer = [][]int{{0}, {}}
		for i := 1; i <= m; i++ {
			g.Nodes[i] = Node{ID: i, Layer: 1, Parent: 0}
			g.Nodes[0].Children = append(g.Nodes[0].Children, i)
			g.ByLayer[1] = append(g.ByLayer[1], i)
		}
		return g, nil
	case Tree, Binomial:
		if p < 1 || h < 1 {
			return nil, fmt.Errorf("topology: %s needs p >= 1 and h >= 1, got p=%d h=%d", k, p, h)
		}
		if n := TotalNodes(k, 0, p, h); n > MaxNodes {
			return nil, fmt.Errorf("topology: %s p=%d h=%d has %.0f nodes, more than %d", k, p, h, n, MaxNodes)
		}
	default:
		return nil, fmt.Errorf("topology: unknown kind %d", k)
	}
	g.Nodes = []Node{{ID: 0, Parent: -1}}
	g.ByLayer = [][]int{{0}}
	add := func(parent, layer int) int {
		id := len(g.Nodes)
		g.Nodes = append(g.Nodes, Node{ID: id, Layer: layer, Parent: parent})
		for len(g.ByLayer) <= layer {
			g.ByLayer = append(g.ByLayer, nil)
		}
		g.ByLayer[layer] = append(g.ByLayer[layer], id)
		return id
	}
	if k == Tree {
		for l := 1; l <= h; l++ {
			for _, par := range g.ByLayer[l-1] {
				for q := 0; q < p; q++ {
					c := add(par, l)
					g.Nodes[par].Children = append(g.Nodes[par].Children, c)
				}
			}
		}
		return g, nil
	}
	// Binomial: in step l every node of layers 0..l-1 activates p new
	// nodes in layer l (Section 2.3).
	for l := 1; l <= h; l++ {
		var senders []int
		for j := 0; j < l; j++ {
			senders = append(senders, g.ByLayer[j]...)
		}
		for _, par := range senders {
			for q := 0; q < p; q++ {
				c := add(par, l)
				n := &g.Nodes[par]
				n.Children = append(n.Children, c)
				if n.ChildrenByLayer == nil {
					n.ChildrenByLayer = map[int][]int{}
				}
				n.ChildrenByLayer[l] = append(n.ChildrenByLayer[l], c)
			}
		}
	}
	return g, nil
}
