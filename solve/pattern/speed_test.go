package pattern

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// drawPattern draws a pattern of the full n-stage pattern of p: each
// message kept with probability 1/2, at least one.
func drawPattern(t *rapid.T, p *problem.Problem, n int) formulations.Pattern {
	full := formulations.FullPattern(p, n)
	var pat formulations.Pattern
	for i, m := range full {
		if rapid.Bool().Draw(t, "keep") || (len(pat) == 0 && i == len(full)-1) {
			pat = append(pat, m)
		}
	}
	return pat
}

// The record of solved patterns (seqKey) rests on this: the LP of a
// pattern is its destinations in send order, whatever their stage
// numbers. Relabelled — every message in a stage of its own — a random
// pattern of a random star, tree or binomial tree has the same LP optimum
// (both certified, so within twice the tolerance) and the same key.
func TestPatternLPIsItsDestinationOrder(t *testing.T) {
	s := newClp(t)
	rapid.Check(t, func(t *rapid.T) {
		p := drawSmall(t)
		p.D = math.Inf(1)
		pat := drawPattern(t, p, rapid.IntRange(1, 3).Draw(t, "n"))
		spread := slices.Clone(pat)
		for i := range spread {
			spread[i].Stage = i + 1
		}
		if keyOf(pat) != keyOf(spread) {
			t.Fatalf("keys differ for %v and %v", pat, spread)
		}
		o := engine.Options{Solver: s, Auto: true, NoPrune: true}
		a, err := engine.SolveFrom(p, lastStage(pat), pat, o)
		if err != nil {
			t.Fatal(err)
		}
		b, err := engine.SolveFrom(p, len(spread), spread, o)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(a.Cmax, b.Cmax); d > 2*engine.DefaultTolerance {
			t.Fatalf("pattern %v: Cmax %.15g, relabelled %.15g", pat, a.Cmax, b.Cmax)
		}
	})
}

// formulations.Capacity is feasibility: a random pattern whose messages cannot carry V
// is what the solver calls infeasible, one that can carry it (with room)
// solves.
func TestCapacityIsFeasibility(t *testing.T) {
	s := newClp(t)
	rapid.Check(t, func(t *rapid.T) {
		p := drawSmall(t)
		pat := drawPattern(t, p, p.NMin()+rapid.IntRange(0, 1).Draw(t, "extra"))
		c := formulations.Capacity(p, pat)
		if math.Abs(c-p.V) < 1e-3*p.V {
			t.Skip("at the edge")
		}
		_, err := engine.SolveFrom(p, lastStage(pat), pat, engine.Options{Solver: s, Auto: true, NoPrune: true})
		if (c < p.V) != errors.Is(err, solver.ErrInfeasible) {
			t.Fatalf("capacity %.6g for V %.6g: solver says %v", c, p.V, err)
		}
	})
}

// The record changes no result where every LP is solved cold (binomial
// trees: no basis is handed between candidates, so solving a pattern
// again gives the same schedule): the search with it and without it
// (Options.forget) return the same makespan and pattern, at every stage
// count of a chain, on random binomial trees with finite D.
func TestRecordChangesNoResult(t *testing.T) {
	s := newClp(t)
	rapid.Check(t, func(t *rapid.T) {
		p := drawSmall(t)
		p.Kind = topology.Binomial
		n := p.NMin() + rapid.IntRange(0, 2).Draw(t, "extra")
		if n*p.H > 24 {
			t.Skip("too many messages")
		}
		a, err := Search(p, n, Options{Engine: popts(s, true)})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Search(p, n, Options{Engine: popts(s, true), forget: true})
		if err != nil {
			t.Fatal(err)
		}
		if a.Cmax != b.Cmax || !slices.Equal(patternOf(a), patternOf(b)) {
			t.Fatalf("with the record %.17g %v, without %.17g %v", a.Cmax, patternOf(a), b.Cmax, patternOf(b))
		}
	})
}

// The same on Fig. 10's tree (binomial p = 2, h = 10, NLF, D = 1e2),
// where h is above DefaultExhaustive and the layer search extends the best
// single layer by the makespans the candidates lead to — recorded ones
// included — at n = 4 (a chain of four counts).
func TestRecordChangesNoResultFig10(t *testing.T) {
	s := newClp(t)
	for _, v := range []float64{1000, 2500} {
		p := &problem.Problem{Kind: topology.Binomial, Order: topology.NLF, P: 2, H: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: v}
		a, err := Search(p, 4, Options{Engine: popts(s, true)})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Search(p, 4, Options{Engine: popts(s, true), forget: true})
		if err != nil {
			t.Fatal(err)
		}
		if a.Cmax != b.Cmax || !slices.Equal(patternOf(a), patternOf(b)) {
			t.Errorf("V=%g: with the record %.17g %v, without %.17g %v", v, a.Cmax, patternOf(a), b.Cmax, patternOf(b))
		}
	}
}

// topReuse's claim, checked against the solver: on a star whose port has
// sent the full n-stage pattern before any schedule can end, the full LP
// of every count k from the last loaded stage L of F(n)'s optimum up to n
// has the optimum of F(n) (both certified: within twice the tolerance).
func TestTopReuseLPs(t *testing.T) {
	s := newClp(t)
	rapid.Check(t, func(t *rapid.T) {
		p := &problem.Problem{Kind: topology.Star, M: rapid.IntRange(1, 4).Draw(t, "m"),
			S: rapid.Float64Range(0, 0.1).Draw(t, "S"), C: rapid.Float64Range(0.001, 0.01).Draw(t, "C"),
			A: rapid.Float64Range(0.1, 1).Draw(t, "A"), V: rapid.Float64Range(10, 100).Draw(t, "V")}
		p.D = p.V * rapid.Float64Range(0.1, 1.5).Draw(t, "D/V")
		n := p.NMin() + rapid.IntRange(1, 6).Draw(t, "extra")
		if !topReuse(p, n) {
			t.Skip("the port condition does not hold")
		}
		o := engine.Options{Solver: s, Auto: true, NoPrune: true}
		top, err := engine.Solve(p, n, o)
		if err != nil {
			t.Fatal(err)
		}
		last := 0
		for _, c := range top.Chunks {
			if c.Load > 0 {
				last = max(last, c.Stage)
			}
		}
		for k := max(last, p.NMin()); k < n; k++ {
			f, err := engine.Solve(p, k, o)
			if err != nil {
				t.Fatal(err)
			}
			if d := relDiff(f.Cmax, top.Cmax); d > 2*engine.DefaultTolerance {
				t.Fatalf("LP(F(%d)) = %.15g, LP(F(%d)) = %.15g (loads up to stage %d)", k, f.Cmax, n, top.Cmax, last)
			}
		}
	})
}

// Without the port condition the claim fails: star m = 2, S = 1,
// C = A = 0.1, V = 10, D = ∞ — the port needs 3·2·1 + 10·0.1 = 7 for
// the full 3-stage pattern, above the trivial bound 1 + 0.1·10/2 = 1.5.
// LP(F(1)) = 3: all of V in the first message (arrives at 1 + 1, computed
// by 3), the empty second arriving at 3. LP(F(3)) = 7: the last of its six
// messages, empty, arrives after six startups and V·C. topReuse is false.
func TestTopReuseNeedsThePort(t *testing.T) {
	s := newClp(t)
	p := &problem.Problem{Kind: topology.Star, M: 2, S: 1, C: 0.1, A: 0.1, V: 10, D: math.Inf(1)}
	if topReuse(p, 3) {
		t.Fatal("topReuse holds")
	}
	o := engine.Options{Solver: s, Auto: true, NoPrune: true}
	one, err := engine.Solve(p, 1, o)
	if err != nil {
		t.Fatal(err)
	}
	three, err := engine.Solve(p, 3, o)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(one.Cmax-3) > 1e-9 || math.Abs(three.Cmax-7) > 1e-9 {
		t.Errorf("LP(F(1)) = %.12g, LP(F(3)) = %.12g: want 3 and 7", one.Cmax, three.Cmax)
	}
}

// The star at a tenth of its size (m = 10, V = 5e6, D = V/300,
// n = 300): the counts 293–299 of the chain take the greedy prune of 300
// (the port sends the 3,000 messages in at most 3,000·1e-3 + 5e6·1e-6 =
// 8 time units, the trivial bound is 500.001); the search returns the
// greedy prune's makespan and says so.
func TestSearchReusesTopOnPaperStar(t *testing.T) {
	s := newClp(t)
	p := &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: 5e6 / 300}
	if tp, _ := portTime(p, 300); math.Abs(tp-8) > 1e-9 || !topReuse(p, 300) {
		t.Fatalf("port time %g, topReuse %v: want 8 and true", tp, topReuse(p, 300))
	}
	g, err := engine.Solve(p, 300, popts(s, true))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Search(p, 300, Options{Engine: popts(s, true)})
	if err != nil {
		t.Fatal(err)
	}
	if b.Cmax != g.Cmax {
		t.Errorf("search %.15g, greedy %.15g: want the same schedule", b.Cmax, g.Cmax)
	}
	if !strings.Contains(b.Pattern.Note, "stage counts 293-299 not solved") || b.Pattern.Chain != 8 {
		t.Errorf("note %q over %d counts: want counts 293-299 not solved over 8", b.Pattern.Note, b.Pattern.Chain)
	}
}

// moves builds the same neighbours in the same order as the eager
// enumeration it replaced (movesEager, below), on random patterns.
func TestMovesOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := drawSmall(t)
		n := rapid.IntRange(1, 4).Draw(t, "n")
		pat := drawPattern(t, p, n)
		var got []formulations.Pattern
		for m := range moves(p, n, pat) {
			got = append(got, m)
		}
		want := movesEager(p, n, pat)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("pattern %v: %d moves, want %d (or another order)", pat, len(got), len(want))
		}
	})
}

// The local search takes at most MaxLocalSolves moves, and building them
// costs in proportion: the first 101 moves of a 15-message pattern at
// n = 3,000 on a star with m = 10 (29,985 additions, 449,775 moves) take a
// few hundred allocations (the full pattern, one per move), where the
// eager enumeration built all of them first (issue 32: 147 s for
// m = 10, V = 100, D = ∞, n = 1,000).
func TestMovesLazy(t *testing.T) {
	p := &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 100, D: math.Inf(1)}
	pat := formulations.FullPattern(p, 2)[:15]
	allocs := testing.AllocsPerRun(3, func() {
		k := 0
		for range moves(p, 3000, pat) {
			if k++; k > MaxLocalSolves {
				break
			}
		}
	})
	if allocs > 400 {
		t.Errorf("%.0f allocations for %d moves", allocs, MaxLocalSolves+1)
	}
}

// movesEager is the enumeration of moves before issue 32: every
// neighbour built before the first is tried.
func movesEager(p *problem.Problem, n int, pat formulations.Pattern) []formulations.Pattern {
	var out []formulations.Pattern
	for j := len(pat) - 1; j >= 0 && len(pat) > 1; j-- {
		out = append(out, slices.Delete(slices.Clone(pat), j, j+1))
	}
	have := map[formulations.Msg]bool{}
	for _, m := range pat {
		have[m] = true
	}
	full := formulations.FullPattern(p, n)
	var adds []formulations.Pattern
	for _, m := range full {
		if have[m] {
			continue
		}
		var cand formulations.Pattern
		for _, f := range full {
			if have[f] || f == m {
				cand = append(cand, f)
			}
		}
		adds = append(adds, cand)
	}
	out = append(out, adds...)
	for _, add := range adds {
		for j := range add {
			if !slices.Contains(pat, add[j]) {
				continue
			}
			swapped := slices.Delete(slices.Clone(add), j, j+1)
			if !slices.Equal(swapped, pat) {
				out = append(out, swapped)
			}
		}
	}
	return out
}
