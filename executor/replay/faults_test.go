package replay

import (
	"fmt"
	"math"
	"testing"

	"github.com/dlsched/dlsched/schedule"
)

// section41 is the paper's Section 4.1 example: a star m=3, A=C=1, S=0,
// loads 1.5, 1, 0.5 sent in that order; every processor stops at 3.5.
func section41() *schedule.Schedule {
	return &schedule.Schedule{
		Problem: schedule.Problem{Topology: "star", M: 3, S: 0, C: 1, A: 1, D: schedule.Float(1.5), V: 3, Stages: 1},
		Chunks: []schedule.Chunk{
			{Stage: 1, Processor: 1, Load: 1.5},
			{Stage: 1, Processor: 2, Load: 1},
			{Stage: 1, Processor: 3, Load: 0.5},
		},
	}
}

// Faults on the Section 4.1 star, worked by hand: P1 receives 0..1.5 and
// computes 1.5 units from 1.5; P2 receives 1.5..2.5, computes to 3.5; P3
// receives 2.5..3, computes to 3.5.
func TestFaultsOnStar(t *testing.T) {
	cases := []struct {
		name       string
		faults     []Fault
		makespan   float64
		incomplete string
		lost       float64
	}{
		{"none", nil, 3.5, "[]", 0},
		// P1 at half speed from the start: 1.5 units take 3: ends 4.5.
		{"P1 slowed from 0", []Fault{{Node: 1, At: 0, Speed: 0.5}}, 4.5, "[]", 0},
		// From t=2: 0.5 done by then, 1 left at speed 0.5: ends 4.
		{"P1 slowed at 2", []Fault{{Node: 1, At: 2, Speed: 0.5}}, 4, "[]", 0},
		// P1 stalled 2..3 then back to speed 1: ends 4.
		{"P1 stalled", []Fault{{Node: 1, At: 2, Speed: 0}, {Node: 1, At: 3, Speed: 1}}, 4, "[]", 0},
		// P2 crashes at 2 while its message arrives: the transfer still
		// occupies the link to 2.5, chunk 2 (load 1) is lost; P3 is
		// unaffected (3.5); P1 ends at 3.
		{"P2 crashes at 2", []Fault{{Node: 2, At: 2, Crash: true}}, 3.5, "[1]", 1},
		// P3 crashes at 3.2 while computing: chunk 3 lost; P2 ends 3.5.
		{"P3 crashes computing", []Fault{{Node: 3, At: 3.2, Crash: true}}, 3.5, "[2]", 0.5},
		{"crash after the end", []Fault{{Node: 1, At: 10, Crash: true}}, 3.5, "[]", 0},
	}
	for _, tc := range cases {
		r, err := Earliest(section41(), Options{Faults: tc.faults})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(r.Makespan-tc.makespan) > 1e-12 || fmt.Sprint(r.Incomplete) != tc.incomplete && !(tc.incomplete == "[]" && r.Incomplete == nil) || r.LostLoad != tc.lost {
			t.Errorf("%s: makespan %g incomplete %v lost %g; want %g %s %g", tc.name, r.Makespan, r.Incomplete, r.LostLoad, tc.makespan, tc.incomplete, tc.lost)
		}
	}
	for _, bad := range []Fault{{Node: 0, Speed: 1}, {Node: 4, Speed: 1}, {Node: 1, At: -1, Speed: 1}, {Node: 1, Speed: math.NaN()}} {
		if _, err := Earliest(section41(), Options{Faults: []Fault{bad}}); err == nil {
			t.Errorf("fault %+v accepted", bad)
		}
	}
	if _, err := Verify(section41(), Options{Faults: []Fault{{Node: 1, Speed: 1}}}); err == nil {
		t.Error("Verify accepted faults")
	}
}

// A crashed inner node of an ordinary tree starves its subtree: every
// chunk for a layer below loses the processors under it, and the replay
// ends without a deadlock error.
func TestCrashStarvesSubtree(t *testing.T) {
	s := treeH3(t, 1, "nlf") // p = 2, h = 3: node 1 has 2 children and 4 grandchildren
	r, err := Earliest(s, Options{Faults: []Fault{{Node: 1, At: 0, Crash: true}}})
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	var wantInc []int
	for i, c := range s.Chunks {
		// under node 1: itself in layer 1, 2 nodes in layer 2, 4 in layer 3
		want += c.Load * math.Pow(2, float64(c.Layer-1))
		wantInc = append(wantInc, i)
	}
	if math.Abs(r.LostLoad-want) > 1e-12 || fmt.Sprint(r.Incomplete) != fmt.Sprint(wantInc) {
		t.Fatalf("lost %g incomplete %v, want %g %v", r.LostLoad, r.Incomplete, want, wantInc)
	}
	// The other half of the tree computes as planned.
	nominal, err := Earliest(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Makespan-nominal.Makespan) > 1e-12 {
		t.Fatalf("makespan %g, nominal %g", r.Makespan, nominal.Makespan)
	}
}

// Busy counts each node's computing time at the speed it ran, worked by
// hand on the Section 4.1 star (A = 1): nominal 1.5, 1, 0.5; P1 at half
// speed from 2 (0.5 units done by then, 1 left at half speed) takes
// 0.5 + 2 = 2.5; a crash of P3 at 3.2 cuts its only chunk short, so P3
// counts nothing. Busy never exceeds the makespan, the bound compare's
// utilisation rests on.
func TestBusyWithFaults(t *testing.T) {
	cases := []struct {
		name   string
		faults []Fault
		busy   []float64
	}{
		{"none", nil, []float64{0, 1.5, 1, 0.5}},
		{"P1 slowed at 2", []Fault{{Node: 1, At: 2, Speed: 0.5}}, []float64{0, 2.5, 1, 0.5}},
		{"P1 ten times faster from 0", []Fault{{Node: 1, At: 0, Speed: 10}}, []float64{0, 0.15, 1, 0.5}},
		{"P3 crashes computing", []Fault{{Node: 3, At: 3.2, Crash: true}}, []float64{0, 1.5, 1, 0}},
	}
	for _, tc := range cases {
		r, err := Earliest(section41(), Options{Faults: tc.faults})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(r.Busy) != len(tc.busy) {
			t.Fatalf("%s: busy %v, want %v", tc.name, r.Busy, tc.busy)
		}
		for i := range tc.busy {
			if math.Abs(r.Busy[i]-tc.busy[i]) > 1e-12 || r.Busy[i] > r.Makespan {
				t.Errorf("%s: busy %v, want %v (makespan %g)", tc.name, r.Busy, tc.busy, r.Makespan)
				break
			}
		}
	}
}
