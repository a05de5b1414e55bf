package platform

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
)

// Worker counts and parents of the three shapes, by hand: a binary tree of
// depth 3 under the master has 2 + 4 + 8 = 14 workers, worker 5's parent
// is worker 2 (heap order: the children of i are k·i+1 … k·i+k).
func TestTopology(t *testing.T) {
	for _, c := range []struct {
		top     Topology
		workers int
		parent  map[int]int
	}{
		{Topology{Kind: Star, M: 4}, 4, map[int]int{1: 0, 4: 0}},
		{Topology{Kind: Chain, M: 4}, 4, map[int]int{1: 0, 4: 3}},
		{Topology{Kind: KAry, K: 2, Depth: 3}, 14, map[int]int{1: 0, 2: 0, 3: 1, 5: 2, 14: 6}},
		{Topology{Kind: KAry, K: 3, Depth: 2}, 12, map[int]int{3: 0, 4: 1, 12: 3}},
		{Topology{Kind: KAry, K: 10, Depth: 5}, -1, nil},
	} {
		if got := c.top.Workers(); got != c.workers {
			t.Errorf("%+v: %d workers, want %d", c.top, got, c.workers)
		}
		for i, want := range c.parent {
			if got := c.top.Parent(i); got != want {
				t.Errorf("%+v: parent of %d is %d, want %d", c.top, i, got, want)
			}
		}
	}
}

// Bad values name the field in the library's words; a command line
// renders them with its flags.
func TestValidate(t *testing.T) {
	good := Platform{Topology: Topology{Kind: Star, M: 2}, S: 1e-3, C: 1e-6, A: 1e-3, D: schedule.Float(math.Inf(1)), V: 10}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mod   func(p *Platform)
		field string
	}{
		{func(p *Platform) { p.M = 0 }, "Platform.M"},
		{func(p *Platform) { p.A = 0 }, "Platform.A"},
		{func(p *Platform) { p.S = math.NaN() }, "Platform.S"},
		{func(p *Platform) { p.D = 0 }, "Platform.D"},
		{func(p *Platform) { p.Kind = "ring" }, "Platform.Topology"},
		{func(p *Platform) { p.PerWorkerA = []float64{1} }, "Platform.PerWorkerA"},
		{func(p *Platform) { p.Slows = []Slow{{Worker: 3, At: 0, Factor: 2}} }, "Platform.Slows"},
		{func(p *Platform) { p.Crashes = []Crash{{Worker: 1, At: -1}} }, "Platform.Crashes"},
	} {
		p := good
		c.mod(&p)
		err := p.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: got %v", c.field, err)
			continue
		}
		flag := fe.Format(func(f string) string { return "--" + strings.ToLower(strings.TrimPrefix(f, "Platform.")) })
		if !strings.HasPrefix(flag, "invalid --") {
			t.Errorf("%s: formatted %q", c.field, flag)
		}
	}
}

// Limit errors say the estimate, the limit and what to reduce, in the
// caller's names.
func TestLimitError(t *testing.T) {
	e := &LimitError{Pkg: "pfarm", What: "a chain of 100000 processors", Need: 2300, Limit: 1024, Unit: "MB of memory",
		Field: "Limits.MaxBytes", Fewer: "processors ({Topology.N})"}
	want := "pfarm: a chain of 100000 processors needs about 2300 MB of memory, more than Limits.MaxBytes 1024: raise it or use fewer processors (Topology.N)"
	if e.Error() != want {
		t.Errorf("got  %q\nwant %q", e.Error(), want)
	}
	flags := map[string]string{"Limits.MaxBytes": "--max-memory", "Topology.N": "--N"}
	if got := e.Format(func(f string) string { return flags[f] }); !strings.Contains(got, "--max-memory 1024: raise it or use fewer processors (--N)") {
		t.Errorf("formatted %q", got)
	}
	// A limit is written as its flag takes it, a whole number in full.
	e = &LimitError{Pkg: "pfarm", What: "the simulation", Need: 7.8e10, Limit: 5e7, Unit: "kernel events", Field: "Limits.MaxEvents"}
	if want := "pfarm: the simulation needs about 7.8e+10 kernel events, more than Limits.MaxEvents 50000000: raise it"; e.Error() != want {
		t.Errorf("got  %q\nwant %q", e.Error(), want)
	}
}

// A platform's JSON writes an unlimited buffer as "inf" and reads it back
// (JSON has no infinity): D is a schedule.Float, the one JSON float of the
// module.
func TestFloatJSON(t *testing.T) {
	p := Platform{Topology: Topology{Kind: Chain, M: 2}, A: 1, D: schedule.Float(math.Inf(1)), V: 10}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"D":"inf"`) {
		t.Errorf("%s", b)
	}
	var back Platform
	if err := json.Unmarshal(b, &back); err != nil || !math.IsInf(float64(back.D), 1) || back.M != 2 || back.Kind != Chain {
		t.Fatalf("%+v, %v", back, err)
	}
	for in, want := range map[string]float64{`2.5`: 2.5, `"-inf"`: math.Inf(-1), `"1e3"`: 1000} {
		var f schedule.Float
		if err := json.Unmarshal([]byte(in), &f); err != nil || float64(f) != want {
			t.Errorf("%s: %g, %v", in, f, err)
		}
	}
	var f schedule.Float
	if err := json.Unmarshal([]byte(`"many"`), &f); err == nil {
		t.Error(`"many" read as a number`)
	}
}
