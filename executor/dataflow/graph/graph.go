// Package graph holds the dataflow graphs the dataflow machine executes: a
// documented JSON format (docs/dataflow.md), readers for the Standard Task
// Graph Set's text format (.stg), Graphviz DOT and WfCommons workflow
// instances (WfFormat), validation with errors that name the node,
// construct or task, levels and the critical path, generators of levelled
// random programs, and the memory reading a file is estimated to need.
package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
)

// Kind is what a node does.
type Kind string

// The node kinds: an ordinary operation, a conditional's decision and
// merge (a merge fires on one operand), and I-structure read and write.
const (
	Op       Kind = "op"
	Decision Kind = "decision"
	Merge    Kind = "merge"
	Read     Kind = "read"
	Write    Kind = "write"
)

// Node is one node of the graph.
type Node struct {
	ID   int     `json:"id"`
	Kind Kind    `json:"kind,omitempty"`
	Time float64 `json:"time"`
	// Loc is the I-structure location of a read or write: a name or an
	// address (the JSON format takes a string or an integer).
	Loc string `json:"loc,omitempty"`
	// Data is the size of the result the node broadcasts (bytes; 0: not
	// modelled), charged on the result bus at the machine's rate.
	Data float64 `json:"data,omitempty"`
}

// Edge carries a value from From to To; a Back edge carries it to the
// next iteration of the loop that contains both ends.
type Edge struct {
	From, To int
	Back     bool
}

// MarshalJSON writes [u, v] or [u, v, {"back": true}].
func (e Edge) MarshalJSON() ([]byte, error) {
	if e.Back {
		return json.Marshal([]any{e.From, e.To, map[string]bool{"back": true}})
	}
	return json.Marshal([2]int{e.From, e.To})
}

// UnmarshalJSON reads [u, v] or [u, v, {"back": true}].
func (e *Edge) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) < 2 || len(raw) > 3 {
		return fmt.Errorf("edge %s: want [u, v] or [u, v, {\"back\": true}]", truncate(b))
	}
	if err := json.Unmarshal(raw[0], &e.From); err != nil {
		return fmt.Errorf("edge %s: source is not an integer", truncate(b))
	}
	if err := json.Unmarshal(raw[1], &e.To); err != nil {
		return fmt.Errorf("edge %s: target is not an integer", truncate(b))
	}
	e.Back = false
	if len(raw) == 3 {
		var opt struct {
			Back bool `json:"back"`
		}
		if err := json.Unmarshal(raw[2], &opt); err != nil {
			return fmt.Errorf("edge %s: options must be {\"back\": true|false}", truncate(b))
		}
		e.Back = opt.Back
	}
	return nil
}

func truncate(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// Cond is a conditional: the decision node's result (Outcome, or one
// outcome per iteration of the loop around it in Outcomes) selects the
// Then or the Else branch; Merge lists the nodes that join the branches.
type Cond struct {
	Decision int    `json:"decision"`
	Then     []int  `json:"then"`
	Else     []int  `json:"else"`
	Merge    []int  `json:"merge"`
	Outcome  bool   `json:"outcome"`
	Outcomes []bool `json:"outcomes,omitempty"`
}

// OutcomeAt returns the decision's outcome in iteration it (of the
// innermost loop around the decision).
func (c *Cond) OutcomeAt(it int) bool {
	if len(c.Outcomes) == 0 {
		return c.Outcome
	}
	return c.Outcomes[it%len(c.Outcomes)]
}

// Loop is a loop: its body Nodes (nested loops included) run Iterations
// times; Control is the node whose result decides termination; Parent is
// the enclosing loop's ID, nil for an outermost loop.
type Loop struct {
	ID         int   `json:"id"`
	Nodes      []int `json:"nodes"`
	Iterations int   `json:"iterations"`
	Control    int   `json:"control"`
	Parent     *int  `json:"parent"`
}

// Graph is a dataflow graph. Node IDs are 0..len(Nodes)-1.
type Graph struct {
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
	Conds []Cond `json:"conds,omitempty"`
	Loops []Loop `json:"loops,omitempty"`
}

// MaxNodes bounds the graphs the readers and generators accept.
const MaxNodes = 2_000_000

// ReadJSON reads and validates a graph in the JSON format.
func ReadJSON(r io.Reader) (*Graph, error) {
	dec := json.NewDecoder(io.LimitReader(r, 1<<30))
	dec.DisallowUnknownFields()
	var g Graph
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("graph: JSON: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("graph: JSON: trailing data after the graph")
	}
	for i := range g.Nodes {
		if g.Nodes[i].Kind == "" {
			g.Nodes[i].Kind = Op
		}
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return &g, nil
}

// UnmarshalJSON defaults a missing node time to 1 and reads the location
// as a string or an integer address.
func (n *Node) UnmarshalJSON(b []byte) error {
	type plain Node
	aux := struct {
		plain
		Loc json.RawMessage `json:"loc"`
	}{plain: plain{Time: 1}}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&aux); err != nil {
		return err
	}
	*n = Node(aux.plain)
	loc, err := parseLoc(aux.Loc)
	if err != nil {
		return fmt.Errorf("node %d: %w", n.ID, err)
	}
	n.Loc = loc
	return nil
}

// parseLoc reads a location: a JSON string, or an integer (an address,
// written in decimal: 12, 12.0 and 1.2e1 are the same location).
func parseLoc(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var x float64
	if err := json.Unmarshal(raw, &x); err != nil || x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		return "", fmt.Errorf("loc %s: want a string or an integer address", truncate(raw))
	}
	return strconv.FormatInt(int64(x), 10), nil
}

// WriteJSON writes the graph in the JSON format.
func (g *Graph) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(g)
}

// Validate checks the graph: node IDs 0..n−1 in order, known kinds, times
// finite and >= 0, edges between existing nodes, forward edges acyclic (a
// cycle needs a back edge), back edges inside a loop, every loop with
// iterations >= 1 and a control node in its body, nested loops inside
// their parent, conditionals naming a decision node and existing branch
// nodes, reads and writes with a location, writes without successors.
func (g *Graph) Validate() error {
	n := len(g.Nodes)
	if n == 0 {
		return fmt.Errorf("graph: no nodes")
	}
	if n > MaxNodes {
		return fmt.Errorf("graph: %d nodes, more than %d", n, MaxNodes)
	}
	for i, nd := range g.Nodes {
		if nd.ID != i {
			return fmt.Errorf("graph: node %d has id %d, want ids 0..%d in order", i, nd.ID, n-1)
		}
		switch nd.Kind {
		case Op, Decision, Merge:
		case Read, Write:
			if nd.Loc == "" {
				return fmt.Errorf("graph: node %d: %s without a loc", i, nd.Kind)
			}
		default:
			return fmt.Errorf("graph: node %d: unknown kind %q, want op, decision, merge, read or write", i, nd.Kind)
		}
		if !(nd.Time >= 0) || math.IsInf(nd.Time, 0) {
			return fmt.Errorf("graph: node %d: time %g, want a finite time >= 0", i, nd.Time)
		}
		if !(nd.Data >= 0) || math.IsInf(nd.Data, 0) {
			return fmt.Errorf("graph: node %d: data %g, want a finite size >= 0", i, nd.Data)
		}
	}
	for _, e := range g.Edges {
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n {
			return fmt.Errorf("graph: edge [%d, %d]: unknown node (ids are 0..%d)", e.From, e.To, n-1)
		}
		if g.Nodes[e.From].Kind == Write && !e.Back {
			return fmt.Errorf("graph: node %d: a write has successors (edge to %d)", e.From, e.To)
		}
	}
	if _, err := g.forwardOrder(); err != nil {
		return err
	}
	if err := g.validateLoops(); err != nil {
		return err
	}
	return g.validateConds()
}

// CycleError is a cycle of forward edges: Nodes are the nodes of one
// strongly connected component, in increasing order.
type CycleError struct{ Nodes []int }

// Error implements error.
func (e *CycleError) Error() string {
	return fmt.Sprintf("graph: cycle without a back edge through nodes %v", e.Nodes)
}

// forwardOrder returns a topological order of the forward edges (Kahn's
// algorithm, sources in id order), or a *CycleError naming the nodes of
// one cycle.
func (g *Graph) forwardOrder() ([]int, error) {
	n := len(g.Nodes)
	indeg := make([]int, n)
	succ := make([][]int, n)
	for _, e := range g.Edges {
		if e.Back {
			continue
		}
		if e.From == e.To {
			return nil, fmt.Errorf("graph: node %d depends on itself without a back edge", e.From)
		}
		succ[e.From] = append(succ[e.From], e.To)
		indeg[e.To]++
	}
	order := make([]int, 0, n)
	for v := range indeg {
		if indeg[v] == 0 {
			order = append(order, v)
		}
	}
	for k := 0; k < len(order); k++ {
		for _, w := range succ[order[k]] {
			if indeg[w]--; indeg[w] == 0 {
				order = append(order, w)
			}
		}
	}
	if len(order) < n {
		return nil, &CycleError{Nodes: g.cycleAmong(indeg)}
	}
	return order, nil
}

// cycleAmong returns the nodes of one cycle among the nodes Kahn's
// algorithm could not order (indeg > 0), in increasing order: walking
// back along forward edges from such a node stays among them and must
// come back to a node already seen.
func (g *Graph) cycleAmong(indeg []int) []int {
	pred := make([]int, len(g.Nodes))
	for i := range pred {
		pred[i] = -1
	}
	for _, e := range g.Edges {
		if !e.Back && indeg[e.From] > 0 && indeg[e.To] > 0 {
			pred[e.To] = e.From
		}
	}
	v := 0
	for indeg[v] == 0 {
		v++
	}
	at := map[int]int{}
	var walk []int
	for {
		if k, ok := at[v]; ok {
			cyc := append([]int(nil), walk[k:]...)
			sort.Ints(cyc)
			return cyc
		}
		at[v] = len(walk)
		walk = append(walk, v)
		v = pred[v]
	}
}

func (g *Graph) validateLoops() error {
	n := len(g.Nodes)
	byID := map[int]int{}
	for k, l := range g.Loops {
		if _, dup := byID[l.ID]; dup {
			return fmt.Errorf("graph: loop %d defined twice", l.ID)
		}
		byID[l.ID] = k
	}
	for _, l := range g.Loops {
		if l.Iterations < 1 {
			return fmt.Errorf("graph: loop %d: iterations %d, want >= 1", l.ID, l.Iterations)
		}
		if len(l.Nodes) == 0 {
			return fmt.Errorf("graph: loop %d: empty body", l.ID)
		}
		in := map[int]bool{}
		for _, v := range l.Nodes {
			if v < 0 || v >= n {
				return fmt.Errorf("graph: loop %d: unknown node %d", l.ID, v)
			}
			in[v] = true
		}
		if !in[l.Control] {
			return fmt.Errorf("graph: loop %d: control node %d is not in its body (a loop needs a control node)", l.ID, l.Control)
		}
		if l.Parent != nil {
			k, ok := byID[*l.Parent]
			if !ok {
				return fmt.Errorf("graph: loop %d: unknown parent loop %d", l.ID, *l.Parent)
			}
			if *l.Parent == l.ID {
				return fmt.Errorf("graph: loop %d is its own parent", l.ID)
			}
			outer := map[int]bool{}
			for _, v := range g.Loops[k].Nodes {
				outer[v] = true
			}
			for _, v := range l.Nodes {
				if !outer[v] {
					return fmt.Errorf("graph: loop %d: node %d is not in the parent loop %d", l.ID, v, *l.Parent)
				}
			}
		}
	}
	// Every back edge lies inside a loop containing both ends.
	for _, e := range g.Edges {
		if !e.Back {
			continue
		}
		if g.innermostCommon(e.From, e.To) < 0 {
			return fmt.Errorf("graph: back edge [%d, %d] is not inside a loop containing both nodes", e.From, e.To)
		}
	}
	// Loops nest: two loops share nodes only if one is inside the other.
	for a := range g.Loops {
		for b := a + 1; b < len(g.Loops); b++ {
			if shares(g.Loops[a].Nodes, g.Loops[b].Nodes) && !g.inside(a, b) && !g.inside(b, a) {
				return fmt.Errorf("graph: loops %d and %d overlap without nesting (set parent)", g.Loops[a].ID, g.Loops[b].ID)
			}
		}
	}
	return nil
}

func shares(a, b []int) bool {
	in := map[int]bool{}
	for _, v := range a {
		in[v] = true
	}
	for _, v := range b {
		if in[v] {
			return true
		}
	}
	return false
}

// inside reports whether loop a is (transitively) nested in loop b.
func (g *Graph) inside(a, b int) bool {
	for k := 0; k <= len(g.Loops); k++ {
		p := g.Loops[a].Parent
		if p == nil {
			return false
		}
		for i := range g.Loops {
			if g.Loops[i].ID == *p {
				a = i
				break
			}
		}
		if a == b {
			return true
		}
	}
	return false
}

func (g *Graph) validateConds() error {
	n := len(g.Nodes)
	listed := map[int]bool{}
	for k, c := range g.Conds {
		if c.Decision < 0 || c.Decision >= n || g.Nodes[c.Decision].Kind != Decision {
			return fmt.Errorf("graph: conditional %d: node %d is not a decision node", k, c.Decision)
		}
		for _, part := range [][]int{c.Then, c.Else, c.Merge} {
			for _, v := range part {
				if v < 0 || v >= n {
					return fmt.Errorf("graph: conditional %d: unknown node %d", k, v)
				}
			}
		}
		if len(c.Merge) == 0 {
			return fmt.Errorf("graph: conditional %d: no merge node", k)
		}
		for _, v := range c.Merge {
			if g.Nodes[v].Kind != Merge {
				return fmt.Errorf("graph: conditional %d: node %d is listed as a merge but has kind %s", k, v, g.Nodes[v].Kind)
			}
			listed[v] = true
		}
		if err := g.validateBranches(k); err != nil {
			return err
		}
	}
	for v, nd := range g.Nodes {
		if nd.Kind == Merge && !listed[v] {
			return fmt.Errorf("graph: node %d: a merge that no conditional lists in its merge (a merge joins a conditional's branches)", v)
		}
	}
	return nil
}

// validateBranches checks conditional k's branches: disjoint, and every
// forward edge that leaves a branch goes to one of its merges (a value of
// one branch exists only when that branch is taken).
func (g *Graph) validateBranches(k int) error {
	c := &g.Conds[k]
	side := map[int]string{}
	for _, v := range c.Then {
		side[v] = "then"
	}
	for _, v := range c.Else {
		if side[v] == "then" {
			return fmt.Errorf("graph: conditional %d: node %d is in both branches", k, v)
		}
		side[v] = "else"
	}
	merge := map[int]bool{}
	for _, v := range c.Merge {
		merge[v] = true
		if side[v] != "" {
			return fmt.Errorf("graph: conditional %d: merge node %d is also in its %s branch", k, v, side[v])
		}
	}
	for _, e := range g.Edges {
		if s := side[e.From]; s != "" && !e.Back && side[e.To] != s && !merge[e.To] {
			return fmt.Errorf("graph: conditional %d: edge [%d, %d] leaves the %s branch to a node that is not its merge", k, e.From, e.To, s)
		}
	}
	return nil
}

// LoopsOf returns, for every node, the loops (indexes into g.Loops) that
// contain it, outermost first.
func (g *Graph) LoopsOf() [][]int {
	out := make([][]int, len(g.Nodes))
	depth := func(k int) int {
		d := 0
		for p := g.Loops[k].Parent; p != nil; d++ {
			found := false
			for i := range g.Loops {
				if g.Loops[i].ID == *p {
					p = g.Loops[i].Parent
					found = true
					break
				}
			}
			if !found {
				break
			}
		}
		return d
	}
	for k, l := range g.Loops {
		for _, v := range l.Nodes {
			out[v] = append(out[v], k)
		}
	}
	for v := range out {
		sort.SliceStable(out[v], func(a, b int) bool { return depth(out[v][a]) < depth(out[v][b]) })
	}
	return out
}

// innermostCommon returns the innermost loop (index) containing both u and
// v, or -1.
func (g *Graph) innermostCommon(u, v int) int {
	lo := g.LoopsOf()
	best := -1
	for _, a := range lo[u] {
		for _, b := range lo[v] {
			if a == b {
				best = a // outermost first: the last match is the innermost
			}
		}
	}
	return best
}

// Levels returns each node's level: the length of the longest chain of
// forward edges that ends at it (sources are level 0).
func (g *Graph) Levels() []int {
	order, err := g.forwardOrder()
	if err != nil {
		panic(err) // Validate first
	}
	preds := g.forwardPreds()
	lv := make([]int, len(g.Nodes))
	for _, v := range order {
		for _, u := range preds[v] {
			lv[v] = max(lv[v], lv[u]+1)
		}
	}
	return lv
}

func (g *Graph) forwardPreds() [][]int {
	preds := make([][]int, len(g.Nodes))
	for _, e := range g.Edges {
		if !e.Back {
			preds[e.To] = append(preds[e.To], e.From)
		}
	}
	return preds
}

// CriticalPath returns the longest sum of node times along forward edges
// (loops counted once): the ideal execution time with unlimited PEs and
// no delays, E_ideal.
func (g *Graph) CriticalPath() float64 {
	order, err := g.forwardOrder()
	if err != nil {
		panic(err)
	}
	preds := g.forwardPreds()
	fin := make([]float64, len(g.Nodes))
	best := 0.0
	for _, v := range order {
		st := 0.0
		for _, u := range preds[v] {
			st = math.Max(st, fin[u])
		}
		fin[v] = st + g.Nodes[v].Time
		best = math.Max(best, fin[v])
	}
	return best
}

// TotalWork is the sum of the node times (loops counted once).
func (g *Graph) TotalWork() float64 {
	s := 0.0
	for _, nd := range g.Nodes {
		s += nd.Time
	}
	return s
}

// Read costs, measured as peak memory over file size with the whole file
// in memory (docs/dataflow.md, Limits): the JSON formats about 9 times the
// file, the Standard Task Graph format 22, DOT (gonum's parser and graph)
// 40; each rounded up.
var readFactor = map[string]float64{".json": 10, ".stg": 25, ".dot": 45, ".gv": 45}

// ReadCost estimates the peak memory of reading a graph file of the given
// extension (".json", ".stg", ".dot", ".gv") and size, before it is read.
func ReadCost(ext string, size int64) float64 {
	f, ok := readFactor[ext]
	if !ok {
		f = 45
	}
	return f * float64(size)
}
