package pfarm

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// comparesTranslation is the farm package compare ran for the "demand"
// strategy on a chain or a k-ary tree before it called FromPlatform, as it
// built it by hand ("Pfarm with the master at the root of the tree"): the
// tree, the parameters and the simulation's configuration.
func comparesTranslation(t testing.TB, p *platform.Platform, m int) (*topology.FarmTree, *Params, Config) {
	x := p.V / float64(m)
	w := p.Workers()
	var tr *topology.FarmTree
	var err error
	if p.Kind == platform.Chain {
		tr, err = topology.Chain(w + 1)
	} else {
		tr, err = topology.KAry(p.K, p.Depth+1)
	}
	if err != nil {
		t.Fatal(err)
	}
	pp := &Params{M: m, Te: p.A * x, Tau: p.C, Startup: p.S, Dt: x, Dr: p.ResultPerUnit * x}
	opt := Config{NoRootWorker: true, FreeHostLink: true}
	for _, s := range p.Slows {
		opt.Slowdowns = append(opt.Slowdowns, Slowdown{Node: s.Worker + 1, At: s.At, Factor: s.Factor})
	}
	return tr, pp, opt
}

// randomPlatform draws a small chain or k-ary tree platform with its
// slowdowns.
func randomPlatform(rt *rapid.T) *platform.Platform {
	p := &platform.Platform{S: rapid.SampledFrom([]float64{0, 1e-3, 0.1}).Draw(rt, "S"), C: rapid.Float64Range(0, 0.1).Draw(rt, "C"),
		A: rapid.Float64Range(0.01, 1).Draw(rt, "A"), D: schedule.Float(math.Inf(1)), V: rapid.Float64Range(1, 100).Draw(rt, "V"),
		ResultPerUnit: rapid.SampledFrom([]float64{0, 0.1, 1}).Draw(rt, "result per unit")}
	if rapid.Bool().Draw(rt, "chain") {
		p.Topology = platform.Topology{Kind: platform.Chain, M: rapid.IntRange(1, 8).Draw(rt, "M")}
	} else {
		p.Topology = platform.Topology{Kind: platform.KAry, K: rapid.IntRange(1, 3).Draw(rt, "K"), Depth: rapid.IntRange(1, 3).Draw(rt, "depth")}
	}
	for i := rapid.IntRange(0, 2).Draw(rt, "slows"); i > 0; i-- {
		p.Slows = append(p.Slows, platform.Slow{Worker: rapid.IntRange(1, p.Workers()).Draw(rt, "worker"),
			At: rapid.Float64Range(0, 10).Draw(rt, "at"), Factor: rapid.Float64Range(0.2, 3).Draw(rt, "factor")})
	}
	return p
}

// FromPlatform builds the farm compare built by hand (comparesTranslation):
// the same tree, the same parameters, the same slowdowns, a root without a
// worker and a free host link; and Run simulates exactly what compare's
// simulation of that tree did, every number of the result equal (compare
// now calls FromPlatform and Run: its outputs stayed the same bytes).
func TestFromPlatformIsCompares(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := randomPlatform(rt)
		m := rapid.IntRange(1, 200).Draw(rt, "tasks")
		cfg, err := FromPlatform(p, m)
		if err != nil {
			rt.Fatal(err)
		}
		tr, pp, opt := comparesTranslation(t, p, m)
		built, err := cfg.Topology.Build()
		if err != nil {
			rt.Fatal(err)
		}
		if !reflect.DeepEqual(built.Parent, tr.Parent) || !reflect.DeepEqual(built.Children, tr.Children) {
			rt.Fatalf("tree %s, compare's %s", built.Name, tr.Name)
		}
		if !reflect.DeepEqual(cfg.Params, *pp) || !reflect.DeepEqual(cfg.Slowdowns, opt.Slowdowns) ||
			cfg.NoRootWorker != opt.NoRootWorker || cfg.FreeHostLink != opt.FreeHostLink || cfg.FindOpt {
			rt.Fatalf("config %+v, compare's %+v %+v", cfg, *pp, opt)
		}
		want, err := simulateTree(context.Background(), tr, pp, &opt, platform.RunOptions{})
		if err != nil {
			rt.Fatal(err)
		}
		r, err := Run(context.Background(), cfg, platform.RunOptions{})
		if err != nil {
			rt.Fatal(err)
		}
		if !reflect.DeepEqual(r.Simulated, want) {
			rt.Fatalf("Run %+v\ncompare's %+v", r.Simulated, want)
		}
	})
}

// A star of M workers is the tree of one level of M children under the
// root: every worker a child of the master, worker i processor i + 1.
// Four workers of A = 1 s a unit, free links, 8 units in 8 tasks: each
// worker executes two tasks of 1 s, done at 2 s.
func TestFromPlatformStar(t *testing.T) {
	p := &platform.Platform{Topology: platform.Topology{Kind: platform.Star, M: 4}, A: 1, D: schedule.Float(math.Inf(1)), V: 8}
	cfg, err := FromPlatform(p, 8)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := cfg.Topology.Build()
	if err != nil {
		t.Fatal(err)
	}
	if tr.N() != 5 || !reflect.DeepEqual(tr.Children[0], []int{1, 2, 3, 4}) {
		t.Fatalf("star of 4: %s, children of the root %v", tr.Name, tr.Children[0])
	}
	r, err := Run(context.Background(), cfg, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Simulated; s.Makespan != 2 || !reflect.DeepEqual(s.TasksPerWorker, []int64{0, 2, 2, 2, 2}) {
		t.Fatalf("makespan %g, tasks per worker %v; want 2 s and 0 2 2 2 2", s.Makespan, s.TasksPerWorker)
	}
}

// What Pfarm cannot run is refused naming the platform's field: per-worker
// A (its processors are identical), crashes (no fault tolerance), and a
// task count outside 1..MaxTasks; an invalid platform is refused by its
// own validation.
func TestFromPlatformRefuses(t *testing.T) {
	star := platform.Platform{Topology: platform.Topology{Kind: platform.Star, M: 2}, A: 1, D: schedule.Float(math.Inf(1)), V: 8}
	hetero := star
	hetero.PerWorkerA = []float64{1, 2}
	crash := star
	crash.Crashes = []platform.Crash{{Worker: 1, At: 1}}
	ring := star
	ring.Kind = "ring"
	for _, c := range []struct {
		p     platform.Platform
		tasks int
		pkg   string
		field string
	}{
		{hetero, 8, "pfarm", "Platform.PerWorkerA"},
		{crash, 8, "pfarm", "Platform.Crashes"},
		{star, 0, "pfarm", "Params.M"},
		{star, MaxTasks + 1, "pfarm", "Params.M"},
		{ring, 8, "platform", "Platform.Topology"},
	} {
		var fe *platform.FieldError
		if _, err := FromPlatform(&c.p, c.tasks); !errors.As(err, &fe) || fe.Field != c.field || fe.Pkg != c.pkg {
			t.Errorf("%s: %v, want %s's error naming %s", c.field, err, c.pkg, c.field)
		}
	}
}
