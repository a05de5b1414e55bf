package engine

import (
	"math"
	"testing"
	"time"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/clp"
	"github.com/dlsched/dlsched/topology"
)

// warmCase is a run of neighbouring points that share one LP structure:
// a star (m=10, S=1e-3, C=1e-6, A=1e-3, D=inf) with n fixed, V along a log
// grid. With one scale for all points only the load row's bound Σα = V
// changes from one point to the next: the best case for a warm start.
func warmCase(n, points int) (*formulations.Network, []float64) {
	p := &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: math.Inf(1), V: 1e4}
	nw, err := formulations.NewNetwork(p, formulations.FullPattern(p, n))
	if err != nil {
		panic(err)
	}
	vs := make([]float64, points)
	for i := range vs {
		vs[i] = 1e4 * math.Pow(10, float64(i)/float64(points-1)) // 1e4 … 1e5
	}
	return nw, vs
}

// solveNeighbours solves the points cold (a fresh primal solve each, as
// Solve does) or warm (one load, then a dual re-solve from the
// previous basis after the bound change). It returns the total simplex
// iterations, the LP time and the objective values.
func solveNeighbours(tb testing.TB, n, points int, warm bool) (iters int, lpTime time.Duration, obj []float64) {
	nw, vs := warmCase(n, points)
	sc := formulations.NewScale(nw.Prob)
	model, lay := nw.Build(formulations.FormCompact, sc)
	s, err := clp.New()
	if err != nil {
		tb.Skip("clp not built in: ", err)
	}
	defer s.Close()
	first := solver.Options{Algorithm: solver.Primal, PrimalTolerance: 1e-10, DualTolerance: 1e-10}
	for i, v := range vs {
		b := v / sc.L0
		model.RowLower[lay.LoadRow], model.RowUpper[lay.LoadRow] = b, b
		t0 := time.Now()
		var sol *solver.Solution
		if warm && i > 0 {
			s.SetRowBounds(lay.LoadRow, b, b)
			sol, err = s.Resolve(solver.Options{Algorithm: solver.Dual, PrimalTolerance: 1e-10, DualTolerance: 1e-10})
		} else {
			sol, err = s.Solve(model, first)
		}
		lpTime += time.Since(t0)
		if err != nil {
			tb.Fatal(err)
		}
		iters += sol.Iterations
		obj = append(obj, sol.Objective*sc.T0)
	}
	return iters, lpTime, obj
}

// TestWarmStartNeighbours checks that warm and cold solves of neighbouring
// points agree, and logs what the warm start saves (go test -v -run
// WarmStart ./solve/engine/). The numbers are reported in
// docs/figures.md; Sequence is the engine's use of it.
func TestWarmStartNeighbours(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	for _, n := range []int{10, 100} {
		ci, ct, co := solveNeighbours(t, n, 20, false)
		wi, wt, wo := solveNeighbours(t, n, 20, true)
		for i := range co {
			if math.Abs(co[i]-wo[i]) > 1e-8*co[i] {
				t.Errorf("n=%d point %d: cold %.12g warm %.12g", n, i, co[i], wo[i])
			}
		}
		// The whole point as the engine solves it (build, solve, repair,
		// certify, prune), cold, for comparison.
		s, err := clp.New()
		if err != nil {
			t.Skip("clp not built in: ", err)
		}
		nw, vs := warmCase(n, 20)
		t0 := time.Now()
		for _, v := range vs {
			p := *nw.Prob
			p.V = v
			if _, err := Solve(&p, n, Options{Solver: s, Auto: true}); err != nil {
				t.Fatalf("V=%g: %v", v, err)
			}
		}
		whole := time.Since(t0)
		s.Close()
		t.Logf("n=%d, 20 neighbouring points: cold %d iterations %v, warm %d iterations %v; whole points (solve+prune+certify) %v",
			n, ci, ct.Round(time.Microsecond), wi, wt.Round(time.Microsecond), whole.Round(time.Millisecond))
	}
}
