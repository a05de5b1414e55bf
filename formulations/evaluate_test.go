package formulations

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/closedform"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// Hand-computed earliest schedule of an ordinary tree p=2, h=2, 1-buffer,
// NLF, one stage, S=1, C=1, α = (1, 1) (α per processor):
//
//	message to layer 1: hop 0 lasts S + C·1 = 2          → [0, 2]
//	message to layer 2: hop 0 carries p·α = 2: S+2C = 3  → [2, 5]
//	                    (layer-1 node's buffer is free: its own load left on arrival)
//	                    hop 1 carries α = 1: 2           → [5, 7]
//	layer 1 computes [2, 2+A], layer 2 computes [7, 7+A]; with A = 1: Cmax 8.
func TestEvaluateTreeByHand(t *testing.T) {
	p := &problem.Problem{Kind: topology.Tree, P: 2, H: 2, Buffers: 1, S: 1, C: 1, A: 1, D: math.Inf(1), V: 2*1 + 4*1}
	nw, err := NewNetwork(p, FullPattern(p, 1))
	if err != nil {
		t.Fatal(err)
	}
	tm := nw.Evaluate([]float64{1, 1})
	wantStart := []float64{0, 2, 5}
	wantEnd := []float64{2, 5, 7}
	for h := range wantStart {
		if tm.Start[h] != wantStart[h] || tm.End[h] != wantEnd[h] {
			t.Errorf("hop %d: [%g, %g], want [%g, %g]", h, tm.Start[h], tm.End[h], wantStart[h], wantEnd[h])
		}
	}
	if tm.Cmax != 8 {
		t.Errorf("Cmax %g, want 8", tm.Cmax)
	}
	// Two stages: the second message to layer 1 may enter the layer-1 node
	// only after it relayed the layer-2 message (1-buffer): at 7, not 5.
	nw2, _ := NewNetwork(p, FullPattern(p, 2))
	tm2 := nw2.Evaluate([]float64{1, 1, 0, 0})
	if got := tm2.Start[nw2.MsgHops[2][0]]; got != 7 {
		t.Errorf("1-buffer: stage-2 message to layer 1 starts at %g, want 7", got)
	}
	p.Buffers = 2
	nw3, _ := NewNetwork(p, FullPattern(p, 2))
	tm3 := nw3.Evaluate([]float64{1, 1, 0, 0})
	// 2-buffer: it waits for the message two before it at that node (the
	// stage-1 own load, arrived at 2) and for the link (free at 5).
	if got := tm3.Start[nw3.MsgHops[2][0]]; got != 5 {
		t.Errorf("2-buffer: stage-2 message to layer 1 starts at %g, want 5", got)
	}
}

func TestRepairLoads(t *testing.T) {
	p := &problem.Problem{Kind: topology.Star, M: 3, S: 0, C: 1, A: 1, D: 1.5, V: 3}
	nw, _ := NewNetwork(p, FullPattern(p, 1))
	got, err := nw.RepairLoads([]float64{1.5000001, 1 - 1e-9, -1e-12})
	if err != nil {
		t.Fatal(err)
	}
	sum := got[0] + got[1] + got[2]
	if got[0] > 1.5 || got[2] < 0 || math.Abs(sum-3) > 1e-15 {
		t.Errorf("repaired %v sums to %.17g", got, sum)
	}
	if _, err := nw.RepairLoads([]float64{0, 0, 0}); err != nil {
		t.Errorf("all-zero loads must be spread: %v", err)
	}
	tight := &problem.Problem{Kind: topology.Star, M: 2, S: 0, C: 1, A: 1, D: 1, V: 3}
	nw2, _ := NewNetwork(tight, FullPattern(tight, 1))
	if _, err := nw2.RepairLoads([]float64{1, 1}); err == nil {
		t.Errorf("V=3 cannot fit in two messages of D=1")
	}
}

// Section 4.1: m=3, A=C=1, S=0, V=3, D=∞ → loads 12/7, 6/7, 3/7, Cmax 24/7.
func TestStarEqualFinishPaperExample(t *testing.T) {
	a, cmax, ok := closedform.StarEqualFinish(3, 0, 1, 1, 3)
	if !ok || math.Abs(cmax-24.0/7) > 1e-15 {
		t.Fatalf("Cmax %g ok %v, want 24/7", cmax, ok)
	}
	for i, want := range []float64{12.0 / 7, 6.0 / 7, 3.0 / 7} {
		if math.Abs(a[i]-want) > 1e-15 {
			t.Errorf("α_%d = %g, want %g", i+1, a[i], want)
		}
	}
	if _, _, ok := closedform.StarEqualFinish(5, 10, 1, 1, 1); ok {
		t.Errorf("S=10 with V=1 cannot keep 5 processors busy; ok must be false")
	}
}
