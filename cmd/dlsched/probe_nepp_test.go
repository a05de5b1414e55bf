package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/executor/farm/nepp"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/trace"
)

// neppArgs is a small valid run of farm nepp with args appended.
func neppArgs(args ...string) []string {
	return append([]string{"farm", "nepp", "--algorithm", "md", "--speeds", "1,1,1", "--jobs", "10", "--work", "1"}, args...)
}

// Issue 27: `farm nepp --scan-p 1..100000 --jobs 100 --work 1` ran 12
// minutes silently. The scan's events are bounded from the inputs (up to
// 4.1e12, FT's replicas at their worst) and the scan is refused at once,
// naming the limit; so is a run beyond --max-memory, before it is built.
func TestProbeNeppLimits(t *testing.T) {
	refused(t, "the scan over p = 1..100000 with 100 jobs may need up to 4.1e+12 simulation events, more than --max-events 50000000: raise it or use fewer p (--scan-p) or jobs (--jobs)",
		"farm", "nepp", "--scan-p", "1..100000", "--jobs", "100", "--work", "1")
	refused(t, "md on 1 node with 10000000 jobs, q = 6 needs about 643 MB of memory, more than --max-memory 256: raise it or use fewer jobs (--jobs) or nodes (--speeds)",
		"farm", "nepp", "--algorithm", "md", "--speeds", "1", "--jobs", "1e7", "--work", "1", "--max-events", "1e9", "--max-memory", "256")
	refused(t, "ft on 10000 nodes with 100 jobs, q = 6 may need up to 7.4e+06 simulation events, more than --max-events 1000000: raise it or use fewer jobs (--jobs) or nodes (--speeds)",
		"farm", "nepp", "--algorithm", "ft", "--speeds", strings.Repeat("1,", 9999)+"1", "--jobs", "100", "--work", "1", "--max-events", "1e6")
	// The model alone is cheap at any p: the same scan with --no-sim runs,
	// within its memory estimate (its JSON, 300,000 rows, written a row at
	// a time, to a file: a child's peak memory as measured starts from this
	// process's).
	path := filepath.Join(t.TempDir(), "scan.json")
	out, errOut, code, peak := probe(t, "farm", "nepp", "--scan-p", "1..100000", "--jobs", "100", "--work", "1", "--no-sim",
		"--format", "json", "--out", path)
	if code != 0 || errOut != "" || out != "" {
		t.Fatalf("--no-sim scan: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	est := nepp.ScanSpec{From: 1, To: 100_000, Slow: 0.2}.Estimate(nepp.Config{Queue: 6, Jobs: 100, Work: 1}, platform.RunOptions{NoSim: true})
	if peak > est.Bytes/(1<<20) {
		t.Errorf("--no-sim scan: peak %.0f MB, estimated %.0f MB", peak, est.Bytes/(1<<20))
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tail := make([]byte, 2000)
	if st, err := f.Stat(); err != nil || st.Size() < 2000 {
		t.Fatalf("scan output: %v", err)
	} else if _, err := f.ReadAt(tail, st.Size()-2000); err != nil || !strings.Contains(string(tail), `"p": 100000,`) ||
		!strings.HasSuffix(string(tail), "}\n  ]\n}\n") {
		t.Errorf("scan output ends %q", tail)
	}
}

// An accepted run stays within its memory estimate, and a long one shows
// no progress bar when stderr is not a terminal: SD on 5,000 nodes with
// 300,000 jobs, estimated at 2.3 million events (above the 2 million from
// which a terminal gets a progress bar).
func TestProbeNeppAccepted(t *testing.T) {
	speeds := strings.Repeat("1,", 4999) + "1"
	cfg := nepp.Config{Algorithm: nepp.Simple, Speeds: make([]float64, 5000), Jobs: 300_000, Work: 1}
	est := cfg.Estimate(platform.RunOptions{})
	if est.Events < neppLong {
		t.Fatalf("estimate %g events: below the progress threshold, the run tests nothing", est.Events)
	}
	out, errOut, code, peak := probe(t, "farm", "nepp", "--algorithm", "sd", "--speeds", speeds, "--jobs", "3e5", "--work", "1", "--format", "json")
	if code != 0 || errOut != "" || !strings.Contains(out, `"completed": true`) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if peak > est.Bytes/(1<<20) {
		t.Errorf("peak %.0f MB, estimated %.0f MB", peak, est.Bytes/(1<<20))
	}
}

// Simple Distribution is q = 1 ("As soon as the host gets a READY message
// from a given node, the host sends that node the next job", Section
// 3.1.2): --queue 1 and --qmin 1 say so and are accepted; any other value
// is refused, naming the flag.
func TestProbeNeppSimpleQueue(t *testing.T) {
	out, errOut, code, _ := probe(t, neppArgs("--algorithm", "sd", "--queue", "1", "--qmin", "1")...)
	if code != 0 || errOut != "" || !strings.Contains(out, "queue 1 (refill below 1)") {
		t.Errorf("sd --queue 1: exit %d, stderr %q", code, errOut)
	}
	refused(t, "invalid --queue 3: Simple Distribution sends one job per request (q = q_min = 1); want 1, or --algorithm md or ft for a queue",
		neppArgs("--algorithm", "sd", "--queue", "3")...)
	refused(t, "invalid --qmin 2: Simple Distribution", neppArgs("--algorithm", "sd", "--qmin", "2")...)
}

// --slow FACTOR is relative to the nominal speed (docs/nepp.md, --help):
// one node, one job of work 4, slowed to 0.5 at t = 1 and to 0.25 at
// t = 2 ends at 12 (1 + 0.5 + 2.5/0.25 units of time); compounded it
// would end at 22.
func TestProbeNeppSlowNominal(t *testing.T) {
	out, _, code, _ := probe(t, "farm", "nepp", "--algorithm", "sd", "--speeds", "1", "--jobs", "1", "--work", "4",
		"--setup", "0", "--per-byte", "0", "--slow", "1@1=0.5", "--slow", "1@2=0.25", "--format", "json")
	if code != 0 || !strings.Contains(out, `"makespan": 12,`) {
		t.Errorf("exit %d, output %s", code, out)
	}
	help, _, _, _ := probe(t, "farm", "nepp", "--help")
	if !strings.Contains(help, "FACTOR × its nominal speed alpha_i·c_i") || !strings.Contains(help, "not × its current speed") {
		t.Errorf("--help does not say what a --slow factor is relative to:\n%s", help)
	}
}

// Every bad value exits 2 with one line naming the flag; nodes, crashes
// and slowdowns are counted from 1 as in the docs; the queue's limit is
// the real one, with its reason.
func TestProbeNeppBadFlags(t *testing.T) {
	scan := []string{"farm", "nepp", "--scan-p", "2..4", "--jobs", "10", "--work", "1"}
	for _, c := range []struct {
		want string
		args []string
	}{
		{"invalid --algorithm \"xx\": want sd, md or ft", neppArgs("--algorithm", "xx")},
		{"missing --speeds", neppArgs("--speeds", "")},
		{"invalid --speeds: entry 2 \"x\" is not a number", neppArgs("--speeds", "1,x")},
		{"invalid --speeds -1 (node 2): want finite speeds > 0", neppArgs("--speeds", "1,-1")},
		{"invalid --shares 0 (node 3)", neppArgs("--shares", "1,1,0")},
		{"invalid --shares (2 given): want one share per node of --speeds (3)", neppArgs("--shares", "1,1")},
		{"invalid --queue 1000000000: want 1..10000000: a queue never holds more than every job, and --jobs is at most 10000000",
			neppArgs("--queue", "1000000000")},
		{"invalid --queue 0", neppArgs("--queue", "0")},
		{"invalid --queue x", neppArgs("--queue", "x")},
		{"invalid --qmin 7: want 1..6 (--queue)", neppArgs("--qmin", "7")},
		{"invalid --jobs 0: want 1..10000000", neppArgs("--jobs", "0")},
		{"invalid --jobs 1.5: want an integer", neppArgs("--jobs", "1.5")},
		{"invalid --work 0", neppArgs("--work", "0")},
		{"invalid --work inf", neppArgs("--work", "inf")},
		{"invalid --useful 0", neppArgs("--useful", "0")},
		{"invalid --useful 2: want 0 < f <= 1 (--work)", neppArgs("--useful", "2")},
		{"invalid --host-overhead -1", neppArgs("--host-overhead", "-1")},
		{"invalid --setup nan", neppArgs("--setup", "nan")},
		{"invalid --per-byte -1", neppArgs("--per-byte", "-1")},
		{"invalid --job-bytes -1", neppArgs("--job-bytes", "-1")},
		{"invalid --result-bytes x", neppArgs("--result-bytes", "x")},
		{"invalid --work-dist \"normal\"", neppArgs("--work-dist", "normal")},
		{"invalid --crash 2: want NODE@TIME", neppArgs("--crash", "2")},
		{"invalid --crash node 4 at 1 (crash 2): want a node 1..3", neppArgs("--crash", "1@1", "--crash", "4@1")},
		{"invalid --crash node 1 at -1 (crash 1)", neppArgs("--crash", "1@-1")},
		{"invalid --slow 1@1: want NODE@TIME=FACTOR", neppArgs("--slow", "1@1")},
		{"invalid --slow node 1 at 1 factor -2 (slowdown 1)", neppArgs("--slow", "1@1=-2")},
		{"invalid --seed -1", neppArgs("--seed", "-1")},
		{"invalid --format xml", neppArgs("--format", "xml")},
		{"invalid --out /nonexistent/r.json", neppArgs("--out", "/nonexistent/r.json")},
		{"invalid --plot: it needs --scan-p", neppArgs("--plot", "x.svg")},
		{"invalid --slow-speed: it needs --scan-p", neppArgs("--slow-speed", "0.5")},
		{"invalid --max-memory 1", neppArgs("--max-memory", "1")},
		{"invalid --max-events 0", neppArgs("--max-events", "0")},
		{"invalid --scan-p 5..2: want FROM..TO with 1 <= FROM <= TO <= 100000", append(scan[:2:2], "--scan-p", "5..2", "--jobs", "1", "--work", "1")},
		{"invalid --scan-p 2..x: want FROM..TO", append(scan[:2:2], "--scan-p", "2..x", "--jobs", "1", "--work", "1")},
		{"invalid --slow-speed 0: want a finite speed > 0", append(scan, "--slow-speed", "0")},
		{"invalid --plot x.txt", append(scan, "--plot", "x.txt")},
		{"invalid --algorithm: --scan-p sets the algorithms", append(scan, "--algorithm", "sd")},
		{"invalid --jobs 0", append(scan[:5:5], "0", "--work", "1")},
		{"invalid --queue 0", append(scan, "--queue", "0")},
	} {
		refused(t, c.want, c.args...)
	}
}

// --trace writes the run in the Chrome Trace Event Format: it validates
// against schema/trace.schema.json, no two spans of one track overlap,
// and its last event ends at the reported makespan (the docs' example: FT
// on four nodes, one slow, node 2 crashing at t = 10). The report
// validates against schema/nepp.schema.json.
func TestProbeNeppTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nepp.json")
	out, errOut, code, _ := probe(t, "farm", "nepp", "--algorithm", "ft", "--speeds", "1,1,1,0.2", "--queue", "6", "--jobs", "100",
		"--work", "1", "--crash", "2@10", "--trace", path, "--format", "json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if err := validate.Document([]byte(out), schema.Nepp); err != nil {
		t.Error(err)
	}
	var r struct{ Simulated struct{ Makespan float64 } }
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	doc, _ := traceFile(t, path)
	ms := r.Simulated.Makespan
	if o := doc.Overlap(1e-9 * ms); o != "" {
		t.Errorf("overlap: %s", o)
	}
	if end := doc.End(); math.Abs(end-ms) > 1e-9*ms || doc.Makespan != ms {
		t.Errorf("trace ends at %g (otherData %g), makespan %g", end, doc.Makespan, ms)
	}
	crashes := 0
	for _, e := range doc.Instants {
		if e.Name == "crash" && e.Process == "node 2" && e.Start == 10 {
			crashes++
		}
	}
	if crashes != 1 || len(doc.Spans) < 300 {
		t.Errorf("%d crashes of node 2 at 10, %d spans", crashes, len(doc.Spans))
	}
}

// A trace is refused where nothing is simulated (--no-sim, a scan of many
// runs), with a wrong extension, and when its events would take the run
// beyond --max-memory, which the same run without --trace is not: MD with
// 3·10^5 jobs on 10 nodes, 3·3·10^5 + 50,001 + 10 = 950,011 trace events
// of 1,536 bytes beside the run's 32 MB + 10·10 KB + 3·10^5·64 + 60·48
// bytes: 1,512,076,608 bytes, 1443 MB.
func TestProbeNeppTraceRefused(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.json")
	refused(t, "invalid --trace "+tr+": --no-sim simulates nothing to trace", neppArgs("--no-sim", "--trace", tr)...)
	refused(t, "invalid --trace "+tr+": a scan is many runs; trace one run with --algorithm and --speeds",
		"farm", "nepp", "--scan-p", "2..4", "--jobs", "10", "--work", "1", "--trace", tr)
	refused(t, "invalid --trace "+filepath.Join(dir, "t.txt")+": want a file ending in .json", neppArgs("--trace", filepath.Join(dir, "t.txt"))...)
	big := []string{"farm", "nepp", "--algorithm", "md", "--speeds", "1,1,1,1,1,1,1,1,1,1", "--jobs", "3e5", "--work", "1"}
	refused(t, "md on 10 nodes with 300000 jobs, q = 6 needs about 1443 MB of memory, more than --max-memory 1024: raise it or use fewer jobs (--jobs) or nodes (--speeds)",
		append(big, "--trace", tr)...)
	if _, err := os.Stat(tr); err == nil {
		t.Errorf("a refused run wrote %s", tr)
	}
	cfg := nepp.Config{Algorithm: nepp.Multiple, Speeds: make([]float64, 10), Queue: 6, Jobs: 300_000, Work: 1}
	if est := cfg.Estimate(platform.RunOptions{}); est.Bytes > 100<<20 {
		t.Errorf("without a trace the run is estimated at %.0f MB", est.Bytes/(1<<20))
	}
}

// The documented JSON outputs (docs/nepp.md's run, its scan, the model
// alone) declare their format first and validate against their schemas.
func TestProbeNeppDocumentsValidate(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []string
	}{
		{schema.Nepp, []string{"farm", "nepp", "--algorithm", "ft", "--speeds", "1,1,1,1", "--queue", "3", "--jobs", "40", "--work", "1",
			"--setup", "0", "--per-byte", "0", "--crash", "1@1.5", "--crash", "2@2.5", "--crash", "3@3.5"}},
		{schema.Nepp, []string{"farm", "nepp", "--algorithm", "md", "--speeds", "1,1,1,1", "--queue", "3", "--jobs", "40", "--work", "1",
			"--setup", "0", "--per-byte", "0", "--crash", "1@1.5", "--crash", "2@2.5", "--crash", "3@3.5"}},
		{schema.Nepp, []string{"farm", "nepp", "--algorithm", "ft", "--speeds", "1,1,1", "--jobs", "100", "--work", "1", "--no-sim"}},
		{schema.NeppScan, []string{"farm", "nepp", "--scan-p", "2..20", "--slow-speed", "0.2", "--queue", "6", "--jobs", "100", "--work", "1",
			"--setup", "0", "--per-byte", "0"}},
		{schema.NeppScan, []string{"farm", "nepp", "--scan-p", "1..50", "--jobs", "100", "--work", "1", "--no-sim"}},
	} {
		out, _, code, _ := probe(t, append(c.args, "--format", "json")...)
		if code > 1 || !strings.HasPrefix(out, "{\n  \"format\": \""+c.format+"\",\n") {
			t.Errorf("%v: exit %d, output %.80q", c.args, code, out)
			continue
		}
		if err := validate.Document([]byte(out), c.format); err != nil {
			t.Errorf("%v: %v", c.args, err)
		}
	}
	help, _, _, _ := probe(t, "farm", "nepp", "--help")
	for _, want := range []string{"--trace FILE.json writes a run", "ui.perfetto.dev (Open trace file)", "chrome://tracing (Load)", "dlsched.nepp/1"} {
		if !strings.Contains(help, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

// A traced run stays within its memory estimate, the trace's events
// included: MD on 10 nodes with 3·10^4 jobs, 95,011 events.
func TestProbeNeppTraceMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.json")
	_, errOut, code, peak := probe(t, "farm", "nepp", "--algorithm", "md", "--speeds", "1,1,1,1,1,1,1,1,1,1", "--jobs", "3e4", "--work", "1",
		"--trace", path, "--format", "json", "--out", filepath.Join(t.TempDir(), "r.json"))
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	cfg := nepp.Config{Algorithm: nepp.Multiple, Speeds: make([]float64, 10), Queue: 6, Jobs: 30_000, Work: 1}
	est := cfg.Estimate(platform.RunOptions{Trace: trace.New("s")})
	if peak > est.Bytes/(1<<20) {
		t.Errorf("peak %.0f MB, estimated %.0f MB", peak, est.Bytes/(1<<20))
	}
	t.Logf("peak %.0f MB, estimated %.0f MB", peak, est.Bytes/(1<<20))
}
