package formulations

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/problem"
)

// builder writes the LP of a Network in one of the forms (Build,
// BuildPatternMILP, BuildRestricted off a chain): columns first (loads,
// hop start times, Cmax, the pattern MILP's existence binaries, suffix
// sums), then the arc rows, the computing and suffix rows, and the load
// row, in that order — the order fixes the model's column and row
// indices.
type builder struct {
	nw      *Network
	p       *problem.Problem
	m       *lp.Model
	lay     *Layout
	f       Form
	exist   bool          // the pattern MILP: startups paid through y_j
	live    []bool        // restricted LP: the messages with a load column (nil: all)
	printed bool          // the paper form's printed families are the arcs
	tscale  float64       // a time in user units times tscale is scaled
	lscale  float64       // a rate (time per load) times lscale is scaled
	msgs    map[int][]int // per destination its messages with a load column
	cols    []int         // row buffer
	vals    []float64     // row buffer
}

func (nw *Network) build(f Form, sc Scale, exist bool, live []bool) (*lp.Model, *Layout) {
	b := nw.newBuilder(f, sc, exist, live)
	b.loadColumns()
	b.timeColumns()
	if exist {
		b.existence()
	}
	b.suffixColumns()
	b.arcRows()
	compDests := nw.Dests
	if f == FormChain {
		nw.buildChain(b.m, b.lay, sc)
		compDests = nil // the chain form has no computing rows of the other forms
	}
	for _, d := range compDests {
		b.computing(d)
	}
	b.loadRow()
	if len(nw.Final) > 0 {
		b.finalRows()
	}
	return b.m, b.lay
}

// newBuilder starts the model of nw in form f: its name, room for the
// whole compact model at once, the layout and which arcs it writes.
func (nw *Network) newBuilder(f Form, sc Scale, exist bool, live []bool) *builder {
	p := nw.Prob
	m := lp.New(fmt.Sprintf("dlsched_%s_%s", p.Kind, f), lp.Minimize)
	if f == FormCompact && live == nil {
		// Room for the whole model at once: the estimate bounds the
		// compact model (TestEstimateFullMatchesNetwork); a pattern
		// MILP's binary columns and rows just grow past it.
		e := nw.Estimate(f)
		m.Grow(int(e.Vars), int(e.Rows), int(e.Nonzeros))
	}
	lay := &Layout{Scale: sc, Form: f, Alpha: make([]int, len(nw.Pattern)), Time: make([]int, len(nw.Hops))}
	lay.Arcs, lay.In = nw.Arcs, nw.In
	b := &builder{nw: nw, p: p, m: m, lay: lay, f: f, exist: exist, live: live,
		tscale: 1 / sc.T0, lscale: sc.L0 / sc.T0, cols: make([]int, 0, 8), vals: make([]float64, 0, 8)}
	if f == FormPaper {
		if arcs, ok := nw.paperArcs(); ok {
			lay.Arcs, lay.In, b.printed = arcs, inArcs(len(nw.Hops), arcs), true
		}
	}
	return b
}

// isLive reports whether message j has a load column.
func (b *builder) isLive(j int) bool { return b.live == nil || b.live[j] }

// loadColumns adds α_j in [0, MaxLoad] for every live message.
func (b *builder) loadColumns() {
	for j, msg := range b.nw.Pattern {
		b.lay.Alpha[j] = -1
		if b.isLive(j) {
			b.lay.Alpha[j] = b.m.AddVar(b.nw.msgName("a", j), 0, b.p.MaxLoad(msg.Dest)/b.lay.Scale.L0, 0)
		}
	}
}

// timeColumns adds every hop's start time and Cmax, the objective.
func (b *builder) timeColumns() {
	lay := b.lay
	for h := range b.nw.Hops {
		lay.Time[h] = b.m.AddVar(b.nw.hopName(h), 0, math.Inf(1), 0)
	}
	lay.Cmax = b.m.AddVar("cmax", 0, math.Inf(1), 1)
	lay.TimeCols = append(append([]int(nil), lay.Time...), lay.Cmax)
}

// existence adds the pattern MILP's binary y_j of every message and its
// row α_j ≤ MaxLoad·y_j.
func (b *builder) existence() {
	lay := b.lay
	lay.Exist = make([]int, len(b.nw.Pattern))
	for j, msg := range b.nw.Pattern {
		lay.Exist[j] = b.m.AddVar(b.nw.msgName("y", j), 0, 1, 0)
		maxLoad := b.p.MaxLoad(msg.Dest) / lay.Scale.L0
		b.m.AddRow(b.nw.msgName("exist", j), math.Inf(-1), 0, []int{lay.Alpha[j], lay.Exist[j]}, []float64{1, -maxLoad})
	}
}

// suffixColumns adds the suffix sums β_j = α_j + β_next of the compact
// form, over the live messages of each destination; the last one uses α
// itself.
func (b *builder) suffixColumns() {
	nw := b.nw
	beta := make([]int, len(nw.Pattern))
	for j := range beta {
		beta[j] = -1
	}
	b.lay.Beta = beta
	b.msgs = nw.DestMsgs
	if b.live != nil {
		b.msgs = make(map[int][]int, len(nw.DestMsgs))
		for _, d := range nw.Dests {
			for _, j := range nw.DestMsgs[d] {
				if b.live[j] {
					b.msgs[d] = append(b.msgs[d], j)
				}
			}
		}
	}
	if b.f != FormCompact {
		return
	}
	for _, d := range nw.Dests {
		msgs := b.msgs[d]
		for q := 0; q < len(msgs)-1; q++ {
			j := msgs[q]
			beta[j] = b.m.AddVar(nw.msgName("b", j), 0, b.p.V/b.p.DestSize(d)/b.lay.Scale.L0, 0)
		}
	}
}

// arcRows adds one row per precedence arc: start(to) ≥ start(from) +
// Const + Coef·α. A hop with no arc into it starts at time 0 and a hop
// with a single arc starts when that arc's hop ends: waiting never helps,
// because every rule of the model is a "not before" rule, so these
// equalities keep an optimal solution while letting presolve remove the
// variable. The printed families of the paper form are written as printed
// (inequalities only).
func (b *builder) arcRows() {
	lay, nw := b.lay, b.nw
	for h, in := range lay.In {
		if len(in) == 0 && !b.printed && nw.waiter(h) == 0 {
			b.m.ColUpper[lay.Time[h]] = 0
		}
	}
	lay.ArcRow = make([]int, len(lay.Arcs))
	lay.CompRow = make([]int, len(nw.Pattern))
	lay.SufRow = make([]int, len(nw.Pattern))
	for j := range lay.SufRow {
		lay.SufRow[j], lay.CompRow[j] = -1, -1
	}
	for ai, a := range lay.Arcs {
		from := nw.Hops[a.From]
		b.cols = append(b.cols[:0], lay.Time[a.To], lay.Time[a.From])
		b.vals = append(b.vals[:0], 1, -1)
		b.loadTerms(a.From, -from.Coef*b.lscale)
		lo := from.Const * b.tscale
		if b.exist && !from.Total {
			// The startup moves to the existence column.
			b.cols = append(b.cols, lay.Exist[from.Msg])
			b.vals = append(b.vals, -lo)
			lo = 0
		}
		up := math.Inf(1)
		if len(lay.In[a.To]) == 1 && !b.printed && nw.waiter(a.To) == 0 {
			// The hop's one arc decides its start (a result message also
			// waits for its destination's computing: an inequality).
			up = lo
		}
		prefix := a.Kind.String()
		if a.Eq != "" {
			prefix = "eq" + a.Eq
		}
		name := prefix + "_" + strconv.Itoa(a.From) + "_" + strconv.Itoa(a.To)
		lay.ArcRow[ai] = b.m.AddRow(name, lo, up, b.cols, b.vals)
	}
}

// computing adds the computing rows of destination d — start of the last
// hop + Const + Coef·α_j + A·Σ_{l≥j} α_l ≤ Cmax, the sum written out in
// the paper form, as β_j in the compact form — and its suffix rows β_j =
// α_j + β_next. A restricted LP whose destination's last message is not
// live keeps that message's row without load.
func (b *builder) computing(d int) {
	lay, nw := b.lay, b.nw
	if all := nw.DestMsgs[d]; b.live != nil && !b.live[all[len(all)-1]] {
		// The destination's last message is not live: its computing row
		// without load, start + Const ≤ Cmax, which no later message
		// implies.
		j := all[len(all)-1]
		hops := nw.MsgHops[j]
		last := nw.Hops[hops[len(hops)-1]]
		lay.CompRow[j] = b.m.AddRow(nw.msgName("comp", j), last.Const*b.tscale, math.Inf(1),
			[]int{lay.target(nw, d), lay.Time[hops[len(hops)-1]]}, []float64{1, -1})
	}
	msgs := b.msgs[d]
	for q, j := range msgs {
		lay.CompRow[j] = b.computingRow(d, msgs, q)
		if beta := lay.Beta; beta[j] >= 0 {
			next := msgs[q+1]
			nb := beta[next]
			if nb < 0 {
				nb = lay.Alpha[next]
			}
			b.cols = append(b.cols[:0], beta[j], lay.Alpha[j], nb)
			b.vals = append(b.vals[:0], 1, -1, -1)
			lay.SufRow[j] = b.m.AddRow(nw.msgName("suf", j), 0, 0, b.cols, b.vals)
		}
	}
}

// computingRow adds the computing row of message msgs[q] of destination d
// (paper (3), (10), (30) and their kin) and returns its index.
func (b *builder) computingRow(d int, msgs []int, q int) int {
	lay, nw := b.lay, b.nw
	_, _, aRate := b.p.Params(d)
	j := msgs[q]
	hops := nw.MsgHops[j]
	last := nw.Hops[hops[len(hops)-1]]
	b.cols = append(b.cols[:0], lay.target(nw, d), lay.Time[hops[len(hops)-1]], lay.Alpha[j])
	b.vals = append(b.vals[:0], 1, -1, -last.Coef*b.lscale)
	switch {
	case b.f == FormPaper:
		for _, l := range msgs[q:] {
			b.cols = append(b.cols, lay.Alpha[l])
			b.vals = append(b.vals, -aRate*b.lscale)
		}
	case lay.Beta[j] >= 0:
		b.cols = append(b.cols, lay.Beta[j])
		b.vals = append(b.vals, -aRate*b.lscale)
	default:
		b.cols = append(b.cols, lay.Alpha[j])
		b.vals = append(b.vals, -aRate*b.lscale)
	}
	name := nw.msgName("comp", j)
	if b.f == FormPaper {
		compEq, _ := paperEq(b.p.Kind)
		name = nw.msgName("eq"+compEq, j)
	}
	lo := last.Const * b.tscale
	if b.exist {
		b.cols = append(b.cols, lay.Exist[j])
		b.vals = append(b.vals, -lo)
		lo = 0
	}
	return b.m.AddRow(name, lo, math.Inf(1), b.cols, b.vals)
}

// loadRow adds Σ DestSize·α = V over the load columns (paper (5), (12),
// ...: the printed equation's name in the paper form).
func (b *builder) loadRow() {
	b.cols, b.vals = b.cols[:0], b.vals[:0]
	for j, msg := range b.nw.Pattern {
		if b.lay.Alpha[j] >= 0 {
			b.cols = append(b.cols, b.lay.Alpha[j])
			b.vals = append(b.vals, b.p.DestSize(msg.Dest))
		}
	}
	loadName := "load"
	if b.f == FormPaper {
		_, loadEq := paperEq(b.p.Kind)
		loadName = "eq" + loadEq
	}
	v := b.p.V / b.lay.Scale.L0
	b.lay.LoadRow = b.m.AddRow(loadName, v, v, b.cols, b.vals)
}

// buildChainRestricted is BuildRestricted for a chain network: every
// message has one hop (hop j is message j's), and the hops of the messages
// left out are contracted into the arc before the next live hop.
func (nw *Network) buildChainRestricted(sc Scale, live []bool) (*lp.Model, *Layout) {
	p := nw.Prob
	n := len(nw.Pattern)
	lay := &Layout{Scale: sc, Form: FormCompact, Alpha: make([]int, n), Time: make([]int, len(nw.Hops)),
		Beta: make([]int, n), CompRow: make([]int, n), SufRow: make([]int, n),
		Arcs: nw.Arcs, In: nw.In, ArcRow: make([]int, len(nw.Arcs))}
	b := &builder{nw: nw, p: p, m: lp.New(fmt.Sprintf("dlsched_%s_restricted", p.Kind), lp.Minimize), lay: lay,
		f: FormCompact, live: live, tscale: 1 / sc.T0, lscale: sc.L0 / sc.T0}
	for j := range lay.Alpha {
		lay.Alpha[j], lay.Beta[j], lay.CompRow[j], lay.SufRow[j] = -1, -1, -1, -1
	}
	for a := range lay.ArcRow {
		lay.ArcRow[a] = -1
	}
	for h := range lay.Time {
		lay.Time[h] = -1
	}
	for j, msg := range nw.Pattern {
		if live[j] {
			lay.Alpha[j] = b.m.AddVar(nw.msgName("a", j), 0, p.MaxLoad(msg.Dest)/sc.L0, 0)
		}
	}
	b.liveTimes()
	b.paths()
	for _, d := range nw.Dests {
		b.liveComputing(d)
	}
	b.loadRow()
	return b.m, lay
}

// liveTimes adds the start times of the live hops of a chain — a live hop
// with no live hop before it starts at the sum of the startups before it —
// and Cmax.
func (b *builder) liveTimes() {
	lay := b.lay
	prefix := 0.0 // Σ Const of the hops since the last live hop (or the start)
	lastLive := -1
	for h, hop := range b.nw.Hops {
		if b.live[hop.Msg] {
			if lastLive < 0 {
				lay.Time[h] = b.m.AddVar(b.nw.hopName(h), prefix*b.tscale, prefix*b.tscale, 0)
			} else {
				lay.Time[h] = b.m.AddVar(b.nw.hopName(h), 0, math.Inf(1), 0)
			}
			lastLive, prefix = h, 0
		}
		prefix += hop.Const
	}
	lay.Cmax = b.m.AddVar("cmax", 0, math.Inf(1), 1)
	lay.TimeCols = []int{lay.Cmax}
	for _, c := range lay.Time {
		if c >= 0 {
			lay.TimeCols = append(lay.TimeCols, c)
		}
	}
}

// paths adds, along a chain, the contracted arc rows into the live hops
// (start(h) = start(g) + Coef_g·α_g + the startups between, g the last
// live hop before h) and the computing rows without load of the
// destinations' last messages that are not live (start + Const ≤ Cmax,
// the path written out).
func (b *builder) paths() {
	nw, lay := b.nw, b.lay
	prefix, lastLive := 0.0, -1
	// pathRow adds "lhs − t_g − Coef_g·α_g ≥ (or =) prefix" for the path
	// from the last live hop g; with no live hop before, lhs ≥ prefix.
	pathRow := func(name string, lhs int, eq bool) int {
		cols := []int{lhs}
		vals := []float64{1}
		if lastLive >= 0 {
			g := nw.Hops[lastLive]
			cols = append(cols, lay.Time[lastLive], lay.Alpha[g.Msg])
			vals = append(vals, -1, -g.Coef*b.lscale)
		}
		up := math.Inf(1)
		if eq {
			up = prefix * b.tscale
		}
		return b.m.AddRow(name, prefix*b.tscale, up, cols, vals)
	}
	lastOf := map[int]int{}
	for _, d := range nw.Dests {
		msgs := nw.DestMsgs[d]
		lastOf[msgs[len(msgs)-1]] = d
	}
	for h, hop := range nw.Hops {
		j := hop.Msg
		if b.live[j] {
			if lastLive >= 0 {
				lay.ArcRow[h-1] = pathRow(fmt.Sprintf("%s_%d_%d", nw.Arcs[h-1].Kind, lastLive, h), lay.Time[h], true)
			}
			lastLive, prefix = h, 0
		}
		prefix += hop.Const
		if _, ok := lastOf[j]; ok && !b.live[j] {
			lay.CompRow[j] = pathRow(nw.msgName("comp", j), lay.Cmax, false)
		}
	}
}

// liveComputing adds, on a chain, the suffix columns and the computing and
// suffix rows of destination d's live messages.
func (b *builder) liveComputing(d int) {
	nw, lay, m := b.nw, b.lay, b.m
	_, _, aRate := b.p.Params(d)
	var msgs []int
	for _, j := range nw.DestMsgs[d] {
		if b.live[j] {
			msgs = append(msgs, j)
		}
	}
	for q := 0; q < len(msgs)-1; q++ {
		lay.Beta[msgs[q]] = m.AddVar(nw.msgName("b", msgs[q]), 0, b.p.V/b.p.DestSize(d)/lay.Scale.L0, 0)
	}
	for q, j := range msgs {
		hop := nw.Hops[nw.MsgHops[j][0]]
		sum := lay.Alpha[j]
		if lay.Beta[j] >= 0 {
			sum = lay.Beta[j]
		}
		lay.CompRow[j] = m.AddRow(nw.msgName("comp", j), hop.Const*b.tscale, math.Inf(1),
			[]int{lay.Cmax, lay.Time[nw.MsgHops[j][0]], lay.Alpha[j], sum},
			[]float64{1, -1, -hop.Coef * b.lscale, -aRate * b.lscale})
		if lay.Beta[j] >= 0 {
			nb := lay.Beta[msgs[q+1]]
			if nb < 0 {
				nb = lay.Alpha[msgs[q+1]]
			}
			lay.SufRow[j] = m.AddRow(nw.msgName("suf", j), 0, 0, []int{lay.Beta[j], lay.Alpha[j], nb}, []float64{1, -1, -1})
		}
	}
}
