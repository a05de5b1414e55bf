package pfarm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/topology"
)

// The estimate of kernel events is within 15% of the kernel's count on the
// paper's farms (Tables 3, 4 and 6 and the BFS trees of Section 5.4,
// M = 10,000): the visits of tasks to processors from the level flow,
// about 19.5 events each.
func TestEstimateEvents(t *testing.T) {
	tau14 := func(p *Params) { p.Dt, p.Dr, p.Tau = 1000, 1000, 1/1.4e6 }
	cases := []struct {
		spec topology.FarmSpec
		te   float64
		edit func(*Params)
	}{
		{topology.FarmSpec{Kind: "kary", K: 2, Depth: 3}, 0.010, nil},
		{topology.FarmSpec{Kind: "chain", N: 16}, 0.005, tau14},
		{topology.FarmSpec{Kind: "kary", K: 2, Depth: 6}, 0.010, nil},
		{topology.FarmSpec{Kind: "kary", K: 3, Depth: 4}, 0.005, nil},
		{topology.FarmSpec{Kind: "chain", N: 64}, 0.005, nil},
		{topology.FarmSpec{Kind: "kary", K: 2, Depth: 4}, 0.005, tau14},
		{topology.FarmSpec{Kind: "mesh", Rows: 3, Cols: 8, BFS: "first"}, 0.040, nil},
		{topology.FarmSpec{Kind: "mesh", Rows: 8, Cols: 8, BFS: "first"}, 0.030, nil},
	}
	for i, c := range cases {
		if testing.Short() && i >= 2 {
			break
		}
		p := paper(10000, c.te)
		if c.edit != nil {
			c.edit(p)
		}
		est, err := Estimate(Config{Topology: c.spec, Params: *p}, platform.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := c.spec.Build()
		r, err := simTree(context.Background(), tr, p, Config{})
		if err != nil {
			t.Fatal(err)
		}
		if ratio := float64(est.Events) / float64(r.Events); ratio < 0.85 || ratio > 1.15 {
			t.Errorf("%s at %g s: estimated %d events, the kernel counted %d (ratio %.3f)", tr.Name, c.te, est.Events, r.Events, ratio)
		}
	}
}

// The level flow is eq. (2) summed over each level, as in the proof of
// Theorem 1: on a tree where no processor is saturated and nothing else
// limits the throughput, its visits per task are Σ V_i/M of the
// per-processor solution.
func TestLevelFlowIsEq2(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		spec := randomSpec(rt)
		sh, err := checkSpec(spec)
		if err != nil {
			rt.Fatal(err)
		}
		tr, _ := spec.Build()
		p := paper(1000, rapid.Float64Range(1e-3, 0.1).Draw(rt, "Te"))
		pr, _ := Predict(tr, p)
		if pr.Saturated {
			rt.Skip("saturated")
		}
		sum := 0.0
		for _, v := range pr.Visits {
			sum += v
		}
		if got := levelFlow(sh.levels, p.Alpha(), p.BetaF, math.Inf(1)); math.Abs(got-sum) > 1e-9*sum {
			rt.Fatalf("%s: level flow %.12g visits per task, eq. (2) %.12g", tr.Name, got, sum)
		}
	})
}

// The shape of a spec, known before the tree is built, is the tree's.
func TestCheckSpecShape(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		spec := randomSpec(rt)
		sh, err := checkSpec(spec)
		if err != nil {
			rt.Fatal(err)
		}
		tr, err := spec.Build()
		if err != nil {
			rt.Fatal(err)
		}
		if sh.n != tr.N() || fmt.Sprint(sh.levels) != fmt.Sprint(tr.LevelSizes()) {
			rt.Fatalf("%s: shape %d %v, tree %d %v", tr.Name, sh.n, sh.levels, tr.N(), tr.LevelSizes())
		}
	})
}

// Bad topologies are refused naming the field of Config.Topology, before
// anything is built.
func TestCheckSpecErrors(t *testing.T) {
	for field, spec := range map[string]topology.FarmSpec{
		"Topology.Kind":  {Kind: "ring"},
		"Topology.N":     {Kind: "chain", N: topology.MaxFarmNodes + 1},
		"Topology.K":     {Kind: "kary", K: 0, Depth: 2},
		"Topology.Depth": {Kind: "kary", K: 2, Depth: 20},
		"Topology.Rows":  {Kind: "mesh", Rows: 0, Cols: 3, BFS: "first"},
		"Topology.Cols":  {Kind: "mesh", Rows: 1001, Cols: 1000, BFS: "first"},
		"Topology.Root":  {Kind: "mesh", Rows: 3, Cols: 3, Row: 5, BFS: "first"},
		"Topology.BFS":   {Kind: "mesh", Rows: 3, Cols: 3, BFS: "any"},
	} {
		var fe *platform.FieldError
		if _, err := checkSpec(spec); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("%+v: %v, want an error naming %s", spec, err, field)
		}
	}
	if _, err := checkSpec(topology.FarmSpec{Kind: "kary", K: 2, Depth: 19}); err != nil {
		t.Errorf("binary tree of 19 levels (524,287 processors): %v", err)
	}
}

// A run above the limits is refused with the limit's field before the
// tree is built: the binary tree of 19 levels needs about 14 GB; M = 1e9
// on a chain of 4 about 7.8e10 kernel events, and the model alone is
// accepted.
func TestRunLimits(t *testing.T) {
	cfg := Config{Topology: topology.FarmSpec{Kind: "kary", K: 2, Depth: 19}, Params: *paper(1000, 0.01)}
	_, err := Run(context.Background(), cfg, platform.RunOptions{Limits: platform.Limits{MaxBytes: 1 << 30}})
	var lim *platform.LimitError
	if !errors.As(err, &lim) || lim.Field != "Limits.MaxBytes" || lim.Limit != 1024 || lim.Need < 12<<10 ||
		lim.Fewer != "levels ({Topology.Depth})" || !strings.Contains(lim.What, "524287 processors") {
		t.Fatalf("binary tree of 19 levels, MaxBytes 1 GB: %v", err)
	}
	cfg = Config{Topology: topology.FarmSpec{Kind: "chain", N: 4}, Params: *paper(MaxTasks, 0.01)}
	opt := platform.RunOptions{Limits: platform.Limits{MaxEvents: 5e7}}
	if _, err := Run(context.Background(), cfg, opt); !errors.As(err, &lim) || lim.Field != "Limits.MaxEvents" || lim.Limit != 5e7 || lim.Need < 1e10 {
		t.Fatalf("M = 1e9, MaxEvents 5e7: %v", err)
	}
	opt.NoSim = true
	if r, err := Run(context.Background(), cfg, opt); err != nil || r.Parameters.M != MaxTasks || r.Simulated != nil {
		t.Fatalf("M = 1e9, the model alone: %v", err)
	}
}
