package nepp

import (
	"context"
	"errors"
	"fmt"
	"github.com/dlsched/dlsched/platform"
	"math"
	"sort"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/internal/leakcheck"
)

// scenario is the report's Section 4.3 cluster: one slow node plus p − 1
// nodes of speed 1.
func scenario(p int, slow float64) []float64 {
	s := make([]float64, p)
	s[0] = slow
	for i := 1; i < p; i++ {
		s[i] = 1
	}
	return s
}

// The acceptance numbers of the report's scenario (J = 100, q = 6, w = 1):
// slow node 0.2: T_mult = 31.25 at p = 4 (100/3.2) and 30 from p = 5
// (6/0.2); T_simp = 5.2083 at p = 20 (100/19.2); T_fault = 23.93 at p = 20
// (100/19.2 + 6/0.96·ln 20). Slow node 0.03: T_mult = 200 from p = 2;
// T_simp = 33.333 from p = 4; T_fault = 32.704 at p = 6.
func TestModelScenario(t *testing.T) {
	cases := []struct {
		alg  Algorithm
		p    int
		slow float64
		want float64
		tol  float64
	}{
		{Multiple, 4, 0.2, 31.25, 1e-12}, {Multiple, 5, 0.2, 30, 1e-12}, {Multiple, 20, 0.2, 30, 1e-12},
		{Simple, 20, 0.2, 5.2083, 5e-5}, {FaultTolerant, 20, 0.2, 23.93, 5e-3},
		{Multiple, 2, 0.03, 200, 1e-12}, {Multiple, 20, 0.03, 200, 1e-12},
		{Simple, 4, 0.03, 33.333, 5e-4}, {Simple, 20, 0.03, 33.333, 5e-4}, {FaultTolerant, 6, 0.03, 32.704, 5e-4},
	}
	for _, c := range cases {
		pr, err := Model(c.alg, scenario(c.p, c.slow), 6, 100, 1, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(pr.Makespan-c.want) > c.tol {
			t.Errorf("%s p=%d slow %g: %.6f, want %g", c.alg, c.p, c.slow, pr.Makespan, c.want)
		}
	}
	pr, _ := Model(FaultTolerant, scenario(20, 0.2), 6, 100, 1, 1, 0)
	if len(pr.Warnings) == 0 {
		t.Error("J = 100 < p·q = 120 gave no warning")
	}
	// Phases add up: t_m + t_r + t_l = T_fault (4.22), and the work is
	// (w + w_h)(J + pq ln p) (4.28), E_c = Σf / W (4.40).
	pr, _ = Model(FaultTolerant, scenario(4, 0.5), 6, 200, 1.2, 1, 0.1)
	if s := pr.Phases[0] + pr.Phases[1] + pr.Phases[2]; math.Abs(s-pr.Makespan) > 1e-12 {
		t.Errorf("phases %v add up to %g, T_fault %g", pr.Phases, s, pr.Makespan)
	}
	if w := 1.3 * (200 + 24*math.Log(4)); math.Abs(pr.Work-w) > 1e-9 || math.Abs(pr.CorrectedEfficiency-200/w) > 1e-12 {
		t.Errorf("work %g (want %g), E_c %g", pr.Work, w, pr.CorrectedEfficiency)
	}
}

func zeroCost(alg Algorithm, speeds []float64, q, jobs int) *Config {
	return &Config{Algorithm: alg, Speeds: speeds, Queue: q, Jobs: jobs, Work: 1}
}

type fataler interface {
	Helper()
	Fatal(args ...any)
}

func run(t fataler, cfg *Config) *Result {
	t.Helper()
	r, err := simulate(context.Background(), cfg, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Exact small cases with zero message cost: two equal nodes, SD, 5 jobs of
// 1: node 1 does jobs 1, 3, 5 and the host has everything at 3. MD with
// q = 2 on speeds 1 and 0.4: node 1 takes jobs 1-2 (done at 2), node 2
// takes 3-4 (2.5 each, done at 5); node 1 refills with 5-6 at 2 (done at
// 4) and 7-8 at 4 (done at 6).
func TestSimulationExact(t *testing.T) {
	r := run(t, zeroCost(Simple, []float64{1, 1}, 1, 5))
	if r.Makespan != 3 || fmt.Sprint(r.JobsPerNode) != "[3 2]" || !r.Completed {
		t.Fatalf("SD: %+v", r)
	}
	r = run(t, zeroCost(Multiple, []float64{1, 0.4}, 2, 8))
	if r.Makespan != 6 || fmt.Sprint(r.JobsPerNode) != "[6 2]" {
		t.Fatalf("MD: %+v", r)
	}
	// With message costs: SD, one node, 2 jobs, setup 1, 0.5 per byte,
	// jobs and results 2 bytes (2 s each), READY 1 s: READY 0..1, job 1
	// sent 1..3, computed 3..4, DONE 4..6, job 2 sent 6..8, computed
	// 8..9, DONE 9..11.
	cfg := &Config{Algorithm: Simple, Speeds: []float64{1}, Jobs: 2, Work: 1, Setup: 1, PerByte: 0.5, JobBytes: 2, ResultBytes: 2}
	if r = run(t, cfg); r.Makespan != 11 || r.Messages != 5 {
		t.Fatalf("SD with messages: makespan %g, %d messages", r.Makespan, r.Messages)
	}
}

// Property (zero message cost, constant work): SD and MD finish no earlier
// than max(Jw/Σs, w/s_min) and max(Jw/Σs, q·w/s_min) (J >= pq), and no
// later than Jw/Σs + w/s_min and Jw/Σs + q·w/s_min; FT never before Jw/Σs
// and never after MD on the same configuration.
func TestBoundsProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := rapid.IntRange(1, 6).Draw(rt, "p")
		q := rapid.IntRange(1, 4).Draw(rt, "q")
		speeds := make([]float64, p)
		sum, smin := 0.0, math.Inf(1)
		for i := range speeds {
			speeds[i] = rapid.Float64Range(0.05, 2).Draw(rt, "s")
			sum += speeds[i]
			smin = math.Min(smin, speeds[i])
		}
		jobs := rapid.IntRange(p*q, p*q+40).Draw(rt, "J")
		ave := float64(jobs) / sum
		eps := 1e-9 * (ave + float64(q)/smin)
		sd := run(rt, zeroCost(Simple, speeds, 1, jobs))
		if sd.Makespan < math.Max(ave, 1/smin)-eps || sd.Makespan > ave+1/smin+eps {
			rt.Fatalf("SD %g outside [%g, %g]", sd.Makespan, math.Max(ave, 1/smin), ave+1/smin)
		}
		md := run(rt, zeroCost(Multiple, speeds, q, jobs))
		if md.Makespan < math.Max(ave, float64(q)/smin)-eps || md.Makespan > ave+float64(q)/smin+eps {
			rt.Fatalf("MD %g outside [%g, %g]", md.Makespan, math.Max(ave, float64(q)/smin), ave+float64(q)/smin)
		}
		ft := run(rt, zeroCost(FaultTolerant, speeds, q, jobs))
		if ft.Makespan < ave-eps || ft.Makespan > md.Makespan+eps {
			rt.Fatalf("FT %g outside [%g, MD %g]", ft.Makespan, ave, md.Makespan)
		}
		for _, r := range []*Result{sd, md, ft} {
			if !r.Completed || r.ResultMessages != r.Results+r.RedundantDiscarded || r.Results != jobs {
				rt.Fatalf("invariant broken: %+v", r)
			}
		}
	})
}

// Faults: 6 equal nodes, one crashes mid-job: SD and MD report exactly the
// missing jobs, FT completes. 4 nodes of which 3 crash: FT completes on the
// survivor; all crash: FT fails too. Results received = results +
// redundant discarded throughout.
func TestCrashes(t *testing.T) {
	leakcheck.Check(t, func() {
		for _, alg := range []Algorithm{Simple, Multiple} {
			cfg := zeroCost(alg, scenario(6, 1), 3, 60)
			cfg.Crashes = []Crash{{Node: 2, At: 2.5}}
			r := run(t, cfg)
			if r.Completed || len(r.MissingJobs) == 0 {
				t.Fatalf("%s: %+v", alg, r)
			}
			want := fmt.Sprintf("node 2 crashed at 2.5 holding jobs %s", joinInts(r.MissingJobs))
			if r.Failure != want {
				t.Errorf("%s: failure %q, want %q", alg, r.Failure, want)
			}
			if r.Results+len(r.MissingJobs) != 60 || r.ResultMessages != r.Results+r.RedundantDiscarded {
				t.Errorf("%s: %d results + %d missing", alg, r.Results, len(r.MissingJobs))
			}
		}
		// SD: node 2 computes job 2 (0..1), 8 (1..2), 14 (2..3): at 2.5 it
		// holds job 14 only.
		cfg := zeroCost(Simple, scenario(6, 1), 1, 60)
		cfg.Crashes = []Crash{{Node: 2, At: 2.5}}
		if r := run(t, cfg); fmt.Sprint(r.MissingJobs) != "[14]" {
			t.Errorf("SD missing %v, want [14]", r.MissingJobs)
		}
		cfg = zeroCost(FaultTolerant, scenario(6, 1), 3, 60)
		cfg.Crashes = []Crash{{Node: 2, At: 2.5}}
		if r := run(t, cfg); !r.Completed || r.Results != 60 || r.ResultMessages != 60+r.RedundantDiscarded {
			t.Errorf("FT with one crash: %+v", r)
		}
		cfg = zeroCost(FaultTolerant, scenario(4, 1), 3, 40)
		cfg.Crashes = []Crash{{1, 1.5}, {2, 2.5}, {3, 3.5}}
		r := run(t, cfg)
		if !r.Completed || r.Results != 40 || r.ResultMessages != r.Results+r.RedundantDiscarded {
			t.Errorf("FT with 3 of 4 crashed: %+v", r)
		}
		cfg.Crashes = append(cfg.Crashes, Crash{4, 4.5})
		r = run(t, cfg)
		if r.Completed || r.Failure == "" || r.Results+len(r.MissingJobs) != 40 {
			t.Errorf("FT with all crashed: %+v", r)
		}
	})
}

func joinInts(xs []int) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(x)
	}
	return s
}

// A slowed node: at t = 2 node 1 of two drops to speed 0.25 in the middle
// of its job (SD, 1 job each of work 1 at a time): its running job, started
// at 2, now ends at 6.
func TestSlowNode(t *testing.T) {
	cfg := zeroCost(Simple, []float64{1, 1}, 1, 4)
	cfg.Slows = []Slow{{Node: 1, At: 2.5, Factor: 0.25}}
	r := run(t, cfg)
	// node 1: jobs 1 (0..1), 3 (1..2), then job 5? J = 4: node 2 does 2
	// (0..1) and 4 (1..2); all done at 2 before the slowdown.
	if r.Makespan != 2 {
		t.Fatalf("makespan %g", r.Makespan)
	}
	cfg = zeroCost(Simple, []float64{1, 1}, 1, 6)
	cfg.Slows = []Slow{{Node: 1, At: 2.5, Factor: 0.25}}
	r = run(t, cfg)
	// node 1 runs job 5 from 2: half done at 2.5, then 0.5 at speed 0.25
	// takes 2: ends at 4.5; node 2 does job 6 (2..3).
	if r.Makespan != 4.5 || fmt.Sprint(r.JobsPerNode) != "[3 3]" {
		t.Fatalf("makespan %g, per node %v", r.Makespan, r.JobsPerNode)
	}
}

func TestValidate(t *testing.T) {
	for _, bad := range []*Config{
		{Algorithm: Multiple, Speeds: nil, Queue: 1, Jobs: 1, Work: 1},
		{Algorithm: Multiple, Speeds: []float64{1, -1}, Queue: 1, Jobs: 1, Work: 1},
		{Algorithm: Multiple, Speeds: []float64{1}, Queue: 0, Jobs: 1, Work: 1},
		{Algorithm: Multiple, Speeds: []float64{1}, Queue: 2, QMin: 3, Jobs: 1, Work: 1},
		{Algorithm: Multiple, Speeds: []float64{1}, Queue: 1, Jobs: 0, Work: 1},
		{Algorithm: Multiple, Speeds: []float64{1}, Queue: 1, Jobs: 1, Work: 1, Useful: 2},
		{Algorithm: Multiple, Speeds: []float64{1}, Queue: 1, Jobs: 1, Work: 1, Crashes: []Crash{{Node: 2}}},
		{Algorithm: Multiple, Speeds: []float64{1}, Queue: 1, Jobs: 1, Work: 1, WorkDist: "normal"},
	} {
		if _, err := simulate(context.Background(), bad, platform.RunOptions{}); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// A --slow factor is relative to the nominal speed, not to the current
// one (Slow's doc comment, docs/nepp.md): one node of speed 1, one job of
// work 4, free messages. Slowed to 0.5 at t = 1 and to 0.25 at t = 2: one
// unit done by 1, half a unit by 2, the remaining 2.5 at 0.25 take 10 s:
// the job ends at 12 (compounded, 0.125, it would end at 22). A factor of
// 1 at t = 2 restores the nominal speed: 2.5 more seconds, 4.5. Two
// changes at the same time: the one listed last wins (0.25 from t = 1:
// 1 + 3/0.25 = 13).
func TestSlowFactorNominal(t *testing.T) {
	for _, c := range []struct {
		slows []Slow
		want  float64
	}{
		{[]Slow{{1, 1, 0.5}, {1, 2, 0.25}}, 12},
		{[]Slow{{1, 1, 0.5}, {1, 2, 1}}, 4.5},
		{[]Slow{{1, 2, 0.25}, {1, 1, 0.5}}, 12}, // listed out of order: time decides
		{[]Slow{{1, 1, 0.5}, {1, 1, 0.25}}, 13},
	} {
		cfg := zeroCost(Simple, []float64{1}, 1, 1)
		cfg.Work, cfg.Slows = 4, c.slows
		if r := run(t, cfg); math.Abs(r.Makespan-c.want) > 1e-12 {
			t.Errorf("slows %v: makespan %g, want %g", c.slows, r.Makespan, c.want)
		}
	}
}

// randomConfig draws a run with every feature: heterogeneous speeds and
// shares, job work constant, exponential or uniform, host overhead,
// message costs, crashes and speed changes (slowdowns and speed-ups).
func randomConfig(rt *rapid.T) *Config {
	p := rapid.IntRange(1, 4).Draw(rt, "p")
	cfg := &Config{
		Algorithm:    Algorithm(rapid.IntRange(0, 2).Draw(rt, "alg")),
		Queue:        rapid.IntRange(1, 4).Draw(rt, "q"),
		Jobs:         rapid.IntRange(1, 25).Draw(rt, "J"),
		Work:         rapid.Float64Range(0.1, 3).Draw(rt, "w"),
		WorkDist:     rapid.SampledFrom([]string{"const", "exp", "uniform"}).Draw(rt, "dist"),
		HostOverhead: rapid.SampledFrom([]float64{0, 0.01, 0.3}).Draw(rt, "wh"),
		Setup:        rapid.SampledFrom([]float64{0, 0.002, 0.2}).Draw(rt, "setup"),
		PerByte:      rapid.SampledFrom([]float64{0, 1e-4}).Draw(rt, "perbyte"),
		JobBytes:     rapid.Float64Range(0, 100).Draw(rt, "jobbytes"),
		ResultBytes:  rapid.Float64Range(0, 100).Draw(rt, "resultbytes"),
		Seed:         rapid.Uint64().Draw(rt, "seed"),
	}
	cfg.QMin = rapid.IntRange(0, cfg.Queue).Draw(rt, "qmin")
	for range p {
		cfg.Speeds = append(cfg.Speeds, rapid.Float64Range(0.05, 3).Draw(rt, "s"))
	}
	if rapid.Bool().Draw(rt, "shares") {
		for range p {
			cfg.Shares = append(cfg.Shares, rapid.Float64Range(0.1, 1).Draw(rt, "alpha"))
		}
	}
	for range rapid.IntRange(0, 2).Draw(rt, "crashes") {
		cfg.Crashes = append(cfg.Crashes, Crash{rapid.IntRange(1, p).Draw(rt, "node"), rapid.Float64Range(0, 20).Draw(rt, "at")})
	}
	for range rapid.IntRange(0, 3).Draw(rt, "slows") {
		cfg.Slows = append(cfg.Slows, Slow{rapid.IntRange(1, p).Draw(rt, "node"), rapid.Float64Range(0, 20).Draw(rt, "at"),
			rapid.Float64Range(0.1, 3).Draw(rt, "factor")})
	}
	return cfg
}

// capacity is the work the nodes can do in [from, to]: ∫ s_i(t) dt with
// s_i the nominal speed times the factor of the latest speed change (the
// last listed of those at the same time), 0 from the node's first crash.
func capacity(cfg *Config, from, to float64) float64 {
	total := 0.0
	for i, s := range cfg.speeds() {
		end := to
		for _, x := range cfg.Crashes {
			if x.Node == i+1 {
				end = math.Min(end, x.At)
			}
		}
		var slows []Slow
		for _, x := range cfg.Slows {
			if x.Node == i+1 {
				slows = append(slows, x)
			}
		}
		sort.SliceStable(slows, func(a, b int) bool { return slows[a].At < slows[b].At })
		t, factor := from, 1.0
		for _, x := range slows {
			if x.At > t && t < end {
				total += s * factor * (math.Min(x.At, end) - t)
				t = math.Min(x.At, end)
			}
			factor = x.Factor
		}
		if t < end {
			total += s * factor * (end - t)
		}
	}
	return total
}

// The makespan bound that holds for every run that completes. Each job's
// first delivered result was computed by one node, one job at a time, no
// earlier than the node's READY and its first assignment (a = 2·setup +
// per-byte·job-bytes) and no later than T − b, b = setup + per-byte ×
// result-bytes + w_h (the result's message and the host's work on it):
// Σ_j w_j <= Σ_i ∫_a^{T−b} s_i(t) dt. With constant work, free messages and
// no faults this is the question's T >= J·w/Σs; J·w/Σs itself fails with
// random work (Σ w_j is not J·w) and with speed-ups. The host, one process,
// also sends every job (at least ceil(J/q) messages) and spends w_h on each
// first result after the first READY: T >= setup·(1 + ceil(J/q)) +
// per-byte·job-bytes·J + J·w_h. Every run, complete or not, also accounts
// for every job and every result message, and stays within its event
// bound (Estimate).
func TestMakespanLowerBound(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg := randomConfig(rt)
		r := run(rt, cfg)
		if r.Results+len(r.MissingJobs) != cfg.Jobs || r.ResultMessages != r.Results+r.RedundantDiscarded {
			rt.Fatalf("%d results + %d missing of %d; %d messages = %d + %d discarded?", r.Results, len(r.MissingJobs), cfg.Jobs,
				r.ResultMessages, r.Results, r.RedundantDiscarded)
		}
		// The kernel events alone: a node's 4, not its eventsPerNode.
		if bound := cfg.Estimate(platform.RunOptions{}).Events - (eventsPerNode-4)*float64(len(cfg.Speeds)); float64(r.Events) > bound {
			rt.Fatalf("%d events, more than the bound %g", r.Events, bound)
		}
		if !r.Completed {
			return
		}
		work, _ := drawWork(executor.NewSim(executor.SimConfig{Seed: cfg.Seed}), cfg)
		sum := 0.0
		for _, w := range work {
			sum += w
		}
		a := 2*cfg.Setup + cfg.PerByte*cfg.JobBytes
		b := cfg.Setup + cfg.PerByte*cfg.ResultBytes + cfg.HostOverhead
		if c := capacity(cfg, a, r.Makespan-b); sum > c*(1+1e-9)+1e-9 {
			rt.Fatalf("makespan %g: the nodes can do %g in [%g, %g], the jobs need %g", r.Makespan, c, a, r.Makespan-b, sum)
		}
		q, _ := cfg.queue()
		J := float64(cfg.Jobs)
		host := cfg.Setup*(1+math.Ceil(J/float64(q))) + cfg.PerByte*cfg.JobBytes*J + J*cfg.HostOverhead
		if r.Makespan < host*(1-1e-9) {
			rt.Fatalf("makespan %g below the host's busy time %g", r.Makespan, host)
		}
	})
}

// Errors name the field in the library's words and count nodes, crashes
// and slowdowns from 1, as the docs do; a queue gets its real limit and
// the reason for it.
func TestValidateMessages(t *testing.T) {
	base := func() *Config {
		return &Config{Algorithm: Multiple, Speeds: []float64{1, 1, 1}, Queue: 2, Jobs: 10, Work: 1}
	}
	for _, c := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Speeds[1] = -1 }, "nepp: invalid Config.Speeds -1 (node 2): want finite speeds > 0"},
		{func(c *Config) { c.Speeds = make([]float64, MaxNodes+1) }, "nepp: invalid Config.Speeds (100001 nodes): want 1 to 100000 nodes"},
		{func(c *Config) { c.Shares = []float64{1, 1, 2} }, "nepp: invalid Config.Shares 2 (node 3): want CPU shares in (0, 1]"},
		{func(c *Config) { c.Shares = []float64{1} }, "nepp: invalid Config.Shares (1 given): want one share per node of Config.Speeds (3)"},
		{func(c *Config) { c.Queue = 1e9 }, "nepp: invalid Config.Queue 1000000000: want 1..10000000: a queue never holds more than every job, and Config.Jobs is at most 10000000"},
		{func(c *Config) { c.QMin = 3 }, "nepp: invalid Config.QMin 3: want 1..2 (Config.Queue)"},
		{func(c *Config) { c.Jobs = 0 }, "nepp: invalid Config.Jobs 0: want 1..10000000"},
		{func(c *Config) { c.Useful = 2 }, "nepp: invalid Config.Useful 2: want 0 < f <= 1 (Config.Work)"},
		{func(c *Config) { c.Crashes = []Crash{{1, 1}, {4, 2}} }, "nepp: invalid Config.Crashes node 4 at 2 (crash 2): want a node 1..3 and a finite time >= 0"},
		{func(c *Config) { c.Slows = []Slow{{2, 1, 0}} }, "nepp: invalid Config.Slows node 2 at 1 factor 0 (slowdown 1): want a node 1..3, a finite time >= 0 and a finite factor > 0"},
		{func(c *Config) { c.WorkDist = "normal" }, `nepp: invalid Config.WorkDist "normal": want const, exp or uniform`},
		{func(c *Config) { c.Setup = math.Inf(1) }, "nepp: invalid Config.Setup +Inf: want a finite number >= 0 of seconds"},
	} {
		cfg := base()
		c.edit(cfg)
		_, err := simulate(context.Background(), cfg, platform.RunOptions{})
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
	// Simple Distribution is q = q_min = 1 whatever Queue and QMin say.
	cfg := base()
	cfg.Algorithm, cfg.Queue, cfg.QMin = Simple, 0, 7
	if err := cfg.Validate(); err != nil {
		t.Errorf("SD with Queue 0, QMin 7: %v", err)
	}
}

// The event estimate is exact arithmetic on the inputs: MD, q = 6, J =
// 10^7 jobs on 10 nodes: 5 per computation, 2 per message (ceil(J/6) + 1),
// 40 per node (4 events and its coroutine), 1: 53,333,737 (the run takes
// 53,333,320 events). FT adds
// N·(p − 1) replicas, N = min(J, p·q), each a computation and a message:
// 100 jobs on 10,000 nodes may take 5·100 + 7·100·9,999 + 40·10,000 +
// 2·(ceil(100/6) + 1) + 1 events.
func TestEstimate(t *testing.T) {
	cfg := &Config{Algorithm: Multiple, Speeds: make([]float64, 10), Queue: 6, Jobs: 10_000_000, Work: 1}
	if got, want := cfg.Estimate(platform.RunOptions{}).Events, 5*1e7+2*(math.Ceil(1e7/6)+1)+40*10+1; got != want {
		t.Errorf("MD: %g events, want %g", got, want)
	}
	cfg = &Config{Algorithm: FaultTolerant, Speeds: make([]float64, 10_000), Queue: 6, Jobs: 100, Work: 1}
	if got, want := cfg.Estimate(platform.RunOptions{}).Events, 5*100+7*100*9999.0+40*10_000+2*(math.Ceil(100.0/6)+1)+1; got != want {
		t.Errorf("FT: %g events, want %g", got, want)
	}
}

// Beyond its limits a run is refused before anything is built, with a
// *platform.LimitError naming the limit and what to reduce.
func TestLimits(t *testing.T) {
	speeds := make([]float64, MaxNodes)
	for i := range speeds {
		speeds[i] = 1
	}
	cfg := &Config{Algorithm: FaultTolerant, Speeds: speeds, Queue: 6, Jobs: 100, Work: 1}
	_, err := simulate(context.Background(), cfg, platform.RunOptions{Limits: platform.Limits{MaxEvents: 5e7}})
	var le *platform.LimitError
	if !errors.As(err, &le) || err.Error() != "nepp: ft on 100000 nodes with 100 jobs, q = 6 may need up to "+
		"7.4e+07 simulation events, more than Limits.MaxEvents 50000000: raise it or use fewer jobs (Config.Jobs) or nodes (Config.Speeds)" {
		t.Fatalf("got %v", err)
	}
	cfg = &Config{Algorithm: Multiple, Speeds: []float64{1}, Queue: 6, Jobs: MaxJobs, Work: 1}
	if _, err = Run(context.Background(), *cfg, platform.RunOptions{Limits: platform.Limits{MaxBytes: 256 << 20}}); !errors.As(err, &le) ||
		le.Field != FieldMaxBytes || le.Need != 643 {
		t.Fatalf("got %v", err)
	}
	sp := ScanSpec{From: 1, To: 100_000, Slow: 0.2}
	base := Config{Queue: 6, Jobs: 100, Work: 1}
	if _, err = Scan(context.Background(), base, sp, platform.RunOptions{Limits: platform.Limits{MaxEvents: 5e7, MaxBytes: 1 << 30}}); !errors.As(err, &le) ||
		le.Field != FieldMaxEvents || le.Need < 3e12 {
		t.Fatalf("scan: got %v", err)
	}
}
