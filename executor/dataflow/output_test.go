package dataflow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/trace"
)

// The formats the package writes are the ones package schema declares,
// and each document starts with its format.
func TestFormats(t *testing.T) {
	if Format != schema.Dataflow || StudyFormat != schema.FlowStudy {
		t.Fatalf("formats %q and %q, schema declares %q and %q", Format, StudyFormat, schema.Dataflow, schema.FlowStudy)
	}
	g, _ := graph.Levelled([]int{2, 1}, 1)
	r, err := Run(context.Background(), Config{Graph: g, Machine: Machine{PEs: 2}}, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	r.WriteJSON(&b)
	if !strings.HasPrefix(b.String(), "{\n  \"format\": \""+Format+"\",\n") {
		t.Errorf("the report starts %q", b.String()[:40])
	}
}

// sample is one randomly drawn run: a graph, a machine, the model alone
// or not.
type sample struct {
	g     *graph.Graph
	m     Machine
	noSim bool
}

// drawSample draws a small run: a structured program (sequences,
// fork-joins, conditionals, nested loops), a levelled graph or a random
// levelled program, sometimes with I-structure reads and writes (a read
// that may come before its write, a second write), on a machine with
// random delays, bus times and policy.
func drawSample(t *rapid.T) sample {
	var g *graph.Graph
	switch rapid.IntRange(0, 2).Draw(t, "source") {
	case 0:
		_, g = drawProgram(t)
	case 1:
		sizes := rapid.SliceOfN(rapid.IntRange(1, 6), 1, 5).Draw(t, "levels")
		g, _ = graph.Levelled(sizes, float64(rapid.IntRange(0, 3).Draw(t, "node time")))
	default:
		n := rapid.IntRange(1, 150).Draw(t, "fine nodes")
		g, _ = graph.Random(n, rapid.IntRange(1, n).Draw(t, "grain"), uint64(rapid.IntRange(0, 99).Draw(t, "seed")))
	}
	if rapid.IntRange(0, 2).Draw(t, "I-structure") == 0 {
		addIStructure(g, rapid.IntRange(1, 2).Draw(t, "writes"))
	}
	times := rapid.SampledFrom([]float64{0, 0.25, 1, 3})
	m := Machine{PEs: rapid.IntRange(1, 6).Draw(t, "pes"), SchedulerDelay: times.Draw(t, "delay"),
		ResultBus: times.Draw(t, "result bus"), AckBus: times.Draw(t, "ack bus"), IStructureBus: times.Draw(t, "I-structure bus")}
	if len(g.Loops) == 0 {
		m.Policy = rapid.SampledFrom([]Policy{Dynamic, Static, Quasi}).Draw(t, "policy")
		m.Barrier = rapid.Bool().Draw(t, "barrier")
	}
	if m.Policy == Dynamic {
		m.NoRealloc = rapid.IntRange(0, 3).Draw(t, "no realloc") == 0
		m.NoEager = !m.Barrier && rapid.Bool().Draw(t, "no eager")
	}
	return sample{g: g, m: m, noSim: rapid.IntRange(0, 9).Draw(t, "model only") == 0}
}

// addIStructure adds a read of location "a" that depends on nothing and
// feeds a node, and writes of "a" after the graph's first node.
func addIStructure(g *graph.Graph, writes int) {
	add := func(kind graph.Kind) int {
		id := len(g.Nodes)
		g.Nodes = append(g.Nodes, graph.Node{ID: id, Kind: kind, Time: 1, Loc: "a"})
		return id
	}
	r := add(graph.Read)
	sink := len(g.Nodes)
	g.Nodes = append(g.Nodes, graph.Node{ID: sink, Kind: graph.Op, Time: 1})
	g.Edges = append(g.Edges, graph.Edge{From: r, To: sink})
	for k := 0; k < writes; k++ {
		g.Edges = append(g.Edges, graph.Edge{From: 0, To: add(graph.Write)})
	}
}

// A seeded sample of 30 random runs (rapid's examples 0..29: the same
// runs every time): every report validates against
// schema/dataflow.schema.json, every trace against schema/trace.schema.json
// and agrees with the report (checkTrace); at least half of them complete,
// so that the makespan check is not vacuous.
func TestSampleValidates(t *testing.T) {
	gen := rapid.Custom(drawSample)
	completed := 0
	for i := 0; i < 30; i++ {
		s := gen.Example(i)
		if err := s.g.Validate(); err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
		opt := platform.RunOptions{NoSim: s.noSim}
		var tr *trace.Trace
		if !s.noSim {
			tr = trace.New(TimeUnit)
			opt.Trace = tr
		}
		r, err := Run(context.Background(), Config{Graph: s.g, Source: fmt.Sprintf("sample %d", i), Machine: s.m}, opt)
		if err != nil {
			t.Fatalf("sample %d (%+v): %v", i, s.m, err)
		}
		var b bytes.Buffer
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if err := validate.Document(b.Bytes(), schema.Dataflow); err != nil {
			t.Fatalf("sample %d: %v\n%s", i, err, b.String())
		}
		if s.noSim {
			if r.Simulated != nil {
				t.Fatalf("sample %d: the model alone simulated", i)
			}
			continue
		}
		if r.Simulated.Completed {
			completed++
		}
		checkTrace(t, fmt.Sprintf("sample %d (%+v)", i, s.m), tr, r.Simulated)
	}
	if completed < 15 {
		t.Errorf("%d of 30 samples completed, want at least 15", completed)
	}
}

// checkTrace checks a run's trace against its result: it validates; no
// two spans of a track overlap; its latest event ends at the makespan
// (within 1e-9 relative) when the run completed; the computations are
// one span per node instance on its PE's compute track and add up to the
// PE's busy time; the transfers on each bus add up to the bus's busy
// time; one "disregard" instant per token, one "reallocate" instant per
// same-loop reallocation.
func checkTrace(t *testing.T, desc string, tr *trace.Trace, r *Result) {
	t.Helper()
	tr.Makespan = r.Makespan
	var b bytes.Buffer
	if err := tr.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := validate.Document(b.Bytes(), schema.Trace); err != nil {
		t.Fatalf("%s: %v", desc, err)
	}
	doc, err := trace.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	tol := 1e-9 * math.Max(1, r.Makespan)
	if o := doc.Overlap(tol); o != "" {
		t.Errorf("%s: %s", desc, o)
	}
	if r.Completed && math.Abs(doc.End()-r.Makespan) > tol {
		t.Errorf("%s: the trace ends at %g, the makespan is %g", desc, doc.End(), r.Makespan)
	}
	busy, buses := map[string]float64{}, map[string]float64{}
	computes := 0
	for _, e := range doc.Spans {
		switch {
		case e.Track == traceCompute:
			busy[e.Process] += e.End - e.Start
			computes++
		case e.Process == traceBuses:
			buses[e.Track] += e.End - e.Start
		}
	}
	if computes != r.NodeInstances {
		t.Errorf("%s: %d computations traced, %d node instances", desc, computes, r.NodeInstances)
	}
	for i, want := range r.PEBusy {
		if math.Abs(busy[peName(i)]-want) > tol*float64(1+r.NodeInstances) {
			t.Errorf("%s: %s computes %g in the trace, busy %g", desc, peName(i), busy[peName(i)], want)
		}
	}
	for bus, track := range busTracks {
		if math.Abs(buses[track]-r.BusBusy[bus]) > tol*float64(1+r.NodeInstances) {
			t.Errorf("%s: %s busy %g in the trace, %g reported", desc, track, buses[track], r.BusBusy[bus])
		}
	}
	instants := map[string]int{}
	for _, e := range doc.Instants {
		instants[strings.Fields(e.Name)[0]]++
	}
	if instants["disregard"] != r.DisregardTokens || instants["reallocate"] != r.Reallocations || instants["second"] != len(r.IStructureErrors) {
		t.Errorf("%s: instants %v, result %d disregard tokens, %d reallocations, %d I-structure errors",
			desc, instants, r.DisregardTokens, r.Reallocations, len(r.IStructureErrors))
	}
}

// The trace of the loop around a conditional with an I-structure read and
// write (the command's TestDataflowConditionalLoopCLI graph) on 3 PEs with
// eager allocation: the disregard token, the reallocations, the read's
// request and data, the write, each on its track; the trace changes
// nothing in the run (same makespan, same kernel events).
func TestTraceConditionalLoop(t *testing.T) {
	g := parse(t, `{"nodes": [{"id": 0}, {"id": 1}, {"id": 2, "kind": "decision"}, {"id": 3}, {"id": 4}, {"id": 5},
 {"id": 6, "kind": "merge"}, {"id": 7}, {"id": 8, "kind": "write", "loc": 17}, {"id": 9, "kind": "read", "loc": "17"}],
 "edges": [[0, 1], [1, 2], [2, 3], [2, 4], [4, 5], [3, 6], [5, 6], [6, 7], [7, 1, {"back": true}], [0, 8]],
 "conds": [{"decision": 2, "then": [3], "else": [4, 5], "merge": [6], "outcome": false}],
 "loops": [{"id": 0, "nodes": [1, 2, 3, 4, 5, 6, 7], "iterations": 4, "control": 7, "parent": null}]}`)
	m := Machine{PEs: 3, SchedulerDelay: 1, IStructureBus: 2}
	plain := run(t, g, &m)
	tr := trace.New(TimeUnit)
	r, err := Run(context.Background(), Config{Graph: g, Machine: m}, platform.RunOptions{Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	s := r.Simulated
	if s.Makespan != plain.Makespan || s.Events != plain.Events || s.DisregardTokens != 1 || s.Reallocations == 0 {
		t.Fatalf("traced %+v, untraced %+v; want the same run, with a disregard token and reallocations", s, plain)
	}
	checkTrace(t, "conditional loop", tr, s)
	if names := tr.Tracks(traceBuses); strings.Join(names, ",") != "I-structure bus" {
		t.Errorf("bus tracks %v, want the I-structure bus alone (the other buses are free)", names)
	}
	var b bytes.Buffer
	tr.WriteJSON(&b)
	doc, _ := trace.Read(&b)
	kinds := map[string]int{}
	for _, e := range doc.Spans {
		if e.Track == "I-structure bus" {
			kinds[strings.Fields(e.Name)[0]]++
		}
	}
	// The read (level 0) asks before the write (level 1) has written:
	// request, "not-available"; the write; the I-structure PE serves the
	// waiting read, which then computes without asking again (decision 12).
	if len(kinds) != 4 || kinds["request"] != 1 || kinds["not-available"] != 1 || kinds["write"] != 1 || kinds["serve"] != 1 {
		t.Errorf("I-structure transfers %v", kinds)
	}
	// A deadlock (one PE, no same-loop reallocation) is an instant of the
	// scheduler at the time the kernel ran out of events.
	tr = trace.New(TimeUnit)
	d, err := Run(context.Background(), Config{Graph: parse(t, loopGraph), Machine: Machine{PEs: 1, NoRealloc: true}}, platform.RunOptions{Trace: tr})
	if err != nil || d.Simulated.Completed {
		t.Fatalf("%v %+v: want a deadlock", err, d)
	}
	checkTrace(t, "deadlock", tr, d.Simulated)
	if ts := tr.Tracks(traceScheduler); len(ts) == 0 || ts[len(ts)-1] != traceDeadlock {
		t.Errorf("scheduler tracks %v, want the deadlock last", ts)
	}
}

// The model alone (RunOptions.NoSim) is the model of the full run, needs
// no event budget, and refuses a trace (nothing is simulated).
func TestModelAlone(t *testing.T) {
	g, _ := graph.Random(300, 2, 4)
	m := Machine{PEs: 4, SchedulerDelay: 1, ResultBus: 1}
	full, err := Run(context.Background(), Config{Graph: g, Machine: m}, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Run(context.Background(), Config{Graph: g, Machine: m}, platform.RunOptions{NoSim: true, Limits: platform.Limits{MaxEvents: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if alone.Simulated != nil || alone.Predicted.EM != full.Predicted.EM || alone.Predicted.EIdeal != full.Predicted.EIdeal {
		t.Errorf("model alone %+v, with the simulation %+v", alone.Predicted, full.Predicted)
	}
	var b bytes.Buffer
	alone.WriteTable(&b)
	if !strings.Contains(b.String(), "simulated: not run") || strings.Contains(b.String(), "makespan") {
		t.Errorf("table of the model alone:\n%s", b.String())
	}
	_, err = Run(context.Background(), Config{Graph: g, Machine: m}, platform.RunOptions{NoSim: true, Trace: trace.New(TimeUnit)})
	var fe *platform.FieldError
	if !errors.As(err, &fe) || fe.Field != FieldTrace {
		t.Errorf("a trace of the model alone: %v, want a FieldError on %s", err, FieldTrace)
	}
}

// Input errors are the platform's: a *platform.FieldError naming the field
// in the library's words, a *platform.LimitError naming the limit, each
// refused before anything is built.
func TestInputErrors(t *testing.T) {
	g, _ := graph.Levelled([]int{3, 3}, 1)
	for _, c := range []struct {
		field string
		m     Machine
	}{
		{FieldPEs, Machine{PEs: 0}},
		{FieldPEs, Machine{PEs: MaxPEs + 1}},
		{FieldSchedulerDelay, Machine{PEs: 1, SchedulerDelay: -1}},
		{FieldResultBus, Machine{PEs: 1, ResultBus: math.NaN()}},
		{FieldAckBus, Machine{PEs: 1, AckBus: math.Inf(1)}},
		{FieldIStructureBus, Machine{PEs: 1, IStructureBus: -0.5}},
		{FieldBytesPerTime, Machine{PEs: 1, BytesPerTime: -1}},
		{FieldPolicy, Machine{PEs: 1, Policy: 7}},
	} {
		_, err := Run(context.Background(), Config{Graph: g, Machine: c.m}, platform.RunOptions{})
		var fe *platform.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Pkg != "dataflow" || !strings.HasPrefix(err.Error(), "dataflow: invalid "+c.field) {
			t.Errorf("%+v: %v, want a FieldError on %s", c.m, err, c.field)
		}
	}
	if _, err := ParsePolicy("fifo"); err == nil || err.Error() != `dataflow: invalid Machine.Policy "fifo": want dynamic, static or quasi` {
		t.Errorf("ParsePolicy: %v", err)
	}
	if _, err := Run(context.Background(), Config{Machine: Machine{PEs: 1}}, platform.RunOptions{}); err == nil || !strings.Contains(err.Error(), FieldGraph) {
		t.Errorf("no graph: %v", err)
	}
	// Limits: 6 instances of 4 events (no delays) are 24 events; 16 MB of
	// base memory is over a 1 MB limit.
	for _, c := range []struct {
		field string
		lim   platform.Limits
	}{{FieldMaxEvents, platform.Limits{MaxEvents: 23}}, {FieldMaxBytes, platform.Limits{MaxBytes: 1 << 20}}} {
		_, err := Run(context.Background(), Config{Graph: g, Machine: Machine{PEs: 2}}, platform.RunOptions{Limits: c.lim})
		var le *platform.LimitError
		if !errors.As(err, &le) || le.Field != c.field {
			t.Errorf("%+v: %v, want a LimitError on %s", c.lim, err, c.field)
		}
	}
	if _, err := Run(context.Background(), Config{Graph: g, Machine: Machine{PEs: 2}}, platform.RunOptions{Limits: platform.Limits{MaxEvents: 1000}}); err != nil {
		t.Errorf("1000 events allowed: %v", err)
	}
	var le *platform.LimitError
	if err := CheckRead(".dot", 1<<20, platform.Limits{MaxBytes: 40 << 20}); !errors.As(err, &le) || le.Need != 45 || le.Limit != 40 {
		t.Errorf("reading 1 MB of DOT (45 MB) under 40 MB: %v", err)
	}
}

// A trace in memory is estimated with the run: the same run with a trace
// needs more memory than without, by bytesPerSpan per expected span.
func TestEstimateTrace(t *testing.T) {
	s := Sizes{Nodes: 1000, Edges: 2000, Instances: 1000, InstanceEdges: 2000}
	m := &Machine{PEs: 4, SchedulerDelay: 1, ResultBus: 1, AckBus: 1}
	plain, traced := EstimateRun(s, m, false), EstimateRun(s, m, true)
	// compute, allocation delay and transfer, result, acknowledgement delay and transfer
	if d := traced.Bytes - plain.Bytes; d != 6*1000*bytesPerSpan || traced.Events != plain.Events {
		t.Errorf("the trace adds %g bytes and %g events, want %d bytes and none", d, traced.Events-plain.Events, 6*1000*bytesPerSpan)
	}
}

// A small study (60 fine nodes, grains 1 and 3, 1 and 2 PEs, delay 1, bus
// times 0 and 1): one row per point, PE count innermost; each row's
// makespan and E_m are Run's for that graph and machine, the speedup is
// against one PE (1 on one PE); progress counts the rows; the report
// validates against schema/dataflow-study.schema.json. A grid without
// grains, a trace and the model alone are refused.
func TestStudy(t *testing.T) {
	c := StudyConfig{Nodes: []int{60}, Grains: []int{1, 3}, PEs: []int{1, 2}, Delays: []float64{1}, Buses: []float64{0, 1}, Seed: 2}
	var done []int
	r, err := Study(context.Background(), c, platform.RunOptions{Progress: func(d, total int) {
		if total != c.Rows() {
			t.Errorf("progress total %d, want %d", total, c.Rows())
		}
		done = append(done, d)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 8 || c.Rows() != 8 || len(done) != 8 || done[7] != 8 {
		t.Fatalf("%d rows, progress %v; want 8", len(r.Rows), done)
	}
	one := map[[2]float64]float64{}
	for i, row := range r.Rows {
		if want := c.PEs[i%2]; row.PEs != want {
			t.Errorf("row %d: %d PEs, want %d", i, row.PEs, want)
		}
		g, _ := graph.Random(60, row.Grain, 2)
		m := Machine{PEs: row.PEs, SchedulerDelay: row.Delay, ResultBus: row.Bus, AckBus: row.Bus, IStructureBus: row.Bus}
		rep, err := Run(context.Background(), Config{Graph: g, Machine: m}, platform.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if row.Makespan != rep.Simulated.Makespan || row.EM != rep.Predicted.EM || row.Graph != len(g.Nodes) {
			t.Errorf("row %d %+v: Run gives makespan %g, E_m %g, %d nodes", i, row, rep.Simulated.Makespan, rep.Predicted.EM, len(g.Nodes))
		}
		k := [2]float64{float64(row.Grain), row.Bus}
		if row.PEs == 1 {
			one[k] = row.Makespan
		}
		if want := one[k] / row.Makespan; row.Speedup != want {
			t.Errorf("row %d: speedup %g, want %g", i, row.Speedup, want)
		}
	}
	var b bytes.Buffer
	r.WriteJSON(&b)
	if err := validate.Document(b.Bytes(), schema.FlowStudy); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		field string
		c     StudyConfig
		opt   platform.RunOptions
	}{
		{"StudyConfig.Grains", StudyConfig{Nodes: []int{60}, PEs: []int{1}, Delays: []float64{1}, Buses: []float64{1}}, platform.RunOptions{}},
		{"StudyConfig.Grains", StudyConfig{Nodes: []int{60}, Grains: []int{61}, PEs: []int{1}, Delays: []float64{1}, Buses: []float64{1}}, platform.RunOptions{}},
		{FieldTrace, c, platform.RunOptions{Trace: trace.New(TimeUnit)}},
		{"RunOptions.NoSim", c, platform.RunOptions{NoSim: true}},
	} {
		_, err := Study(context.Background(), bad.c, bad.opt)
		var fe *platform.FieldError
		if !errors.As(err, &fe) || fe.Field != bad.field {
			t.Errorf("%+v: %v, want a FieldError on %s", bad.c, err, bad.field)
		}
	}
}
