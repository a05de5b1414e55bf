package order

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/dlsched/dlsched/internal/testutil"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/topology"
	"pgregory.net/rapid"
)

func opts(t testing.TB) Options {
	return Options{Engine: engine.Options{Solver: testutil.Clp(t), Auto: true}}
}

func star(procs []schedule.Proc, d, v float64) *problem.Problem {
	return &problem.Problem{Kind: topology.Star, M: len(procs), Procs: procs, D: d, V: v}
}

// canonical is DLT-Studio's five-worker instance (S:C:A), the issue's
// example.
func canonical() *problem.Problem {
	return star([]schedule.Proc{{S: 0, C: .23, A: .12}, {S: 0, C: .11, A: .23}, {S: 0, C: .11, A: .11},
		{S: 0, C: .11, A: .31}, {S: 0, C: .11, A: .11}}, math.Inf(1), 1e6)
}

// The canonical instance: the given order's LP is 125,689.14, the
// best order reaches 120,296.70 — the 4 3 5 2 1, or an order of
// equal makespan (with S = 0 the processors of equal C_i, 2 to 5, may
// come in any order) — proved optimal over every order and subset.
func TestCanonical(t *testing.T) {
	p := canonical()
	o := opts(t)
	r, err := Search(p, 1, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("order %v Cmax %.6f bound %.6f method %s LPs %d note %q", r.Order, r.Cmax, r.Bound, r.Method, r.LPs, r.Note)
	if math.Abs(r.Cmax-120296.70) > 0.005 || r.Method != MethodExact || r.Gap() > 1e-8 {
		t.Errorf("got %v Cmax %.4f gap %g %s", r.Order, r.Cmax, r.Gap(), r.Method)
	}
	sr := newSearcher(p, 1, o)
	for _, c := range []struct {
		order []int
		want  float64
	}{{[]int{4, 3, 5, 2, 1}, r.Cmax}, {[]int{1, 2, 3, 4, 5}, 125689.14}} {
		f, _, _, err := sr.value(c.order)
		if err != nil || math.Abs(f-c.want) > 0.005 {
			t.Errorf("F(%v) = %.6f (%v), want %.2f", c.order, f, err, c.want)
		}
	}
}

// orders calls f with every order of every non-empty subset of 1..m.
func orders(m int, f func([]int)) {
	var rec func(prefix []int, used []bool)
	rec = func(prefix []int, used []bool) {
		if len(prefix) > 0 {
			f(prefix)
		}
		for d := 1; d <= m; d++ {
			if !used[d] {
				used[d] = true
				rec(append(slices.Clone(prefix), d), used)
				used[d] = false
			}
		}
	}
	rec(nil, make([]bool, m+1))
}

// randomStar draws a star of 1 to 5 processors with startups, zero C or A
// now and then, finite or unlimited buffers, results or none.
func randomStar(t *rapid.T) (*problem.Problem, int) {
	m := rapid.IntRange(1, 5).Draw(t, "m")
	procs := make([]schedule.Proc, m)
	for i := range procs {
		q := schedule.Proc{
			S: rapid.SampledFrom([]float64{0, 0, 0.5, 2}).Draw(t, "S"),
			C: rapid.SampledFrom([]float64{0, 0.05, 0.1, 0.3, 1}).Draw(t, "C"),
			A: rapid.SampledFrom([]float64{0.1, 0.2, 0.5, 1, 3}).Draw(t, "A"),
		}
		if q.C > 0 && rapid.IntRange(0, 9).Draw(t, "A=0") == 0 {
			q.A = 0
		}
		procs[i] = q
	}
	p := star(procs, math.Inf(1), rapid.SampledFrom([]float64{10, 100}).Draw(t, "V"))
	n := rapid.IntRange(1, 3).Draw(t, "n")
	if rapid.Bool().Draw(t, "finite D") {
		// A hair above V/k, as solve's randomStar draws it: V/9 rounded
		// down gave n_min = ⌈100/(100/9·3)⌉ = ⌈3.0000000000000004⌉ = 4 > n = 3.
		p.D = p.V / float64(rapid.IntRange(1, m*n).Draw(t, "messages")) * (1 + 1e-12)
	}
	if rapid.IntRange(0, 2).Draw(t, "results") == 0 {
		p.ResultRatio = rapid.SampledFrom([]float64{0.1, 0.5}).Draw(t, "beta")
		p.Return = rapid.SampledFrom([]problem.ReturnOrder{problem.ReturnFIFO, problem.ReturnLIFO}).Draw(t, "return")
	}
	return p, n
}

// On random stars of up to five processors (limited buffers, several
// stages, results), the search equals brute force — the LP of every order
// of every subset — and is never worse than the given order; the
// relaxation of a random prefix is below every one of its completions.
func TestAgainstBruteForce(t *testing.T) {
	slv := testutil.Clp(t)
	rapid.Check(t, func(t *rapid.T) {
		p, n := randomStar(t)
		o := Options{Engine: engine.Options{Solver: slv, Auto: true}}
		r, err := Search(p, n, o)
		if err != nil {
			t.Fatalf("%+v n=%d: %v", p, n, err)
		}
		bf := newSearcher(p, n, o)
		best := math.Inf(1)
		var bestOrder []int
		completions := map[string]float64{}
		prefix := rapid.SliceOfNDistinct(rapid.IntRange(1, p.M), 0, p.M, rapid.ID[int]).Draw(t, "prefix")
		orders(p.M, func(ord []int) {
			f, _, _, err := bf.value(ord)
			if err != nil {
				t.Fatal(err)
			}
			if f < best {
				best, bestOrder = f, slices.Clone(ord)
			}
			if len(ord) >= len(prefix) && len(ord) > 0 && slices.Equal(ord[:len(prefix)], prefix) {
				completions[fmt.Sprint(ord)] = f
			}
		})
		if math.IsInf(best, 1) {
			t.Skip("no order can carry V")
		}
		if rel := (r.Cmax - best) / best; math.Abs(rel) > 1e-8 || r.Method != MethodExact {
			t.Fatalf("search %v %.12g (%s), brute force %v %.12g", r.Order, r.Cmax, r.Method, bestOrder, best)
		}
		if r.Bound > best*(1+1e-8) {
			t.Fatalf("bound %.12g above the best %.12g", r.Bound, best)
		}
		given, _, _, _ := bf.value(bf.all())
		if r.Cmax > given*(1+1e-9) {
			t.Fatalf("search %.12g worse than the given order %.12g", r.Cmax, given)
		}
		rest := without(bf.all(), -1)
		for _, d := range prefix {
			rest = without(rest, d)
		}
		if len(prefix)+len(rest) == 0 {
			return
		}
		lb, err := bf.relaxation(prefix, rest)
		if err != nil {
			t.Fatal(err)
		}
		for ord, f := range completions {
			if lb > f*(1+1e-8) {
				t.Fatalf("relaxation of %v over %v: %.12g above the completion %s: %.12g", prefix, rest, lb, ord, f)
			}
		}
	})
}

// Without startups, with one installment, unlimited buffers and no
// results, every processor is used and the order by non-decreasing C_i is
// the best over every order and subset (Beaumont, Casanova, Legrand,
// Robert and Yang, IEEE TPDS 16(3), 2005; Bharadwaj et al. 1996): brute
// force agrees on random stars. The heuristic's bound rests on it.
func TestClassicalOrderOptimalWithoutStartups(t *testing.T) {
	slv := testutil.Clp(t)
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.IntRange(1, 5).Draw(t, "m")
		procs := make([]schedule.Proc, m)
		for i := range procs {
			procs[i] = schedule.Proc{C: rapid.Float64Range(0.01, 1).Draw(t, "C"), A: rapid.Float64Range(0.01, 2).Draw(t, "A")}
		}
		p := star(procs, math.Inf(1), 100)
		s := newSearcher(p, 1, Options{Engine: engine.Options{Solver: slv, Auto: true}})
		f0, _, _, err := s.value(s.classical())
		if err != nil {
			t.Fatal(err)
		}
		orders(m, func(ord []int) {
			f, _, _, err := s.value(ord)
			if err != nil {
				t.Fatal(err)
			}
			if f < f0*(1-1e-9) {
				t.Fatalf("order %v: %.12g below the classical order's %.12g", ord, f, f0)
			}
		})
	})
}
