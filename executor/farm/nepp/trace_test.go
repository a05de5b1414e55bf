package nepp

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/trace"
)

// runTraced runs cfg with a trace and returns the report, the trace as
// written (the makespan in otherData) and as read back.
func runTraced(t fataler, cfg Config) (*Report, []byte, *trace.Document) {
	t.Helper()
	tr := trace.New("s")
	r, err := Run(context.Background(), cfg, platform.RunOptions{Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	tr.Makespan = r.Simulated.Makespan
	var b bytes.Buffer
	if err := tr.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	doc, err := trace.Read(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return r, b.Bytes(), doc
}

type errorer interface {
	Helper()
	Errorf(format string, args ...any)
}

// checkTrace checks a run's trace against the run: it validates against
// schema/trace.schema.json; no two spans of one track overlap; it ends at
// the makespan when the run completed (later when it did not: the nodes
// go on until the last crash or computation after the last result); the
// host and every node are processes; each node's computations add up to
// its CPU's busy time; the messages that ended are the run's messages;
// the host's w_h spans are the result messages it received; a crash is an
// instant at its time, once per node.
func checkTrace(t errorer, cfg *Config, r *Report, raw []byte, doc *trace.Document) {
	t.Helper()
	s := r.Simulated
	if err := validate.Document(raw, schema.Trace); err != nil {
		t.Errorf("trace does not validate: %v", err)
	}
	if o := doc.Overlap(1e-9 * math.Max(1, s.Makespan)); o != "" {
		t.Errorf("overlap: %s", o)
	}
	if end := doc.End(); s.Completed && math.Abs(end-s.Makespan) > 1e-9*s.Makespan || end < s.Makespan*(1-1e-12) {
		t.Errorf("trace ends at %g, makespan %g (completed %v)", end, s.Makespan, s.Completed)
	}
	if doc.Makespan != s.Makespan || doc.Unit != "s" {
		t.Errorf("otherData: makespan %g unit %q", doc.Makespan, doc.Unit)
	}
	procs := map[string]bool{}
	for _, e := range doc.Instants {
		procs[e.Process] = true
	}
	busy := make([]float64, len(cfg.Speeds))
	messages, results := 0, 0
	for _, e := range doc.Spans {
		procs[e.Process] = true
		ended := e.Args["lost"] == nil && e.Args["cut"] == nil
		switch e.Track {
		case trackCPU:
			if e.Process == hostName {
				results++
			} else {
				busy[int(e.Args["node"].(float64))-1] += e.End - e.Start
			}
		case trackPort, trackLink:
			if ended {
				messages++
			}
		default:
			t.Errorf("span on track %q", e.Track)
		}
	}
	if len(procs) != len(cfg.Speeds)+1 || !procs[hostName] {
		t.Errorf("%d processes, want the host and %d nodes", len(procs), len(cfg.Speeds))
	}
	for i, b := range busy {
		if math.Abs(b-s.Busy[i]) > 1e-9*math.Max(1, s.Makespan) {
			t.Errorf("node %d computes %g in the trace, its CPU was busy %g", i+1, b, s.Busy[i])
		}
	}
	if messages != s.Messages || results != s.ResultMessages {
		t.Errorf("trace: %d messages, %d results; run: %d, %d", messages, results, s.Messages, s.ResultMessages)
	}
	checkCrashes(t, cfg, doc)
}

// checkCrashes: every crash instant is a crash of the configuration, at
// its time (to the rounding of microseconds written as float64), at most
// once per node.
func checkCrashes(t errorer, cfg *Config, doc *trace.Document) {
	t.Helper()
	seen := map[string]bool{}
	for _, e := range doc.Instants {
		if e.Name != "crash" {
			continue
		}
		if seen[e.Process] {
			t.Errorf("%s crashes twice", e.Process)
		}
		seen[e.Process] = true
		ok := false
		for _, x := range cfg.Crashes {
			ok = ok || fmt.Sprintf("node %d", x.Node) == e.Process && math.Abs(x.At-e.Start) <= 1e-12*math.Max(1, x.At)
		}
		if !ok {
			t.Errorf("crash of %s at %g is none of %v", e.Process, e.Start, cfg.Crashes)
		}
	}
}

// The trace of TestSimulationExact's run with message costs (SD, one
// node, two jobs, setup 1, 0.5 per byte, jobs and results of 2 bytes):
// READY 0..1, job 1 sent 1..3, computed 3..4, DONE 4..6, job 2 sent
// 6..8, computed 8..9, DONE 9..11; the host takes each result at once
// (w_h = 0) at 6 and 11, the makespan.
func TestTraceExact(t *testing.T) {
	cfg := Config{Algorithm: Simple, Speeds: []float64{1}, Jobs: 2, Work: 1, Setup: 1, PerByte: 0.5, JobBytes: 2, ResultBytes: 2}
	r, raw, doc := runTraced(t, cfg)
	checkTrace(t, &cfg, r, raw, doc)
	var got []string
	for _, e := range doc.Spans {
		got = append(got, fmt.Sprintf("%s/%s %s %g..%g", e.Process, e.Track, e.Name, e.Start, e.End))
	}
	want := []string{
		"node 1/link to host READY 0..1", "host/port job 1 to node 1 1..3", "node 1/cpu job 1 3..4",
		"node 1/link to host DONE job 1 4..6", "host/cpu result of job 1 6..6", "host/port job 2 to node 1 6..8",
		"node 1/cpu job 2 8..9", "node 1/link to host DONE job 2 9..11", "host/cpu result of job 2 11..11",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("spans:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e := doc.Spans[2]; e.Args["job"] != 1.0 || e.Args["node"] != 1.0 || e.Args["work"] != 1.0 {
		t.Errorf("computation args %v", e.Args)
	}
}

// Faults in the trace: TestCrashes's FT run on 4 nodes of which 3 crash
// (at 1.5, 2.5 and 3.5, each in the middle of a job of work 1 started at
// a whole time): three crash instants, and each crashed node's last
// computation ends at its crash, lost. A slowdown is an instant with its
// factor and the resulting speed.
func TestTraceFaults(t *testing.T) {
	cfg := Config{Algorithm: FaultTolerant, Speeds: scenario(4, 1), Queue: 3, Jobs: 40, Work: 1,
		Crashes: []Crash{{1, 1.5}, {2, 2.5}, {3, 3.5}}, Slows: []Slow{{Node: 4, At: 2, Factor: 0.5}}}
	r, raw, doc := runTraced(t, cfg)
	checkTrace(t, &cfg, r, raw, doc)
	lost := map[string]float64{}
	for _, e := range doc.Spans {
		if e.Args["lost"] == true {
			lost[e.Process] = e.End
		}
	}
	if fmt.Sprint(lost) != "map[node 1:1.5 node 2:2.5 node 3:3.5]" {
		t.Errorf("lost activities end %v", lost)
	}
	slows := 0
	for _, e := range doc.Instants {
		if strings.HasPrefix(e.Name, "speed") {
			slows++
			if e.Process != "node 4" || e.Start != 2 || e.Args["factor"] != 0.5 || e.Args["speed"] != 0.5 {
				t.Errorf("slowdown %+v", e)
			}
		}
	}
	if slows != 1 {
		t.Errorf("%d slowdowns in the trace, want 1", slows)
	}
}

// Property: random runs with every feature (randomConfig: faults, random
// work, message costs, host overhead) trace consistently (checkTrace),
// complete or not.
func TestTraceProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg := randomConfig(rt)
		r, raw, doc := runTraced(rt, *cfg)
		checkTrace(rt, cfg, r, raw, doc)
	})
}

// A trace is refused where nothing is simulated: with NoSim, and for a
// scan (many runs).
func TestTraceRefused(t *testing.T) {
	cfg := Config{Algorithm: Multiple, Speeds: []float64{1}, Queue: 2, Jobs: 3, Work: 1}
	_, err := Run(context.Background(), cfg, platform.RunOptions{NoSim: true, Trace: trace.New("s")})
	if err == nil || err.Error() != "nepp: invalid RunOptions.Trace (a recorder): want none with RunOptions.NoSim: the model alone simulates nothing" {
		t.Errorf("NoSim with a trace: %v", err)
	}
	_, err = Scan(context.Background(), cfg, ScanSpec{From: 2, To: 3, Slow: 0.5}, platform.RunOptions{Trace: trace.New("s")})
	if err == nil || err.Error() != "nepp: invalid RunOptions.Trace (a recorder): want none: a scan is 6 runs; trace one run" {
		t.Errorf("scan with a trace: %v", err)
	}
}
