package compare

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/optimize"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
)

// Issue 27 item 1: compare on a star of 4 with D = 0.01 (n_min = 125,000
// stages, an LP of 500,000 messages) grew past 1.8 GB. Check refuses it
// from the inputs, naming the memory limit, with the LP estimate of
// formulations (500 bytes per nonzero: 1573 MB); D = 1e-6 needs more
// stages than the search's NMax; Day's harness on a chain of 10,000 with
// 10,000 tasks sends every result across the line (1e9 events); D = 0.02
// needs LPs of 250,000 messages (a single solve took 53 s); D = 0.04 is
// accepted (the run took 33 s). Nothing in proportion to the inputs is
// allocated on the way.
func TestCheckRefuses(t *testing.T) {
	star := func(d float64) platform.Platform {
		return platform.Platform{Topology: platform.Topology{Kind: "star", M: 4}, S: 1e-3, C: 1e-6, A: 1e-3, D: schedule.Float(d), V: 5e3}
	}
	chain := platform.Platform{Topology: platform.Topology{Kind: "chain", M: 10000}, S: 1e-3, C: 1e-6, A: 1e-3, D: schedule.Float(math.Inf(1)), V: 5e3}
	for _, c := range []struct {
		p     platform.Platform
		o     Options
		field string
		want  string
	}{
		{star(1e-2), Options{Tasks: []int{10}}, FieldMaxBytes, "the LP of n_min = 125000 stages (500000 messages) needs about 1573 MB, more than the limit of 1024 MB"},
		{star(1e-6), Options{Tasks: []int{10}, NMax: 50}, FieldNMax, "invalid NMax 50: want at least n_min = 1250000000"},
		{star(2e-2), Options{Tasks: []int{10}}, FieldMaxLPSeconds, "the LP of n_min = 62500 stages (250000 messages) needs about"},
		{chain, Options{Tasks: []int{10000}, Strategies: []string{"harness"}}, FieldMaxEvents, "harness with 10000 tasks: the simulation of 10000 tasks on 10000 workers needs about 2e+09 simulation events"},
		{star(4e-2), Options{Tasks: []int{10}}, "", ""},
	} {
		var err error
		allocs := testing.AllocsPerRun(1, func() { err = Check(&c.p, c.o) })
		if allocs > 1000 {
			t.Errorf("%s: Check made %.0f allocations", Describe(&c.p), allocs)
		}
		var se *SizeError
		var fe *platform.FieldError
		switch {
		case c.field == "":
			if err != nil {
				t.Errorf("%s: %v", Describe(&c.p), err)
			}
		case errors.As(err, &se) && se.Field == c.field, errors.As(err, &fe) && fe.Field == c.field:
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want it to say %q", Describe(&c.p), err, c.want)
			}
		default:
			t.Errorf("%s: %v, want a refusal naming %s", Describe(&c.p), err, c.field)
		}
	}
}

// The estimates are upper bounds of the kernel events every run takes,
// on random small platforms (stars, chains, k-ary trees; with and
// without startup cost; slowed or crashing workers), so that a run Check
// accepts cannot exceed the event limit it was checked against.
func TestEstimateBoundsEvents(t *testing.T) {
	s := newClp(t)
	rapid.Check(t, func(rt *rapid.T) {
		p := platform.Platform{Topology: platform.Topology{Kind: rapid.SampledFrom([]platform.Kind{"star", "chain", "kary"}).Draw(rt, "topology")},
			S: rapid.SampledFrom([]float64{0, 1e-3}).Draw(rt, "S"), C: 1e-6, A: 1e-3, V: 5e3, D: schedule.Float(math.Inf(1)),
			ResultPerUnit: rapid.SampledFrom([]float64{0, 1}).Draw(rt, "result")}
		if p.Kind == platform.KAry {
			p.K, p.Depth = rapid.IntRange(1, 3).Draw(rt, "k"), rapid.IntRange(1, 2).Draw(rt, "depth")
		} else {
			p.M = rapid.IntRange(1, 12).Draw(rt, "m")
		}
		w := p.Workers()
		switch rapid.IntRange(0, 2).Draw(rt, "fault") {
		case 1:
			p.Slows = []platform.Slow{{Worker: rapid.IntRange(1, w).Draw(rt, "slow"), At: 0.1, Factor: rapid.SampledFrom([]float64{0.05, 0.5, 20}).Draw(rt, "factor")}}
		case 2:
			p.Crashes = []platform.Crash{{Worker: rapid.IntRange(1, w).Draw(rt, "crash"), At: rapid.Float64Range(0, 2).Draw(rt, "at")}}
		}
		o := Options{Solver: s, NMax: 2, Tasks: []int{rapid.SampledFrom([]int{1, 7, 100, 2000}).Draw(rt, "tasks")}}
		costs, err := Estimate(&p, o)
		if err != nil {
			rt.Fatal(err)
		}
		r, err := Run(context.Background(), p, o)
		if err != nil {
			rt.Fatal(err)
		}
		for _, x := range r.Rows {
			if x.Skipped || strings.HasPrefix(x.Note, "the nominal plan") || strings.HasPrefix(x.Note, "no perturbation") {
				continue
			}
			c := costOf(rt, costs, x.Strategy, x.Tasks)
			if float64(x.Events) > c.Events {
				rt.Errorf("%s: %s/%d took %d events, estimated %g", Describe(&p), x.Strategy, x.Tasks, x.Events, c.Events)
			}
		}
	})
}

func costOf(t *rapid.T, costs []Cost, strategy string, tasks int) Cost {
	for _, c := range costs {
		if c.Strategy == strategy && c.Tasks == tasks {
			return c
		}
	}
	t.Fatalf("no estimate of %s/%d in %v", strategy, tasks, costs)
	return Cost{}
}

// optimize.SearchEnd's bound: on a star with S > 0 the best makespan of the search
// over n is at most optimize.RoundRobin's feasible n_min-stage schedule, and the
// search (optimize.OverN, the call dls makes) evaluates no n beyond
// optimize.SearchEnd — on random homogeneous and heterogeneous stars and buffers.
func TestSearchEnd(t *testing.T) {
	s := newClp(t)
	rapid.Check(t, func(rt *rapid.T) {
		m := rapid.IntRange(1, 4).Draw(rt, "m")
		p := platform.Platform{Topology: platform.Topology{Kind: "star", M: m}, S: rapid.Float64Range(1e-3, 1e-2).Draw(rt, "S"), C: 1e-6, A: 1e-3, V: 5e3,
			D: schedule.Float(rapid.SampledFrom([]float64{math.Inf(1), 2e3, 500}).Draw(rt, "D"))}
		if rapid.Bool().Draw(rt, "heterogeneous") {
			for i := 0; i < m; i++ {
				p.PerWorkerA = append(p.PerWorkerA, rapid.Float64Range(2e-4, 5e-3).Draw(rt, "A"))
			}
		}
		pr, err := problem.FromPlatform(&p)
		if err != nil {
			rt.Fatal(err)
		}
		nmin := pr.NMin()
		res, err := optimize.OverN(pr, optimize.Options{Solve: solve.Options{Solver: s}, NMax: nmin + 15})
		if err != nil {
			rt.Fatal(err)
		}
		if u := optimize.RoundRobin(pr, nmin); float64(res.Best.Cmax) > u*(1+1e-9) {
			rt.Errorf("%s: best %g above the round-robin schedule's %g", Describe(&p), float64(res.Best.Cmax), u)
		}
		if end := optimize.SearchEnd(pr, nmin, nmin+15); res.Last > end {
			rt.Errorf("%s: the search evaluated n = %d, beyond optimize.SearchEnd %d", Describe(&p), res.Last, end)
		}
	})
}
