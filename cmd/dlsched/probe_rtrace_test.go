package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/trace"
)

// The README's demo star (m = 10, 5 stages), a heterogeneous star
// returning results (docs/heterogeneous.md) and a binomial tree.
var rtraceCases = []struct {
	name string
	args []string
}{
	{"demo star", []string{"--topology", "star", "--m", "10", "--A", "1e-3", "--C", "1e-6", "--D", "1e4", "--S", "1e-3", "--V", "5e3", "--stages", "5"}},
	{"results", []string{"--procs", "0:.23:.12,0:.11:.23,0:.11:.11", "--V", "10", "--D", "inf", "--stages", "2", "--result-ratio", "0.5", "--return", "fifo"}},
	{"binomial", []string{"--topology", "binomial", "--p", "2", "--h", "3", "--order", "nlf", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--D", "1e2", "--V", "5e2"}},
}

// readTrace reads a trace file, validates it against
// schema/trace.schema.json and checks it against the makespan the command
// reported: no two spans of a track overlap, not even by a rounding error
// (viewers nest spans that overlap at all), the latest end and the
// stated makespan are the makespan.
func readTrace(t *testing.T, path string, makespan float64) *trace.Document {
	t.Helper()
	d, _ := traceFile(t, path)
	if o := d.Overlap(0); o != "" {
		t.Errorf("%s: %s", path, o)
	}
	if math.Abs(d.End()-makespan) > 1e-12*makespan || d.Makespan != makespan || d.Unit != "s" {
		t.Errorf("%s: ends at %.17g, states makespan %.17g %s; reported makespan %.17g s", path, d.End(), d.Makespan, d.Unit, makespan)
	}
	return d
}

// scheduleOf reads a solve --format json schedule: its Cmax, chunks and
// result messages.
func scheduleOf(t *testing.T, path string) (cmax float64, chunks, returns int) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Cmax    float64           `json:"cmax"`
		Chunks  []json.RawMessage `json:"chunks"`
		Returns []json.RawMessage `json:"returns"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return s.Cmax, len(s.Chunks), len(s.Returns)
}

// solve --trace writes the verification replay's trace: it validates,
// no two spans of a track overlap, it ends at the schedule's Cmax; a star
// records a transfer and a computation per chunk and a span per result
// message; the same run gives the same bytes, and the schedule is the same
// with and without --trace.
func TestProbeRtraceSolve(t *testing.T) {
	for _, tc := range rtraceCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sched, t1, t2 := filepath.Join(dir, "s.json"), filepath.Join(dir, "t1.json"), filepath.Join(dir, "t2.json")
			base := append([]string{"solve", "--no-timings"}, tc.args...)
			plain, _, code, _ := probe(t, base...)
			for _, tp := range []string{t1, t2} {
				out, stderr, c, _ := probe(t, append(base, "--trace", tp)...)
				if c != 0 || code != 0 || stderr != "" || out != plain {
					t.Fatalf("exit %d (%d without --trace), stderr %q; output the same with --trace: %v", c, code, stderr, out == plain)
				}
			}
			if _, _, c, _ := probe(t, append(base, "--format", "json", "--out", sched)...); c != 0 {
				t.Fatalf("solve --format json: exit %d", c)
			}
			cmax, chunks, returns := scheduleOf(t, sched)
			d := readTrace(t, t1, cmax)
			b1, _ := os.ReadFile(t1)
			b2, _ := os.ReadFile(t2)
			if !bytes.Equal(b1, b2) {
				t.Error("two runs wrote different traces")
			}
			if tc.name != "binomial" && len(d.Spans) != 2*chunks+returns {
				t.Errorf("%d spans, want 2 × %d chunks + %d result messages", len(d.Spans), chunks, returns)
			}
			if tc.name == "results" && (returns != 3 || !strings.HasPrefix(d.Spans[len(d.Spans)-1].Name, "results ")) {
				t.Errorf("%d result messages, last span %q", returns, d.Spans[len(d.Spans)-1].Name)
			}
		})
	}
}

// verify --trace writes the trace of its timed replay: for the binomial
// tree's schedule it validates and ends at the makespan verify prints
// (the schedule's Cmax); for the same schedule with one hop moved earlier
// onto a busy link, verify fails (exit 1), and the trace, still written,
// shows the breach as two spans of one link that overlap.
func TestProbeRtraceVerify(t *testing.T) {
	dir := t.TempDir()
	sched, tp := filepath.Join(dir, "s.json"), filepath.Join(dir, "v.json")
	if _, _, c, _ := probe(t, append([]string{"solve", "--format", "json", "--out", sched}, rtraceCases[2].args...)...); c != 0 {
		t.Fatalf("solve: exit %d", c)
	}
	cmax, _, _ := scheduleOf(t, sched)
	out, stderr, code, _ := probe(t, "verify", "--trace", tp, sched)
	if code != 0 || stderr != "" || !strings.HasPrefix(out, "ok: ") {
		t.Fatalf("verify: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	d := readTrace(t, tp, cmax)
	procs := map[string]bool{}
	for _, e := range d.Spans {
		procs[e.Process] = true
	}
	if len(procs) != 1+2+6+18 { // binomial p = 2, h = 3: layers of 2, 6 and 18 nodes
		t.Errorf("%d processes, want the 27 nodes of the binomial tree p = 2, h = 3", len(procs))
	}
	broken := filepath.Join(dir, "broken.json")
	raw, _ := os.ReadFile(sched)
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	second := s["chunks"].([]any)[1].(map[string]any)
	hop := second["hops"].([]any)[0].(map[string]any)
	hop["start"] = 0.0 // the first chunk's first hop holds the link from 0
	second["start"] = 0.0
	raw, _ = json.Marshal(s)
	os.WriteFile(broken, raw, 0o644)
	out, _, code, _ = probe(t, "verify", "--trace", tp, broken)
	if code != 1 || !strings.Contains(out, "link_busy") {
		t.Fatalf("broken schedule: exit %d, stdout %q", code, out)
	}
	if d, _ := traceFile(t, tp); d.Overlap(0) == "" {
		t.Error("the trace of a schedule with a busy link shows no overlap")
	}
}

// --trace is refused in one line, before any work, without a
// verification to trace (--no-verify) or a .json file name, and on a
// directory that does not exist; nothing is written.
func TestProbeRtraceRefused(t *testing.T) {
	dir := t.TempDir()
	star := rtraceCases[0].args
	tp := filepath.Join(dir, "t.json")
	refused(t, "invalid --trace "+tp+": the trace is the verification's replay; drop --no-verify",
		append(append([]string{"solve"}, star...), "--no-verify", "--trace", tp)...)
	refused(t, "invalid --trace "+filepath.Join(dir, "t.txt")+": want a file ending in .json",
		append(append([]string{"solve"}, star...), "--trace", filepath.Join(dir, "t.txt"))...)
	refused(t, "invalid --trace /nonexistent/t.json: directory /nonexistent does not exist",
		append(append([]string{"solve"}, star...), "--trace", "/nonexistent/t.json")...)
	// The p = 2, h = 10 tree, 60 stages: the replay alone is estimated
	// under 40 MB (the run goes on to solve), with its trace at 231 MB
	// (900 bytes for each of about 3 events per delivery).
	tree := []string{"solve", "--topology", "tree", "--p", "2", "--h", "10", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3",
		"--D", "1", "--V", "1000", "--stages", "60", "--max-memory", "40", "--trace", tp}
	refused(t, "replaying and tracing the schedule on its platform of 2047 nodes needs about", tree...)
	if !strings.Contains(refusal(t, tree...), "raise --max-memory or drop --trace") {
		t.Error("the refusal does not name --trace")
	}
	sched := filepath.Join(dir, "s.json")
	if _, _, c, _ := probe(t, append(append([]string{"solve"}, star...), "--format", "json", "--out", sched)...); c != 0 {
		t.Fatalf("solve: exit %d", c)
	}
	refused(t, "invalid --trace "+filepath.Join(dir, "t.txt")+": want a file ending in .json", "verify", "--trace", filepath.Join(dir, "t.txt"), sched)
	refused(t, "invalid --trace /nonexistent/t.json", "verify", "--trace", "/nonexistent/t.json", sched)
	for _, f := range []string{tp, filepath.Join(dir, "t.txt")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("a refused run wrote %s", f)
		}
	}
}

// refusal returns the stderr of a run.
func refusal(t *testing.T, args ...string) string {
	t.Helper()
	_, stderr, _, _ := probe(t, args...)
	return stderr
}
