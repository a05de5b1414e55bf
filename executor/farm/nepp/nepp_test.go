package nepp

import (
	"context"
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"

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
	r, err := Simulate(context.Background(), cfg)
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
		if _, err := Simulate(context.Background(), bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
