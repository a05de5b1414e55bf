package engine

import (
	"fmt"
	"math"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// Robustness at the paper's scales (Section 4.1: C=1e-6, A=1e-3, S=1e-3):
// V from 1 to 1e7, D from 1 to 1e6 and ∞, n from n_min up to 10,000. Every
// schedule must be certified (gap ≤ 1e-9) and satisfy every LP constraint
// within 1e-9 relative. The issue's own example (m=10, n=300, D=1e4,
// V=5e6), on which the unscaled LP misleads command-line solvers, is among
// them: its optimum is 500.0055556 (500 + the startup and first-stage
// overhead).
func TestRobustAtPaperScales(t *testing.T) {
	s := newClp(t)
	type inst struct {
		m, n int
		D, V float64
	}
	var cases []inst
	for _, V := range []float64{1, 1e2, 1e4, 5e6, 1e7} {
		for _, D := range []float64{1, 1e2, 1e4, 1e6, math.Inf(1)} {
			p := &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: D, V: V}
			nmin := p.NMin()
			if nmin > 300 {
				continue
			}
			cases = append(cases, inst{10, nmin, D, V})
			if 3*nmin <= 300 {
				cases = append(cases, inst{10, 3 * nmin, D, V})
			}
		}
	}
	cases = append(cases, inst{10, 300, 1e4, 5e6})
	if !testing.Short() {
		cases = append(cases, inst{10, 1000, 1e4, 5e6}, inst{1, 10000, 1e3, 1e6})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("m%d_n%d_D%g_V%g", c.m, c.n, c.D, c.V), func(t *testing.T) {
			p := &problem.Problem{Kind: topology.Star, M: c.m, S: 1e-3, C: 1e-6, A: 1e-3, D: c.D, V: c.V}
			sc, err := Solve(p, c.n, Options{Solver: s})
			if err != nil {
				t.Fatal(err)
			}
			if sc.Status != "optimal" {
				t.Errorf("status %s", sc.Status)
			}
			if sc.Gap > 1e-9 {
				t.Errorf("certified gap %.3g > 1e-9 (Cmax %.15g, bound %.15g, attempts %+v)", sc.Gap, sc.Cmax, sc.LowerBound, sc.Solve.Attempts)
			}
			if lb := p.LowerBoundLB(); sc.Cmax < lb*(1-1e-12) {
				t.Errorf("Cmax %.15g below the trivial bound S+VA/m = %.15g", sc.Cmax, lb)
			}
			checkAgainstLP(t, p, sc, 1e-9)
			if c.n == 300 && c.V == 5e6 && relDiff(sc.Cmax, 500.0055555555556) > 1e-9 {
				t.Errorf("Cmax %.12g, want 500.0055556", sc.Cmax)
			}
		})
	}
}
