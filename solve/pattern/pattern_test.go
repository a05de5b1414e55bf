package pattern

import (
	"fmt"
	"math"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver/cbc"
	"github.com/dlsched/dlsched/topology"
	"pgregory.net/rapid"
)

// Issue 19's binomial example: the greedy prune of the full pattern gives
// 0.0090; leaving every layer but the first out (they relay) gives 0.0015
// = 1·S + S + C·0.5 + A·0.5 with one message of V/2 to each of the two
// children of the root: S + C·V/2 + A·V/2 = 0.0010005 + 0.0005.
func TestSearchBinomialExample(t *testing.T) {
	s := newClp(t)
	p := fig11(topology.LLF, math.Inf(1), 1)
	greedy, err := engine.Solve(p, 1, popts(s, true))
	if err != nil {
		t.Fatal(err)
	}
	best, err := Search(p, 1, Options{Engine: popts(s, true)})
	if err != nil {
		t.Fatal(err)
	}
	want := 1e-3 + 1e-6*0.5 + 1e-3*0.5
	if math.Abs(best.Cmax-want) > 1e-12 || best.Cmax > 0.0015005 {
		t.Errorf("search Cmax %.10g, want %.10g", best.Cmax, want)
	}
	if greedy.Cmax < 0.008 {
		t.Errorf("greedy Cmax %.6g: the example no longer shows the gap", greedy.Cmax)
	}
	if fmt.Sprint(best.Pattern.Destinations) != "[1]" || best.Pattern.Method != "search" {
		t.Errorf("pattern %+v, want layer 1 only", best.Pattern)
	}
	if lb := p.LowerBoundLB(); best.PatternLowerBound != lb || best.PatternGap <= 0 || best.PatternGap >= 1 {
		t.Errorf("pattern bound %g gap %g, want the trivial bound %g", best.PatternLowerBound, best.PatternGap, lb)
	}
}

// The search never returns a worse schedule than the greedy prune, on
// random stars and trees, and its schedules pass the executor's check
// (the replay runs in solve's and the engine's own tests; here the makespan is the
// pattern's certified LP optimum).
func TestSearchNeverWorse(t *testing.T) {
	s := newClp(t)
	rapid.Check(t, func(t *rapid.T) {
		kind := rapid.SampledFrom([]topology.Kind{topology.Star, topology.Tree, topology.Binomial}).Draw(t, "kind")
		p := &problem.Problem{Kind: kind, Buffers: 1,
			M: rapid.IntRange(1, 5).Draw(t, "m"), P: rapid.IntRange(1, 3).Draw(t, "p"), H: rapid.IntRange(1, 4).Draw(t, "h"),
			Order: rapid.SampledFrom([]topology.Order{topology.NLF, topology.LLF}).Draw(t, "order"),
			S:     rapid.Float64Range(0, 1).Draw(t, "S"), C: rapid.Float64Range(0.01, 1).Draw(t, "C"),
			A: rapid.Float64Range(0.01, 1).Draw(t, "A"), V: rapid.Float64Range(1, 100).Draw(t, "V"), D: math.Inf(1)}
		n := rapid.IntRange(1, 3).Draw(t, "n")
		greedy, err := engine.Solve(p, n, popts(s, true))
		if err != nil {
			t.Fatal(err)
		}
		best, err := Search(p, n, Options{Engine: popts(s, true)})
		if err != nil {
			t.Fatal(err)
		}
		if best.Cmax > greedy.Cmax*(1+1e-9) {
			t.Fatalf("search %.12g worse than greedy %.12g", best.Cmax, greedy.Cmax)
		}
		if best.PatternLowerBound > best.Cmax*(1+1e-9) {
			t.Fatalf("pattern bound %.12g above Cmax %.12g", best.PatternLowerBound, best.Cmax)
		}
	})
}

// A star where the greedy prune of the full pattern stops short (found by
// a random search): m = 2, S = C = A = 1, V = 1.5, n = 2. Greedy gives 4.
// One stage on both processors gives 11/3: a1 = 4/3 arrives at 7/3 and
// ends at 11/3, a2 = 1/6 arrives at 7/3 + 1 + 1/6 = 3.5 and ends at 11/3.
// The search finds it twice over: it is the greedy schedule with n = 1,
// which seeds the search at n = 2 (the chain), and from n = 2 alone the
// destination subsets give 3.75 on processor 1 alone and a single-message
// change then 11/3. So does the exact MILP.
func TestSearchStarEscapesGreedy(t *testing.T) {
	s := newClp(t)
	p := &problem.Problem{Kind: topology.Star, M: 2, S: 1, C: 1, A: 1, D: math.Inf(1), V: 1.5}
	greedy, err := engine.Solve(p, 2, popts(s, true))
	if err != nil {
		t.Fatal(err)
	}
	best, err := Search(p, 2, Options{Engine: popts(s, true)})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(greedy.Cmax-4) > 1e-9 || math.Abs(best.Cmax-11.0/3) > 1e-9 || best.Pattern.Chain != 2 {
		t.Errorf("greedy %.10g (want 4), search %.10g over %d stage counts (want 11/3 over 2)", greedy.Cmax, best.Cmax, best.Pattern.Chain)
	}
	one := &chain{p: p, n: 2, lo: 2, opt: Options{Engine: popts(s, true)}}
	alone, _, err := one.searchAt(2, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(alone.Cmax-11.0/3) > 1e-9 || alone.Pattern.Moves == 0 {
		t.Errorf("search at n = 2 alone: %.10g with %d moves, want 11/3 by a single-message change", alone.Cmax, alone.Pattern.Moves)
	}
	if cbc.Available() {
		ex, err := Exact(p, 2, Options{Engine: popts(s, true)})
		if err != nil || math.Abs(ex.Cmax-11.0/3) > 1e-9 || ex.PatternGap > 1e-8 {
			t.Errorf("exact %v %+v, want 11/3 with a closed pattern gap", err, ex)
		}
	}
}

// Issue 19: a change of V in its 15th digit changed the greedy Cmax by
// 11% (binomial p = 2, h = 10, LLF, D = 1e4, n_min: 0.009102 and
// 0.010093). The search returns the same schedule for both, and a better
// one (0.0061853).
func TestSearchContinuousInVFig11(t *testing.T) {
	s := newClp(t)
	var got [2]float64
	for i, v := range []float64{177.82794100389228, 177.827941003892} {
		p := fig11(topology.LLF, 1e4, v)
		b, err := Search(p, p.NMin(), Options{Engine: popts(s, true)})
		if err != nil {
			t.Fatal(err)
		}
		got[i] = b.Cmax
	}
	if relDiff(got[0], got[1]) > 1e-6 || got[0] > 0.0062 {
		t.Errorf("Cmax %.10g and %.10g, want equal to 1e-6 and below 0.0062", got[0], got[1])
	}
}

// Search reports its chain of stage counts to Options.Progress: (0, total)
// first, then one call per count, in order, with or without a cache (the
// second call reads every count from it); the greedy prune alone reports
// nothing. Fig. 10's tree with V = 2,500 has n_min = ⌈2,500/(100·29)⌉ = 1,
// so the chain at n = 4 covers counts 1–4.
func TestSearchReportsProgress(t *testing.T) {
	s := newClp(t)
	p := fig11(topology.NLF, 1e2, 2500)
	cache := NewCache()
	want := "[0/4 1/4 2/4 3/4 4/4]"
	for _, opt := range []Options{{}, {Cache: cache}, {Cache: cache}} {
		var got []string
		opt.Engine = popts(s, true)
		opt.Progress = func(done, total int) { got = append(got, fmt.Sprintf("%d/%d", done, total)) }
		if _, err := Search(p, 4, opt); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != want {
			t.Errorf("cache %v: progress %v, want %s", opt.Cache != nil, got, want)
		}
	}
	called := false
	opt := Options{Engine: popts(s, true), Method: MethodGreedy, Progress: func(int, int) { called = true }}
	if _, _, err := Solve(p, 4, opt); err != nil {
		t.Fatal(err)
	}
	if called {
		t.Error("the greedy prune reported progress")
	}
}
