package formulations

import (
	"fmt"

	"github.com/dlsched/dlsched/topology"
)

// This file writes the precedence constraints of the paper's linear
// programs family by family, as printed in Sections 3.1–3.3 of Drozdowski &
// Wolniewicz (2004), with the damage of the printed text repaired by
// deriving each family from the physical model (docs/semantics.md). The
// derivations and every departure from the printed text are in
// docs/formulations.md ("Departures from the printed text").
//
// Notation of the comments: t_ikl is the start of hop l (from layer l to
// layer l+1) of the message of stage k to layer i; for a binomial tree t_ik0
// is the start of the whole scatter, for a star t_ik the start of the
// message to P_i. "a → b" means t_b ≥ t_a + duration(a), the form of every
// printed precedence constraint; duration(t_ikl) = S + C·p^(i−l−1)·α_ik.
//
// The families are written for the full n-stage pattern only, where the
// paper's indices (i, k, l) make sense. For a pruned pattern, and when some
// layers are relay-only (a dlsched extension the paper does not have),
// paperArcs reports false and Build uses the Network's generic arcs.

// paperGen collects the arcs of the paper's families.
type paperGen struct {
	nw   *Network
	msg  map[Msg]int
	arcs []Arc
}

// hop returns the hop of the message of stage k to destination i that
// leaves layer l (l = 0 for star messages and binomial scatters).
func (g *paperGen) hop(i, k, l int) int {
	j, ok := g.msg[Msg{Stage: k, Dest: i}]
	if !ok || l < 0 || l >= len(g.nw.MsgHops[j]) {
		// The ranges below are derived so that this cannot happen; a
		// violation is a programming error, caught by the tests.
		panic(fmt.Sprintf("formulations: paper form refers to a missing hop t_%d_%d_%d", i, k, l))
	}
	return g.nw.MsgHops[j][l]
}

// add appends the arc t_(i2,k2,l2) ≥ t_(i1,k1,l1) + duration of the first.
func (g *paperGen) add(eq string, kind ArcKind, i1, k1, l1, i2, k2, l2 int) {
	g.arcs = append(g.arcs, Arc{From: g.hop(i1, k1, l1), To: g.hop(i2, k2, l2), Kind: kind, Eq: eq})
}

// paperArcs returns the precedence arcs of the paper's printed constraint
// families for the network's problem, each labelled with its equation
// number (Arc.Eq): LoadDirect (1)–(2), TreeNLF-1 (6)–(9), TreeNLF-2
// (13)–(19), TreeLLF-1 (20)–(22), TreeLLF-2 (23)–(27), BinomialTreeNLF
// (28)–(29), BinomialTreeLLF (34)–(35). The computing, buffer and load
// constraints ((3)–(5), (10)–(12), (30)–(33)) are rows and bounds that Build
// writes itself. ok is false when the families do not apply: the pattern is
// not the full pattern of some n stages, or the problem has relay-only
// layers. Every arc goes from a lower to a higher hop index.
//
// The arcs differ from nw.Arcs as sets (the paper leaves out constraints
// that others imply, and words some rules through other hops), but every
// arc of one set is implied by a path of the other, so both give the same
// earliest start times for any loads (tested in paper_test.go).
func (nw *Network) paperArcs() ([]Arc, bool) {
	p := nw.Prob
	if len(p.Relay) > 0 || nw.HasResults() {
		return nil, false // no printed family covers them
	}
	dests := p.Dests()
	if len(dests) == 0 || len(nw.Pattern)%len(dests) != 0 {
		return nil, false
	}
	n := len(nw.Pattern) / len(dests)
	if n < 1 || !nw.Pattern.IsFull(p, n) {
		return nil, false
	}
	g := &paperGen{nw: nw, msg: make(map[Msg]int, len(nw.Pattern))}
	for j, m := range nw.Pattern {
		g.msg[m] = j
	}
	switch p.Kind {
	case topology.Star:
		g.star(p.M, n)
	case topology.Binomial:
		if p.Order == topology.LLF {
			g.binomialLLF(p.H, n)
		} else {
			g.binomialNLF(p.H, n)
		}
	case topology.Tree:
		switch {
		case p.Order == topology.LLF && p.Buffers == 2:
			g.treeLLF2(p.H, n)
		case p.Order == topology.LLF:
			g.treeLLF1(p.H, n)
		case p.Buffers == 2:
			g.treeNLF2(p.H, n)
		default:
			g.treeNLF1(p.H, n)
		}
	default:
		return nil, false
	}
	return g.arcs, true
}

// star writes LoadDirect (1)–(2) (Section 3.1): the originator's single
// port sends the messages one after another.
func (g *paperGen) star(m, n int) {
	for k := 1; k <= n; k++ {
		// (1) t_(i+1)k ≥ t_ik + Cα_ik + S, i = 1..m−1.
		for i := 1; i < m; i++ {
			g.add("1", ArcLink, i, k, 0, i+1, k, 0)
		}
		// (2) t_1(k+1) ≥ t_mk + Cα_mk + S, k = 1..n−1.
		if k < n {
			g.add("2", ArcLink, m, k, 0, 1, k+1, 0)
		}
	}
}

// storeForward writes the store-and-forward family (6) = (13) = (20) =
// (23): t_ik(l+1) ≥ t_ikl + Cp^(i−l−1)α_ik + S, i = 1..h, l = 0..i−2.
func (g *paperGen) storeForward(eq string, h, n int) {
	for k := 1; k <= n; k++ {
		for i := 1; i <= h; i++ {
			for l := 0; l <= i-2; l++ {
				g.add(eq, ArcStoreForward, i, k, l, i, k, l+1)
			}
		}
	}
}

// treeNLF1 writes TreeNLF-1 (6)–(9) (Section 3.2.1, 1-buffer, NLF).
func (g *paperGen) treeNLF1(h, n int) {
	g.storeForward("6", h, n)
	for k := 1; k <= n; k++ {
		// (7) t_(i+1)k(l−1) ≥ t_ikl + Cp^(i−l−1)α_ik + S, i = 1..h−1,
		// l = 1..i−1: the next message of the stage may not arrive at
		// layer l before this one has been relayed from it (1-buffer).
		for i := 1; i <= h-1; i++ {
			for l := 1; l <= i-1; l++ {
				g.add("7", ArcBuffer, i, k, l, i+1, k, l-1)
			}
		}
		if k < n {
			// (8) t_i(k+1)(i−1) ≥ t_hki + Cp^(h−i−1)α_hk + S, i = 1..h−1:
			// the first message of the next stage at layer i waits for
			// the relay of the stage's last message from layer i.
			for i := 1; i <= h-1; i++ {
				g.add("8", ArcBuffer, h, k, i, i, k+1, i-1)
			}
			// (8) at i = h, only needed for h = 1 (departure): layer h
			// frees its buffer when its own load arrives, t_h(k+1)(h−1) ≥
			// t_hk(h−1) + Cα_hk + S. For h ≥ 2 it is implied by
			// (6)–(9); for h = 1 the printed LP has no constraint at all
			// between the stages.
			if h == 1 {
				g.add("8", ArcLink, 1, k, 0, 1, k+1, 0)
			}
		}
		// (9) t_2k0 ≥ t_1k0 + Cα_1k + S: the message to layer 1 is not
		// relayed, so the message to layer 2 may follow it at once.
		if h >= 2 {
			g.add("9", ArcLink, 1, k, 0, 2, k, 0)
		}
	}
}

// treeNLF2 writes TreeNLF-2 (13)–(19) (Section 3.2.1, 2-buffer, NLF).
func (g *paperGen) treeNLF2(h, n int) {
	g.storeForward("13", h, n)
	for k := 1; k <= n; k++ {
		// (14) t_(i+1)kl ≥ t_ikl + Cp^(i−l−1)α_ik + S, i = 1..h−1: one
		// message at a time per link. Printed for l = 1..i−1; dlsched
		// uses l = 0..i−1 (departure): the originator's ports are links
		// too, and nothing else keeps the messages of one stage from
		// overlapping on them.
		for i := 1; i <= h-1; i++ {
			for l := 0; l <= i-1; l++ {
				g.add("14", ArcLink, i, k, l, i+1, k, l)
			}
		}
		// (15) t_(i+2)k(l−1) ≥ t_ikl + Cp^(i−l−1)α_ik + S, l = 1..h−2,
		// i = l+1..h−2: a node of layer l reuses the buffer of message i
		// for message i+2 once message i has been relayed.
		for l := 1; l <= h-2; l++ {
			for i := l + 1; i <= h-2; i++ {
				g.add("15", ArcBuffer, i, k, l, i+2, k, l-1)
			}
		}
		if k == n {
			continue
		}
		// (16) t_r(k+1)(r−1) ≥ t_(h−1)kr + Cp^(h−r−2)α_(h−1)k + S,
		// r = 1..h−2: the first message of stage k+1 at layer r takes
		// the buffer of message h−1 of stage k. Printed for r = 1 only
		// and with p^(h−2) (departure).
		for r := 1; r <= h-2; r++ {
			g.add("16", ArcBuffer, h-1, k, r, r, k+1, r-1)
		}
		// (17)/(18) t_(r+1)(k+1)(r−1) ≥ t_hkr + Cp^(h−r−1)α_hk + S,
		// r = 1..h−1: the second message of stage k+1 at layer r takes
		// the buffer of message h of stage k. Printed as (17) for r = 1
		// with p^(h−1), and (18) for r = 2 with damaged indices and
		// p^(h−2) (departure).
		for r := 1; r <= h-1; r++ {
			eq := "17"
			if r >= 2 {
				eq = "18"
			}
			g.add(eq, ArcBuffer, h, k, r, r+1, k+1, r-1)
		}
		// (19) t_i(k+1)(i−1) ≥ t_hk(i−1) + Cp^(h−i)α_hk + S, i = 1..h:
		// the link from layer i−1 carries stage k+1 after stage k.
		for i := 1; i <= h; i++ {
			g.add("19", ArcLink, h, k, i-1, i, k+1, i-1)
		}
	}
}

// treeLLF1 writes TreeLLF-1 (20)–(22) (Section 3.2.2, 1-buffer, LLF).
func (g *paperGen) treeLLF1(h, n int) {
	g.storeForward("20", h, n)
	for k := 1; k <= n; k++ {
		// (21) t_(i−1)k(l−1) ≥ t_ikl + Cp^(i−l−1)α_ik + S, i = 2..h,
		// l = 1..i−1: the next (shallower) message may not arrive at
		// layer l before this one has been relayed from it.
		for i := 2; i <= h; i++ {
			for l := 1; l <= i-1; l++ {
				g.add("21", ArcBuffer, i, k, l, i-1, k, l-1)
			}
		}
		// (22) t_h(k+1)i ≥ t_(i+1)ki + Cα_(i+1)k + S, i = 0..h−1: the
		// link from layer i carries stage k+1 after stage k (and layer
		// i+1 frees its buffer on the arrival of its own load).
		if k < n {
			for i := 0; i <= h-1; i++ {
				g.add("22", ArcLink, i+1, k, i, h, k+1, i)
			}
		}
	}
}

// treeLLF2 writes TreeLLF-2 (23)–(27) (Section 3.2.2, 2-buffer, LLF).
func (g *paperGen) treeLLF2(h, n int) {
	g.storeForward("23", h, n)
	for k := 1; k <= n; k++ {
		// (24) t_(i−1)kl ≥ t_ikl + Cp^(i−l−1)α_ik + S, i = 2..h: one
		// message at a time per link. Printed for l = 0..i−1; at
		// l = i−1 it names t_(i−1)k(i−1), a hop the message to layer i−1
		// does not have, so dlsched uses l = 0..i−2 (departure).
		for i := 2; i <= h; i++ {
			for l := 0; l <= i-2; l++ {
				g.add("24", ArcLink, i, k, l, i-1, k, l)
			}
		}
		// (25) t_(i−2)k(l−1) ≥ t_ikl + Cp^(i−l−1)α_ik + S, l = 1..h−2,
		// i = l+2..h: a node of layer l reuses the buffer of message i
		// for message i−2. Printed with α_hk (departure: the hop is
		// message i's, so its duration has α_ik).
		for l := 1; l <= h-2; l++ {
			for i := l + 2; i <= h; i++ {
				g.add("25", ArcBuffer, i, k, l, i-2, k, l-1)
			}
		}
		if k == n {
			continue
		}
		// (26) t_h(k+1)(r−1) ≥ t_(r+1)kr + Cα_(r+1)k + S, r = 1..h−1:
		// the first message of stage k+1 at layer r takes the buffer of
		// message r+1 of stage k. Printed for r = 1 only and with Cpα_2k
		// (departure).
		for r := 1; r <= h-1; r++ {
			g.add("26", ArcBuffer, r+1, k, r, h, k+1, r-1)
		}
		// (27) t_h(k+1)i ≥ t_(i+1)ki + Cα_(i+1)k + S: the link from layer
		// i carries stage k+1 after stage k. Printed for i = 1..h−1;
		// dlsched uses i = 0..h−1 (departure: the originator's ports).
		for i := 0; i <= h-1; i++ {
			g.add("27", ArcLink, i+1, k, i, h, k+1, i)
		}
	}
}

// binomialNLF writes BinomialTreeNLF (28)–(29) (Section 3.3.1): the
// originator takes part in every step of every scatter, so scatters follow
// each other.
func (g *paperGen) binomialNLF(h, n int) {
	for k := 1; k <= n; k++ {
		// (28) t_(i+1)k0 ≥ t_ik0 + C(p+1)^(i−1)α_ik + Si, i = 1..h−1.
		for i := 1; i <= h-1; i++ {
			g.add("28", ArcLink, i, k, 0, i+1, k, 0)
		}
		// (29) t_1(k+1)0 ≥ t_hk0 + C(p+1)^(h−1)α_hk + Sh.
		if k < n {
			g.add("29", ArcLink, h, k, 0, 1, k+1, 0)
		}
	}
}

// binomialLLF writes BinomialTreeLLF (34)–(35) (Section 3.3.2).
func (g *paperGen) binomialLLF(h, n int) {
	for k := 1; k <= n; k++ {
		// (34) t_(i−1)k0 ≥ t_ik0 + C(p+1)^(i−1)α_ik + Si, i = 2..h.
		for i := h; i >= 2; i-- {
			g.add("34", ArcLink, i, k, 0, i-1, k, 0)
		}
		// (35) t_h(k+1)0 ≥ t_1k0 + Cα_1k + S.
		if k < n {
			g.add("35", ArcLink, 1, k, 0, h, k+1, 0)
		}
	}
}

// paperEq returns the equation numbers of the computing rows and of the
// load row of the problem's paper LP: (3)/(5) for a star, (10)/(12) for an
// ordinary tree, (30)/(33) for a binomial tree.
func paperEq(k topology.Kind) (comp, load string) {
	switch k {
	case topology.Tree:
		return "10", "12"
	case topology.Binomial:
		return "30", "33"
	}
	return "3", "5"
}

// inArcs lists, for each of nh hops, the indices of the arcs into it.
func inArcs(nh int, arcs []Arc) [][]int {
	in := make([][]int, nh)
	for a, arc := range arcs {
		in[arc.To] = append(in[arc.To], a)
	}
	return in
}
