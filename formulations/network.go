package formulations

import (
	"fmt"
	"sort"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// Msg is one message of a schedule: the load of one stage for one
// destination (star processor or tree layer).
type Msg struct {
	Stage, Dest int
}

// Pattern is the ordered list of messages the originator sends.
type Pattern []Msg

// Capacity returns the most load pattern pat can carry, each message at
// most its MaxLoad (the buffer D over the first hop's share). Its LP has
// a solution exactly when this reaches V: the start times and Cmax are
// free above.
func Capacity(p *problem.Problem, pat Pattern) float64 {
	c := 0.0
	for _, m := range pat {
		c += p.DestSize(m.Dest) * p.MaxLoad(m.Dest)
	}
	return c
}

// FullPattern returns n stages of messages to every destination in the
// problem's order: stage 1 to Dests()..., stage 2 ..., and so on.
func FullPattern(p *problem.Problem, n int) Pattern {
	dests := p.Dests()
	out := make(Pattern, 0, n*len(dests))
	for k := 1; k <= n; k++ {
		for _, d := range dests {
			out = append(out, Msg{Stage: k, Dest: d})
		}
	}
	return out
}

// IsFull reports whether pat is the full pattern of n stages.
func (pat Pattern) IsFull(p *problem.Problem, n int) bool {
	full := FullPattern(p, n)
	if len(full) != len(pat) {
		return false
	}
	for i := range full {
		if full[i] != pat[i] {
			return false
		}
	}
	return true
}

// Hop is one timed transfer of the Network. It lasts Const + Coef·α, where
// α is the load per destination processor of message Msg. For a binomial
// tree one Hop stands for the whole scatter of Steps synchronous steps
// (Section 3.3: Si + C(p+1)^(i−1)α).
type Hop struct {
	// Msg is the index of the message in the pattern; Level its hop index
	// (hop l goes from layer l to layer l+1).
	Msg, Level int
	// Const and Coef give the duration Const + Coef·α.
	Const, Coef float64
	// Steps is the number of binomial steps this hop stands for (0 for a
	// plain hop).
	Steps int
	// Total: the duration is Const + Coef·(the total load of the
	// destination of message Msg), not of Msg alone — a result message
	// (results.go). Such hops have Level −1 and are not in MsgHops.
	Total bool
}

// ArcKind says which rule of the physical model an arc encodes.
type ArcKind int

const (
	// ArcStoreForward: a node relays a message only after receiving it.
	ArcStoreForward ArcKind = iota
	// ArcLink: a link (or the originator's port) carries one message at a
	// time, in send order; also FIFO relaying at a node.
	ArcLink
	// ArcBuffer: a message may arrive only into a free buffer.
	ArcBuffer
)

// String names the rule.
func (k ArcKind) String() string {
	switch k {
	case ArcStoreForward:
		return "store-forward"
	case ArcLink:
		return "link"
	}
	return "buffer"
}

// Arc says hop To may start only when hop From has ended.
type Arc struct {
	From, To int
	Kind     ArcKind
	// Eq is the paper's equation number of the constraint family the arc
	// belongs to ("1", "6", "17", ...) for the arcs of the paper form
	// (see Build), empty for the Network's generic arcs.
	Eq string
}

// Network is the physical model of a problem and a message pattern as a
// precedence graph of hops (docs/semantics.md, docs/formulations.md). Hops
// are numbered in a topological order: every arc goes from a lower to a
// higher index.
type Network struct {
	Prob    *problem.Problem
	Pattern Pattern
	Hops    []Hop
	Arcs    []Arc
	// MsgHops[j] lists message j's hops in order; its last hop delivers it.
	MsgHops [][]int
	// DestMsgs maps a destination to its messages in arrival order.
	DestMsgs map[int][]int
	// Dests lists the destinations that receive at least one message, in
	// increasing order.
	Dests []int
	// In[h] lists the arcs into hop h.
	In [][]int
	// ResultHop[d] is the hop of destination d's result message (stars
	// with Problem.ResultRatio > 0; nil otherwise): it starts no earlier
	// than d's computing has ended, so d's computing rows end at its start
	// instead of at Cmax. Final lists the hops whose end bounds Cmax (the
	// last result message). Result hops come after every other hop.
	ResultHop map[int]int
	Final     []int
}

// Duration returns the length of hop h for load alpha (the load of its
// message, or for a result message the total load of its destination:
// HopLoad).
func (nw *Network) Duration(h int, alpha float64) float64 {
	return nw.Hops[h].Const + nw.Hops[h].Coef*alpha
}

// NewNetwork derives the precedence graph of the physical model for the
// problem and pattern. It checks that every destination of the pattern is
// valid.
func NewNetwork(p *problem.Problem, pat Pattern) (*Network, error) {
	nw := &Network{Prob: p, Pattern: pat, MsgHops: make([][]int, len(pat)), DestMsgs: map[int][]int{}}
	valid := map[int]bool{}
	for _, d := range p.Dests() {
		valid[d] = true
	}
	for j, m := range pat {
		if !valid[m.Dest] {
			return nil, fmt.Errorf("formulations: message %d: destination %d is not a computing destination", j+1, m.Dest)
		}
		if len(nw.DestMsgs[m.Dest]) == 0 {
			nw.Dests = append(nw.Dests, m.Dest)
		}
		nw.DestMsgs[m.Dest] = append(nw.DestMsgs[m.Dest], j)
	}
	sort.Ints(nw.Dests)
	switch p.Kind {
	case topology.Star:
		nw.buildStar()
		if nw.resultsOn() && len(pat) > 0 {
			nw.addResults()
		}
	case topology.Tree:
		nw.buildTree()
	case topology.Binomial:
		nw.buildBinomial()
	}
	nw.index()
	return nw, nil
}

// index fills In from Arcs.
func (nw *Network) index() {
	nw.In = make([][]int, len(nw.Hops))
	for a, arc := range nw.Arcs {
		nw.In[arc.To] = append(nw.In[arc.To], a)
	}
}

func (nw *Network) addHop(h Hop) int {
	nw.Hops = append(nw.Hops, h)
	id := len(nw.Hops) - 1
	nw.MsgHops[h.Msg] = append(nw.MsgHops[h.Msg], id)
	return id
}

func (nw *Network) arc(from, to int, k ArcKind) {
	if from >= 0 {
		nw.Arcs = append(nw.Arcs, Arc{From: from, To: to, Kind: k})
	}
}

// buildStar: the originator's single port sends the messages one after
// another (constraints (1) and (2)).
func (nw *Network) buildStar() {
	prev := -1
	for j, m := range nw.Pattern {
		s, c, _ := nw.Prob.Params(m.Dest)
		h := nw.addHop(Hop{Msg: j, Const: s, Coef: c})
		nw.arc(prev, h, ArcLink)
		prev = h
	}
}

// buildBinomial: one hop per scatter; the originator takes part in every
// step, so scatters follow each other ((28)/(29), (34)/(35)).
func (nw *Network) buildBinomial() {
	p := nw.Prob
	prev := -1
	for j, m := range nw.Pattern {
		i := m.Dest
		h := nw.addHop(Hop{Msg: j, Const: p.S * float64(i), Coef: p.C * topology.BinomialTransferLoad(p.P, i), Steps: i})
		nw.arc(prev, h, ArcLink)
		prev = h
	}
}

// buildTree: hop l of a message to layer i goes from layer l to l+1 and
// lasts S + C·p^(i−l−1)·α. Rules (docs/semantics.md): store and forward;
// one message per link in send order (which is also FIFO relaying); a node
// of layer r may start receiving its q-th message only when its (q−b)-th
// message (b = number of buffers) has left the buffer — been relayed
// completely, or arrived if it was the node's own load.
func (nw *Network) buildTree() {
	p := nw.Prob
	b := p.Buffers
	if b < 1 {
		b = 1
	}
	lastOnLink := make([]int, p.H)
	for l := range lastOnLink {
		lastOnLink[l] = -1
	}
	// received[r] lists the messages received by a node of layer r.
	received := make([][]int, p.H+1)
	for j, m := range nw.Pattern {
		i := m.Dest
		for l := 0; l < i; l++ {
			h := nw.addHop(Hop{Msg: j, Level: l, Const: p.S, Coef: p.C * topology.TreeHopLoad(p.P, i, l)})
			if l > 0 {
				nw.arc(nw.MsgHops[j][l-1], h, ArcStoreForward)
			}
			nw.arc(lastOnLink[l], h, ArcLink)
			lastOnLink[l] = h
			r := l + 1
			if q := len(received[r]) - b; q >= 0 {
				prev := received[r][q]
				nw.arc(nw.release(prev, r), h, ArcBuffer)
			}
			received[r] = append(received[r], j)
		}
	}
}

// release returns the hop whose end frees the buffer that message j took at
// a node of layer r: its relay from r (hop r) if it goes deeper, else its
// arrival (hop r−1).
func (nw *Network) release(j, r int) int {
	if nw.Pattern[j].Dest > r {
		return nw.MsgHops[j][r]
	}
	return nw.MsgHops[j][r-1]
}
