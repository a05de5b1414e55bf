package replay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/internal/leakcheck"

	"github.com/dlsched/dlsched/schedule"
)

func inf() schedule.Float { return schedule.Float(math.Inf(1)) }

// Star, m=3, A=C=1, S=0, D=∞ (paper Section 4.1 and closed forms).
func TestStarHandCases(t *testing.T) {
	pr := schedule.Problem{Topology: "star", M: 3, S: 0, C: 1, A: 1, D: inf(), Stages: 1}
	cases := []struct {
		name  string
		loads [3]float64
		want  float64
		// per-processor finish times
		finish [3]float64
	}{
		// Equal finishing times: α1 = 2α2 = 4α3 (each processor's
		// compute A·α_i equals the next one's transfer + compute),
		// Σ = 3 → α = (12/7, 6/7, 3/7), Cmax = C·α1 + A·α1 = 24/7.
		{"equal-finish", [3]float64{12.0 / 7, 6.0 / 7, 3.0 / 7}, 24.0 / 7, [3]float64{24.0 / 7, 24.0 / 7, 24.0 / 7}},
		// Paper Section 4.1: D = 1 forces α = 1 each; the transfers end
		// at 1, 2, 3 and the computations at 2, 3, 4.
		{"D=1", [3]float64{1, 1, 1}, 4, [3]float64{2, 3, 4}},
		// Paper Section 4.1: α' = (1.5, 1, 0.5) "processors stop
		// computing at time 3.5": 1.5+1.5 = 3, 2.5+1 = 3.5, 3+0.5 = 3.5.
		{"paper-3.5", [3]float64{1.5, 1, 0.5}, 3.5, [3]float64{3, 3.5, 3.5}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSchedule(pr, []msg{{1, 1, tc.loads[0]}, {1, 2, tc.loads[1]}, {1, 3, tc.loads[2]}})
			r := fillEarliest(t, s)
			if !approx(r.Makespan, tc.want) {
				t.Fatalf("makespan %.15g, want %.15g", r.Makespan, tc.want)
			}
			for i := 0; i < 3; i++ {
				if !approx(r.Finish[i+1], tc.finish[i]) {
					t.Errorf("P%d finishes at %g, want %g", i+1, r.Finish[i+1], tc.finish[i])
				}
			}
			v, err := Verify(s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !v.OK || !approx(v.Makespan, tc.want) || !approx(v.EarliestMakespan, tc.want) || v.Processors != 3 {
				t.Fatalf("verification %+v", v)
			}
		})
	}
}

// Heterogeneous star: P1 (S=1, C=2, A=3), P2 (S=0.5, C=1, A=1), loads
// 1 and 2. Transfers 0..3 and 3..5.5; computations 3..6 and 5.5..7.5.
func TestHeteroStarHand(t *testing.T) {
	pr := schedule.Problem{Topology: "star", M: 2, D: inf(),
		Procs: []schedule.Proc{{S: 1, C: 2, A: 3}, {S: 0.5, C: 1, A: 1}}}
	s := newSchedule(pr, []msg{{1, 1, 1}, {1, 2, 2}})
	r := fillEarliest(t, s)
	if r.Makespan != 7.5 || r.Finish[1] != 6 || r.Finish[2] != 7.5 || r.Chunks[1].HopStart[0] != 3 {
		t.Fatalf("makespan %g finish %v starts %v", r.Makespan, r.Finish, r.Chunks[1].HopStart)
	}
}

// Ordinary tree p=2, h=2, n=2, S=0.5, C=1, A=2. Loads per processor:
// stage 1: layer 1 α=1, layer 2 α=0.5; stage 2: layer 1 α=0.5, layer 2
// α=0.25 (V = 2·1 + 4·0.5 + 2·0.5 + 4·0.25 = 6). Hop durations S + C·link
// load, the link load of hop 0 to layer 2 being p·α:
//
//	m(1,1): hop0 0.5+1 = 1.5
//	m(1,2): hop0 0.5+2·0.5 = 1.5, hop1 0.5+0.5 = 1
//	m(2,1): hop0 0.5+0.5 = 1
//	m(2,2): hop0 0.5+2·0.25 = 1, hop1 0.5+0.25 = 0.75
//
// Computing: A·α = 2, 1, 1, 0.5.
func TestTreeHandGantt(t *testing.T) {
	type hops = [][]float64
	cases := []struct {
		name     string
		order    string
		buffers  int
		starts   hops // hop starts per message in send order
		makespan float64
		finish   [2]float64 // layer 1, layer 2 processors
	}{
		// 1-buffer NLF, order m(1,1) m(1,2) m(2,1) m(2,2):
		// m(1,1) 0..1.5, L1 computes 1.5..3.5, buffer free at 1.5.
		// m(1,2) hop0 1.5..3, relay 3..4 (L1 buffer busy until 4), L2
		//   computes 4..5.
		// m(2,1) waits for the L1 buffer (1-buffer): 4..5, L1 computes
		//   5..6.
		// m(2,2) hop0 5..6 (buffer freed at 5 on arrival of own load),
		//   relay 6..6.75, L2 computes 6.75..7.25.
		{"1buf-nlf", "nlf", 1, hops{{0}, {1.5, 3}, {4}, {5, 6}}, 7.25, [2]float64{6, 7.25}},
		// 2-buffer NLF: message j waits for message j−2 to leave.
		// m(1,1) 0..1.5 (L1 buf0, freed 1.5), L1 computes 1.5..3.5.
		// m(1,2) hop0 1.5..3 (buf1), relay 3..4 (buf1 freed 4), L2 4..5.
		// m(2,1) hop0 3..4 (buf0 free since 1.5), L1 computes 4..5.
		// m(2,2) hop0 4..5 (buf1 freed at 4), relay 5..5.75 (L1 ports
		//   free since 4), L2 computes 5.75..6.25.
		{"2buf-nlf", "nlf", 2, hops{{0}, {1.5, 3}, {3}, {4, 5}}, 6.25, [2]float64{5, 6.25}},
		// 1-buffer LLF, order m(1,2) m(1,1) m(2,2) m(2,1):
		// m(1,2) hop0 0..1.5, relay 1.5..2.5, L2 computes 2.5..3.5.
		// m(1,1) waits for the L1 buffer: 2.5..4, L1 computes 4..6.
		// m(2,2) hop0 4..5, relay 5..5.75, L2 computes 5.75..6.25.
		// m(2,1) port free at 5, buffer at 5.75: 5.75..6.75, L1 computes
		//   6.75..7.75 (CPU free at 6).
		{"1buf-llf", "llf", 1, hops{{0, 1.5}, {2.5}, {4, 5}, {5.75}}, 7.75, [2]float64{7.75, 6.25}},
		// 2-buffer LLF:
		// m(1,2) hop0 0..1.5 (buf0), relay 1.5..2.5, L2 computes 2.5..3.5.
		// m(1,1) 1.5..3 (buf1 free), L1 computes 3..5.
		// m(2,2) hop0 3..4 (buf0 freed 2.5), relay 4..4.75, L2 computes
		//   4.75..5.25.
		// m(2,1) hop0 4..5 (buf1 freed 3), L1 computes 5..6.
		{"2buf-llf", "llf", 2, hops{{0, 1.5}, {1.5}, {3, 4}, {4}}, 6, [2]float64{6, 5.25}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pr := schedule.Problem{Topology: "tree", Order: tc.order, Buffers: tc.buffers, P: 2, H: 2,
				S: 0.5, C: 1, A: 2, D: inf(), Stages: 2}
			alpha := map[[2]int]float64{{1, 1}: 1, {1, 2}: 0.5, {2, 1}: 0.5, {2, 2}: 0.25}
			var msgs []msg
			for _, sd := range pattern(pr, 2) {
				msgs = append(msgs, msg{sd[0], sd[1], alpha[sd]})
			}
			s := newSchedule(pr, msgs)
			if s.Problem.V != 6 {
				t.Fatalf("V = %g, want 6", s.Problem.V)
			}
			r := fillEarliest(t, s)
			for ci, want := range tc.starts {
				if got := r.Chunks[ci].HopStart; fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("message %d (stage %d, layer %d): hop starts %v, want %v", ci+1, msgs[ci].stage, msgs[ci].dest, got, want)
				}
			}
			if r.Makespan != tc.makespan {
				t.Errorf("makespan %g, want %g", r.Makespan, tc.makespan)
			}
			// Nodes 1, 2 are layer 1; 3..6 layer 2 (topology.Build order).
			for id := 1; id <= 6; id++ {
				want := tc.finish[0]
				if id >= 3 {
					want = tc.finish[1]
				}
				if r.Finish[id] != want {
					t.Errorf("node %d finishes at %g, want %g", id, r.Finish[id], want)
				}
			}
			v, err := Verify(s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !v.OK || v.Makespan != tc.makespan || v.Processors != 6 {
				t.Fatalf("verification %+v", v)
			}
		})
	}
}

// Binomial tree p=2, h=2 (2 nodes in layer 1, 6 in layer 2), S=0.5, C=1,
// A=2, one stage: α1 = 1, α2 = 0.5. The scatter to layer 2 lasts
// 2S + 3Cα2 = 2.5 (step 1 carries p·α2 = 1 to layer 1, step 2 α2 from
// every node of layers 0 and 1).
func TestBinomialHand(t *testing.T) {
	cases := []struct {
		order    string
		starts   [][]float64
		makespan float64
		finish   [2]float64
	}{
		// NLF: m(1,1) 0..1.5, layer 1 computes 1.5..3.5; scatter to layer
		// 2: step 1 1.5..3, step 2 3..4; layer 2 computes 4..5.
		{"nlf", [][]float64{{0}, {1.5, 3}}, 5, [2]float64{3.5, 5}},
		// LLF: scatter to layer 2 0..1.5..2.5, layer 2 computes 2.5..3.5;
		// m(1,1) 2.5..4, layer 1 computes 4..6.
		{"llf", [][]float64{{0, 1.5}, {2.5}}, 6, [2]float64{6, 3.5}},
	}
	for _, tc := range cases {
		t.Run(tc.order, func(t *testing.T) {
			pr := schedule.Problem{Topology: "binomial", Order: tc.order, P: 2, H: 2, S: 0.5, C: 1, A: 2, D: inf(), Stages: 1}
			alpha := map[int]float64{1: 1, 2: 0.5}
			var msgs []msg
			for _, sd := range pattern(pr, 1) {
				msgs = append(msgs, msg{sd[0], sd[1], alpha[sd[1]]})
			}
			s := newSchedule(pr, msgs)
			r := fillEarliest(t, s)
			for ci, want := range tc.starts {
				if got := r.Chunks[ci].HopStart; fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("message %d: hop starts %v, want %v", ci+1, got, want)
				}
			}
			c2 := r.Chunks[map[string]int{"nlf": 1, "llf": 0}[tc.order]]
			if d := c2.Arrival - c2.HopStart[0]; d != 2.5 {
				t.Errorf("scatter to layer 2 lasts %g, want 2S+3Cα = 2.5", d)
			}
			if c2.HopLoad[0] != 1 || c2.HopLoad[1] != 0.5 {
				t.Errorf("step loads %v, want [1 0.5]", c2.HopLoad)
			}
			if r.Makespan != tc.makespan || r.Processors != 8 {
				t.Errorf("makespan %g (want %g), processors %d", r.Makespan, tc.makespan, r.Processors)
			}
			for id := 1; id <= 8; id++ {
				want := tc.finish[0]
				if id >= 3 {
					want = tc.finish[1]
				}
				if r.Finish[id] != want {
					t.Errorf("node %d finishes at %g, want %g", id, r.Finish[id], want)
				}
			}
			v, err := Verify(s, Options{})
			if err != nil || !v.OK || v.Makespan != tc.makespan {
				t.Fatalf("verification %+v, %v", v, err)
			}
		})
	}
}

// Property: for random instances of every variant, the earliest replay
// agrees with an independent max-plus recurrence, and its times replayed
// in timed mode give no violation and the same makespan.
func TestEarliestTimedRoundTrip(t *testing.T) {
	n := 250
	if testing.Short() {
		n = 200
	}
	for vi, vr := range variants {
		t.Run(vr.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(vi), 42))
			for k := 0; k < n; k++ {
				s := randomInstance(rng, vr)
				r := fillEarliest(t, s)
				refStarts, refMakespan := reference(s)
				if !close(r.Makespan, refMakespan) {
					t.Fatalf("instance %d: makespan %.17g, reference %.17g\n%+v", k, r.Makespan, refMakespan, s.Problem)
				}
				for ci := range refStarts {
					for h := range refStarts[ci] {
						if !close(r.Chunks[ci].HopStart[h], refStarts[ci][h]) {
							t.Fatalf("instance %d chunk %d hop %d: start %.17g, reference %.17g", k, ci, h,
								r.Chunks[ci].HopStart[h], refStarts[ci][h])
						}
					}
				}
				v, err := Verify(s, Options{})
				if err != nil {
					t.Fatalf("instance %d: %v", k, err)
				}
				if !v.OK {
					t.Fatalf("instance %d (%+v): violations %v", k, s.Problem, v.Violations)
				}
				if v.Makespan != r.Makespan || v.EarliestMakespan != r.Makespan {
					t.Fatalf("instance %d: timed makespan %.17g, earliest %.17g, want %.17g", k, v.Makespan, v.EarliestMakespan, r.Makespan)
				}
			}
		})
	}
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// treeH3 is an ordinary tree p=2, h=3, 2 stages, with earliest times.
func treeH3(t *testing.T, buffers int, order string) *schedule.Schedule {
	pr := schedule.Problem{Topology: "tree", Order: order, Buffers: buffers, P: 2, H: 3, S: 0.1, C: 1, A: 3, D: 4, Stages: 2}
	var msgs []msg
	for _, sd := range pattern(pr, 2) {
		msgs = append(msgs, msg{sd[0], sd[1], 0.25 * float64(sd[1])})
	}
	s := newSchedule(pr, msgs)
	fillEarliest(t, s)
	return s
}

// verifyKinds verifies s; the mutation tests move hop starts without
// restating arrivals and computing times, so stated_times is skipped
// unless full is set.
func verifyKinds(t *testing.T, s *schedule.Schedule, full ...bool) (*schedule.Verification, map[string]bool) {
	t.Helper()
	v, err := Verify(s, Options{SkipStatedTimes: len(full) == 0})
	if err != nil {
		t.Fatal(err)
	}
	return v, kinds(v.Violations)
}

func wantOnly(t *testing.T, got map[string]bool, v *schedule.Verification, want ...string) {
	t.Helper()
	w := map[string]bool{}
	for _, k := range want {
		w[k] = true
	}
	if fmt.Sprint(got) != fmt.Sprint(w) || v.OK {
		t.Fatalf("violation kinds %v, want %v:\n%v", got, w, v.Violations)
	}
}

func TestMutations(t *testing.T) {
	t.Run("star-start-earlier", func(t *testing.T) {
		pr := schedule.Problem{Topology: "star", M: 3, C: 1, A: 1, D: inf()}
		s := newSchedule(pr, []msg{{1, 1, 1.5}, {1, 2, 1}, {1, 3, 0.5}})
		fillEarliest(t, s)
		s.Chunks[1].Hops[0].Start -= 0.5 // overlaps the first transfer
		s.Chunks[1].Hops[0].End -= 0.5
		s.Chunks[1].Start -= 0.5
		v, k := verifyKinds(t, s)
		wantOnly(t, k, v, KindLinkBusy)
		if m := v.Violations[0].Message; !strings.Contains(m, "stage 1, processor 2") || !strings.Contains(m, "starts at 1 ") ||
			!strings.Contains(m, "until 1.5") {
			t.Fatalf("message %q", m)
		}
	})
	t.Run("relay-before-arrival", func(t *testing.T) {
		s := treeH3(t, 2, "nlf")
		// Message 3 (stage 1, layer 3): move hop 2 (layer 2→3) earlier
		// than its arrival at layer 2.
		c := &s.Chunks[2]
		d := c.Hops[2].Start - c.Hops[1].Start
		c.Hops[2].Start -= d / 2
		c.Hops[2].End -= d / 2
		v, k := verifyKinds(t, s)
		if !k[KindNotReceived] {
			t.Fatalf("kinds %v: %v", k, v.Violations)
		}
		for _, x := range v.Violations {
			if x.Kind == KindNotReceived && !strings.Contains(x.Message, "3 more nodes alike") {
				t.Errorf("the 4 layer-2 nodes should be counted: %q", x.Message)
			}
		}
	})
	t.Run("two-messages-into-1-buffer", func(t *testing.T) {
		// 1-buffer NLF: message 3 (stage 1, layer 3) waits for layer 1
		// to relay message 2. Start its hop 0 as soon as the
		// originator's ports are free: layer-1 nodes would hold two
		// messages at once.
		s := treeH3(t, 1, "nlf")
		prev, c := &s.Chunks[1], &s.Chunks[2]
		if c.Hops[0].Start <= prev.Hops[0].End {
			t.Fatalf("test premise: message 3 should wait for the buffer (%v, %v)", prev.Hops, c.Hops)
		}
		shift := c.Hops[0].Start - prev.Hops[0].End
		c.Hops[0].Start -= shift
		c.Hops[0].End -= shift
		c.Start = c.Hops[0].Start
		v, k := verifyKinds(t, s)
		wantOnly(t, k, v, KindBufferFull)
		if m := v.Violations[0].Message; !strings.Contains(m, "1-buffer rule") || !strings.Contains(m, "stage 1, layer 2") {
			t.Fatalf("message %q", m)
		}
	})
	t.Run("2-buffer-rule", func(t *testing.T) {
		// 2-buffer LLF: messages to layers 3, 2, 1 in each stage. Find a
		// hop-0 transfer that waited for the buffer of message j−2 and
		// start it when the originator's ports free up.
		s := treeH3(t, 2, "llf")
		found := false
		for ci := 1; ci < len(s.Chunks) && !found; ci++ {
			prev, c := &s.Chunks[ci-1], &s.Chunks[ci]
			if c.Hops[0].Start > prev.Hops[0].End+1e-9 {
				c.Hops[0].Start, c.Hops[0].End = prev.Hops[0].End, c.Hops[0].End-(c.Hops[0].Start-prev.Hops[0].End)
				c.Start = c.Hops[0].Start
				found = true
			}
		}
		if !found {
			t.Fatal("no hop 0 waited for a buffer")
		}
		v, k := verifyKinds(t, s)
		wantOnly(t, k, v, KindBufferFull)
		if !strings.Contains(v.Violations[0].Message, "2-buffer rule") {
			t.Fatalf("message %q", v.Violations[0].Message)
		}
	})
	t.Run("too-large", func(t *testing.T) {
		s := treeH3(t, 2, "nlf")
		// Message to layer 3 carries p²·α on hop 0: 4·0.75 = 3 ≤ D=4;
		// grow α to 1.25: 5 > 4. Times are refilled, V adjusted, so
		// only too_large remains.
		s.Chunks[2].Load = 1.25
		s.Problem.V += 8 * 0.5
		fillEarliest(t, s)
		v, k := verifyKinds(t, s)
		wantOnly(t, k, v, KindTooLarge)
		if m := v.Violations[0].Message; !strings.Contains(m, "stage 1, layer 3") || !strings.Contains(m, "carries 5 units") {
			t.Fatalf("message %q", m)
		}
	})
	t.Run("drop-stage", func(t *testing.T) {
		s := treeH3(t, 2, "nlf")
		s.Chunks = s.Chunks[:3] // stage 2 dropped, times untouched
		s.Cmax = 0
		r, err := Timed(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.Cmax = r.Makespan
		v, k := verifyKinds(t, s)
		wantOnly(t, k, v, KindLoad)
	})
	t.Run("swap-messages", func(t *testing.T) {
		for _, vr := range variants {
			rng := rand.New(rand.NewPCG(5, 5))
			for {
				s := randomInstance(rng, vr)
				if len(s.Chunks) < 3 {
					continue
				}
				fillEarliest(t, s)
				if s.Chunks[1].Hops[0].End == 0 {
					continue // both messages take no time: swapping them is harmless
				}
				s.Chunks[0], s.Chunks[1] = s.Chunks[1], s.Chunks[0]
				v, err := Verify(s, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if v.OK {
					// Both messages leave through the originator's ports:
					// in list order the second now starts before the first
					// one ends.
					t.Fatalf("%s: swapped messages not detected", vr.name)
				}
				break
			}
		}
	})
	t.Run("late-and-negative", func(t *testing.T) {
		s := treeH3(t, 1, "llf")
		s.Cmax *= 0.9
		v, k := verifyKinds(t, s)
		wantOnly(t, k, v, KindLate)
		s = treeH3(t, 1, "llf")
		s.Chunks[0].Load = -s.Chunks[0].Load
		s.Problem.V = 0
		for _, c := range s.Chunks {
			s.Problem.V += c.Load * float64(int(1)<<c.Layer)
		}
		v, k = verifyKinds(t, s)
		if !k[KindNegative] {
			t.Fatalf("kinds %v", k)
		}
	})
	t.Run("stated-times", func(t *testing.T) {
		s := treeH3(t, 2, "nlf")
		s.Chunks[4].Hops[0].End += 0.01
		s.Chunks[5].ComputeEnd -= 0.01
		v, k := verifyKinds(t, s, true)
		wantOnly(t, k, v, KindStatedTimes)
		if len(v.Violations) != 2 {
			t.Fatalf("violations %v", v.Violations)
		}
		v, err := Verify(s, Options{SkipStatedTimes: true})
		if err != nil || !v.OK {
			t.Fatalf("SkipStatedTimes: %v %v", v, err)
		}
	})
}

func TestBadSchedules(t *testing.T) {
	base := func() *schedule.Schedule { return treeH3(t, 2, "nlf") }
	cases := []struct {
		name string
		mut  func(s *schedule.Schedule)
		want string
	}{
		{"topology", func(s *schedule.Schedule) { s.Problem.Topology = "ring" }, "invalid topology ring"},
		{"buffers", func(s *schedule.Schedule) { s.Problem.Buffers = 3 }, "invalid buffers 3"},
		{"reuse", func(s *schedule.Schedule) { s.Problem.BufferReuse = "any" }, "buffer_reuse"},
		{"dest", func(s *schedule.Schedule) { s.Chunks[0].Layer = 4 }, "destination 4 outside 1..3"},
		{"hops", func(s *schedule.Schedule) { s.Chunks[2].Hops = s.Chunks[2].Hops[:2] }, "2 hops stated, want 3"},
		{"nan", func(s *schedule.Schedule) { s.Chunks[1].Load = math.NaN() }, "load NaN"},
		{"S", func(s *schedule.Schedule) { s.Problem.S = -1 }, "invalid S -1"},
		{"relay", func(s *schedule.Schedule) { s.Problem.Relay = []int{7} }, "invalid relay 7"},
	}
	for _, tc := range cases {
		s := base()
		tc.mut(s)
		_, err := Verify(s, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// Load addressed to a relay-only layer is reported, not an error.
	s := base()
	s.Problem.Relay = []int{2}
	v, k := verifyKinds(t, s)
	wantOnly(t, k, v, KindLoad)
}

// Relay-only layers: the LB strategy of Section 4.2 (binomial, only layer
// h computes, equal chunks). Scatter to layer 2 of a binomial p=2, h=2:
// 2S + 3Cα per stage; n stages back to back; the last chunk computes
// A·α after the last scatter: Cmax = n(2S + 3Cα) + Aα (paper's formula
// C_max(n) = n(iS + V/(n p (p+1)^(i−1))·C(p+1)^(i−1)) + A·V/(n p(p+1)^(i−1))
// with V = n·6α).
func TestRelayOnlyLB(t *testing.T) {
	const S, C, A, alpha, n = 0.5, 1.0, 2.0, 0.5, 3
	pr := schedule.Problem{Topology: "binomial", Order: "nlf", P: 2, H: 2, S: S, C: C, A: A, D: inf(), Relay: []int{1}, Stages: n}
	var msgs []msg
	for k := 1; k <= n; k++ {
		msgs = append(msgs, msg{k, 2, alpha})
	}
	s := newSchedule(pr, msgs)
	r := fillEarliest(t, s)
	want := n*(2*S+3*C*alpha) + A*alpha
	if !approx(r.Makespan, want) || r.Processors != 6 || r.Finish[1] != 0 {
		t.Fatalf("makespan %g want %g; processors %d; relay node finish %g", r.Makespan, want, r.Processors, r.Finish[1])
	}
	v, err := Verify(s, Options{})
	if err != nil || !v.OK {
		t.Fatalf("%+v %v", v, err)
	}
}

func TestReplayDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, vr := range variants {
		s := randomInstance(rng, vr)
		fillEarliest(t, s)
		var he, ht [2][32]byte
		for run := 0; run < 2; run++ {
			e, err := Earliest(s, Options{Trace: true})
			if err != nil {
				t.Fatal(err)
			}
			tm, err := Timed(s, Options{Trace: true})
			if err != nil {
				t.Fatal(err)
			}
			he[run], ht[run] = e.TraceHash, tm.TraceHash
		}
		if he[0] != he[1] || ht[0] != ht[1] || he[0] == ([32]byte{}) {
			t.Fatalf("%s: trace hashes differ between runs", vr.name)
		}
	}
}

func TestReplayNoLeak(t *testing.T) {
	s := treeH3(t, 2, "llf")
	leakcheck.Check(t, func() {
		for i := 0; i < 3; i++ {
			if _, err := Verify(s, Options{}); err != nil {
				t.Fatal(err)
			}
		}
	})
	leakcheck.Check(t, func() {
		// A cancelled context stops the replay (checked every 256
		// events) with the context's error; so does the event budget.
		big := treeSchedule(6, 10)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Verify(big, Options{Context: ctx}); !errors.Is(err, context.Canceled) {
			t.Fatalf("want cancellation, got %v", err)
		}
		if _, err := Earliest(big, Options{MaxEvents: 1000}); !errors.Is(err, executor.ErrEventLimit) {
			t.Fatalf("want event limit, got %v", err)
		}
	})
}

// Big instances of the brief: p=2, h=10 ordinary tree (2046 computing
// processors) and binomial tree (59048).
func TestLargeTrees(t *testing.T) {
	if testing.Short() {
		t.Skip("large instances skipped in -short mode")
	}
	s := bigTree(10)
	v, err := Verify(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK || v.Processors != 2046 || v.Makespan != s.Cmax {
		t.Fatalf("tree: %+v (Cmax %g)", v, s.Cmax)
	}
	b := bigBinomial(10, 1)
	v, err = Verify(b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK || v.Processors != 59048 {
		t.Fatalf("binomial: %+v", v)
	}
}

// bigTree is the BenchmarkVerifyTree instance: p=2, h=10, n stages, 1-buffer
// NLF, α = 1 everywhere, paper parameters S=1e-3, C=1e-6, A=1e-3.
func bigTree(n int) *schedule.Schedule { return treeSchedule(10, n) }

// treeSchedule is an ordinary tree p=2 of height h with n stages, 1-buffer
// NLF, α = 1, with earliest times.
func treeSchedule(h, n int) *schedule.Schedule {
	return unitEarliest(schedule.Problem{Topology: "tree", Order: "nlf", Buffers: 1, P: 2, H: h, S: 1e-3, C: 1e-6, A: 1e-3, D: inf(), Stages: n}, n)
}

// bigBinomial is a binomial tree p=2 of height h with n stages, LLF, α = 1,
// with earliest times.
func bigBinomial(h, n int) *schedule.Schedule {
	return unitEarliest(schedule.Problem{Topology: "binomial", Order: "llf", P: 2, H: h, S: 1e-3, C: 1e-6, A: 1e-3, D: inf(), Stages: n}, n)
}

// unitEarliest is the full n-stage pattern of pr with α = 1 on every
// message, timed by the executor's earliest mode.
func unitEarliest(pr schedule.Problem, n int) *schedule.Schedule {
	var msgs []msg
	for _, sd := range pattern(pr, n) {
		msgs = append(msgs, msg{sd[0], sd[1], 1})
	}
	s := newSchedule(pr, msgs)
	r, err := Earliest(s, Options{})
	if err != nil {
		panic(err)
	}
	if err := r.Apply(s); err != nil {
		panic(err)
	}
	return s
}

// BenchmarkVerifyTree: Verify (both modes) of the p=2, h=10, n=100
// ordinary tree, 1-buffer NLF (2046 processors, 1000 messages).
func BenchmarkVerifyTree(b *testing.B) {
	s := bigTree(100)
	b.ResetTimer()
	var events int
	for i := 0; i < b.N; i++ {
		v, err := Verify(s, Options{})
		if err != nil || !v.OK {
			b.Fatalf("%v %v", v, err)
		}
		events = v.Events
	}
	b.ReportMetric(float64(events), "events/op")
}

// BenchmarkVerifyBinomial: Verify of a binomial tree p=2, h=6, n=10 LLF
// (728 processors).
func BenchmarkVerifyBinomial(b *testing.B) {
	s := bigBinomial(6, 10)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, err := Verify(s, Options{})
		if err != nil || !v.OK {
			b.Fatalf("%v %v", v, err)
		}
	}
}

// BenchmarkEarliestTree and BenchmarkTimedTree split BenchmarkVerifyTree
// into its two replays.
func BenchmarkEarliestTree(b *testing.B) {
	s := bigTree(100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Earliest(s, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Events), "events/op")
	}
}

func BenchmarkTimedTree(b *testing.B) {
	s := bigTree(100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Timed(s, Options{})
		if err != nil || len(r.Violations) > 0 {
			b.Fatal(err, r.Violations)
		}
		b.ReportMetric(float64(r.Events), "events/op")
	}
}

func TestEdgeCases(t *testing.T) {
	// No messages at all: nothing to do, makespan 0.
	s := newSchedule(schedule.Problem{Topology: "tree", P: 2, H: 3, S: 1, C: 1, A: 1, D: inf()}, nil)
	v, err := Verify(s, Options{})
	if err != nil || !v.OK || v.Makespan != 0 || v.Processors != 14 {
		t.Fatalf("empty: %+v %v", v, err)
	}
	// Zero loads still pay S on every hop (paper: "S is added even if the
	// size of the load chunk is 0"): chain p=1, h=3, one empty message
	// to layer 3 arrives at 3S, and "finishes" on arrival.
	s = newSchedule(schedule.Problem{Topology: "tree", P: 1, H: 3, S: 2, C: 1, A: 1, D: inf(), Buffers: 1}, []msg{{1, 3, 0}})
	r := fillEarliest(t, s)
	if r.Makespan != 6 || fmt.Sprint(r.Chunks[0].HopStart) != "[0 2 4]" {
		t.Fatalf("zero load: makespan %g, hops %v", r.Makespan, r.Chunks[0].HopStart)
	}
	v, err = Verify(s, Options{})
	if err != nil || !v.OK {
		t.Fatalf("zero load: %+v %v", v, err)
	}
	// Star with m given only through Procs.
	s = newSchedule(schedule.Problem{Topology: "star", D: inf(), Procs: []schedule.Proc{{S: 1, C: 1, A: 1}}}, []msg{{1, 1, 2}})
	if r = fillEarliest(t, s); r.Makespan != 5 {
		t.Fatalf("star m=1: makespan %g, want S + C·2 + A·2 = 5", r.Makespan)
	}
}

// Property: in an earliest schedule every transfer starts as soon as a rule
// allows, so moving any single hop start earlier (by more than the
// tolerance) must be caught, as link_busy, not_received or buffer_full (or
// negative when it started at 0).
func TestEarlierStartIsCaught(t *testing.T) {
	allowed := map[string]bool{KindLinkBusy: true, KindNotReceived: true, KindBufferFull: true, KindNegative: true}
	for vi, vr := range variants {
		rng := rand.New(rand.NewPCG(uint64(vi), 99))
		for k := 0; k < 100; k++ {
			s := randomInstance(rng, vr)
			if len(s.Chunks) == 0 {
				continue
			}
			fillEarliest(t, s)
			ci := rng.IntN(len(s.Chunks))
			h := rng.IntN(len(s.Chunks[ci].Hops))
			d := 1e-3 * math.Max(s.Cmax, 1)
			s.Chunks[ci].Hops[h].Start -= d
			v, err := Verify(s, Options{SkipStatedTimes: true})
			if err != nil {
				t.Fatal(err)
			}
			got := kinds(v.Violations)
			if v.OK || len(got) == 0 {
				t.Fatalf("%s instance %d: moving chunk %d hop %d earlier by %g went unnoticed", vr.name, k, ci+1, h, d)
			}
			for kind := range got {
				if !allowed[kind] {
					t.Fatalf("%s instance %d: unexpected %s: %v", vr.name, k, kind, v.Violations)
				}
			}
		}
	}
}
