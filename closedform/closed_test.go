package closedform

import (
	"fmt"
	"math"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// TestDStarByHand checks the Section 5 heuristics, as printed beside the
// LP results, against hand computation.
func TestDStarByHand(t *testing.T) {
	tree := func(b int) *problem.Problem {
		return &problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: b, P: 2, H: 3, S: 1e-3, C: 1e-6, A: 1e-3, D: 1, V: 1}
	}
	cases := []struct {
		name   string
		p      *problem.Problem
		exists bool
		want   float64
	}{
		// Section 4.1 system: mS/(A−mC) = 10·1e-3/(1e-3 − 10·1e-6) = 0.01/0.00099.
		{"star section 4.1", &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: 1, V: 1}, true, 10.101010101010101},
		// Fig. 9b: A − mC = 1e-3 − 10·1e-4 = 0: no D*.
		{"star fig9b", fig9b(), false, 0},
		// Fig. 9a: A − mC = 1e-4 − 1e-3 < 0: no D*.
		{"star fig9a", &problem.Problem{Kind: topology.Star, M: 10, S: 1e-1, C: 1e-4, A: 1e-4, D: 1, V: 1}, false, 0},
		// S(h+1)hp(p+1)^(h−2) / (2(A − Ch(p+1)^(h−1))) with p=2, h=3:
		// 1e-3·4·3·2·3 / (2·(1e-3 − 1e-6·3·9)) = 0.072/0.001946.
		{"binomial p2 h3", &problem.Problem{Kind: topology.Binomial, Order: topology.NLF, Buffers: 1, P: 2, H: 3, S: 1e-3, C: 1e-6, A: 1e-3, D: 1, V: 1}, true, 36.998972250770812},
		// Fig. 11: A − Ch(p+1)^(h−1) = 1e-3 − 1e-6·10·3^9 < 0: no D*.
		{"binomial fig11", fig11(topology.LLF, 1e4, 1e7), false, 0},
		// hS/(A/p^(h−1) − Ch) = 3e-3/(2.5e-4 − 3e-6) = 3e-3/2.47e-4.
		{"tree 2-buffer", tree(2), true, 12.145748987854251},
		// hS/(A/p^(h−1) − hC(1 + 1/p)) = 3e-3/(2.5e-4 − 4.5e-6) = 3e-3/2.455e-4.
		{"tree 1-buffer", tree(1), true, 12.219959266802444},
	}
	for _, c := range cases {
		d := DStarFor(c.p)
		line := fmt.Sprintf("D* = %g (%s) exists %v: %s", d.D, d.Formula, d.Exists, d.Why)
		if d.Exists != c.exists {
			t.Errorf("%s: exists = %v, want %v (%s)", c.name, d.Exists, c.exists, line)
			continue
		}
		if c.exists && relDiff(d.D, c.want) > 1e-12 {
			t.Errorf("%s: D* = %.17g, want %.17g", c.name, d.D, c.want)
		}
		if !c.exists && d.Why == "" {
			t.Errorf("%s: no reason given why no D* exists: %q", c.name, line)
		}
		t.Logf("%s: %s", c.name, line)
	}
	het := &problem.Problem{Kind: topology.Star, M: 2, Procs: []schedule.Proc{{S: 1, C: 1, A: 5}, {S: 1, C: 1, A: 5}}, D: 1, V: 1}
	rel := fig11(topology.NLF, 1, 1)
	rel.Relay = []int{1}
	for _, p := range []*problem.Problem{het, rel} {
		if d := DStarFor(p); d.Exists || d.Why == "" {
			t.Errorf("%s: D* %+v, want none with a reason", p.Kind, d)
		}
	}
}

// TestLBByHand checks the LB strategy of Section 4.2 on the Fig. 11 tree
// (p=2, h=10, A=1e-3, C=1e-6, S=1e-3) with V=1e7, D=1e6.
func TestLBByHand(t *testing.T) {
	p := fig11(topology.LLF, 1e6, 1e7)
	lb, pick, err := LBStrategy(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(lb) != 10 {
		t.Fatalf("%d layers, want 10", len(lb))
	}
	// Layer 10: P = 2·3^9 = 39366; n* = sqrt(AV/(iSP)) = sqrt(1e4/393.66).
	// n_min: the first step carries p(p+1)^8·α = 13122α ≤ 1e6 with
	// α = V/(n·39366), i.e. n ≥ 1e7/3e6: 4. Rounding: Cmax(5) = 5·(0.01 +
	// 1.0) + 1e-3·1e7/(5·39366) = 5.05 + 0.0508052634 = 5.1008052634 and
	// Cmax(6) = 6·(0.01 + 5/6) + 1e-3·1e7/(6·39366) = 5.1023377 — n = 5.
	l := lb[9]
	if l.Layer != 10 || l.Processors != 39366 || l.NMin != 4 || l.Stages != 5 || l.ComputeBound {
		t.Errorf("layer 10: %+v", l)
	}
	if relDiff(float64(l.NStar), math.Sqrt(1e4/393.66)) > 1e-12 {
		t.Errorf("layer 10: n* = %.15g, want %.15g", float64(l.NStar), math.Sqrt(1e4/393.66))
	}
	want := 5.05 + 1e4/(5*39366)
	if relDiff(l.Paper, want) > 1e-12 || relDiff(l.EqualChunks, want) > 1e-12 {
		t.Errorf("layer 10: paper %.15g, equal chunks %.15g, want both %.15g", l.Paper, l.EqualChunks, want)
	}
	if pick != 9 {
		t.Errorf("the paper's rule picks layer %d, want 10", lb[pick].Layer)
	}
	// Layer 1: P = 2, n* = sqrt(1e4/(1e-3·2)) = sqrt(5e6) = 2236.07; the
	// layer computes α = 1e7/(2·2236) per stage in Aα = 2.236 s, far more
	// than one scatter T = 1e-3 + 5/2236 = 0.0032 s: compute-bound. The
	// paper's value 2236·T + Aα = 9.472 is far below the trivial bound
	// S + AV/2 = 5000.001; the equal-chunk schedule really ends at T +
	// 2236·Aα = 5000.0032.
	l = lb[0]
	if l.Stages != 2236 || !l.ComputeBound || l.NMin != 5 {
		t.Errorf("layer 1: %+v", l)
	}
	T := 1e-3 + 1e-6*1e7/(2236*2)
	if w := 2236*T + 1e-3*1e7/(2236*2); relDiff(l.Paper, w) > 1e-12 {
		t.Errorf("layer 1: paper %.15g, want %.15g", l.Paper, w)
	}
	if w := T + 1e-3*1e7/2; relDiff(l.EqualChunks, w) > 1e-12 {
		t.Errorf("layer 1: equal chunks %.15g, want %.15g", l.EqualChunks, w)
	}
	if !(l.Paper < l.Trivial) || relDiff(l.Trivial, 5000.001) > 1e-12 {
		t.Errorf("layer 1: paper %.6g, trivial %.6g: the paper's value should be below the trivial bound 5000.001", l.Paper, l.Trivial)
	}
	// The true best equal-chunk layer for these parameters is also 10.
	if b := LBBest(lb); lb[b].Layer != 10 {
		t.Errorf("best equal-chunk layer %d, want 10", lb[b].Layer)
	}
	// With D = 1e4 the paper's rule is misled: it picks a compute-bound
	// layer whose formula undercounts computing (layer 5: 6.855 s against
	// a real 61.75 s), while the best real equal-chunk schedule is on
	// layer 7 (7.3585 s at n = n_min = 334).
	lb, pick, err = LBStrategy(fig11(topology.LLF, 1e4, 1e7))
	if err != nil {
		t.Fatal(err)
	}
	if lb[pick].Layer != 5 || !lb[pick].ComputeBound || lb[LBBest(lb)].Layer != 7 {
		t.Errorf("D=1e4: paper picks layer %d (compute-bound %v), best real layer %d; want 5, true, 7",
			lb[pick].Layer, lb[pick].ComputeBound, lb[LBBest(lb)].Layer)
	}
	t.Logf("D=1e4: paper's pick layer %d: formula %.6g, real %.6g; best real: layer %d, %.6g at n=%d",
		lb[pick].Layer, lb[pick].Paper, lb[pick].EqualChunks, lb[LBBest(lb)].Layer, lb[LBBest(lb)].BestEqualChunks, lb[LBBest(lb)].BestStages)
	// S = 0: no finite n*; n = n_min.
	z := fig11(topology.LLF, 1e6, 1e7)
	z.S = 0
	lb, _, err = LBStrategy(z)
	if err != nil || !math.IsInf(float64(lb[9].NStar), 1) || lb[9].Stages != lb[9].NMin {
		t.Errorf("S=0: %+v, %v", lb[9], err)
	}
	if _, _, err := LBStrategy(fig9b()); err == nil {
		t.Errorf("LB strategy accepted a star")
	}
}

func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(math.Max(math.Abs(a), math.Abs(b)), 1e-300)
}

// fig9b is the star of the paper's Fig. 9b with D = 1e5: m=10, S=1e-2,
// C=1e-4, A=1e-3, D=1e5, V=1e7.
func fig9b() *problem.Problem {
	return &problem.Problem{Kind: topology.Star, M: 10, S: 1e-2, C: 1e-4, A: 1e-3, D: 1e5, V: 1e7}
}

// fig11 is the binomial tree of the paper's Figs. 10–11 (p=2, h=10,
// A=1e-3, C=1e-6, S=1e-3) with the given order, D and V.
func fig11(o topology.Order, d, v float64) *problem.Problem {
	return &problem.Problem{Kind: topology.Binomial, Order: o, Buffers: 1, P: 2, H: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: d, V: v}
}
