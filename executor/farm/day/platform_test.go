package day

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schedule"
)

// compareHarness is compare's translation of a chain platform into Day's
// farm before FromPlatform (compare/compare.go, dayRow), transcribed.
func compareHarness(p *platform.Platform, m int) Config {
	x := p.V / float64(m)
	return Config{Layout: Line, Harness: HarnessD, Workers: p.M, MessageBytes: x,
		ResultBytes: p.ResultPerUnit * x, ExplicitResult: true, JobTime: p.A * x, ConstantJobs: true,
		Bandwidth: 1 / p.C, SetupBytes: p.S / p.C, BidirectionalFactor: 1, TotalJobs: m}
}

// On any chain platform FromPlatform builds exactly the Config compare
// built by hand, so compare can switch to it without a change of numbers.
func TestFromPlatformIsCompares(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := &platform.Platform{Topology: platform.Topology{Kind: platform.Chain, M: rapid.IntRange(1, 200).Draw(t, "M")},
			S: rapid.Float64Range(0, 1e-2).Draw(t, "S"), C: rapid.Float64Range(1e-8, 1e-2).Draw(t, "C"),
			A: rapid.Float64Range(1e-6, 1).Draw(t, "A"), V: rapid.Float64Range(1, 1e7).Draw(t, "V"),
			ResultPerUnit: rapid.SampledFrom([]float64{0, 0.1, 1, 2.5}).Draw(t, "result"),
			D:             schedule.Float(rapid.SampledFrom([]float64{math.Inf(1), 1, 1000}).Draw(t, "D"))}
		m := rapid.IntRange(1, 100_000).Draw(t, "tasks")
		got, err := FromPlatform(p, m)
		if err != nil {
			t.Fatal(err)
		}
		if want := compareHarness(p, m); !reflect.DeepEqual(got, want) {
			t.Fatalf("FromPlatform %+v\ncompare     %+v", got, want)
		}
	})
}

// The costs carry over as the platform states them: on a chain of one
// worker with compute-bound tasks (A·x much longer than S + C·x), harness
// D sends the first job while the worker idles and the last result after
// it has computed everything, so the makespan is exactly
// (S + C·x) + A·V + (S + C·ResultPerUnit·x) — the simulation against the
// platform's own cost model. A ternary tree of depth 2 becomes Day's tree
// of 12 workers, whose results come back to the master.
func TestFromPlatformCosts(t *testing.T) {
	p := &platform.Platform{Topology: platform.Topology{Kind: platform.Chain, M: 1}, S: 1e-3, C: 1e-5, A: 2e-2,
		V: 500, ResultPerUnit: 0.5, D: schedule.Float(math.Inf(1))}
	c, err := FromPlatform(p, 50)
	if err != nil {
		t.Fatal(err)
	}
	r := sim(t, &c)
	x := p.V / 50
	want := (p.S + p.C*x) + p.A*p.V + (p.S + p.C*p.ResultPerUnit*x)
	if math.Abs(r.Makespan-want) > 1e-9*want || r.Messages != 100 || r.Bytes != 50*x*1.5 {
		t.Errorf("makespan %.12g, want %.12g; %d messages of %g bytes", r.Makespan, want, r.Messages, r.Bytes)
	}
	tree := *p
	tree.Topology = platform.Topology{Kind: platform.KAry, K: 3, Depth: 2}
	c, err = FromPlatform(&tree, 120)
	if err != nil || c.Layout != Tree || c.Workers != 12 || c.BidirectionalFactor != 1 {
		t.Fatalf("ternary tree: %+v, %v", c, err)
	}
	rep, err := Run(context.Background(), c, platform.RunOptions{})
	if err != nil || rep.Simulated.Makespan < p.A*p.V/12 {
		t.Errorf("ternary tree: %v, %+v", err, rep)
	}
}

// What Day's farm cannot run is refused naming the platform's field (or
// the tasks, as Config.TotalJobs); an invalid platform by the platform's
// own validation.
func TestFromPlatformRefuses(t *testing.T) {
	ok := platform.Platform{Topology: platform.Topology{Kind: platform.Chain, M: 4}, S: 1e-3, C: 1e-5, A: 1e-3, V: 100,
		D: schedule.Float(math.Inf(1))}
	for _, c := range []struct {
		mod   func(p *platform.Platform) int
		field string
	}{
		{func(p *platform.Platform) int { p.Kind = platform.Star; return 10 }, "Platform.Topology"},
		{func(p *platform.Platform) int {
			p.Topology = platform.Topology{Kind: platform.KAry, K: 2, Depth: 2}
			return 10
		}, "Platform.Topology"},
		{func(p *platform.Platform) int { p.C = 0; return 10 }, "Platform.C"},
		{func(p *platform.Platform) int { p.Slows = []platform.Slow{{Worker: 1, At: 1, Factor: 0.5}}; return 10 }, "Platform.Slows"},
		{func(p *platform.Platform) int { p.Crashes = []platform.Crash{{Worker: 2, At: 1}}; return 10 }, "Platform.Crashes"},
		{func(p *platform.Platform) int { return 0 }, "Config.TotalJobs"},
		{func(p *platform.Platform) int { p.M = 0; return 10 }, "Platform.M"},
	} {
		p := ok
		m := c.mod(&p)
		var fe *platform.FieldError
		if _, err := FromPlatform(&p, m); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: %v", c.field, err)
		}
	}
}
