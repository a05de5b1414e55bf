package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlsched/dlsched/closedform"
	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// Tests of the tree and binomial-tree LPs (issue 3) and the executor's
// cross-checks of every formulation (issue 4). Random instances are drawn
// by variant.random (variants_test.go) around the paper's parameters
// (Section 4: S=1e-3, C=1e-6, A=1e-3), small enough that hundreds of LPs
// solve in seconds; every expected value names its source.

// count returns full, or short under -short.
func count(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// The paper form (the printed families (1)–(35), repaired, with explicit
// sums Σ_{l≥k}α_il) and the compact form (the Network's arcs, suffix sums
// β) are two derivations of the same physical model: the same optimum on
// 50 random instances per variant (1e-9 relative), both certified, both
// schedules satisfying both LPs constraint by constraint. This
// cross-checks the printed families against the generic derivation on
// real LP optima (formulations/paper_test.go checks the arcs themselves).
func TestPaperFormEqualsCompactForm(t *testing.T) {
	s := newClp(t)
	r := rand.New(rand.NewPCG(31, 32))
	for _, v := range allVariants {
		for q := 0; q < count(50, 10); q++ {
			p, n := v.random(r, 6, 4, 4, 2)
			a, err := Solve(p, n, Options{Solver: s, Form: formulations.FormCompact, NoPrune: true})
			if err != nil {
				t.Fatalf("%s: compact: %v", v.describe(p, n), err)
			}
			b, err := Solve(p, n, Options{Solver: s, Form: formulations.FormPaper, NoPrune: true})
			if err != nil {
				t.Fatalf("%s: paper: %v", v.describe(p, n), err)
			}
			if relDiff(a.Cmax, b.Cmax) > 1e-9 {
				t.Errorf("%s: compact %.15g, paper %.15g", v.describe(p, n), a.Cmax, b.Cmax)
			}
			for _, sc := range []struct {
				form string
				gap  float64
			}{{"compact", a.Gap}, {"paper", b.Gap}} {
				if sc.gap > 1e-9 {
					t.Errorf("%s: %s form certified gap %.3g", v.describe(p, n), sc.form, sc.gap)
				}
			}
			checkAgainstLP(t, p, a, 1e-9)
			checkAgainstLP(t, p, b, 1e-9)
		}
	}
}

// A 2-buffer tree can do all that a 1-buffer tree can: the 1-buffer rule
// (message q waits for the release of message q−1) implies the 2-buffer
// rule (message q waits for message q−2, released no later than q−1, since
// a node relays in FIFO order). So at the same n, without pruning, the
// 2-buffer optimum is never worse (1e-9 relative): 60 random instances
// per order.
func TestTwoBuffersNeverWorse(t *testing.T) {
	s := newClp(t)
	r := rand.New(rand.NewPCG(33, 34))
	for _, o := range []topology.Order{topology.NLF, topology.LLF} {
		v := variant{"tree", topology.Tree, o, 1, false}
		better := 0
		for q := 0; q < count(60, 10); q++ {
			p, n := v.random(r, 0, 5, 4, 2)
			p.Buffers = 1
			one, err := Solve(p, n, Options{Solver: s, NoPrune: true})
			if err != nil {
				t.Fatal(err)
			}
			p2 := *p
			p2.Buffers = 2
			two, err := Solve(&p2, n, Options{Solver: s, NoPrune: true})
			if err != nil {
				t.Fatal(err)
			}
			if two.Cmax > one.Cmax*(1+1e-9) {
				t.Errorf("%s: 2-buffer %.15g worse than 1-buffer %.15g", v.describe(p, n), two.Cmax, one.Cmax)
			}
			if two.Cmax < one.Cmax*(1-1e-9) {
				better++
			}
		}
		t.Logf("%s: 2 buffers strictly better in %d instances", o, better)
	}
}

// Height 1: p processors fed at once over the originator's p ports, for
// an ordinary and a binomial tree alike (a scatter to layer 1 is one step
// S + Cα). Three closed forms (formulations/closed_tree.go):
//
//   - n = 1, D ≥ V/p: S + (C + A)V/p (TreeOneLayer);
//   - n stages with equal finishing, D = ∞ or above every load:
//     α_(k+1) = (Aα_k − S)/C, Cmax = S + Cα_1 + AV/p (TreeOneLayerStages);
//   - V = pnD (every message full): max(S + CD + nAD, n(S+CD) + AD)
//     (TreeOneLayerFull).
//
// 50 random instances of each, split over the four tree orders/buffers and
// the binomial tree; the LP optimum must match within 1e-9 relative.
func TestOneLayerClosedForms(t *testing.T) {
	s := newClp(t)
	r := rand.New(rand.NewPCG(35, 36))
	kinds := []variant{treeVariants[0], treeVariants[1], treeVariants[2], treeVariants[3], treeVariants[4], treeVariants[5]}
	solve := func(p *problem.Problem, n int) float64 {
		t.Helper()
		sc, err := Solve(p, n, Options{Solver: s, NoPrune: true})
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstLP(t, p, sc, 1e-9)
		return sc.Cmax
	}
	shape := func(q int) *problem.Problem {
		p := kinds[q%len(kinds)].shape(r, 0, 1)
		p.H = 1
		p.P = 1 + r.IntN(6)
		return p
	}
	// n = 1.
	for q := 0; q < count(50, 10); q++ {
		p := shape(q)
		p.V = logU(r, 0, 5)
		p.D = p.V / float64(p.P) * logU(r, 0, 1)
		want := closedform.TreeOneLayer(p.P, p.S, p.C, p.A, p.V)
		if got := solve(p, 1); relDiff(got, want) > 1e-9 {
			t.Errorf("n=1 p=%d S=%g C=%g A=%g V=%g: LP %.15g, S+(C+A)V/p = %.15g", p.P, p.S, p.C, p.A, p.V, got, want)
		}
	}
	// n stages, equal finishing.
	for q, tries := 0, 0; q < count(50, 10); tries++ {
		if tries > 100000 {
			t.Fatal("too few instances with equal finishing")
		}
		p := shape(q)
		p.V = logU(r, 0, 5)
		p.D = math.Inf(1)
		n := 2 + r.IntN(5)
		alpha, want, ok := closedform.TreeOneLayerStages(p.P, n, p.S, p.C, p.A, p.V, math.Inf(1))
		if !ok {
			continue
		}
		q++
		if r.IntN(2) == 0 {
			mx := 0.0
			for _, a := range alpha {
				mx = math.Max(mx, a)
			}
			p.D = mx * (1 + r.Float64()) // a finite buffer that does not bind
		}
		if got := solve(p, n); relDiff(got, want) > 1e-9 {
			t.Errorf("n=%d p=%d S=%g C=%g A=%g V=%g D=%g: LP %.15g, equal finishing %.15g", n, p.P, p.S, p.C, p.A, p.V, p.D, got, want)
		}
	}
	// Every message full.
	for q := 0; q < count(50, 10); q++ {
		p := shape(q)
		n := 1 + r.IntN(8)
		p.D = float64(1+r.IntN(4096)) / 4 // pnD exact in binary
		p.V = float64(p.P*n) * p.D
		if p.NMin() != n {
			t.Fatalf("V = pnD: n_min %d, want %d", p.NMin(), n)
		}
		want := closedform.TreeOneLayerFull(n, p.S, p.C, p.A, p.D)
		if got := solve(p, n); relDiff(got, want) > 1e-9 {
			t.Errorf("full n=%d p=%d S=%g C=%g A=%g D=%g: LP %.15g, closed form %.15g", n, p.P, p.S, p.C, p.A, p.D, got, want)
		}
	}
}

// Cmax ≥ S + VA/P, P the number of computing processors (Section 4.1's
// lower bound LB: at least one startup before any computing, and the
// computing cannot be better balanced than perfectly): 50 random
// instances per variant, pruned as the CLI does.
func TestTrivialLowerBound(t *testing.T) {
	s := newClp(t)
	r := rand.New(rand.NewPCG(37, 38))
	for _, v := range allVariants {
		for q := 0; q < count(50, 10); q++ {
			p, n := v.random(r, 6, 4, 4, 2)
			sc, err := Solve(p, n, Options{Solver: s})
			if err != nil {
				t.Fatal(err)
			}
			lb := p.S + p.V*p.A/p.Processors()
			if len(p.Procs) > 0 {
				lb = p.LowerBoundLB() // min S_i + V/Σ(1/A_i)
			}
			if sc.Cmax < lb*(1-1e-12) {
				t.Errorf("%s: Cmax %.15g below S+VA/P = %.15g", v.describe(p, n), sc.Cmax, lb)
			}
		}
	}
}

// The regime of Section 4.2 (Fig. 11): a binomial tree at n_min with
// V > D(h(p+1)−1) and the paper's S=1e-3, C=1e-6, A=1e-3, D in [1e2, 1e4].
// The first layer's computing, DA per stage, is longer than a whole
// stage's communication, so the deeper layers' communication and computing
// hide in it: every message to layers 2..h carries the buffer maximum
// D/(p(p+1)^(i−2)) (which helps, since it takes load off layer 1), and
// layer 1 never idles, so
//
//	Cmax = t_1 + A·Σ_k α_1k,
//
// t_1 the arrival of layer 1's first chunk (asserted within 1e-9). With
// c = h(p+1)−1, V = ncD − s (slack 0 ≤ s < cD) and Σ_k α_1k = (V − n(c−p)D)/p
// this is
//
//	Cmax − VA/c = t_1 − A·s·(1/p − 1/c),
//
// so Cmax approaches the asymptote VA/c of the paper ("nDA ≈ VA/(h(p+1)−1)")
// with an absolute error below max(t_1, A·D·(c/p − 1)) — a relative error
// O(1/n), asserted with exactly that bound.
//
// The regime needs layer 1 to stay the bottleneck: its processors compute
// (V − n(c−p)D)/p each, layer 2's at most nD/p. When the slack s is large
// (V < n(c−p+1)D, possible for small n just above a multiple of cD),
// layer 2 is as busy as layer 1 and the LP balances the two, leaving some
// layer-2 messages below the maximum — the paper's figures are over
// decades of V, where n_min is large and s < cD is small against nD. So V
// is drawn in (max((n−1)c, n(c−1/2))·D, ncD]: n_min = n, s ≤ nD/2, which
// for n ≥ 2c is every V with n_min = n. 24 instances per order, n = 2..40.
func TestBinomialSection42Regime(t *testing.T) {
	s := newClp(t)
	r := rand.New(rand.NewPCG(39, 40))
	maxRel := map[bool]float64{}
	for _, o := range []topology.Order{topology.NLF, topology.LLF} {
		for q := 0; q < count(25, 5); q++ {
			p := &problem.Problem{Kind: topology.Binomial, Order: o, P: 2 + r.IntN(2), H: 2 + r.IntN(4),
				S: 1e-3, C: 1e-6, A: 1e-3, D: logU(r, 2, 4)}
			c := float64(p.H*(p.P+1) - 1)
			n := 2 + r.IntN(39)
			lo := math.Max(float64(n-1)*c, float64(n)*(c-0.5)) * p.D
			p.V = lo + (float64(n)*c*p.D-lo)*(0.01+0.99*r.Float64())
			if p.NMin() != n || p.V <= c*p.D {
				t.Fatalf("n_min %d, want %d; V %g, cD %g", p.NMin(), n, p.V, c*p.D)
			}
			sc, err := Solve(p, n, Options{Solver: s, NoPrune: true})
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstLP(t, p, sc, 1e-9)
			sum1, t1 := 0.0, math.Inf(1)
			for _, ch := range sc.Chunks {
				if ch.Layer == 1 {
					sum1 += ch.Load
					if ch.Load > 0 {
						t1 = math.Min(t1, ch.Arrival)
					}
					continue
				}
				if max := p.D / topology.BinomialStepLoad(p.P, ch.Layer, 1); relDiff(ch.Load, max) > 1e-9 {
					t.Errorf("%s p=%d h=%d D=%g V=%.8g n=%d: layer %d stage %d gets %.12g, not the maximum D/(p(p+1)^(i-2)) = %.12g",
						o, p.P, p.H, p.D, p.V, n, ch.Layer, ch.Stage, ch.Load, max)
				}
			}
			if want := t1 + p.A*sum1; relDiff(sc.Cmax, want) > 1e-9 {
				t.Errorf("%s p=%d h=%d D=%g V=%.8g n=%d: Cmax %.15g, layer 1 busy from t_1 gives %.15g", o, p.P, p.H, p.D, p.V, n, sc.Cmax, want)
			}
			asym := p.V * p.A / c
			bound := math.Max(t1, p.A*p.D*(c/float64(p.P)-1))
			if math.Abs(sc.Cmax-asym) > bound*(1+1e-9) {
				t.Errorf("%s p=%d h=%d D=%g V=%.8g n=%d: |Cmax − VA/(h(p+1)−1)| = %.6g above the bound %.6g", o, p.P, p.H, p.D, p.V, n, math.Abs(sc.Cmax-asym), bound)
			}
			rel := math.Abs(sc.Cmax-asym) / asym
			maxRel[n >= 20] = math.Max(maxRel[n >= 20], rel)
		}
	}
	t.Logf("largest relative distance of Cmax to VA/(h(p+1)−1): %.3g for n < 20, %.3g for n ≥ 20", maxRel[false], maxRel[true])
}

// fixedLoads returns random loads for the pattern: zero, exactly at the
// buffer limit D/FirstHopFactor, or uniform below it (a quarter, a
// quarter, a half); with D = ∞ the limit is a random multiple (0.1 to 100)
// of S/C. At least one load is positive.
func fixedLoads(r *rand.Rand, p *problem.Problem, pat formulations.Pattern) []float64 {
	for {
		alpha := make([]float64, len(pat))
		pos := false
		for j, m := range pat {
			var lim float64
			if math.IsInf(p.D, 1) {
				sd, cd := p.S, p.C
				if len(p.Procs) > 0 {
					sd, cd = p.Procs[m.Dest-1].S, p.Procs[m.Dest-1].C
				}
				lim = sd / cd * logU(r, -1, 2)
				if sd == 0 {
					lim = logU(r, -1, 3)
				}
			} else {
				lim = p.D / p.FirstHopFactor(m.Dest)
			}
			switch r.IntN(4) {
			case 0:
			case 1:
				alpha[j] = lim
			default:
				alpha[j] = lim * r.Float64()
			}
			pos = pos || alpha[j] > 0
		}
		if pos {
			return alpha
		}
	}
}

// randomPattern returns the full pattern of n stages with each message
// dropped with probability drop (keeping at least one), order unchanged.
func randomPattern(r *rand.Rand, p *problem.Problem, n int, drop float64) formulations.Pattern {
	full := formulations.FullPattern(p, n)
	var out formulations.Pattern
	for _, m := range full {
		if r.Float64() >= drop {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		out = append(out, full[r.IntN(len(full))])
	}
	return out
}

// Both directions of modelling error (issue 4): replaying optimal
// schedules only catches an LP that permits too much; an LP that is too
// strict replays exactly at its own, too high, Cmax. So: random loads
// (not LP-optimal; zeros, loads exactly at the buffer limit, full and
// random pruned patterns), the LP with only the times free (α columns fixed
// to the loads, scaled by L0), solved by Clp in both forms, must give
// exactly (1e-9 relative) the executor's earliest-mode makespan of a
// schedule with those loads, and Network.Evaluate must agree: 120
// instances per variant (60 on the full pattern, where the paper form
// uses the printed families, 60 on pruned patterns).
func TestFixedLoadsLPEqualsExecutor(t *testing.T) {
	s := newClp(t)
	r := rand.New(rand.NewPCG(41, 42))
	tight := solver.Options{PrimalTolerance: 1e-11, DualTolerance: 1e-11}
	for _, v := range allVariants {
		for q := 0; q < count(120, 20); q++ {
			p := v.shape(r, 6, 4)
			if r.IntN(5) == 0 {
				p.D = math.Inf(1)
			} else {
				p.D = logU(r, -1, 3) * p.S / p.C
				if p.S == 0 {
					p.D = logU(r, -1, 3)
				}
			}
			n := 1 + r.IntN(4)
			pat := formulations.FullPattern(p, n)
			if q%2 == 1 {
				pat = randomPattern(r, p, n, 0.1+0.6*r.Float64())
			}
			alpha := fixedLoads(r, p, pat)
			p.V = 0
			for j, m := range pat {
				p.V += p.DestSize(m.Dest) * alpha[j]
			}
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			sched := loadsSchedule(p, pat, alpha, n)
			res, err := replay.Earliest(sched, replay.Options{})
			if err != nil {
				t.Fatalf("%s: executor: %v", v.describe(p, n), err)
			}
			nw, err := formulations.NewNetwork(p, pat)
			if err != nil {
				t.Fatal(err)
			}
			if ev := nw.Evaluate(alpha).Cmax; relDiff(ev, res.Makespan) > 1e-9 {
				t.Errorf("%s (%d messages): Network.Evaluate %.15g, executor %.15g", v.describe(p, n), len(pat), ev, res.Makespan)
			}
			for _, f := range []formulations.Form{formulations.FormCompact, formulations.FormPaper} {
				sc := formulations.NewScale(p)
				m, lay := nw.Build(f, sc)
				for j, c := range lay.Alpha {
					m.ColLower[c], m.ColUpper[c] = alpha[j]/sc.L0, alpha[j]/sc.L0
				}
				sol, err := s.Solve(m, tight)
				if err != nil {
					t.Fatalf("%s %s form (%d messages): %v", v.describe(p, n), f, len(pat), err)
				}
				if got := sol.X[lay.Cmax] * sc.T0; relDiff(got, res.Makespan) > 1e-9 {
					t.Errorf("%s %s form (%d messages, full %v): LP with fixed loads %.15g, executor earliest %.15g",
						v.describe(p, n), f, len(pat), pat.IsFull(p, n), got, res.Makespan)
				}
			}
		}
	}
}

// Every formulation (8 variants × 2 forms), 200 random instances each,
// solved as the CLI does (certified, pruned): the schedule passes the
// executor in both modes (OK, no violation in timed mode, earliest-mode
// makespan ≤ Cmax(1+1e-9)) and satisfies every LP constraint of its final
// pattern within 1e-9 relative (checkAgainstLP).
func TestEveryFormulationVerifies(t *testing.T) {
	s := newClp(t)
	r := rand.New(rand.NewPCG(43, 44))
	for _, v := range allVariants {
		for _, f := range []formulations.Form{formulations.FormCompact, formulations.FormPaper} {
			pruned := 0
			for q := 0; q < count(200, 15); q++ {
				p, n := v.random(r, 6, 4, 4, 3)
				sc, err := Solve(p, n, Options{Solver: s, Form: f})
				if err != nil {
					t.Fatalf("%s %s: %v", v.describe(p, n), f, err)
				}
				if sc.Gap > 1e-9 {
					t.Errorf("%s %s: certified gap %.3g", v.describe(p, n), f, sc.Gap)
				}
				if sc.Pruning != nil && sc.Pruning.Rounds > 0 {
					pruned++
				}
				ver, err := replay.Verify(sc, replay.Options{})
				if err != nil {
					t.Fatalf("%s %s: executor: %v", v.describe(p, n), f, err)
				}
				if !ver.OK {
					t.Errorf("%s %s: executor finds %d violations, first %+v", v.describe(p, n), f, len(ver.Violations), ver.Violations[0])
				}
				if ver.EarliestMakespan > sc.Cmax*(1+1e-9) {
					t.Errorf("%s %s: earliest makespan %.15g above Cmax %.15g", v.describe(p, n), f, ver.EarliestMakespan, sc.Cmax)
				}
				checkAgainstLP(t, p, sc, 1e-9)
			}
			t.Logf("%s %s: %d of %d schedules pruned", v.name, f, pruned, count(200, 15))
		}
	}
}
