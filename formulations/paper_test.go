package formulations

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// variant is one of the paper's LPs (plus the heterogeneous star).
type variant struct {
	name    string
	kind    topology.Kind
	order   topology.Order
	buffers int
	hetero  bool
	// eqs are the equation numbers its precedence arcs may carry.
	eqs []string
}

var variants = []variant{
	{"star", topology.Star, 0, 0, false, []string{"1", "2"}},
	{"hetero-star", topology.Star, 0, 0, true, []string{"1", "2"}},
	{"TreeNLF-1", topology.Tree, topology.NLF, 1, false, []string{"6", "7", "8", "9"}},
	{"TreeNLF-2", topology.Tree, topology.NLF, 2, false, []string{"13", "14", "15", "16", "17", "18", "19"}},
	{"TreeLLF-1", topology.Tree, topology.LLF, 1, false, []string{"20", "21", "22"}},
	{"TreeLLF-2", topology.Tree, topology.LLF, 2, false, []string{"23", "24", "25", "26", "27"}},
	{"BinomialTreeNLF", topology.Binomial, topology.NLF, 1, false, []string{"28", "29"}},
	{"BinomialTreeLLF", topology.Binomial, topology.LLF, 1, false, []string{"34", "35"}},
}

// problem returns a random problem of the variant with the given shape
// (m for a star, p and h for trees); D is infinite, V is set by callers.
func (v variant) problem(r *rand.Rand, m, p, h int) *problem.Problem {
	pr := &problem.Problem{Kind: v.kind, Order: v.order, Buffers: v.buffers, M: m, P: p, H: h,
		S: math.Pow(10, -4+3*r.Float64()), C: math.Pow(10, -7+3*r.Float64()),
		A: math.Pow(10, -4+2*r.Float64()), D: math.Inf(1), V: 1}
	if v.kind != topology.Star {
		pr.M = 0
	} else {
		pr.P, pr.H = 0, 0
	}
	if v.hetero {
		for i := 0; i < m; i++ {
			pr.Procs = append(pr.Procs, schedule.Proc{S: math.Pow(10, -4+3*r.Float64()),
				C: math.Pow(10, -7+3*r.Float64()), A: math.Pow(10, -4+2*r.Float64())})
		}
	}
	return pr
}

// shapes lists the (m, p, h) shapes tested for a variant.
func (v variant) shapes() [][3]int {
	var out [][3]int
	if v.kind == topology.Star {
		for m := 1; m <= 6; m++ {
			out = append(out, [3]int{m, 0, 0})
		}
		return out
	}
	for p := 1; p <= 3; p++ {
		for h := 1; h <= 7; h++ {
			out = append(out, [3]int{0, p, h})
		}
	}
	return out
}

// reach returns, for every hop, the set of hops reachable from it along
// arcs (not including itself unless on a cycle).
func reach(nh int, arcs []Arc) [][]bool {
	out := make([][]int, nh)
	for _, a := range arcs {
		out[a.From] = append(out[a.From], a.To)
	}
	res := make([][]bool, nh)
	for s := 0; s < nh; s++ {
		seen := make([]bool, nh)
		stack := append([]int(nil), out[s]...)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[x] {
				continue
			}
			seen[x] = true
			stack = append(stack, out[x]...)
		}
		res[s] = seen
	}
	return res
}

// The paper's families (paper.go) and the Network's generic arcs are two
// derivations of the same physical model (docs/semantics.md): every arc of
// one set must be implied by a path of the other (a path a → … → b
// implies start(b) ≥ end(a), since durations are ≥ 0). Then the earliest
// start times, hence the LP with the loads fixed and the LP optimum, are
// the same in both forms. Checked for every variant, p = 1..3, h = 1..7,
// n = 1..4 (star: m = 1..6): 8 variants, 552 networks.
func TestPaperArcsEquivalentToNetwork(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	networks := 0
	for _, v := range variants {
		allowed := map[string]bool{}
		for _, e := range v.eqs {
			allowed[e] = true
		}
		used := map[string]int{}
		for _, sh := range v.shapes() {
			for n := 1; n <= 4; n++ {
				pr := v.problem(r, sh[0], sh[1], sh[2])
				nw, err := NewNetwork(pr, FullPattern(pr, n))
				if err != nil {
					t.Fatal(err)
				}
				paper, ok := nw.paperArcs()
				if !ok {
					t.Fatalf("%s m=%d p=%d h=%d n=%d: no paper arcs for a full pattern", v.name, sh[0], sh[1], sh[2], n)
				}
				networks++
				name := fmt.Sprintf("%s m=%d p=%d h=%d n=%d", v.name, sh[0], sh[1], sh[2], n)
				for _, a := range paper {
					if a.From >= a.To {
						t.Errorf("%s: arc (%s) %d → %d goes backwards", name, a.Eq, a.From, a.To)
					}
					if !allowed[a.Eq] {
						t.Errorf("%s: arc labelled (%s), not one of %v", name, a.Eq, v.eqs)
					}
					used[a.Eq]++
				}
				rp, rg := reach(len(nw.Hops), paper), reach(len(nw.Hops), nw.Arcs)
				for _, a := range nw.Arcs {
					if !rp[a.From][a.To] {
						t.Errorf("%s: generic %s arc %s → %s not implied by the paper's families", name, a.Kind, hopLabel(nw, a.From), hopLabel(nw, a.To))
					}
				}
				for _, a := range paper {
					if !rg[a.From][a.To] {
						t.Errorf("%s: paper arc (%s) %s → %s not implied by the physical model", name, a.Eq, hopLabel(nw, a.From), hopLabel(nw, a.To))
					}
				}
			}
		}
		for _, e := range v.eqs {
			if used[e] == 0 {
				t.Errorf("%s: family (%s) never written", v.name, e)
			}
		}
	}
	if networks != 552 {
		t.Errorf("checked %d networks, want 552", networks)
	}
}

func hopLabel(nw *Network, h int) string {
	hop := nw.Hops[h]
	m := nw.Pattern[hop.Msg]
	return fmt.Sprintf("t_%d,%d,%d", m.Dest, m.Stage, hop.Level)
}

// Pruned patterns and relay-only layers have no printed form.
func TestPaperArcsOnlyForFullPattern(t *testing.T) {
	pr := &problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 2, P: 2, H: 3, S: 1, C: 1, A: 1, D: math.Inf(1), V: 1}
	full := FullPattern(pr, 2)
	nw, _ := NewNetwork(pr, full[1:])
	if _, ok := nw.paperArcs(); ok {
		t.Error("pruned pattern: paper arcs reported")
	}
	pr.Relay = []int{1}
	nw, _ = NewNetwork(pr, FullPattern(pr, 2))
	if _, ok := nw.paperArcs(); ok {
		t.Error("relay-only layer: paper arcs reported")
	}
}

// warc is a precedence arc with its own duration S' + coef·α of the
// message of hop from: used to revert one repair at a time to the printed
// text.
type warc struct {
	from, to    int
	konst, coef float64
}

func toWarcs(nw *Network, arcs []Arc) []warc {
	out := make([]warc, len(arcs))
	for q, a := range arcs {
		out[q] = warc{a.From, a.To, nw.Hops[a.From].Const, nw.Hops[a.From].Coef}
	}
	return out
}

// makespan returns the earliest-start makespan of the network's hops and
// computations under the arcs (any order of arcs; hops are topologically
// numbered).
func makespan(nw *Network, arcs []warc, alpha []float64) float64 {
	in := make([][]warc, len(nw.Hops))
	for _, a := range arcs {
		in[a.to] = append(in[a.to], a)
	}
	start, end := make([]float64, len(nw.Hops)), make([]float64, len(nw.Hops))
	for h, hop := range nw.Hops {
		for _, a := range in[h] {
			start[h] = math.Max(start[h], start[a.from]+a.konst+a.coef*alpha[nw.Hops[a.from].Msg])
		}
		end[h] = start[h] + hop.Const + hop.Coef*alpha[hop.Msg]
	}
	cmax := 0.0
	for _, d := range nw.Dests {
		_, _, a := nw.Prob.Params(d)
		free := 0.0
		for _, j := range nw.DestMsgs[d] {
			free = math.Max(free, end[nw.MsgHops[j][len(nw.MsgHops[j])-1]]) + a*alpha[j]
			cmax = math.Max(cmax, free)
		}
	}
	return cmax
}

// randomLoads returns loads per message: zero, at the buffer limit
// D/FirstHopFactor, or uniform below it. With D = ∞ the limit is a random
// multiple (0.1 to 100) of S/C per message, so that transfer times range
// from startup-dominated to volume-dominated.
func randomLoads(r *rand.Rand, pr *problem.Problem, pat Pattern) []float64 {
	alpha := make([]float64, len(pat))
	for j, m := range pat {
		var lim float64
		if math.IsInf(pr.D, 1) {
			lim = pr.S / pr.C * math.Pow(10, -1+3*r.Float64())
		} else {
			lim = pr.D / pr.FirstHopFactor(m.Dest)
		}
		switch r.IntN(4) {
		case 0:
		case 1:
			alpha[j] = lim
		default:
			alpha[j] = lim * r.Float64()
		}
	}
	return alpha
}

// With the loads fixed, the earliest-start makespan under the paper's
// families equals Network.Evaluate's (1e-12 relative; the two sum the same
// durations along different paths): 200 random loads per variant.
func TestPaperArcsEvaluateLikeNetwork(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, v := range variants {
		shapes := v.shapes()
		for q := 0; q < 200; q++ {
			sh := shapes[r.IntN(len(shapes))]
			pr := v.problem(r, sh[0], sh[1], sh[2])
			pr.D = pr.S / pr.C * math.Pow(10, -1+3*r.Float64())
			n := 1 + r.IntN(4)
			nw, err := NewNetwork(pr, FullPattern(pr, n))
			if err != nil {
				t.Fatal(err)
			}
			paper, _ := nw.paperArcs()
			alpha := randomLoads(r, pr, nw.Pattern)
			want := nw.Evaluate(alpha).Cmax
			got := makespan(nw, toWarcs(nw, paper), alpha)
			if d := math.Abs(got-want) / math.Max(want, 1e-300); d > 1e-12 {
				t.Errorf("%s %+v n=%d: paper families %.15g, Network %.15g", v.name, sh, n, got, want)
			}
		}
	}
}

// damage reverts one repair of the printed text: it returns the arcs of
// the paper form with that family as printed.
type damage struct {
	name    string
	variant variant
	// minH is the smallest h where the printed and repaired families
	// differ; maxH the largest tried.
	minH, maxH int
	// printed rewrites the repaired arcs into the printed ones.
	printed func(nw *Network, arcs []Arc) []warc
	// stricter: the printed family forbids schedules the physical model
	// allows (makespan ≥, > on some instance); otherwise it permits
	// schedules the model forbids (makespan ≤, < on some instance).
	stricter bool
}

func variantByName(name string) variant {
	for _, v := range variants {
		if v.name == name {
			return v
		}
	}
	panic(name)
}

// withCoef keeps all arcs but gives those of family eq the coefficient
// f(nw, arc)·C·α instead of the physical one.
func withCoef(eq string, f func(nw *Network, a Arc) float64) func(*Network, []Arc) []warc {
	return func(nw *Network, arcs []Arc) []warc {
		out := toWarcs(nw, arcs)
		for q, a := range arcs {
			if a.Eq == eq {
				out[q].coef = f(nw, a) * nw.Prob.C
			}
		}
		return out
	}
}

// without drops the arcs for which drop returns true.
func without(drop func(nw *Network, a Arc) bool) func(*Network, []Arc) []warc {
	return func(nw *Network, arcs []Arc) []warc {
		var keep []Arc
		for _, a := range arcs {
			if !drop(nw, a) {
				keep = append(keep, a)
			}
		}
		return toWarcs(nw, keep)
	}
}

func level(nw *Network, h int) int  { return nw.Hops[h].Level }
func pw(nw *Network, e int) float64 { return math.Pow(float64(nw.Prob.P), float64(e)) }

// Every repair of the printed text listed in docs/formulations.md
// ("Departures from the printed text") changes the model: reverting it
// alone gives a different earliest makespan on some random loads — lower
// where the printed text misses a rule of the physical model, higher where
// it charges a longer duration than the hop lasts (p ≥ 2). The repaired
// families agree with the executor (solve/engine tests), so each printed
// version is wrong, not just written differently. The range repairs that
// only name hops that do not exist ((24) at l = i−1) cannot be reverted
// and are not listed.
func TestPrintedDamageMatters(t *testing.T) {
	hOf := func(nw *Network) int { return nw.Prob.H }
	cases := []damage{
		{"(8) without i=h for h=1", variantByName("TreeNLF-1"), 1, 1,
			without(func(nw *Network, a Arc) bool { return a.Eq == "8" && hOf(nw) == 1 }), false},
		{"(14) for l=1..i-1 only", variantByName("TreeNLF-2"), 2, 5,
			without(func(nw *Network, a Arc) bool { return a.Eq == "14" && level(nw, a.From) == 0 }), false},
		{"(16) for r=1 only", variantByName("TreeNLF-2"), 4, 6,
			without(func(nw *Network, a Arc) bool { return a.Eq == "16" && level(nw, a.From) >= 2 }), false},
		{"(16) with Cp^(h-2)", variantByName("TreeNLF-2"), 3, 6,
			withCoef("16", func(nw *Network, a Arc) float64 {
				if level(nw, a.From) == 1 {
					return pw(nw, hOf(nw)-2)
				}
				return nw.Hops[a.From].Coef / nw.Prob.C
			}), true},
		{"(17) with Cp^(h-1)", variantByName("TreeNLF-2"), 2, 6,
			withCoef("17", func(nw *Network, a Arc) float64 { return pw(nw, hOf(nw)-1) }), true},
		{"(18) for r=2 only", variantByName("TreeNLF-2"), 4, 6,
			without(func(nw *Network, a Arc) bool { return a.Eq == "18" && level(nw, a.From) >= 3 }), false},
		{"(18) with Cp^(h-2)", variantByName("TreeNLF-2"), 3, 6,
			withCoef("18", func(nw *Network, a Arc) float64 {
				if level(nw, a.From) == 2 {
					return pw(nw, hOf(nw)-2)
				}
				return nw.Hops[a.From].Coef / nw.Prob.C
			}), true},
		{"(26) for r=1 only", variantByName("TreeLLF-2"), 3, 6,
			without(func(nw *Network, a Arc) bool { return a.Eq == "26" && level(nw, a.From) >= 2 }), false},
		{"(26) with Cpα_2k", variantByName("TreeLLF-2"), 2, 6,
			withCoef("26", func(nw *Network, a Arc) float64 {
				if level(nw, a.From) == 1 {
					return float64(nw.Prob.P)
				}
				return 1
			}), true},
		{"(27) for i=1..h-1 only", variantByName("TreeLLF-2"), 1, 5,
			without(func(nw *Network, a Arc) bool { return a.Eq == "27" && level(nw, a.From) == 0 }), false},
	}
	r := rand.New(rand.NewPCG(15, 16))
	for _, c := range cases {
		differ := 0
		for q := 0; q < 400; q++ {
			h := c.minH + r.IntN(c.maxH-c.minH+1)
			p := 2 + r.IntN(2)
			pr := c.variant.problem(r, 0, p, h)
			n := 2 + r.IntN(3)
			nw, err := NewNetwork(pr, FullPattern(pr, n))
			if err != nil {
				t.Fatal(err)
			}
			paper, _ := nw.paperArcs()
			alpha := randomLoads(r, pr, nw.Pattern)
			want := makespan(nw, toWarcs(nw, paper), alpha)
			got := makespan(nw, c.printed(nw, paper), alpha)
			d := (got - want) / want
			switch {
			case c.stricter && d < -1e-12, !c.stricter && d > 1e-12:
				t.Errorf("%s: printed %.15g, repaired %.15g: wrong direction", c.name, got, want)
			case math.Abs(d) > 1e-9:
				differ++
			}
		}
		if differ == 0 {
			t.Errorf("%s: the printed version never changes the makespan in 400 instances", c.name)
		}
		t.Logf("%s: makespan changed in %d of 400 random instances", c.name, differ)
	}
}

// (25) as printed uses α_hk where the hop is message i's: for i < h the
// printed arc may be longer or shorter than the hop, so it both permits
// and forbids schedules wrongly.
func TestPrintedDamage25(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	v := variantByName("TreeLLF-2")
	lower, higher := 0, 0
	for q := 0; q < 400; q++ {
		pr := v.problem(r, 0, 2+r.IntN(2), 4+r.IntN(3))
		nw, _ := NewNetwork(pr, FullPattern(pr, 2+r.IntN(3)))
		paper, _ := nw.paperArcs()
		// The printed (25): duration S + Cp^(i−l−1)α_hk of the hop of
		// message i: the coefficient applies to stage k's message to h.
		printed := toWarcs(nw, paper)
		alpha := randomLoads(r, pr, nw.Pattern)
		for qq, a := range paper {
			if a.Eq != "25" {
				continue
			}
			hop := nw.Hops[a.From]
			k := nw.Pattern[hop.Msg].Stage
			jh := -1
			for j, m := range nw.Pattern {
				if m.Stage == k && m.Dest == pr.H {
					jh = j
				}
			}
			// Express α_hk through the hop's own message: coef·α_i is
			// replaced by a constant coef·α_hk.
			printed[qq].konst += hop.Coef * alpha[jh]
			printed[qq].coef = 0
		}
		want := makespan(nw, toWarcs(nw, paper), alpha)
		got := makespan(nw, printed, alpha)
		switch {
		case got < want*(1-1e-9):
			lower++
		case got > want*(1+1e-9):
			higher++
		}
	}
	if lower == 0 || higher == 0 {
		t.Errorf("printed (25): makespan lower in %d, higher in %d of 400 instances; want both", lower, higher)
	}
	t.Logf("printed (25): lower in %d, higher in %d of 400", lower, higher)
}
