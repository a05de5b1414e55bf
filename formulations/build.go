package formulations

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// Form selects how the LP is written.
type Form int

const (
	// FormCompact uses suffix-sum variables: O(1) terms per row.
	FormCompact Form = iota
	// FormPaper writes the paper's constraints with their explicit sums
	// Σ_{l≥k} α_il: O(n) terms per computing row. On the full n-stage
	// pattern (and without relay-only layers) the precedence rows are the
	// paper's printed families, repaired where the printed text is damaged
	// (docs/formulations.md); on a pruned pattern they are the Network's
	// generic arcs, for which the paper has no printed form.
	FormPaper
	// FormChain writes each destination's computing as a chain of
	// compute-start columns s_j (docs/formulations.md, the chain form):
	// s_j ≥ arrival of message j, s_next ≥ s_j + A·α_j, and Cmax ≥
	// s_last + A·α_last, so Cmax appears in one row per destination
	// instead of one per message. Same optimum as FormCompact.
	FormChain
)

// String returns "compact", "paper" or "chain".
func (f Form) String() string {
	switch f {
	case FormPaper:
		return "paper"
	case FormChain:
		return "chain"
	}
	return "compact"
}

// ParseForm parses "compact", "paper" or "chain".
func ParseForm(s string) (Form, error) {
	switch s {
	case "compact", "":
		return FormCompact, nil
	case "paper":
		return FormPaper, nil
	case "chain":
		return FormChain, nil
	}
	return 0, fmt.Errorf("unknown LP form %q (want compact, paper or chain)", s)
}

// Scale holds the units the LP is written in: loads in units of L0, times
// in units of T0. A coefficient C (time per load) becomes C·L0/T0, a
// startup S becomes S/T0, V becomes V/L0.
type Scale struct {
	L0, T0 float64
}

// NewScale picks units that keep the LP's numbers near 1: L0 = min(D, V)
// (V when D = ∞) and T0 = the trivial lower bound S + VA/P on Cmax, so the
// optimal scaled Cmax is at least 1.
func NewScale(p *problem.Problem) Scale {
	l0 := p.V
	if !math.IsInf(p.D, 1) && p.D < l0 {
		l0 = p.D
	}
	t0 := p.LowerBoundLB()
	if !(t0 > 0) || math.IsInf(t0, 0) {
		t0 = 1
	}
	return Scale{L0: l0, T0: t0}
}

// Layout tells where the LP's variables are, for decoding.
type Layout struct {
	Scale Scale
	Form  Form
	// Alpha[j] is the column of α of message j; Time[h] the column of the
	// start time of hop h; Cmax the column of Cmax.
	Alpha, Time []int
	Cmax        int
	// Beta[j] is the column of the suffix sum of message j (compact form),
	// −1 where there is none.
	Beta []int
	// Start[j] is the column of message j's compute start s_j and
	// ChainRow[j] the row from s_j to the next message's compute start,
	// or for a destination's last message the row to Cmax (chain form
	// only; nil otherwise). CompRow[j] is then the arrival row s_j ≥
	// arrival of j.
	Start, ChainRow []int
	// Arcs are the precedence arcs written as rows: the Network's arcs,
	// or in the paper form on a full pattern the paper's families (each
	// with its equation number in Arc.Eq). In[h] lists the arcs of Arcs
	// into hop h.
	Arcs []Arc
	In   [][]int
	// ArcRow[a] is the row of arc a of Arcs, CompRow[j] the computing row
	// of message j, SufRow[j] its suffix row (−1 if none), LoadRow the row
	// Σ DestSize·α = V.
	ArcRow, CompRow, SufRow []int
	LoadRow                 int
	// TimeCols lists every time column including Cmax, whose finite upper
	// bound certification may set to a known makespan.
	TimeCols []int
	// Exist[j] is the binary column of message j in a pattern MILP
	// (BuildPatternMILP); nil in an LP.
	Exist []int
	// FinRow[q] is the row Cmax ≥ end of hop Network.Final[q] (result
	// messages; results.go).
	FinRow []int
}

// SizeEstimate predicts the size of the LP before it is built.
type SizeEstimate struct {
	Vars, Rows, Nonzeros int64
	// Generated is true when the LP is one that the engine solves by
	// stage generation by default (GeneratedByDefault): the solver then
	// holds only a restricted LP and the full model lives in this process
	// alone.
	Generated bool
}

// GenerationMinMessages is the smallest pattern (in messages) whose LP
// the engine (solve/engine) solves by stage generation; smaller LPs are solved whole,
// which is as fast.
const GenerationMinMessages = 1000

// GeneratedByDefault reports whether the engine solves the LP of a
// pattern of msgs messages in form f by stage generation unless told not
// to: compact form, at least GenerationMinMessages messages, and a star or
// binomial tree (on ordinary trees the restricted LP keeps the whole
// network of hops and measured slower than the full LP; docs/formulations.md).
func GeneratedByDefault(kind topology.Kind, f Form, msgs int) bool {
	return f == FormCompact && kind != topology.Tree && msgs >= GenerationMinMessages
}

// Bytes estimates the peak memory the LP needs, in this process and in
// the solver, above the process's own: 500 bytes per nonzero, 300 when
// Generated. Measured with Clp on stars (m = 10, n = 300 to 3,000),
// ordinary trees (p = 2, h = 8, n = 100 to 1,000) and binomial trees
// (p = 2, h = 6, n = 300 to 3,000), solve and repair included, the peak was
// 440 to 550 bytes per nonzero (README, Reliability; cmd/dlsched
// TestMemoryEstimate); with stage generation 220 to 365 (stars m = 10,
// n = 1,000 and 10,000, binomial p = 2, h = 6, n = 1,000; since Build
// reserves the model's size at once, the star at n = 1,000 measured 220 to
// 265 where it had measured about 300).
func (e SizeEstimate) Bytes() int64 {
	per := int64(500)
	if e.Generated {
		per = 300
	}
	if e.Nonzeros > math.MaxInt64/per {
		return math.MaxInt64
	}
	return per * e.Nonzeros
}

// Estimate predicts the LP's size for the network without building it.
func (nw *Network) Estimate(f Form) SizeEstimate {
	na := float64(len(nw.Arcs))
	if f == FormPaper {
		if arcs, ok := nw.paperArcs(); ok {
			na = float64(len(arcs))
		}
	}
	perDest := make([]float64, 0, len(nw.DestMsgs))
	for _, msgs := range nw.DestMsgs {
		perDest = append(perDest, float64(len(msgs)))
	}
	e := estimate(float64(len(nw.Pattern)), float64(len(nw.Hops)), na, perDest, f)
	// Result messages: an arc out of one has a term per load of its
	// destination instead of one, and each final row two more.
	extra := 0
	for _, a := range nw.Arcs {
		if h := nw.Hops[a.From]; h.Total {
			extra += len(nw.DestMsgs[nw.Pattern[h.Msg].Dest]) - 1
		}
	}
	for _, h := range nw.Final {
		extra += 2 + len(nw.DestMsgs[nw.Pattern[nw.Hops[h].Msg].Dest])
	}
	e.Rows += int64(len(nw.Final))
	e.Nonzeros += int64(extra)
	e.Generated = GeneratedByDefault(nw.Prob.Kind, f, len(nw.Pattern)) && !nw.HasResults()
	return e
}

// estimate is the size of an LP with nm messages, nh hops, na precedence
// arcs and perDest[d] messages to each destination, in form f: a column
// per α, hop start and Cmax, a row per arc and per computing constraint
// and the load row; the compact form adds a suffix column and row per
// message, the paper form writes the suffix sums out (k(k+1)/2 nonzeros
// for k messages to a destination).
func estimate(nm, nh, na float64, perDest []float64, f Form) SizeEstimate {
	vars, rows, nz := nm+nh+1, na+nm+1, 3*na+nm
	if f == FormPaper {
		for _, k := range perDest {
			nz += 2*k + k*(k+1)/2
		}
	} else {
		vars += nm
		rows += nm
		nz += 7 * nm
	}
	return SizeEstimate{Vars: satInt(vars), Rows: satInt(rows), Nonzeros: satInt(nz)}
}

func (nw *Network) msgName(prefix string, j int) string {
	m := nw.Pattern[j]
	return prefix + "_" + strconv.Itoa(m.Dest) + "_" + strconv.Itoa(m.Stage)
}

func (nw *Network) hopName(h int) string {
	hop := nw.Hops[h]
	m := nw.Pattern[hop.Msg]
	s := "t_" + strconv.Itoa(m.Dest) + "_" + strconv.Itoa(m.Stage)
	if nw.Prob.Kind == topology.Tree {
		s += "_" + strconv.Itoa(hop.Level)
	}
	return s
}

// Build writes the LP of the network in the given form:
//
//	minimise Cmax subject to
//	  start(b) ≥ start(a) + Const_a + Coef_a·α      for every arc a → b
//	  start(last hop of j) + Const + Coef·α_j + A·Σ_{l≥j} α_l ≤ Cmax
//	  Σ_j DestSize·α_j = V,   0 ≤ α_j ≤ MaxLoad,   start ≥ 0
//
// which is LoadDirect (1)–(5) for a star, TreeNLF/LLF-1/2 for ordinary
// trees and BinomialTreeNLF/LLF for binomial trees (docs/formulations.md
// maps every arc family to the paper's numbered constraints).
//
// In FormPaper on a full pattern without relay-only layers, the arcs are
// the paper's printed families (paper.go), written as printed: every
// precedence row an inequality, no start time fixed, rows named after their
// equation ("eq7_12_15": constraint (7) from hop 12 to hop 15; "eq10_3_2":
// computing constraint (10) of layer 3, stage 2; "eq12": the load). These
// arcs differ from the Network's as sets but imply the same earliest
// start times (docs/formulations.md), so both forms have the same optimum.
// Otherwise the arcs are the Network's, with the equalities described
// below.
func (nw *Network) Build(f Form, sc Scale) (*lp.Model, *Layout) {
	return nw.build(f, sc, false, nil)
}

// BuildPatternMILP writes the compact LP of the network with one binary
// column per message (Layout.Exist): y_j = 1 if message j is sent. Its
// startup is paid only then — every hop duration S·y_j + C·α_j — and
// α_j ≤ MaxLoad·y_j. A message with y_j = 0 keeps its place in the
// precedence network as a zero-length phantom. For a star and a binomial
// tree (one chain of sends) and a 1-buffer ordinary tree, the phantom
// adds nothing that the pattern without it lacks (its arcs are implied by
// the chains through the messages before it; docs/formulations.md), so
// the MILP's optimum is the best makespan over all sub-patterns of the
// network's pattern. For a 2-buffer tree a phantom still holds a buffer
// and the MILP is only an upper bound on that optimum.
func (nw *Network) BuildPatternMILP(sc Scale) (*lp.Model, *Layout) {
	return nw.build(FormCompact, sc, true, nil)
}

// BuildRestricted writes the compact LP of the network restricted to the
// messages j with live[j]: the others keep their hops and arcs (a message
// without load still pays its startup, as in the full LP) but have no load
// column (α_j = 0), no suffix column and no computing row, except that the
// last message of a destination keeps its computing row when it is not
// live (start + Const ≤ Cmax). Every computing row left out is implied by
// the next message to the same destination, which crosses the same last
// link later (docs/formulations.md, stage generation), so the restricted
// LP's optimum is the full LP's optimum over loads that vanish outside
// live. Layout.Alpha[j] and Layout.CompRow[j] are −1 for the messages left
// out; Layout.Arcs, and so the arc rows, are those of the full compact
// LP in the same order.
//
// On a star and a binomial tree, whose hops form one chain (every hop
// starts when the one before it ends, an equality), the hops of the
// messages left out are contracted: their start times are those of the
// live hop before them plus constants, so they need no column and the
// arc rows between them vanish. Layout.Time[h] is then −1 for a hop
// without a column and Layout.ArcRow[a] −1 for an arc without a row;
// the arc into a live hop holds the whole contracted path. The duals of
// the full LP's arc rows follow from the computing rows' by flow balance
// (Layout.RepairDuals, step 4), so nothing is lost.
func (nw *Network) BuildRestricted(sc Scale, live []bool) (*lp.Model, *Layout) {
	if nw.IsChain() {
		return nw.buildChainRestricted(sc, live)
	}
	return nw.build(FormCompact, sc, false, live)
}

// IsChain reports whether the network's arcs are exactly hop h−1 → hop h
// for every h ≥ 1 (stars and binomial trees).
func (nw *Network) IsChain() bool {
	if len(nw.Arcs) != len(nw.Hops)-1 || len(nw.Hops) == 0 || nw.HasResults() {
		return false
	}
	for a, arc := range nw.Arcs {
		if arc.From != a || arc.To != a+1 {
			return false
		}
	}
	return true
}

// buildChain writes the computing rows of the chain form: for every
// destination with messages j_1, ..., j_k in arrival order
//
//	s_q − start(last hop of j_q) − Coef·α_q ≥ Const     (arrival; paper (3) with (2))
//	s_{q+1} − s_q − A·α_q ≥ 0                            (one chunk at a time)
//	Cmax − s_k − A·α_k ≥ 0                               (computing ends by Cmax)
//
// Summing the chain from q gives start + Const + Coef·α_q + A·Σ_{l≥q} α_l ≤
// Cmax, the compact form's computing row (docs/formulations.md).
func (nw *Network) buildChain(m *lp.Model, lay *Layout, sc Scale) {
	p := nw.Prob
	tscale := 1 / sc.T0
	lscale := sc.L0 / sc.T0
	lay.Start = make([]int, len(nw.Pattern))
	lay.ChainRow = make([]int, len(nw.Pattern))
	for j := range lay.Start {
		lay.Start[j], lay.ChainRow[j] = -1, -1
	}
	for _, d := range nw.Dests {
		for _, j := range nw.DestMsgs[d] {
			lay.Start[j] = m.AddVar(nw.msgName("s", j), 0, math.Inf(1), 0)
			lay.TimeCols = append(lay.TimeCols, lay.Start[j])
		}
	}
	for _, d := range nw.Dests {
		_, _, aRate := p.Params(d)
		msgs := nw.DestMsgs[d]
		for q, j := range msgs {
			hops := nw.MsgHops[j]
			last := nw.Hops[hops[len(hops)-1]]
			lay.CompRow[j] = m.AddRow(nw.msgName("arr", j), last.Const*tscale, math.Inf(1),
				[]int{lay.Start[j], lay.Time[hops[len(hops)-1]], lay.Alpha[j]}, []float64{1, -1, -last.Coef * lscale})
			if q+1 < len(msgs) {
				lay.ChainRow[j] = m.AddRow(nw.msgName("chain", j), 0, math.Inf(1),
					[]int{lay.Start[msgs[q+1]], lay.Start[j], lay.Alpha[j]}, []float64{1, -1, -aRate * lscale})
			} else {
				lay.ChainRow[j] = m.AddRow(nw.msgName("fin", j), 0, math.Inf(1),
					[]int{lay.target(nw, d), lay.Start[j], lay.Alpha[j]}, []float64{1, -1, -aRate * lscale})
			}
		}
	}
}

// Decode reads the loads (user units) out of an LP solution vector.
func (lay *Layout) Decode(x []float64) []float64 {
	out := make([]float64, len(lay.Alpha))
	for j, c := range lay.Alpha {
		if c >= 0 {
			out[j] = x[c] * lay.Scale.L0
		}
	}
	return out
}

// Point returns the LP column vector (in the LP's scaled units) that
// represents the timing t: loads, hop start times, Cmax and, in the compact
// form, the suffix sums. Evaluating the model's constraints at this point
// checks the schedule against the LP.
func (lay *Layout) Point(m *lp.Model, nw *Network, t *Timing) []float64 {
	x := make([]float64, m.NumVars())
	for j, c := range lay.Alpha {
		x[c] = t.Alpha[j] / lay.Scale.L0
	}
	for h, c := range lay.Time {
		x[c] = t.Start[h] / lay.Scale.T0
	}
	x[lay.Cmax] = t.Cmax / lay.Scale.T0
	for j, c := range lay.Start {
		if c >= 0 {
			x[c] = t.ComputeStart[j] / lay.Scale.T0
		}
	}
	for _, d := range nw.Dests {
		msgs := nw.DestMsgs[d]
		suffix := 0.0
		for q := len(msgs) - 1; q >= 0; q-- {
			j := msgs[q]
			suffix += t.Alpha[j]
			if c := lay.Beta[j]; c >= 0 {
				x[c] = suffix / lay.Scale.L0
			}
		}
	}
	return x
}
