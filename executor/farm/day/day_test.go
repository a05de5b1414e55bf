package day

import (
	"context"
	"math"
	"testing"

	"github.com/dlsched/dlsched/internal/race"
	"github.com/dlsched/dlsched/platform"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// The model's printed numbers (Sections 4.5, 4.9.3, 4.11.2, Tables 1, 4).
func TestModelNumbers(t *testing.T) {
	// s = B × 3 µs at 1.51 MiB/s is 4.75 bytes (4.53 with MB = 10^6).
	bw, _ := ParseBandwidth("1.51MiB")
	if s := SetupBytes(bw, 3e-6); !near(s, 4.75, 5e-4) {
		t.Errorf("s = %g, want 4.75", s)
	}
	if mb, _ := ParseBandwidth("1.51MB"); !near(SetupBytes(mb, 3e-6), 4.53, 5e-3) {
		t.Errorf("with MB: s = %g", SetupBytes(mb, 3e-6))
	}
	// Table 1, T800: m = ⌊s·e/(1 − e)⌋ = 7, 11, 42, 90.
	for i, e := range []float64{0.6, 0.7, 0.9, 0.95} {
		if m := math.Floor(MessageForEfficiency(4.75, e)); m != []float64{7, 11, 42, 90}[i] {
			t.Errorf("e = %g: m = %g", e, m)
		}
	}
	// Counted arrays, s = 13.5: 20 (60%) follows, 116 and 232 do not:
	// ⌊13.5·9⌋ = 121 and ⌊13.5·19⌋ = 256.
	if m := math.Floor(MessageForEfficiency(13.5, 0.6)); m != 20 {
		t.Errorf("counted array 60%%: %g", m)
	}
	if a, b := math.Floor(MessageForEfficiency(13.5, 0.9)), math.Floor(MessageForEfficiency(13.5, 0.95)); a != 121 || b != 256 {
		t.Errorf("counted array 90%%, 95%%: %g %g", a, b)
	}
	// Section 4.9.3: 1.177 MiB/s, 4096-byte messages, s = 12.9: supply
	// 300.37 jobs/s; w_max = 18.77, 9.386, 4.693 at 62.5, 31.25, 15.625 ms.
	b1177, _ := ParseBandwidth("1.177MiB")
	if sup := Supply(b1177, 4096, 12.9); !near(sup, 300.37, 5e-3) {
		t.Errorf("supply %g, want 300.37", sup)
	}
	for i, j := range []float64{0.0625, 0.03125, 0.015625} {
		if w := WMax(j, b1177, 4096, 12.9); !near(w, []float64{18.77, 9.386, 4.693}[i], 5e-3) {
			t.Errorf("j = %g: w_max %g", j, w)
		}
	}
	// Section 4.11.2: 16 slots, supply 6, demand 4: 8 s; no excess: never.
	if f := FillTime(16, 6, 4); f != 8 {
		t.Errorf("fill time %g, want 8", f)
	}
	if f := FillTime(16, 4, 6); !math.IsInf(f, 1) {
		t.Errorf("communication bound fill time %g", f)
	}
	// Table 4: 1.0, 1.75, 2.615 hops in ternary trees of depth 1, 2, 3.
	for d, want := range []float64{1.0, 1.75, 2.615} {
		if m := MeanDistance(Tree, d+1); !near(m, want, 5e-4) {
			t.Errorf("depth %d: %g", d+1, m)
		}
	}
	if m := MeanDistance(Line, 39); m != 20 {
		t.Errorf("line of 39: %g", m)
	}
	// The workload: 100 lengths, mean 99.68.
	sum := 0
	for _, l := range JobLengths {
		sum += l
	}
	if sum != 9968 {
		t.Errorf("job lengths add up to %d, want 9968 (mean 99.68)", sum)
	}
}

func line(h Harness, w int, j float64) *Config {
	return &Config{Layout: Line, Harness: h, Workers: w, MessageBytes: 4096, JobTime: j, Bandwidth: 1.177 * MiB, SetupBytes: 12.9}
}

func sim(t *testing.T, c *Config) *Result {
	t.Helper()
	r, err := Run(context.Background(), *c, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r.Simulated
}

// Exact cases: one worker (harness D) takes Σj + 2c; with j much longer
// than c, worker k starts at (2k − 1)c with harness D and at c, then
// 3(k − 1)c with harness A.
func TestSimulationExact(t *testing.T) {
	c := line(HarnessD, 1, 1)
	msg := MessageTime(4096, 12.9, 1.177*MiB)
	r := sim(t, c)
	if want := 99.68 + 2*msg; !near(r.Makespan, want, 1e-9) {
		t.Errorf("one worker: %.12g, want Σj + 2c = %.12g", r.Makespan, want)
	}
	for _, h := range []Harness{HarnessD, HarnessA} {
		r := sim(t, line(h, 8, 1))
		for k, p := range r.FirstJobStart {
			st := *p
			want := float64(2*(k+1)-1) * msg
			if h.Name == "A" {
				want = math.Max(1, float64(3*k)) * msg
			}
			if !near(st, want, 1e-12) {
				t.Errorf("harness %s: worker %d starts at %g = %gc, want %gc", h.Name, k+1, st, st/msg, want/msg)
			}
		}
	}
}

// Every line run stays at or below the model's efficiency ceiling.
func TestBelowCeiling(t *testing.T) {
	for _, h := range []Harness{HarnessA, HarnessD} {
		for _, w := range []int{1, 4, 8, 16} {
			for _, j := range []float64{0.005, 0.015625, 0.0625} {
				c := line(h, w, j)
				if r, p := sim(t, c), Predict(c); r.Efficiency > p.EfficiencyCeiling+1e-9 {
					t.Errorf("harness %s, w=%d, j=%g: efficiency %g above the ceiling %g", h.Name, w, j, r.Efficiency, p.EfficiencyCeiling)
				}
			}
		}
	}
}

// Section 4.9.3 (harness D, line of 8, 4 KB messages, 1.177 MiB/s,
// s = 12.9): the thesis measured 0.929, 0.889, 0.632. The model says
// compute bound, compute bound, ceiling 0.585. The simulation without
// cycle stealing gives 0.957, 0.927, 0.575; a per-message CPU cost fitted
// on the first two points (about 0.1 ms) reproduces them within 0.01 and
// predicts 0.575 for the third — not the measured 0.632, which lies above
// the model's own ceiling (the bandwidth 1.177 MiB/s was measured to the
// end worker; closer workers get more).
func TestSection493(t *testing.T) {
	js := []float64{0.0625, 0.03125, 0.015625}
	want := []float64{0.9571, 0.9265, 0.5748}
	for i, j := range js {
		c := line(HarnessD, 8, j)
		p := Predict(c)
		if i < 2 && !p.ComputeBound || i == 2 && (p.ComputeBound || !near(p.EfficiencyCeiling, 0.585, 5e-4)) {
			t.Errorf("j = %g: %+v", j, p)
		}
		if r := sim(t, c); !near(r.Efficiency, want[i], 5e-4) {
			t.Errorf("j = %g: efficiency %.4f, want %.4f", j, r.Efficiency, want[i])
		}
	}
	if testing.Short() {
		return
	}
	f, err := FitCPUPerMessage(context.Background(), *line(HarnessD, 8, 0), js[:2], []float64{0.929, 0.889}, js[2], 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if !near(f.Fitted[0], 0.929, 0.01) || !near(f.Fitted[1], 0.889, 0.01) || f.CPUPerMessage < 5e-5 || f.CPUPerMessage > 2e-4 {
		t.Errorf("fit %+v", f)
	}
	if !near(f.Predicted, 0.575, 0.01) {
		t.Errorf("held-out point %g", f.Predicted)
	}
}

// Qualitative (4.12.4, 4.13): a 39-worker ternary tree with harness D is
// at least as efficient as a line of 39 with harness A whenever the farm
// is compute bound; local-first and distant-first priority differ by less
// than 0.01.
func TestTreeAndPriority(t *testing.T) {
	if race.Enabled && testing.Short() {
		t.Skip("numbers of long simulations: checked in the plain pass, not under -race -short")
	}
	for _, j := range []float64{0.25, 0.5, 1} {
		tree := &Config{Layout: Tree, Harness: HarnessD, Workers: 39, MessageBytes: 1024, JobTime: j, Bandwidth: 1.51 * MiB, SetupBytes: 4.75}
		ln := &Config{Layout: Line, Harness: HarnessA, Workers: 39, MessageBytes: 1024, JobTime: j, Bandwidth: 1.51 * MiB, SetupBytes: 4.75}
		if !Predict(tree).ComputeBound {
			t.Fatalf("j = %g is not compute bound", j)
		}
		rt, rl := sim(t, tree), sim(t, ln)
		if rt.Efficiency < rl.Efficiency {
			t.Errorf("j = %g: tree %g < line %g", j, rt.Efficiency, rl.Efficiency)
		}
		far := *ln
		far.DistantFirst = true
		if rf := sim(t, &far); math.Abs(rf.Efficiency-rl.Efficiency) >= 0.01 {
			t.Errorf("j = %g: local first %g, distant first %g", j, rl.Efficiency, rf.Efficiency)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, bad := range []*Config{
		{Layout: Tree, Harness: HarnessD, Workers: 5, JobTime: 1, Bandwidth: 1},
		{Layout: Line, Harness: HarnessD, Workers: 0, JobTime: 1, Bandwidth: 1},
		{Layout: Line, Harness: HarnessD, Workers: 2, JobTime: 0, Bandwidth: 1},
		{Layout: Line, Harness: HarnessD, Workers: 2, JobTime: 1, Bandwidth: 0},
		{Layout: Line, Harness: Harness{"X", 0, 0, 1, 0}, Workers: 2, JobTime: 1, Bandwidth: 1},
	} {
		if _, err := Run(context.Background(), *bad, platform.RunOptions{}); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	for _, s := range []string{"fast", "-1MB", "0", "1.5GiB"} {
		if _, err := ParseBandwidth(s); err == nil {
			t.Errorf("bandwidth %q accepted", s)
		}
	}
}
