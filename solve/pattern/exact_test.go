package pattern

import (
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/internal/testutil"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver/cbc"
	"github.com/dlsched/dlsched/topology"
)

func needCbc(t testing.TB) {
	if !cbc.Available() {
		t.Skip("Cbc is not built in (tag noclp)")
	}
}

// bruteForce returns the least LP makespan over every non-empty
// sub-pattern of the full n-stage pattern (each solved without pruning),
// +Inf if none is feasible.
func bruteForce(p *problem.Problem, n int, opt engine.Options) float64 {
	full := formulations.FullPattern(p, n)
	best := math.Inf(1)
	opt.NoPrune = true
	for mask := 1; mask < 1<<len(full); mask++ {
		var pat formulations.Pattern
		for j := range full {
			if mask&(1<<j) != 0 {
				pat = append(pat, full[j])
			}
		}
		if s, err := engine.SolveFrom(p, n, pat, opt); err == nil {
			best = math.Min(best, s.Cmax)
		}
	}
	return best
}

// randomSmall draws a small problem and a stage count with at most
// maxMsgs messages (ok false when none fits).
func randomSmall(r *rand.Rand, kinds []topology.Kind, maxMsgs, maxN int) (*problem.Problem, int, bool) {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	p := &problem.Problem{Kind: kinds[r.IntN(len(kinds))], Buffers: 1,
		M: 1 + r.IntN(4), P: 2, H: 1 + r.IntN(3), Order: topology.Order(r.IntN(2)),
		S: u(0, 1), C: u(0.01, 1), A: u(0.01, 1), V: u(1, 100), D: math.Inf(1)}
	if r.IntN(2) == 0 {
		p.D = p.V * u(0.2, 1)
	}
	n := p.NMin() + r.IntN(maxN)
	for n > p.NMin() && n*len(p.Dests()) > maxMsgs {
		n--
	}
	return p, n, n*len(p.Dests()) <= maxMsgs
}

// The pattern MILP is exact: its optimum equals the least makespan over
// every sub-pattern, found by enumerating them all, on random stars,
// binomial trees and 1-buffer ordinary trees of at most 8 messages.
func TestExactMatchesEnumeration(t *testing.T) {
	needCbc(t)
	s := testutil.Clp(t)
	r := rand.New(rand.NewPCG(19, 1))
	for k := 0; k < 40; k++ {
		p, n, ok := randomSmall(r, []topology.Kind{topology.Star, topology.Binomial, topology.Tree}, 6, 2)
		if !ok {
			continue
		}
		want := bruteForce(p, n, popts(s, true))
		got, err := Exact(p, n, Options{Engine: popts(s, true)})
		if err != nil {
			t.Fatal(err)
		}
		if relDiff(got.Cmax, want) > 1e-9 {
			t.Errorf("%+v n=%d: MILP pattern %.12g, enumeration %.12g", *p, n, got.Cmax, want)
		}
		if got.PatternLowerBound > want*(1+1e-7) {
			t.Errorf("pattern bound %.12g above the optimum %.12g", got.PatternLowerBound, want)
		}
	}
}

// How far the heuristic pattern search is from the exact optimum over
// patterns, on random small instances (stars m ≤ 4, n ≤ 4; trees p = 2,
// h ≤ 3, n ≤ 3; issue 19): the share within 1e-9 and the worst case are
// logged, and at least 95% must agree.
func TestSearchAgainstExact(t *testing.T) {
	needCbc(t)
	s := testutil.Clp(t)
	var gaps []float64
	// DLSCHED_EXACT_INSTANCES=N DLSCHED_EXACT_SEED=s runs a larger sample
	// (docs/formulations.md reports one).
	count, seed := 60, uint64(2)
	if v, err := strconv.Atoi(os.Getenv("DLSCHED_EXACT_INSTANCES")); err == nil && v > 0 {
		count = v
	}
	if v, err := strconv.ParseUint(os.Getenv("DLSCHED_EXACT_SEED"), 10, 64); err == nil {
		seed = v
	}
	r := rand.New(rand.NewPCG(19, seed))
	for k := 0; k < count; k++ {
		p, n, ok := randomSmall(r, []topology.Kind{topology.Star, topology.Binomial, topology.Tree}, 16, 3)
		if !ok {
			continue
		}
		ex, err := Exact(p, n, Options{Engine: popts(s, true)})
		if err != nil {
			t.Fatal(err)
		}
		best, err := Search(p, n, Options{Engine: popts(s, true)})
		if err != nil {
			t.Fatal(err)
		}
		if best.Cmax < ex.Cmax*(1-1e-9) {
			t.Errorf("%+v n=%d: search %.12g below the exact optimum %.12g", *p, n, best.Cmax, ex.Cmax)
		}
		gaps = append(gaps, math.Max((best.Cmax-ex.Cmax)/ex.Cmax, 0))
		if g := (best.Cmax - ex.Cmax) / ex.Cmax; g > 1e-9 {
			t.Logf("excess %.3g: %v n=%d D=%g S=%.3g C=%.3g A=%.3g V=%.3g m=%d h=%d %v: search %v, exact %v", g, p.Kind, n, p.D, p.S, p.C, p.A, p.V, p.M, p.H, p.Order, patternOf(best), patternOf(ex))
		}
	}
	sort.Float64s(gaps)
	agree := 0
	for _, g := range gaps {
		if g <= 1e-9 {
			agree++
		}
	}
	share := float64(agree) / float64(len(gaps))
	t.Logf("%d instances: search within 1e-9 of the exact optimum in %.1f%%; median excess %.3g, 90th percentile %.3g, worst %.3g",
		len(gaps), 100*share, gaps[len(gaps)/2], gaps[len(gaps)*9/10], gaps[len(gaps)-1])
	if share < 0.95 {
		t.Errorf("search agrees with the exact optimum in %.1f%% of the instances, want at least 95%%", 100*share)
	}
}
