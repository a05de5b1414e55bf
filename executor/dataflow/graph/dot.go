package graph

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	gg "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	"gonum.org/v1/gonum/graph/encoding/dot"
	dotformat "gonum.org/v1/gonum/graph/formats/dot"
	"gonum.org/v1/gonum/graph/simple"
)

// dotNode receives a DOT node's name and attributes.
type dotNode struct {
	id      int64
	name    string
	time    float64
	hasTime bool
	err     error
}

func (n *dotNode) ID() int64 { return n.id }

// SetDOTID records the node's DOT name.
func (n *dotNode) SetDOTID(id string) { n.name = id }

// SetAttribute reads time= or size= (the compute cost).
func (n *dotNode) SetAttribute(a encoding.Attribute) error {
	if a.Key != "time" && a.Key != "size" {
		return nil
	}
	v, err := strconv.ParseFloat(a.Value, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return fmt.Errorf("node %s: %s=%q is not a time >= 0", n.name, a.Key, a.Value)
	}
	n.time, n.hasTime = v, true
	return nil
}

// dotBuilder is a directed graph whose nodes are dotNodes.
type dotBuilder struct{ *simple.DirectedGraph }

func (b dotBuilder) NewNode() gg.Node {
	return &dotNode{id: b.DirectedGraph.NewNode().ID()}
}

// SetEdge refuses a self-loop with the node's name (gonum's graph would
// panic, and its decoder report "panic setting edge"): the decoder turns
// the error value it panics with into Unmarshal's error.
func (b dotBuilder) SetEdge(e gg.Edge) {
	if e.From().ID() == e.To().ID() {
		panic(fmt.Errorf("self-loop on node %s: a node that depends on itself needs a loop (dlsched's JSON format)", e.From().(*dotNode).name))
	}
	b.DirectedGraph.SetEdge(e)
}

// ReadDOT reads a directed Graphviz DOT graph (gonum's DOT decoder): every
// node becomes an op node whose time is its time or size attribute
// (default 1), numbered in the order of its name (numerically when all
// names are numbers); edges are forward edges. An undirected graph is
// refused (its edges say nothing of which node feeds which), and so is a
// self-loop.
func ReadDOT(data []byte) (*Graph, error) {
	file, err := dotformat.ParseBytes(data)
	if err != nil {
		return nil, fmt.Errorf("graph: DOT: %w", err)
	}
	if len(file.Graphs) != 1 {
		return nil, fmt.Errorf("graph: DOT: %d graphs in the file, want one", len(file.Graphs))
	}
	if !file.Graphs[0].Directed {
		return nil, fmt.Errorf("graph: DOT: an undirected graph (graph { a -- b }); a dataflow graph needs directed edges: digraph { a -> b }")
	}
	b := dotBuilder{simple.NewDirectedGraph()}
	if err := dot.Unmarshal(data, b); err != nil {
		return nil, fmt.Errorf("graph: DOT: %w", err)
	}
	var nodes []*dotNode
	it := b.Nodes()
	for it.Next() {
		nodes = append(nodes, it.Node().(*dotNode))
		if len(nodes) > MaxNodes {
			return nil, fmt.Errorf("graph: DOT: more than %d nodes", MaxNodes)
		}
	}
	numeric := true
	for _, n := range nodes {
		if _, err := strconv.Atoi(n.name); err != nil {
			numeric = false
		}
	}
	sort.Slice(nodes, func(i, j int) bool {
		if numeric {
			a, _ := strconv.Atoi(nodes[i].name)
			c, _ := strconv.Atoi(nodes[j].name)
			return a < c
		}
		return nodes[i].name < nodes[j].name
	})
	index := map[int64]int{}
	g := &Graph{}
	for i, n := range nodes {
		index[n.id] = i
		t := 1.0
		if n.hasTime {
			t = n.time
		}
		g.Nodes = append(g.Nodes, Node{ID: i, Kind: Op, Time: t})
	}
	for _, n := range nodes {
		to := b.From(n.id)
		var succ []int
		for to.Next() {
			succ = append(succ, index[to.Node().ID()])
		}
		sort.Ints(succ)
		for _, s := range succ {
			g.Edges = append(g.Edges, Edge{From: index[n.id], To: s})
		}
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("graph: DOT: %w", err)
	}
	return g, nil
}
