package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/executor/dataflow"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/trace"
)

// dataflowJSON runs `dlsched dataflow args... --format json` and decodes
// the report; it fails the test unless the exit status is want.
func dataflowJSON(t *testing.T, want int, args ...string) (*dataflow.Report, string, float64) {
	t.Helper()
	stdout, stderr, code, peak := probe(t, append(append([]string{"dataflow"}, args...), "--format", "json")...)
	if code != want {
		t.Fatalf("dlsched dataflow %s: exit %d, want %d; stderr %q", strings.Join(args, " "), code, want, stderr)
	}
	var r dataflow.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("dlsched dataflow %s: %v", strings.Join(args, " "), err)
	}
	return &r, stderr, peak
}

// Issue 27: sizes are checked before anything is allocated. --levels
// 10000,10000 (1e8 edges) passed 8 GB and --random 2000000 ran past two
// minutes at 4 GB; both are refused in one line naming --max-memory, and
// a run over --max-events names it; a graph file is refused from its size
// before it is read (DOT costs about 40 times the file).
func TestDataflowSizeGuards(t *testing.T) {
	refused(t, "--max-memory", "dataflow", "--levels", "10000,10000", "--pes", "4")
	refused(t, "--max-memory", "dataflow", "--random", "2000000", "--pes", "4")
	refused(t, "--max-events", "dataflow", "--random", "100000", "--pes", "4", "--max-events", "1e5")
	refused(t, "--max-memory", "dataflow", "--levels", "1", "--pes", "100000", "--max-memory", "100")
	var b strings.Builder
	b.WriteString("digraph {\n")
	for i := 0; i < 100_000; i++ {
		fmt.Fprintf(&b, "n%d -> n%d;\n", i, i+1)
	}
	b.WriteString("}\n")
	dot := filepath.Join(t.TempDir(), "chain.dot")
	if err := os.WriteFile(dot, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	refused(t, "reading the graph file (.dot, 1 MB) needs about 76.29 MB of memory, more than --max-memory 16", "dataflow", "--graph", dot, "--pes", "4", "--max-memory", "16")
	loops := filepath.Join(t.TempDir(), "loops.json")
	os.WriteFile(loops, []byte(`{"nodes": [{"id": 0}, {"id": 1}], "edges": [[0, 1], [1, 0, {"back": true}]],
 "loops": [{"id": 0, "nodes": [0, 1], "iterations": 1000000000, "control": 1, "parent": null}]}`), 0o644)
	refused(t, "--max-memory", "dataflow", "--graph", loops, "--pes", "2")
}

// An accepted large run (half a million fine nodes; the largest --random
// the default --max-memory of 1024 MB admits is about 1.2 million, and
// docs/dataflow.md gives the measurements of a million) finishes correctly
// within the limits: exit 0, no progress bar on a stderr that is not a
// terminal, peak memory under 2 GB and within a factor 1.5 of the
// estimate; the makespan, with no delays and no eager allocation (list
// scheduling), between max(critical path, work/p) and work/p + critical
// path (Graham's bound).
func TestDataflowLargeRun(t *testing.T) {
	if testing.Short() {
		t.Skip("a run of half a million nodes")
	}
	const n = 500_000
	r, stderr, peak := dataflowJSON(t, 0, "--random", fmt.Sprint(n), "--pes", "4", "--no-eager")
	if stderr != "" {
		t.Errorf("stderr %q, want nothing (not a terminal)", stderr)
	}
	work, cp := r.Graph.TotalWork, r.Graph.CriticalPath
	if ms := r.Simulated.Makespan; ms < max(cp, work/4) || ms > work/4+cp {
		t.Errorf("makespan %g outside [%g, %g]", ms, max(cp, work/4), work/4+cp)
	}
	est := dataflow.EstimateRun(dataflow.Sizes{Nodes: n, Edges: 2 * n, Instances: n, InstanceEdges: 2 * n}, &dataflow.Machine{PEs: 4}, false).Bytes / (1 << 20)
	if peak > 2048 || peak > 1.5*est || peak < est/1.5 {
		t.Errorf("peak %.0f MB, estimate %.0f MB: want under 2048 MB and within a factor 1.5 of the estimate", peak, est)
	}
}

// Issue 27: flags that do not apply are refused with the reason, never
// ignored (docs/reliability.md).
func TestDataflowInapplicableFlags(t *testing.T) {
	stg := "../../testdata/stg/proto151.stg"
	for _, c := range []struct {
		want string
		args []string
	}{
		{"--seed: it applies to --random only", []string{"--levels", "5,3", "--pes", "2", "--seed", "3"}},
		{"--grain: it applies to --random only", []string{"--levels", "5,3", "--pes", "2", "--grain", "3"}},
		{"--node-time: it applies to --levels only", []string{"--graph", stg, "--pes", "2", "--node-time", "2"}},
		{"--no-realloc with --policy static", []string{"--levels", "5,3", "--pes", "2", "--policy", "static", "--no-realloc"}},
		{"--no-eager with --policy quasi", []string{"--levels", "5,3", "--pes", "2", "--policy", "quasi", "--no-eager"}},
		{"--no-eager with --barrier", []string{"--levels", "5,3", "--pes", "2", "--barrier", "--no-eager"}},
		{"--time-unit: it applies to WfCommons workflows only", []string{"--graph", stg, "--pes", "2", "--time-unit", "60"}},
		{"--bytes-per-time: no node of", []string{"--graph", stg, "--pes", "2", "--bytes-per-time", "1e6"}},
		{"--bytes-per-time: it applies to --graph only", []string{"--random", "100", "--pes", "2", "--bytes-per-time", "1e6"}},
		{"--scheduler-delay: --study runs its own", []string{"--study", "small", "--scheduler-delay", "3"}},
		{"--max-events: --study runs its own", []string{"--study", "small", "--max-events", "1e6"}},
		{"--plot: it needs --study", []string{"--levels", "5", "--pes", "2", "--plot", "x.svg"}},
		{"invalid --barrier (level by level): want a loop-free graph", []string{"--graph", writeLoop(t), "--pes", "2", "--barrier"}},
	} {
		refused(t, c.want, append([]string{"dataflow"}, c.args...)...)
	}
}

func writeLoop(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "loop.json")
	os.WriteFile(path, []byte(`{"nodes": [{"id": 0}, {"id": 1}, {"id": 2}, {"id": 3}], "edges": [[0, 1], [1, 2], [2, 1, {"back": true}], [2, 3]],
 "loops": [{"id": 0, "nodes": [1, 2], "iterations": 3, "control": 2, "parent": null}]}`), 0o644)
	return path
}

// Issue 27: the readers' messages. An undirected DOT graph is refused (it
// was read as directed without a word), a DOT self-loop is named (it said
// "panic setting edge"), an STG task depending on itself says so (it said
// "predecessor 1, want 0..3").
func TestDataflowReaderMessages(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"undirected.dot": "graph { a -- b }",
		"self.dot":       "digraph { a -> b; b -> b }",
		"self.stg":       "2\n0 0 0\n1 1 1 1\n2 1 1 0\n3 0 1 2\n",
	}
	want := map[string]string{"undirected.dot": "an undirected graph", "self.dot": "self-loop on node b", "self.stg": "task 1 depends on itself"}
	for name, body := range files {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(body), 0o644)
		refused(t, want[name], "dataflow", "--graph", path, "--pes", "2")
		if _, stderr, _, _ := probe(t, "dataflow", "--graph", path, "--pes", "2"); strings.Contains(stderr, "panic") {
			t.Errorf("%s: %q", name, stderr)
		}
	}
}

// Issue 28 item 7 through the command: --levels 5,3,8 --barrier
// --scheduler-delay 2 --bus-time 0 costs c + 2d = 5 per wave: 80, 25, 15,
// 15 on 1, 4, 8, 16 PEs, model and simulation (dlsched gave 48/15/9/9).
func TestDataflowAcknowledgementDelayCLI(t *testing.T) {
	for i, p := range []string{"1", "4", "8", "16"} {
		r, _, _ := dataflowJSON(t, 0, "--levels", "5,3,8", "--barrier", "--scheduler-delay", "2", "--bus-time", "0", "--pes", p)
		want := []float64{80, 25, 15, 15}[i]
		if r.Predicted.EM != want || r.Simulated.Makespan != want {
			t.Errorf("%s PEs: E_m %g, simulated %g, want %g", p, r.Predicted.EM, r.Simulated.Makespan, want)
		}
	}
}

// Issue 28 item 8 through the command: a loop of 4 iterations around a
// conditional (decision 2, then [3], else [4, 5] taken, merge 6), no eager
// allocation: never below the unrolled critical path, 4 × (entry chain 1,
// 2, 4, 5, 6, 7) + node 0 = 25 (it gave 25, 17, 15, 15 on 1, 2, 4, 8
// PEs). An I-structure location may be an integer address.
func TestDataflowConditionalLoopCLI(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cond-loop.json")
	os.WriteFile(path, []byte(`{"nodes": [{"id": 0}, {"id": 1}, {"id": 2, "kind": "decision"}, {"id": 3}, {"id": 4}, {"id": 5},
 {"id": 6, "kind": "merge"}, {"id": 7}, {"id": 8, "kind": "write", "loc": 17}, {"id": 9, "kind": "read", "loc": "17"}],
 "edges": [[0, 1], [1, 2], [2, 3], [2, 4], [4, 5], [3, 6], [5, 6], [6, 7], [7, 1, {"back": true}], [0, 8]],
 "conds": [{"decision": 2, "then": [3], "else": [4, 5], "merge": [6], "outcome": false}],
 "loops": [{"id": 0, "nodes": [1, 2, 3, 4, 5, 6, 7], "iterations": 4, "control": 7, "parent": null}]}`), 0o644)
	for _, p := range []string{"1", "2", "4", "8"} {
		r, _, _ := dataflowJSON(t, 0, "--graph", path, "--no-eager", "--pes", p)
		if r.Simulated.Makespan < 25 || !r.Simulated.Completed || len(r.Simulated.IStructureErrors) != 0 || r.Simulated.PendingReads != 0 {
			t.Errorf("%s PEs: %+v, want at least 25, the read served", p, r.Simulated)
		}
	}
}

// Issue 31 item 3: a WfCommons workflow through the command, with its time
// unit and the data of its results on the result bus; a malformed one is
// refused with the task named.
func TestDataflowWfCommonsCLI(t *testing.T) {
	wf := "../../testdata/wfcommons/srasearch-chameleon-10a-001.json"
	r, _, _ := dataflowJSON(t, 0, "--graph", wf, "--pes", "22")
	if r.Graph.Nodes != 22 || r.Simulated.Makespan != r.Graph.CriticalPath {
		t.Errorf("22 PEs: %d nodes, makespan %g, critical path %g", r.Graph.Nodes, r.Simulated.Makespan, r.Graph.CriticalPath)
	}
	m, _, _ := dataflowJSON(t, 0, "--graph", wf, "--pes", "22", "--time-unit", "60")
	if d := m.Simulated.Makespan*60 - r.Simulated.Makespan; d > 1e-9 || d < -1e-9 {
		t.Errorf("in minutes %g, in seconds %g", m.Simulated.Makespan, r.Simulated.Makespan)
	}
	slow, _, _ := dataflowJSON(t, 0, "--graph", wf, "--pes", "22", "--bytes-per-time", "1e6")
	if !(slow.Simulated.Makespan > r.Simulated.Makespan) {
		t.Errorf("with data on the result bus %g, without %g", slow.Simulated.Makespan, r.Simulated.Makespan)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"name": "w", "workflow": {"specification": {"tasks": [{"id": "split", "parents": ["nowhere"]}]},
 "execution": {"tasks": [{"id": "split", "runtimeInSeconds": 1}]}}}`), 0o644)
	refused(t, "task split: parent nowhere is not a task", "dataflow", "--graph", bad, "--pes", "2")
}

// Issue 31 item 5: the documented commands' JSON (docs/dataflow.md and
// the command's help: a barrier run, proto151 with delays, the BLAST
// workflow, the acknowledgement example, a deadlock, the study) starts
// with its format and validates against its schema.
func TestDataflowDocumentedJSON(t *testing.T) {
	for _, c := range []struct {
		format string
		code   int
		args   []string
	}{
		{schema.Dataflow, 0, []string{"--levels", "5,3,8", "--pes", "4", "--barrier"}},
		{schema.Dataflow, 0, []string{"--graph", "../../testdata/stg/proto151.stg", "--pes", "8", "--scheduler-delay", "1", "--bus-time", "1"}},
		{schema.Dataflow, 0, []string{"--graph", "../../testdata/wfcommons/blast-chameleon-small-001.json", "--pes", "8"}},
		{schema.Dataflow, 0, []string{"--levels", "5,3,8", "--barrier", "--scheduler-delay", "2", "--bus-time", "0", "--pes", "4"}},
		{schema.Dataflow, 1, []string{"--graph", writeLoop(t), "--pes", "1", "--no-realloc"}},
		{schema.FlowStudy, 0, []string{"--study", "small"}},
	} {
		stdout, stderr, code, _ := probe(t, append(append([]string{"dataflow"}, c.args...), "--format", "json")...)
		if code != c.code || !strings.HasPrefix(stdout, "{\n  \"format\": \""+c.format+"\",") {
			t.Errorf("%v: exit %d (stderr %q), stdout starts %q", c.args, code, stderr, head(stdout))
			continue
		}
		if err := validate.Document([]byte(stdout), c.format); err != nil {
			t.Errorf("%v: %v", c.args, err)
		}
	}
}

// Issue 31 item 4: --trace writes the run as a Chrome trace that validates
// against schema/trace.schema.json; no two spans of a track overlap; the
// latest event ends at the report's makespan (also in otherData), in the
// model's time unit; one process per PE, the scheduler and the buses; the
// same run gives the same bytes. A
// study (nothing traced), a path that is not .json and a traced run over
// --max-memory are refused in one line.
func TestDataflowTraceCLI(t *testing.T) {
	dir := t.TempDir()
	for i, args := range [][]string{
		{"--graph", "../../testdata/stg/proto151.stg", "--pes", "8", "--scheduler-delay", "1", "--bus-time", "1"},
		{"--graph", writeCondLoop(t), "--pes", "3", "--scheduler-delay", "1", "--istructure-bus", "2"},
		{"--random", "500", "--grain", "2", "--pes", "4", "--policy", "quasi", "--scheduler-delay", "1", "--result-bus", "1"},
	} {
		path := filepath.Join(dir, fmt.Sprintf("t%d.json", i))
		r, _, _ := dataflowJSON(t, 0, append(args, "--trace", path)...)
		doc, b := traceFile(t, path)
		ms := r.Simulated.Makespan
		if o := doc.Overlap(1e-9 * ms); o != "" {
			t.Errorf("%v: %s", args, o)
		}
		if math.Abs(doc.End()-ms) > 1e-9*ms || doc.Makespan != ms || doc.Unit != dataflow.TimeUnit {
			t.Errorf("%v: trace ends at %g, states makespan %g in %q; the report's makespan %g", args, doc.End(), doc.Makespan, doc.Unit, ms)
		}
		again := filepath.Join(dir, fmt.Sprintf("again%d.json", i))
		dataflowJSON(t, 0, append(args, "--trace", again)...)
		if b2, _ := os.ReadFile(again); string(b2) != string(b) {
			t.Errorf("%v: two traces of the same run differ", args)
		}
		procs := map[string]bool{}
		for _, e := range doc.Spans {
			procs[e.Process] = true
		}
		if len(procs) != r.Machine.PEs+2 || !procs["scheduler"] || !procs["buses"] || !procs[fmt.Sprintf("PE %d", r.Machine.PEs)] {
			t.Errorf("%v: processes %v, want %d PEs, the scheduler and the buses", args, procs, r.Machine.PEs)
		}
	}
	refused(t, "invalid --trace with --study", "dataflow", "--study", "small", "--trace", filepath.Join(dir, "s.json"))
	refused(t, "invalid --trace "+dir+"/t.txt: want a file ending in .json", "dataflow", "--levels", "5", "--pes", "2", "--trace", filepath.Join(dir, "t.txt"))
	refused(t, "invalid --random 400000: a traced run of 400000 node instances on 16 PEs needs about", "dataflow", "--random", "400000", "--pes", "16",
		"--scheduler-delay", "1", "--bus-time", "1", "--trace", filepath.Join(dir, "big.json"))
}

func writeCondLoop(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "cond-loop.json")
	os.WriteFile(path, []byte(`{"nodes": [{"id": 0}, {"id": 1}, {"id": 2, "kind": "decision"}, {"id": 3}, {"id": 4}, {"id": 5},
 {"id": 6, "kind": "merge"}, {"id": 7}, {"id": 8, "kind": "write", "loc": 17}, {"id": 9, "kind": "read", "loc": "17"}],
 "edges": [[0, 1], [1, 2], [2, 3], [2, 4], [4, 5], [3, 6], [5, 6], [6, 7], [7, 1, {"back": true}], [0, 8]],
 "conds": [{"decision": 2, "then": [3], "else": [4, 5], "merge": [6], "outcome": false}],
 "loops": [{"id": 0, "nodes": [1, 2, 3, 4, 5, 6, 7], "iterations": 4, "control": 7, "parent": null}]}`), 0o644)
	return path
}

// A traced run's peak memory is within a factor 1.5 of its estimate
// (bytesPerSpan per span on top of the run): --random 30000 on 16 PEs
// with delays and buses of 1 records 180,000 spans.
func TestDataflowTraceMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a traced run of 30,000 nodes")
	}
	const n = 30_000
	path := filepath.Join(t.TempDir(), "t.json")
	_, _, peak := dataflowJSON(t, 0, "--random", fmt.Sprint(n), "--pes", "16", "--scheduler-delay", "1", "--bus-time", "1", "--trace", path)
	m := &dataflow.Machine{PEs: 16, SchedulerDelay: 1, ResultBus: 1, AckBus: 1, IStructureBus: 1}
	s := dataflow.Sizes{Nodes: n, Edges: 2 * n, Instances: n, InstanceEdges: 2 * n}
	est := dataflow.EstimateRun(s, m, true).Bytes / (1 << 20)
	if peak > 1.5*est || peak < est/1.5 {
		t.Errorf("traced peak %.0f MB, estimate %.0f MB: want within a factor 1.5", peak, est)
	}
	if err := dataflow.CheckRun(s, m, platform.RunOptions{Trace: trace.New(dataflow.TimeUnit), Limits: platform.Limits{MaxBytes: int64(est * (1 << 20) * 0.99)}}); err == nil {
		t.Errorf("a traced run above its limit was accepted")
	}
}
