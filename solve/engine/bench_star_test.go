package engine

import (
	"fmt"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// benchStar is the star of the paper's Section 4.1 (m=10, C=1e-6, A=1e-3,
// S=1e-3, V=5e6) with the buffer D = V/n, so that n_min = n/10: n = 1,000
// stages with D = 5e3 is the paper's scale.
func benchStar(n int) *problem.Problem {
	return &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: 5e6 / float64(n)}
}

// BenchmarkStarSolve measures dlsched end to end — generate, solve,
// repair, certify, prune — for m=10 and n = 10 ... 10,000 in both forms.
// The paper form's computing rows carry O(n) terms: at n = 10,000 it needs
// about 5·10^8 nonzeros and is refused by the memory limit.
// starSizes are the stage counts of the star benchmarks; -short (make bench)
// leaves out n = 10,000, which takes about five minutes per solve.
func starSizes() []int {
	if testing.Short() {
		return []int{10, 100, 1000}
	}
	return []int{10, 100, 1000, 10000}
}

func BenchmarkStarSolve(b *testing.B) {
	s := newClp(b)
	for _, f := range []formulations.Form{formulations.FormCompact, formulations.FormPaper} {
		for _, n := range starSizes() {
			b.Run(fmt.Sprintf("%s/n=%d", f, n), func(b *testing.B) {
				p := benchStar(n)
				nw, _ := formulations.NewNetwork(p, formulations.FullPattern(p, n))
				est := nw.Estimate(f)
				if f == formulations.FormPaper && n >= 1000 && testing.Short() || est.Bytes() > DefaultMaxModelBytes {
					b.Skipf("%s form n=%d: %d nonzeros (~%d MB)", f, n, est.Nonzeros, est.Bytes()>>20)
				}
				for i := 0; i < b.N; i++ {
					r, err := Solve(p, n, Options{Solver: s, Form: f, Auto: true})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(r.Solve.Variables), "vars")
					b.ReportMetric(r.Gap, "gap")
				}
			})
		}
	}
}

// BenchmarkStarBareClp is the reference for the 1.1x target: the same
// compact model (built outside the timer) solved once by Clp with the
// settings of dlsched's first attempt (FirstAttempt: primal simplex,
// presolve, tolerances 1e-10 primal and 1e-12 dual), nothing else.
func BenchmarkStarBareClp(b *testing.B) {
	s := newClp(b)
	for _, n := range starSizes() {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			p := benchStar(n)
			nw, _ := formulations.NewNetwork(p, formulations.FullPattern(p, n))
			m, _ := nw.Build(formulations.FormCompact, formulations.NewScale(p))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := s.Solve(m, FirstAttempt(solver.Options{})); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStarNoPrune is the end-to-end solve without the prune loop:
// generate, solve, repair, certify (and polish when needed).
func BenchmarkStarNoPrune(b *testing.B) {
	s := newClp(b)
	for _, n := range starSizes() {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			p := benchStar(n)
			for i := 0; i < b.N; i++ {
				if _, err := Solve(p, n, Options{Solver: s, Auto: true, NoPrune: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStarStageGeneration compares, in one run, the certified solve
// without pruning by stage generation (the default) and of the full LP at
// once (NoStageGeneration) for m=10, D = V/n; the ratio of the two is the
// speed-up of issue 17. n = 10,000 of the full LP takes minutes and runs
// only without -short.
func BenchmarkStarStageGeneration(b *testing.B) {
	s := newClp(b)
	for _, n := range []int{1000, 3000, 10000} {
		for _, full := range []bool{false, true} {
			name := fmt.Sprintf("generated/n=%d", n)
			if full {
				name = fmt.Sprintf("full/n=%d", n)
			}
			b.Run(name, func(b *testing.B) {
				if n == 10000 && full && testing.Short() {
					b.Skip("minutes per solve")
				}
				p := benchStar(n)
				for i := 0; i < b.N; i++ {
					r, err := Solve(p, n, Options{Solver: s, Auto: true, NoPrune: true, NoStageGeneration: full})
					if err != nil {
						b.Fatal(err)
					}
					if !r.Solve.Certified {
						b.Fatalf("not certified: gap %.3g", r.Gap)
					}
					b.ReportMetric(r.Gap, "gap")
				}
			})
		}
	}
}
