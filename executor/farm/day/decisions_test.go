package day

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/trace"
)

// Issue 28, item 5. Thesis 4.14.4: "c is the time to communicate a job or
// result message, which ever is the largest". A line of 8 with 512-byte
// jobs and 4096-byte results: the job link alone would supply 3013 jobs/s
// against a demand of 802.6 ("compute bound, efficiency ceiling 1", which
// the model printed), but every result crosses the last link to the
// harvester: c = (4096 + 13.5)/B = 2.595 ms, supply 385.3 jobs/s, ceiling
// j̄·B/(w(r + s)) = 0.009968·1583349.76/(8·4109.5) = 0.48007; the simulation
// gives 0.4763.
func TestCeilingCountsResultMessages(t *testing.T) {
	c := &Config{Layout: Line, Harness: HarnessD, Workers: 8, MessageBytes: 512, ResultBytes: 4096, JobTime: 0.01,
		Bandwidth: 1583349.76, SetupBytes: 13.5}
	p := Predict(c)
	want := 0.009968 * 1583349.76 / (8 * 4109.5)
	if p.ComputeBound || !near(p.EfficiencyCeiling, want, 1e-12) || p.SupplyLimit != LimitResults || !near(p.MessageTime, 4109.5/1583349.76, 1e-15) {
		t.Fatalf("prediction %+v, want communication bound, ceiling %.6g limited by result messages", p, want)
	}
	r := sim(t, c)
	if r.Efficiency > p.EfficiencyCeiling || !near(r.Efficiency, 0.4763, 5e-4) {
		t.Errorf("simulated %.4f, want 0.4763 <= ceiling %.5f", r.Efficiency, p.EfficiencyCeiling)
	}
	// With m = r the thesis's own numbers are unchanged (Section 4.9.3).
	if p := Predict(line(HarnessD, 8, 0.015625)); !near(p.Supply, 300.366, 5e-4) || !near(p.EfficiencyCeiling, 0.58476, 5e-5) {
		t.Errorf("4.9.3: supply %g, ceiling %g", p.Supply, p.EfficiencyCeiling)
	}
}

// The efficiency ceiling is a ceiling: over random farms — lines and
// trees, harnesses A, B and D, job and result sizes, set-ups, two-way
// factors, farmer and worker CPU costs, either priority — the simulated
// efficiency never exceeds the model's min(1, j̄·supply/w), and harness D
// reaches half of it (the simulation against the model).
func TestCeilingProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := &Config{Harness: rapid.SampledFrom([]Harness{HarnessA, HarnessB, HarnessD}).Draw(t, "harness"),
			MessageBytes:        math.Exp2(rapid.Float64Range(0, 14).Draw(t, "log2 m")),
			ExplicitResult:      true,
			Bandwidth:           rapid.Float64Range(1e5, 1e7).Draw(t, "B"),
			SetupBytes:          rapid.Float64Range(0, 50).Draw(t, "s"),
			BidirectionalFactor: rapid.Float64Range(0.3, 1).Draw(t, "f"),
			DistantFirst:        rapid.Bool().Draw(t, "distant"),
		}
		c.ResultBytes = c.MessageBytes * rapid.SampledFrom([]float64{0, 0.25, 1, 4, 16}).Draw(t, "r/m")
		if rapid.Bool().Draw(t, "tree") {
			c.Layout, c.Workers = Tree, rapid.SampledFrom([]int{3, 12}).Draw(t, "w")
		} else {
			c.Layout, c.Workers = Line, rapid.IntRange(1, 10).Draw(t, "w")
		}
		// Jobs near the balance of demand and the job link's supply, where
		// the result messages and the costs decide.
		cj := (c.MessageBytes + c.SetupBytes) / c.Bandwidth
		c.JobTime = float64(c.Workers) * cj * rapid.Float64Range(0.25, 4).Draw(t, "j/(w c_job)")
		if rapid.Bool().Draw(t, "costs") {
			c.FarmerCost = cj * rapid.Float64Range(0, 2).Draw(t, "a/c_job")
			c.CPUPerMessage = cj * rapid.Float64Range(0, 0.5).Draw(t, "y/c_job")
		}
		if rapid.Bool().Draw(t, "constant") { // equal jobs, fewer of them
			c.ConstantJobs, c.JobsPerWorker = true, rapid.IntRange(1, 40).Draw(t, "per")
		}
		rep, err := Run(context.Background(), *c, platform.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, p := rep.Simulated, Predict(c)
		if r.Efficiency > p.EfficiencyCeiling*(1+1e-9) {
			t.Fatalf("%+v: simulated efficiency %.9g above the ceiling %.9g (%s)", c, r.Efficiency, p.EfficiencyCeiling, p.SupplyLimit)
		}
		// And it is not vacuous: with buffers per link (B, D), no cycle
		// stealing and the full workload, the simulation reaches at least
		// half of it (the least of 1,500 random farms: 0.61, a tree whose
		// links slow to 0.3·B both ways). A model that ignored the result
		// messages promises up to 16 times what these farms attain.
		if c.Harness.P > 0 && c.CPUPerMessage == 0 && !c.ConstantJobs && r.Efficiency < p.EfficiencyCeiling/2 {
			t.Fatalf("%+v: simulated efficiency %.9g below half the ceiling %.9g (%s)", c, r.Efficiency, p.EfficiencyCeiling, p.SupplyLimit)
		}
	})
}

// Issue 28, item 6: the fill time counts the job slots of the harness as
// simulated — per worker its own job and J, and P per link to a child (the
// last worker of a line and a tree's leaves have none). Run a compute-bound
// farm (jobs of 1000 s) past its fill time and count the jobs in it: every
// slot holds one, and the farmer's link holds one more, taken and waiting.
func TestFillSlotsAsSimulated(t *testing.T) {
	tree := &Config{Layout: Tree, Harness: HarnessD, Workers: 12, MessageBytes: 4096, JobTime: 1000, Bandwidth: 1.177 * MiB, SetupBytes: 12.9}
	for _, tc := range []struct {
		c    *Config
		want int
	}{{line(HarnessD, 8, 1000), 8*2 + 7}, {line(HarnessA, 8, 1000), 8 * 2}, {line(HarnessD, 1, 1000), 2}, {tree, 12*2 + 9}} {
		c := tc.c
		if got := c.jobSlots(); got != tc.want {
			t.Errorf("%s of %d, harness %s: %d slots, want %d", c.Layout, c.Workers, c.Harness.Name, got, tc.want)
		}
		f := newFarm(c, platform.RunOptions{})
		if c.Layout == Line {
			f.wireLine()
		} else {
			f.wireTree()
		}
		for _, x := range f.ws {
			f.spawnHarness(x)
		}
		if err := f.sim.RunUntil(context.Background(), 10*Predict(c).FillTime); err != nil {
			t.Fatal(err)
		}
		inFarm := 0
		for _, x := range f.ws {
			inFarm += x.jUsed
			for _, u := range x.pUsed {
				inFarm += u
			}
			if x.started {
				inFarm++ // the job it computes
			}
		}
		if held := c.farmerLinks(); inFarm != tc.want || f.next != tc.want+held {
			t.Errorf("%s of %d, harness %s: %d jobs in the farm and %d handed out, want %d and %d", c.Layout, c.Workers, c.Harness.Name, inFarm, f.next, tc.want, tc.want+held)
		}
	}
}

// Issue 28, item 6: the farmer's link is a sacrificial buffer (Section
// 4.3.2: "req ! TRUE / in ? job / out ! job"; 4.12.4: "with the farmers of
// the other topologies, I had used a number of sacrificial buffers, one on
// each link, these requested jobs from the farmer. Thus, the farmer
// executed an ALT for every job given out"): it asks for the next job when
// its previous transfer ends, so the farmer's cost a overlaps the wait for
// the receiver and each link delivers a job every a + c. Line of 8 with
// harness A, c = 3.33 ms, a = 3 ms, j = 30 ms: demand 267 jobs/s, supply
// 1/(a + c) = 158 jobs/s; the 800 jobs need at least N(a + c) = 5.063 s
// and take 5.369 s (6% more: the drain, and the moments when worker 1's
// only slot is still taken). Charging a after the receiver had freed a
// slot, as dlsched did, took 7.118 s, 41% above N(a + c).
func TestFarmerCostOverlapsTheWait(t *testing.T) {
	c := line(HarnessA, 8, 0.03)
	c.FarmerCost = 0.003
	period := c.FarmerCost + MessageTime(4096, 12.9, 1.177*MiB)
	n := float64(c.jobs())
	r := sim(t, c)
	lo, hi := n*period, 1.07*n*period
	if r.Makespan < lo || r.Makespan > hi {
		t.Errorf("makespan %.4f, want within [%.4f, %.4f]", r.Makespan, lo, hi)
	}
	if p := Predict(c); !near(p.Supply, 1/period, 1e-9) || p.SupplyLimit != LimitFarmerJob || r.Efficiency > p.EfficiencyCeiling {
		t.Errorf("prediction %+v, simulated %g", p, r.Efficiency)
	}
	// A tree's three links share the farmer, who hands out one job at a
	// time: the supply is at most 1/a.
	tree := &Config{Layout: Tree, Harness: HarnessD, Workers: 12, MessageBytes: 1024, JobTime: 0.01, Bandwidth: 1.51 * MiB,
		SetupBytes: 4.75, FarmerCost: 0.002}
	if p := Predict(tree); p.Supply != 500 || p.SupplyLimit != LimitFarmer {
		t.Errorf("tree: supply %g (%s), want 500 (farmer's CPU)", p.Supply, p.SupplyLimit)
	}
	if r := sim(t, tree); r.Makespan < float64(tree.jobs())*tree.FarmerCost {
		t.Errorf("tree: makespan %g below N·a", r.Makespan)
	}
}

// A tree's supply: three links from the farmer, each carrying jobs down
// and results up (thesis 4.12.1: "more bandwidth can be obtained from a
// link that is only used unidirectionally rather than bidirectionally, and
// with a ternary tree results will be travelling along links in the
// opposite direction to jobs"). With m = r and f = 0.727 a link delivers
// 2f·B/(2(m + s)) = 0.727·B/(m + s) jobs/s: 3·0.727·300.366 = 655.1 for
// 4 KB at 1.177 MiB/s. A tree of 12 at j = 30 ms is compute bound (demand
// 401.3) and simulates at 0.978; the old one-link ceiling, 0.749, was
// below the simulation.
func TestTreeSupply(t *testing.T) {
	c := &Config{Layout: Tree, Harness: HarnessD, Workers: 12, MessageBytes: 4096, JobTime: 0.03, Bandwidth: 1.177 * MiB, SetupBytes: 12.9}
	p := Predict(c)
	if !near(p.Supply, 3*0.727*Supply(1.177*MiB, 4096, 12.9), 1e-9) || p.FarmerLinks != 3 || p.SupplyLimit != LimitBothWays || !p.ComputeBound {
		t.Fatalf("prediction %+v", p)
	}
	if r := sim(t, c); !near(r.Efficiency, 0.9778, 5e-4) {
		t.Errorf("simulated %.4f, want 0.9778", r.Efficiency)
	}
}

// The estimate of a run: a line's messages are exactly jobs·(w + 1); the
// events stay below the estimate; a run beyond a limit is refused before
// anything is built, naming the input and the limit.
func TestEstimateAndLimits(t *testing.T) {
	for _, c := range []*Config{line(HarnessD, 8, 0.015625), line(HarnessA, 20, 0.005),
		{Layout: Tree, Harness: HarnessD, Workers: 39, MessageBytes: 256, JobTime: 0.003, Bandwidth: 1.51 * MiB, SetupBytes: 4.75, CPUPerMessage: 1e-4}} {
		e, r := c.Estimate(), sim(t, c)
		if c.Layout == Line && r.Messages != e.Messages || r.Messages > e.Messages || r.Events > e.Events {
			t.Errorf("%s of %d: %d messages, %d events; estimated %d, %d", c.Layout, c.Workers, r.Messages, r.Events, e.Messages, e.Events)
		}
	}
	var le *platform.LimitError
	_, err := Run(context.Background(), *line(HarnessD, 100_000, 1), platform.RunOptions{Limits: platform.Limits{MaxBytes: 1 << 30}})
	if !errors.As(err, &le) || le.Pkg != "day" || le.Field != "Limits.MaxBytes" || le.Need < 2000 || le.Limit != 1024 ||
		le.Fewer != "workers ({Config.Workers})" || !strings.Contains(le.What, "100000 workers") {
		t.Errorf("100,000 workers within 1 GB: %v", err)
	}
	_, err = Run(context.Background(), *line(HarnessD, 158, 1), platform.RunOptions{Limits: platform.Limits{MaxEvents: 5e7}})
	if !errors.As(err, &le) || le.Field != "Limits.MaxEvents" || le.Need != 20*100*158*159+4*(3*158+2*157) || !le.Bound {
		t.Errorf("158 workers within 5e7 events: %v", err)
	}
	// The model alone is not limited: nothing is simulated.
	if _, err := Run(context.Background(), *line(HarnessD, 100_000, 1), platform.RunOptions{NoSim: true, Limits: platform.Limits{MaxBytes: 1 << 30}}); err != nil {
		t.Errorf("model only: %v", err)
	}
}

// Bad input names the field in the package's words.
func TestFieldErrors(t *testing.T) {
	ok := func() *Config { return line(HarnessD, 2, 1) }
	for field, mod := range map[string]func(*Config){
		"Config.Workers":             func(c *Config) { c.Workers = 0 },
		"Config.Harness":             func(c *Config) { c.Harness.J = 0 },
		"Config.MessageBytes":        func(c *Config) { c.MessageBytes = math.Inf(1) },
		"Config.ResultBytes":         func(c *Config) { c.ResultBytes = -1 },
		"Config.JobTime":             func(c *Config) { c.JobTime = math.NaN() },
		"Config.DelayLoop":           func(c *Config) { c.DelayLoop = -1 },
		"Config.Bandwidth":           func(c *Config) { c.Bandwidth = 0 },
		"Config.SetupTime":           func(c *Config) { c.SetupTime = -1 },
		"Config.BidirectionalFactor": func(c *Config) { c.BidirectionalFactor = 1.5 },
		"Config.FarmerCost":          func(c *Config) { c.FarmerCost = -1 },
		"Config.JobsPerWorker":       func(c *Config) { c.JobsPerWorker = 1 << 62 },
		"Config.TotalJobs":           func(c *Config) { c.TotalJobs = MaxJobs + 1 },
		// Finite inputs whose run would overflow the simulated times
		// (m + s = +Inf made the kernel panic).
		"Config.SetupBytes":    func(c *Config) { c.SetupBytes = 1e308 },
		"Config.CPUPerMessage": func(c *Config) { c.CPUPerMessage = 1e300 },
	} {
		c := ok()
		mod(c)
		var fe *platform.FieldError
		if err := c.Validate(); !errors.As(err, &fe) || fe.Field != field || fe.Pkg != "day" {
			t.Errorf("%s: %v", field, err)
		}
	}
	// The run options: negative limits, a trace of nothing, a study that
	// would not simulate or would be traced.
	rec := trace.New("s")
	for field, opt := range map[string]platform.RunOptions{
		"Limits.MaxEvents": {Limits: platform.Limits{MaxEvents: -1}},
		"Limits.MaxBytes":  {Limits: platform.Limits{MaxBytes: -1}},
		"RunOptions.Trace": {NoSim: true, Trace: rec},
	} {
		var fe *platform.FieldError
		if _, err := Run(context.Background(), *ok(), opt); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("%s: %v", field, err)
		}
	}
	study := Study{TotalWork: 2, BytesPerSecond: 1, JobTimes: []float64{0.5}}
	for field, opt := range map[string]platform.RunOptions{"RunOptions.NoSim": {NoSim: true}, "RunOptions.Trace": {Trace: rec}} {
		var fe *platform.FieldError
		if _, err := Granularity(context.Background(), *ok(), study, opt); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("study, %s: %v", field, err)
		}
	}
	if rec.Len() != 0 {
		t.Errorf("a refused run recorded %d events", rec.Len())
	}
	base := *ok()
	for field, s := range map[string]Study{
		"Study.TotalWork":      {TotalWork: 1e12, BytesPerSecond: 1, JobTimes: []float64{1}},
		"Study.BytesPerSecond": {TotalWork: 1, BytesPerSecond: math.NaN(), JobTimes: []float64{1}},
		"Study.JobTimes":       {TotalWork: 1, BytesPerSecond: 1, JobTimes: []float64{10}},
	} {
		var fe *platform.FieldError
		if _, err := Granularity(context.Background(), base, s, platform.RunOptions{}); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("%s: %v", field, err)
		}
	}
}

// RunOptions.Progress reports the results arrived, never decreasing,
// ending at the number of jobs, which it gives as the total; across a
// granularity study it counts on from the runs before, of the study's
// total.
func TestProgress(t *testing.T) {
	var seen []int
	report := func(done, total int) {
		seen = append(seen, done)
		if total != 800 && total != 880 {
			t.Errorf("total %d", total)
		}
	}
	c := line(HarnessD, 8, 0.005)
	if _, err := Run(context.Background(), *c, platform.RunOptions{Progress: report}); err != nil {
		t.Fatal(err)
	}
	if len(seen) < 2 || seen[len(seen)-1] != 800 {
		t.Fatalf("progress %v, want several reports ending at 800", seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] {
			t.Fatalf("progress went back: %v", seen)
		}
	}
	seen = nil
	s := Study{TotalWork: 8, BytesPerSecond: 3125, JobTimes: []float64{0.01, 0.1}}
	if jobs, _ := s.Size(*c); jobs != 880 {
		t.Errorf("study size %d jobs, want 800 + 80", jobs)
	}
	if _, err := Granularity(context.Background(), *c, s, platform.RunOptions{Progress: report}); err != nil || len(seen) == 0 || seen[len(seen)-1] != 880 {
		t.Errorf("study progress %v (%v), want it to end at 880", seen, err)
	}
}

// The kernel's speed on Day's farms (the CLI's --max-events is in
// events): Section 4.9.3's line of 8 at 15.625 ms, 7,200 messages.
func BenchmarkSimulateLine8(b *testing.B) {
	c := line(HarnessD, 8, 0.015625)
	var events int64
	for b.Loop() {
		r, err := Run(context.Background(), *c, platform.RunOptions{})
		if err != nil {
			b.Fatal(err)
		}
		events += r.Simulated.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// A tree of 120 (depth 4) with harness D.
func BenchmarkSimulateTree120(b *testing.B) {
	c := &Config{Layout: Tree, Harness: HarnessD, Workers: 120, MessageBytes: 1024, JobTime: 0.05, Bandwidth: 1.51 * MiB, SetupBytes: 4.75}
	var events int64
	for b.Loop() {
		r, err := Run(context.Background(), *c, platform.RunOptions{})
		if err != nil {
			b.Fatal(err)
		}
		events += r.Simulated.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
