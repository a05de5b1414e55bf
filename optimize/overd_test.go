package optimize

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/topology"
)

// smallStar has a Section 5 heuristic D* = mS/(A − mC) = 4·0.05/(0.01 −
// 0.004) = 33.33 and n_min(D) = ⌈1000/(4D)⌉.
func smallStar() *problem.Problem {
	return &problem.Problem{Kind: topology.Star, M: 4, S: 0.05, C: 1e-3, A: 1e-2, D: math.Inf(1), V: 1000}
}

// TestOverDMin: at n = n_min(D) (the paper's Fig. 7 setting) the curve has
// an interior minimum. Its value equals the best over all n with unlimited
// buffers (OverN at D = ∞, 2.708331659 at n = 8): a buffer of about D*
// loses nothing. The heuristic D* = 33.33 of Section 5 reaches that value
// too.
func TestOverDMin(t *testing.T) {
	s := newClp(t)
	p := smallStar()
	r, err := OverD(p, DOptions{Options: Options{Solve: popts(s, true)}, DMin: 10, DMax: 1000, Points: 7, Stages: StagesMin, Within: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	inf, err := OverN(p, Options{Solve: popts(s, true)})
	if err != nil {
		t.Fatal(err)
	}
	if inf.Best.Stages != 8 || relDiff(float64(inf.Best.Cmax), 2.708331659) > 1e-9 {
		t.Fatalf("D=inf: best n=%d Cmax=%.12g", inf.Best.Stages, float64(inf.Best.Cmax))
	}
	if r.Best.Stages != 8 || relDiff(float64(r.Best.Cmax), float64(inf.Best.Cmax)) > 1e-9 {
		t.Errorf("best D=%g n=%d Cmax=%.12g, want n=8 and the D=inf optimum %.12g", float64(r.Best.D), r.Best.Stages, float64(r.Best.Cmax), float64(inf.Best.Cmax))
	}
	if !r.DStar.Exists || relDiff(r.DStar.D, 0.2/0.006) > 1e-12 || r.AtDStar == nil || relDiff(float64(r.AtDStar.Cmax), float64(inf.Best.Cmax)) > 1e-9 {
		t.Errorf("D* = %v, at D*: %+v", r.DStar, r.AtDStar)
	}
	// The reported point is what solve gives at that D and n_min.
	q := *p
	q.D = float64(r.Best.D)
	sc, err := solve.Greedy(&q, q.NMin(), popts(s, true))
	if err != nil {
		t.Fatal(err)
	}
	if relDiff(sc.Cmax, float64(r.Best.Cmax)) > 1e-9 {
		t.Errorf("solve at D=%g: %.12g, OverD: %.12g", q.D, sc.Cmax, float64(r.Best.Cmax))
	}
	if r.Grid != 7 || len(r.Curve) <= r.Grid {
		t.Errorf("grid %d, curve %d points: no refinement?", r.Grid, len(r.Curve))
	}
	if !(float64(r.Smallest.D) <= float64(r.Best.D) && float64(r.Smallest.Cmax) <= float64(r.Best.Cmax)*1.01) {
		t.Errorf("smallest within 1%%: %+v; best %+v", r.Smallest, r.Best)
	}
	t.Logf("best D=%.6g n=%d Cmax=%.10g; smallest within 1%%: D=%.6g; D*=%.6g gives %.10g; %d points",
		float64(r.Best.D), r.Best.Stages, float64(r.Best.Cmax), float64(r.Smallest.D), r.DStar.D, float64(r.AtDStar.Cmax), len(r.Curve))
}

// TestOverDMonotone: for a fixed n, and for the best n per D, Cmax never
// increases with D; with n = 5 fixed, D < 50 is infeasible (n_min(D) =
// ⌈250/D⌉ > 5) and the plateau value is that of unlimited buffers.
func TestOverDMonotone(t *testing.T) {
	s := newClp(t)
	p := smallStar()
	for _, c := range []struct {
		rule  StageRule
		n     int
		prune bool
	}{{StagesFixed, 5, true}, {StagesBest, 0, false}} {
		r, err := OverD(p, DOptions{Options: Options{Solve: popts(s, c.prune)}, DMin: 10, DMax: 1000, Points: 7, Stages: c.rule, N: c.n, Within: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		prev := math.Inf(1)
		for _, pt := range r.Curve {
			if c.rule == StagesFixed && (float64(pt.D) < 50) != math.IsInf(float64(pt.Cmax), 1) {
				t.Errorf("%s: D=%g Cmax=%g: feasible iff D >= 50", c.rule, float64(pt.D), float64(pt.Cmax))
			}
			if float64(pt.Cmax) > prev*(1+1e-9) {
				t.Errorf("%s: Cmax rises to %.12g at D=%g (previous %.12g)", c.rule, float64(pt.Cmax), float64(pt.D), prev)
			}
			prev = float64(pt.Cmax)
		}
		if relDiff(float64(r.Best.Cmax), float64(r.Unlimited.Cmax)) > 1e-9 {
			t.Errorf("%s: best %.12g, unlimited buffers %.12g", c.rule, float64(r.Best.Cmax), float64(r.Unlimited.Cmax))
		}
		t.Logf("%s: best D=%.6g Cmax=%.10g; smallest within 1%%: D=%.6g Cmax=%.10g; D=inf: %.10g",
			c.rule, float64(r.Best.D), float64(r.Best.Cmax), float64(r.Smallest.D), float64(r.Smallest.Cmax), float64(r.Unlimited.Cmax))
	}
	if _, err := OverD(p, DOptions{Options: Options{Solve: popts(s, true)}, DMin: 10, DMax: 5}); err == nil {
		t.Errorf("D-max below D-min accepted")
	}
}

// TestOverNDFig9a: the surface of Fig. 9a (m=10, A=1e-4, C=1e-4, S=1e-1,
// V=1e7) for D = V/100 and V/10, unpruned. The LP sits on the bound L(n) =
// n·mS + CV = n + 1000 at its optimum: D = V/10 gives n = 2, Cmax = 1002;
// D = V/100 (n_min = 10) gives n = 11, Cmax = 1011. Lines are drawn
// through n = 6 (the first line's extension must stay above L(n)).
func TestOverNDFig9a(t *testing.T) {
	s := newClp(t)
	p, err := Fig9("a")
	if err != nil {
		t.Fatal(err)
	}
	r, err := OverND(p, []float64{1e5, 1e6}, Options{Solve: popts(s, false)}, 6)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		n    int
		cmax float64
	}{{11, 1011}, {2, 1002}}
	for i, l := range r.Lines {
		if !l.Covered || l.Best.Stages != want[i].n || relDiff(float64(l.Best.Cmax), want[i].cmax) > 1e-9 {
			t.Errorf("D=%g: best n=%d Cmax=%.12g covered=%v; want n=%d %g", l.D, l.Best.Stages, float64(l.Best.Cmax), l.Covered, want[i].n, want[i].cmax)
		}
		for _, pt := range l.Curve {
			if float64(pt.Cmax) < float64(pt.Bound)*(1-1e-9) {
				t.Errorf("D=%g n=%d: Cmax %.12g below L(n) %.12g", l.D, pt.Stages, float64(pt.Cmax), float64(pt.Bound))
			}
		}
	}
	if n := r.Lines[1].Curve[len(r.Lines[1].Curve)-1].Stages; n != 6 || r.Lines[1].Last != 2 {
		t.Errorf("D=V/10 drawn to n=%d (last of the search %d), want 6 (2)", n, r.Lines[1].Last)
	}
	if r.Best.Stages != 2 || float64(r.Best.D) != 1e6 {
		t.Errorf("surface best %+v, want D=1e6 n=2", r.Best)
	}
	if _, err := Fig9("c"); err == nil {
		t.Errorf("Fig9(c) accepted")
	}
}
