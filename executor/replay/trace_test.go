package replay

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
	"github.com/dlsched/dlsched/trace"
)

// traced runs replay with a fresh trace as its Recorder and reads back
// what it wrote.
func traced(t interface{ Fatal(...any) }, run func(Options) float64) (*trace.Document, float64) {
	tr := trace.New("s")
	makespan := run(Options{Recorder: tr})
	tr.Makespan = makespan
	var b bytes.Buffer
	if err := tr.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	d, err := trace.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	return d, makespan
}

// withResults gives a heterogeneous star a result ratio β and one result
// message per loaded processor in activation (fifo) order, β times its
// load (docs/heterogeneous.md).
func withResults(rng *rand.Rand, s *schedule.Schedule) {
	s.Problem.ResultRatio = 0.1 + rng.Float64()
	total := make([]float64, s.Problem.M+1)
	for _, c := range s.Chunks {
		total[c.Processor] += c.Load
	}
	for d := 1; d <= s.Problem.M; d++ {
		if total[d] > 0 {
			s.Returns = append(s.Returns, schedule.Return{Processor: d, Load: s.Problem.ResultRatio * total[d]})
		}
	}
}

// expectedSpans counts what a replay of s must record: one transfer per
// node a message reaches (a star's processor; every node of layers
// 1..destination of a tree, each receiving once), one computation per
// processor of a computed chunk's destination, one span per result
// message; and the load the computations carry, V.
func expectedSpans(s *schedule.Schedule) (transfers, computations int, load float64) {
	kind, _ := topology.ParseKind(s.Problem.Topology)
	relay := map[int]bool{}
	for _, l := range s.Problem.Relay {
		relay[l] = true
	}
	for _, c := range s.Chunks {
		if kind == topology.Star {
			transfers++
			computations++
			load += c.Load
			continue
		}
		for l := 1; l <= c.Layer; l++ {
			transfers += int(topology.LayerSize(kind, s.Problem.P, l))
		}
		if !relay[c.Layer] {
			n := topology.LayerSize(kind, s.Problem.P, c.Layer)
			computations += int(n)
			load += n * c.Load
		}
	}
	return transfers, computations, load
}

// checkTrace checks a replay's trace against the schedule: no two spans
// of a track overlap, not even by a rounding error (a track is one link,
// port or CPU: the physical model of docs/semantics.md; viewers nest
// spans that overlap at all), the latest end is the replay's makespan,
// every transfer, computation and result message is there once, each
// transfer lasts S + C·load and the computations carry V in all.
func checkTrace(t *rapid.T, s *schedule.Schedule, d *trace.Document, makespan float64) {
	if o := d.Overlap(0); o != "" {
		t.Fatalf("overlap: %s", o)
	}
	if !close(d.End(), makespan) {
		t.Fatalf("trace ends at %.17g, makespan %.17g", d.End(), makespan)
	}
	wantT, wantC, wantLoad := expectedSpans(s)
	var nt, nc, nr int
	load := 0.0
	for _, e := range d.Spans {
		switch {
		case strings.HasPrefix(e.Name, "stage "):
			nt++
			checkTransfer(t, s, e)
		case strings.HasPrefix(e.Name, "compute stage "):
			nc++
			load += e.Args["load"].(float64)
		case strings.HasPrefix(e.Name, "results "):
			nr++
		default:
			t.Fatalf("unknown span %q", e.Name)
		}
	}
	if nt != wantT || nc != wantC || nr != len(s.Returns) {
		t.Fatalf("%d transfers, %d computations, %d result messages; want %d, %d, %d", nt, nc, nr, wantT, wantC, len(s.Returns))
	}
	if math.Abs(load-wantLoad) > 1e-9*math.Max(1, wantLoad) {
		t.Fatalf("the computations carry %.17g, want V = %.17g", load, wantLoad)
	}
}

// checkTransfer checks that a transfer span lasts S + C·load (the load one
// link carries, from args) with the parameters of the message's
// destination.
func checkTransfer(t *rapid.T, s *schedule.Schedule, e trace.Event) {
	pr := &s.Problem
	sp, cp := pr.S, pr.C
	if p, ok := e.Args["processor"].(float64); ok && len(pr.Procs) > 0 {
		sp, cp = pr.Procs[int(p)-1].S, pr.Procs[int(p)-1].C
	}
	want := sp + cp*e.Args["load"].(float64)
	if got := e.End - e.Start; math.Abs(got-want) > 1e-9*math.Max(1, e.End) {
		t.Fatalf("%s/%s %q lasts %.17g, want S + C·load = %.17g", e.Process, e.Track, e.Name, got, want)
	}
}

// The trace of random small stars (heterogeneous ones with result
// messages), trees and binomial trees, in both modes: checkTrace on the
// earliest replay (ending at its makespan) and on the timed replay Verify
// records of the schedule with those times, which verifies and ends at
// the schedule's Cmax.
func TestTraceProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vr := rapid.SampledFrom(variants).Draw(t, "variant")
		seed := rapid.Uint64().Draw(t, "seed")
		rng := rand.New(rand.NewPCG(seed, 7))
		s := randomInstance(rng, vr)
		if vr.hetero && rapid.Bool().Draw(t, "results") {
			withResults(rng, s)
		}
		d, makespan := traced(t, func(o Options) float64 {
			r, err := Earliest(s, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Apply(s); err != nil {
				t.Fatal(err)
			}
			return r.Makespan
		})
		checkTrace(t, s, d, makespan)
		d, makespan = traced(t, func(o Options) float64 {
			v, err := Verify(s, o)
			if err != nil {
				t.Fatal(err)
			}
			if !v.OK || !close(v.Makespan, s.Cmax) {
				t.Fatalf("verification %+v, Cmax %.17g", v, s.Cmax)
			}
			return v.Makespan
		})
		checkTrace(t, s, d, makespan)
	})
}

// span finds the span of process/track named name.
func span(t *testing.T, d *trace.Document, process, track, name string) trace.Event {
	t.Helper()
	for _, e := range d.Spans {
		if e.Process == process && e.Track == track && e.Name == name {
			return e
		}
	}
	t.Fatalf("no span %s/%s %q in %+v", process, track, name, d.Spans)
	return trace.Event{}
}

// wantSpan checks a span's interval.
func wantSpan(t *testing.T, e trace.Event, start, end float64) {
	t.Helper()
	if math.Abs(e.Start-start) > 1e-12 || math.Abs(e.End-end) > 1e-12 {
		t.Errorf("%s/%s %q: [%.15g, %.15g], want [%.15g, %.15g]", e.Process, e.Track, e.Name, e.Start, e.End, start, end)
	}
}

// The FIFO example with result messages (twoWorkers, worked by
// hand in docs/heterogeneous.md): the originator's port sends 40/7 to P1
// over [0, 40/7] and 30/7 to P2 over [40/7, 10], P1 computes over
// [40/7, 80/7] and P2 over [10, 100/7], and the port receives P1's
// results over [80/7, 100/7] and P2's over [100/7, 115/7], the makespan.
// Earliest and Verify (its timed run) record the same spans.
func TestTraceResultsHand(t *testing.T) {
	s := twoWorkers("fifo")
	fillEarliest(t, s)
	for _, mode := range []string{"earliest", "verify"} {
		d, makespan := traced(t, func(o Options) float64 {
			if mode == "verify" {
				v, err := Verify(s, o)
				if err != nil || !v.OK {
					t.Fatalf("%+v %v", v, err)
				}
				return v.Makespan
			}
			r, err := Earliest(s, o)
			if err != nil {
				t.Fatal(err)
			}
			return r.Makespan
		})
		if len(d.Spans) != 6 || math.Abs(makespan-115.0/7) > 1e-12 || math.Abs(d.End()-115.0/7) > 1e-12 {
			t.Fatalf("%s: %d spans ending at %g, makespan %g; want 6 ending at 115/7", mode, len(d.Spans), d.End(), makespan)
		}
		wantSpan(t, span(t, d, "P0", "port", "stage 1 → P1"), 0, 40.0/7)
		wantSpan(t, span(t, d, "P0", "port", "stage 1 → P2"), 40.0/7, 10)
		wantSpan(t, span(t, d, "P1", "cpu", "compute stage 1"), 40.0/7, 80.0/7)
		wantSpan(t, span(t, d, "P2", "cpu", "compute stage 1"), 10, 100.0/7)
		r1 := span(t, d, "P0", "port", "results P1 → P0")
		wantSpan(t, r1, 80.0/7, 100.0/7)
		wantSpan(t, span(t, d, "P0", "port", "results P2 → P0"), 100.0/7, 115.0/7)
		if math.Abs(r1.Args["load"].(float64)-20.0/7) > 1e-12 || r1.Args["processor"] != 1.0 {
			t.Errorf("%s: P1's results args %v, want load 20/7, processor 1", mode, r1.Args)
		}
	}
}

// Faults on the Section 4.1 star (TestFaultsOnStar's hand cases): a
// slowdown is an instant with its factor and the computation spans it
// (P1 at half speed from 2 ends at 4); P2 crashing at 2 is an instant, its
// message over [1.5, 2.5] is lost; P3 crashing at 3.2 cuts its computation
// [3, 3.5] short: a lost span [3, 3.2].
func TestTraceFaults(t *testing.T) {
	faults := []Fault{{Node: 1, At: 2, Speed: 0.5}, {Node: 2, At: 2, Crash: true}, {Node: 3, At: 3.2, Crash: true}}
	d, makespan := traced(t, func(o Options) float64 {
		o.Faults = faults
		r, err := Earliest(section41(), o)
		if err != nil {
			t.Fatal(err)
		}
		return r.Makespan
	})
	if makespan != 4 || d.End() != 4 {
		t.Fatalf("makespan %g, trace end %g, want 4", makespan, d.End())
	}
	wantSpan(t, span(t, d, "P1", "cpu", "compute stage 1"), 1.5, 4)
	lost := span(t, d, "P0", "port", "stage 1 → P2 (lost)")
	wantSpan(t, lost, 1.5, 2.5)
	wantSpan(t, span(t, d, "P3", "cpu", "compute stage 1 (lost)"), 3, 3.2)
	if lost.Args["lost"] != true || len(d.Spans) != 5 {
		t.Errorf("lost transfer args %v; %d spans, want 5", lost.Args, len(d.Spans))
	}
	want := map[string]float64{"P1 speed": 2, "P2 crash": 2, "P3 crash": 3.2}
	for _, e := range d.Instants {
		if at, ok := want[e.Process+" "+e.Name]; !ok || at != e.Start || e.Track != "cpu" {
			t.Errorf("instant %+v", e)
		}
		delete(want, e.Process+" "+e.Name)
	}
	if len(want) != 0 {
		t.Errorf("instants missing: %v", want)
	}
}

// A schedule that states times before 0 (reported as negative) is traced
// from 0: the first transfer of the Section 4.1 star moved to [-1, 0.5]
// is a span [0, 0.5] whose args keep its start, -1.
func TestTraceNegativeStart(t *testing.T) {
	s := section41()
	fillEarliest(t, s)
	for i := range s.Chunks {
		for h := range s.Chunks[i].Hops {
			s.Chunks[i].Hops[h].Start--
			s.Chunks[i].Hops[h].End--
		}
	}
	d, _ := traced(t, func(o Options) float64 {
		v, err := Verify(s, o)
		if err != nil || v.OK {
			t.Fatalf("%+v %v", v, err)
		}
		return v.Makespan
	})
	e := span(t, d, "P0", "port", "stage 1 → P1")
	wantSpan(t, e, 0, 0.5)
	if e.Args["start"] != -1.0 {
		t.Errorf("args %v, want start -1", e.Args)
	}
}

// BenchmarkVerifyTreeTraced is BenchmarkVerifyTree recording the trace
// of the timed run into a trace.Trace (what solve --trace and verify
// --trace cost over the replay alone).
func BenchmarkVerifyTreeTraced(b *testing.B) {
	s := bigTree(100)
	b.ResetTimer()
	var spans int
	for i := 0; i < b.N; i++ {
		tr := trace.New("s")
		v, err := Verify(s, Options{Recorder: tr})
		if err != nil || !v.OK {
			b.Fatalf("%v %v", v, err)
		}
		spans = tr.Len()
	}
	b.ReportMetric(float64(spans), "spans/op")
}
