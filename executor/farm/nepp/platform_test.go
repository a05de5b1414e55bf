package nepp

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

// compareConfig is compare's translation of a platform into a NEPP run as
// compare/compare.go's neppRow writes it today (the platform's fields
// renamed to platform.Platform's: Procs is PerWorkerA, p.a(i) WorkerA(i)),
// which FromPlatform must reproduce before compare switches to it.
func compareConfig(p *platform.Platform, alg Algorithm, m, queue int) *Config {
	x := p.V / float64(m)
	cfg := &Config{Algorithm: alg, Queue: queue, Jobs: m, Work: p.A * x, Setup: p.S, PerByte: p.C,
		JobBytes: x, ResultBytes: p.ResultPerUnit * x}
	for i := 1; i <= p.M; i++ {
		cfg.Speeds = append(cfg.Speeds, p.A/p.WorkerA(i))
	}
	for _, s := range p.Slows {
		cfg.Slows = append(cfg.Slows, Slow{Node: s.Worker, At: s.At, Factor: s.Factor})
	}
	for _, c := range p.Crashes {
		cfg.Crashes = append(cfg.Crashes, Crash{Node: c.Worker, At: c.At})
	}
	return cfg
}

// randomStar draws a valid star platform: per-worker A or not, results,
// slowdowns and crashes.
func randomStar(rt *rapid.T) *platform.Platform {
	m := rapid.IntRange(1, 6).Draw(rt, "m")
	p := &platform.Platform{Topology: platform.Topology{Kind: platform.Star, M: m},
		S: rapid.SampledFrom([]float64{0, 1e-3, 0.1}).Draw(rt, "S"), C: rapid.SampledFrom([]float64{0, 1e-6, 1e-3}).Draw(rt, "C"),
		A: rapid.Float64Range(1e-4, 1).Draw(rt, "A"), D: schedule.Float(math.Inf(1)), V: rapid.Float64Range(1, 1e4).Draw(rt, "V"),
		ResultPerUnit: rapid.SampledFrom([]float64{0, 0.01, 1}).Draw(rt, "result")}
	if rapid.Bool().Draw(rt, "procs") {
		for range m {
			p.PerWorkerA = append(p.PerWorkerA, rapid.Float64Range(1e-4, 1).Draw(rt, "Ai"))
		}
	}
	for range rapid.IntRange(0, 2).Draw(rt, "slows") {
		p.Slows = append(p.Slows, platform.Slow{Worker: rapid.IntRange(1, m).Draw(rt, "w"), At: rapid.Float64Range(0, 10).Draw(rt, "at"),
			Factor: rapid.Float64Range(0.1, 3).Draw(rt, "f")})
	}
	for range rapid.IntRange(0, 2).Draw(rt, "crashes") {
		p.Crashes = append(p.Crashes, platform.Crash{Worker: rapid.IntRange(1, m).Draw(rt, "w"), At: rapid.Float64Range(0, 10).Draw(rt, "at")})
	}
	return p
}

// FromPlatform builds the Config compare builds by hand today, for every
// algorithm, task count and queue size, on random stars; and the run of
// that Config is the run compare reports (same makespan, messages and
// units moved).
func TestFromPlatformIsCompares(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := randomStar(rt)
		alg := Algorithm(rapid.IntRange(0, 2).Draw(rt, "alg"))
		m := rapid.IntRange(1, 40).Draw(rt, "tasks")
		q := rapid.IntRange(1, 5).Draw(rt, "queue")
		got, err := FromPlatform(p, alg, m, q)
		if err != nil {
			rt.Fatal(err)
		}
		want := compareConfig(p, alg, m, q)
		if !reflect.DeepEqual(&got, want) {
			rt.Fatalf("FromPlatform %+v\ncompare       %+v", got, *want)
		}
		a, err1 := Run(context.Background(), got, platform.RunOptions{})
		b, err2 := Run(context.Background(), *want, platform.RunOptions{})
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			rt.Fatalf("runs differ: %v %v", err1, err2)
		}
	})
}

// A chain or a tree is refused on Platform.Topology; a bad platform with
// the platform's own error; a bad task count on Config.Jobs.
func TestFromPlatformRefuses(t *testing.T) {
	good := platform.Platform{Topology: platform.Topology{Kind: platform.Star, M: 3}, S: 1e-3, C: 1e-6, A: 1e-3,
		D: schedule.Float(math.Inf(1)), V: 100}
	for _, c := range []struct {
		edit  func(p *platform.Platform)
		tasks int
		field string
		msg   string
	}{
		{func(p *platform.Platform) { p.Kind = platform.Chain }, 10, FieldTopology,
			"nepp: invalid Platform.Topology chain: want star: NEPP's host talks to every node directly"},
		{func(p *platform.Platform) { p.Kind, p.K, p.Depth = platform.KAry, 2, 2 }, 10, FieldTopology,
			"nepp: invalid Platform.Topology kary: want star: NEPP's host talks to every node directly"},
		{func(p *platform.Platform) { p.A = 0 }, 10, "Platform.A", "platform: invalid Platform.A 0: want a finite number > 0"},
		{func(p *platform.Platform) {}, 0, FieldJobs, "nepp: invalid Config.Jobs 0: want 1..10000000 tasks"},
	} {
		p := good
		c.edit(&p)
		_, err := FromPlatform(&p, Multiple, c.tasks, 4)
		var fe *platform.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || err.Error() != c.msg {
			t.Errorf("got %v, want %s", err, c.msg)
		}
	}
	if _, err := FromPlatform(&good, Multiple, 10, 0); err == nil || err.Error() != "nepp: invalid Config.Queue 0: want 1..10000000: "+
		"a queue never holds more than every job, and Config.Jobs is at most 10000000" {
		t.Errorf("queue 0: %v", err)
	}
}
