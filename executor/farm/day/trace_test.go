package day

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/trace"
)

// traced runs c with a trace and returns the report and the trace read
// back from its JSON, after the checks every trace must pass: it
// validates against schema/trace.schema.json (when check: the validation
// takes longer than the run), no two spans of one track
// overlap, its last event ends at the makespan (within 1e-9 relative),
// and it has one span per message and per job.
func traced(t fataler, c *Config, check bool) (*Report, *trace.Document) {
	tr := trace.New("s")
	r, err := Run(context.Background(), *c, platform.RunOptions{Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	tr.Makespan = r.Simulated.Makespan
	var b bytes.Buffer
	if err := tr.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if check {
		if err := validate.Document(b.Bytes(), schema.Trace); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := trace.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	ms := r.Simulated.Makespan
	if o := doc.Overlap(1e-12 * ms); o != "" {
		t.Fatalf("%+v: %s", c, o)
	}
	if end := doc.End(); math.Abs(end-ms) > 1e-9*ms {
		t.Fatalf("%+v: the trace ends at %.12g, the makespan is %.12g", c, end, ms)
	}
	transfers, jobs := 0, 0
	for _, s := range doc.Spans {
		switch {
		case strings.Contains(s.Track, "link"):
			transfers++
		case s.Track == cpuTrack && s.Process != farmerNode:
			jobs++
		}
	}
	if int64(transfers) != r.Simulated.Messages || jobs != c.jobs() {
		t.Fatalf("%+v: %d transfers and %d jobs traced, %d messages and %d jobs run", c, transfers, jobs, r.Simulated.Messages, c.jobs())
	}
	if n := int64(len(doc.Spans) + len(doc.Instants)); n > c.Estimate().TraceEvents {
		t.Fatalf("%+v: %d trace events, estimated at most %d", c, n, c.Estimate().TraceEvents)
	}
	return r, doc
}

// The trace of Section 4.9.3's line of 8 (harness D, 4 KB, 15.625 ms)
// says what the report says: one process per node (the farmer, the eight
// workers, the harvester); every transfer on a line link takes c =
// (m + s)/B, as the model has it; the jobs on worker k's CPU add up to
// its busy time; and the run itself is the one without a trace, kernel
// events included (recording costs no simulation work).
func TestTraceLine(t *testing.T) {
	c := line(HarnessD, 8, 0.015625)
	r, doc := traced(t, c, true)
	procs := map[string]bool{}
	for _, s := range doc.Spans {
		procs[s.Process] = true
	}
	for _, i := range doc.Instants {
		procs[i.Process] = true
	}
	want := []string{farmerNode, harvesterNode}
	for k := 0; k < 8; k++ {
		want = append(want, workerNode(k))
	}
	for _, p := range want {
		if !procs[p] {
			t.Errorf("no process %q in %v", p, procs)
		}
	}
	if len(procs) != len(want) {
		t.Errorf("processes %v, want %v", procs, want)
	}
	msg := MessageTime(4096, 12.9, 1.177*MiB)
	busy := make([]float64, 8)
	for _, s := range doc.Spans {
		if strings.Contains(s.Track, "link") && math.Abs(s.End-s.Start-msg) > 1e-9 {
			t.Fatalf("%s on %s/%s took %g s, want c = %g", s.Name, s.Process, s.Track, s.End-s.Start, msg)
		}
		if s.Track == cpuTrack {
			var k int
			fmt.Sscanf(s.Process, "worker %d", &k)
			busy[k-1] += s.End - s.Start
		}
	}
	for k := range busy {
		if math.Abs(busy[k]-r.Simulated.Busy[k]) > 1e-9 {
			t.Errorf("worker %d: jobs traced for %g s, busy %g s", k+1, busy[k], r.Simulated.Busy[k])
		}
	}
	if plain := sim(t, c); !reflect.DeepEqual(plain, r.Simulated) {
		t.Errorf("the traced run differs from the plain one:\n%+v\n%+v", r.Simulated, plain)
	}
}

// A tree with every cost: the farmer's CPU per job and the cycles stolen
// by messages are traced on their own tracks, the stolen cycles within
// the job they preempt; a transfer on a tree link takes between c and
// c/f (its direction slowed to f·B while the other is busy); the results
// end at the farmer.
func TestTraceTreeWithCosts(t *testing.T) {
	c := &Config{Layout: Tree, Harness: HarnessD, Workers: 12, MessageBytes: 1024, JobTime: 0.01, Bandwidth: 1.51 * MiB,
		SetupBytes: 4.75, FarmerCost: 2e-4, CPUPerMessage: 5e-5, JobsPerWorker: 20}
	r, doc := traced(t, c, true)
	msg := MessageTime(1024, 4.75, 1.51*MiB)
	farmer, stolen := 0, 0
	for _, s := range doc.Spans {
		switch {
		case s.Process == farmerNode && s.Track == cpuTrack:
			farmer++
			if math.Abs(s.End-s.Start-2e-4) > 1e-12 {
				t.Errorf("farmer's cost %g", s.End-s.Start)
			}
		case s.Track == stolenTrack:
			stolen++
		case strings.Contains(s.Track, "link"):
			if d := s.End - s.Start; d < msg-1e-12 || d > msg/0.727+1e-12 {
				t.Errorf("%s on %s took %g, want within [c, c/f] = [%g, %g]", s.Name, s.Track, d, msg, msg/0.727)
			}
		}
	}
	if farmer != c.jobs() || int64(stolen) != 2*r.Simulated.Messages-int64(2*c.jobs()) {
		// Messages to and from the farmer steal no worker's cycles.
		t.Errorf("%d farmer spans, %d stolen; want %d and %d", farmer, stolen, c.jobs(), 2*r.Simulated.Messages-int64(2*c.jobs()))
	}
	if len(doc.Instants) != 1 || doc.Instants[0].Process != farmerNode || doc.Instants[0].End != r.Simulated.Makespan {
		t.Errorf("instants %+v", doc.Instants)
	}
}

// Over random farms — lines and trees, harnesses, sizes, costs,
// priorities — no trace has an overlap on any track, every one ends at
// the makespan and counts one span per message and per job (traced; the
// schema is checked on the two above and on every fifth farm here).
func TestTraceProperty(t *testing.T) {
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		traced(rt, randomFarm(rt), n%5 == 0)
	})
}

// fataler is what the checks need of a *testing.T or a *rapid.T.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// randomFarm draws a small valid farm.
func randomFarm(t *rapid.T) *Config {
	c := &Config{Harness: rapid.SampledFrom([]Harness{HarnessA, HarnessB, HarnessD}).Draw(t, "harness"),
		MessageBytes:        math.Exp2(rapid.Float64Range(0, 13).Draw(t, "log2 m")),
		Bandwidth:           rapid.Float64Range(1e5, 1e7).Draw(t, "B"),
		SetupBytes:          rapid.Float64Range(0, 50).Draw(t, "s"),
		BidirectionalFactor: rapid.Float64Range(0.3, 1).Draw(t, "f"),
		DistantFirst:        rapid.Bool().Draw(t, "distant"),
		JobsPerWorker:       rapid.IntRange(1, 30).Draw(t, "jobs per worker"),
	}
	if rapid.Bool().Draw(t, "result") {
		c.ResultBytes, c.ExplicitResult = c.MessageBytes*rapid.SampledFrom([]float64{0, 0.25, 4}).Draw(t, "r/m"), true
	}
	if rapid.Bool().Draw(t, "tree") {
		c.Layout, c.Workers = Tree, rapid.SampledFrom([]int{3, 12}).Draw(t, "w")
	} else {
		c.Layout, c.Workers = Line, rapid.IntRange(1, 8).Draw(t, "w")
	}
	cj := (c.MessageBytes + c.SetupBytes) / c.Bandwidth
	c.JobTime = float64(c.Workers) * cj * rapid.Float64Range(0.25, 4).Draw(t, "j/(w c_job)")
	if rapid.Bool().Draw(t, "costs") {
		c.FarmerCost = cj * rapid.Float64Range(0, 2).Draw(t, "a/c_job")
		c.CPUPerMessage = cj * rapid.Float64Range(0, 0.5).Draw(t, "y/c_job")
	}
	c.ConstantJobs = rapid.Bool().Draw(t, "constant")
	return c
}

// The cost of a trace: Section 4.9.3's line of 8 at 15.625 ms recorded
// into a trace (compare BenchmarkSimulateLine8, the same run untraced).
func BenchmarkSimulateLine8Traced(b *testing.B) {
	c := line(HarnessD, 8, 0.015625)
	var events int64
	for b.Loop() {
		r, err := Run(context.Background(), *c, platform.RunOptions{Trace: trace.New("s")})
		if err != nil {
			b.Fatal(err)
		}
		events += r.Simulated.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
