package engine

import (
	"fmt"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// Section 4 of the paper: "The biggest successfully solved instance had
// over 50000 variables and 156000 constraints."
const (
	paperLargestVars = 50000
	paperLargestRows = 156000
)

// largestTree returns the ordinary tree of Section 4.2 (p=2, h=10,
// S=1e-3, C=1e-6, A=1e-3, D=1e2) with the given layer order and buffers,
// and the smallest n whose LP in form f has more than 50,000 variables and
// 156,000 constraints (binary search on Network.Estimate, then checked on
// the built model); V = phD·n/2, so n = 2·n_min.
func largestTree(o topology.Order, buffers int, f formulations.Form) (*problem.Problem, int) {
	p := &problem.Problem{Kind: topology.Tree, Order: o, Buffers: buffers, P: 2, H: 10,
		S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2}
	setV := func(n int) { p.V = float64(p.P*p.H) * p.D * float64(n) / 2 }
	above := func(n int, exact bool) bool {
		setV(n)
		nw, err := formulations.NewNetwork(p, formulations.FullPattern(p, n))
		if err != nil {
			panic(err)
		}
		if exact {
			m, _ := nw.Build(f, formulations.NewScale(p))
			return m.NumVars() > paperLargestVars && m.NumRows() > paperLargestRows
		}
		e := nw.Estimate(f)
		return e.Vars > paperLargestVars && e.Rows > paperLargestRows
	}
	lo, hi := 1, 2
	for !above(hi, false) {
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; above(mid, false) {
			hi = mid
		} else {
			lo = mid
		}
	}
	n := hi
	for !above(n, true) {
		n++
	}
	setV(n)
	return p, n
}

// BenchmarkTreeLargest solves an ordinary tree p=2, h=10 (TreeNLF-1,
// compact form) at the smallest n whose LP exceeds the paper's biggest
// instance (over 50,000 variables and 156,000 constraints): generate, Clp
// (dlsched's automatic first attempt, primal simplex), repair, certify —
// one LP, without the prune loop, which would re-solve LPs of about the
// same size several times. It reports the LP's size (vars, rows,
// nonzeros), the certified gap, Cmax and the simplex iterations. It takes
// minutes: run it once with
//
//	go test -run '^$' -bench TreeLargest -benchtime 1x -timeout 0 ./solve/engine
//
// It is skipped under -short.
func BenchmarkTreeLargest(b *testing.B) {
	if testing.Short() {
		b.Skip("minutes per solve")
	}
	s := newClp(b)
	p, n := largestTree(topology.NLF, 1, formulations.FormCompact)
	b.Run(fmt.Sprintf("nlf-1/compact/n=%d", n), func(b *testing.B) {
		nw, _ := formulations.NewNetwork(p, formulations.FullPattern(p, n))
		m, _ := nw.Build(formulations.FormCompact, formulations.NewScale(p))
		if m.NumVars() <= paperLargestVars || m.NumRows() <= paperLargestRows {
			b.Fatalf("n=%d: %d variables, %d constraints: not above the paper's", n, m.NumVars(), m.NumRows())
		}
		b.ResetTimer() // (also clears reported metrics: report after it)
		for i := 0; i < b.N; i++ {
			sc, err := Solve(p, n, Options{Solver: s, Auto: true, NoPrune: true})
			if err != nil {
				b.Fatal(err)
			}
			if !sc.Solve.Certified {
				b.Errorf("not certified: gap %.3g (%s)", sc.Gap, sc.Solve.Note)
			}
			b.ReportMetric(sc.Gap*1e12, "gap·1e12")
			b.ReportMetric(sc.Cmax, "cmax")
			it := 0
			for _, a := range sc.Solve.Attempts {
				it += a.Iterations
			}
			b.ReportMetric(float64(it), "iterations")
		}
		b.ReportMetric(float64(m.NumVars()), "vars")
		b.ReportMetric(float64(m.NumRows()), "rows")
		b.ReportMetric(float64(m.NumNonzeros()), "nonzeros")
	})
}

// BenchmarkFig10LP times one LP of the paper's Fig. 10 sweep (binomial
// NLF, p = 2, h = 10, D = 1e2, V = 2500, n = 5: 140 rows, 141 columns)
// three ways: Clp alone on the prebuilt model with the first attempt's
// settings (load, presolve, primal simplex, postsolve, copying the
// solution out), the cold SolvePattern (build, solve, repair, certify), and
// Solve with the prune loop as the sweep runs it. Most of Clp's time on so
// small an LP is its per-solve set-up, not the simplex (README, Sweeps):
//
//	go test ./solve/engine -run '^$' -bench Fig10LP
func BenchmarkFig10LP(b *testing.B) {
	s := newClp(b)
	p := &problem.Problem{Kind: topology.Binomial, Order: topology.NLF, P: 2, H: 10,
		S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 2500}
	const n = 5
	pat := formulations.FullPattern(p, n)
	nw, err := formulations.NewNetwork(p, pat)
	if err != nil {
		b.Fatal(err)
	}
	m, _ := nw.Build(formulations.FormCompact, formulations.NewScale(p))
	b.Run("clp", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.Solve(m, FirstAttempt(solver.Options{})); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pattern", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := SolvePattern(p, pat, Options{Solver: s, Auto: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pruned", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Solve(p, n, Options{Solver: s, Auto: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
