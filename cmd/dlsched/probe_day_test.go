package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
)

// dayBase is a valid `farm day` run (Section 4.9.3's line of 8) with
// each flag of kv (flag, value, flag, value, ...) set to its value, or
// left out when the value is "".
func dayBase(kv ...string) []string {
	args := []string{"farm", "day", "--layout", "line", "--harness", "D", "--workers", "8", "--message-bytes", "4096",
		"--job-time", "0.0625", "--bandwidth", "1.177MiB", "--setup-bytes", "12.9"}
	for k := 0; k+1 < len(kv); k += 2 {
		flag, value, found := "--"+kv[k], kv[k+1], false
		for i := 2; i < len(args); i += 2 {
			if args[i] == flag {
				found = true
				if value == "" {
					args = append(args[:i:i], args[i+2:]...)
				} else {
					args[i+1] = value
				}
				break
			}
		}
		if !found {
			args = append(args, flag, value)
		}
	}
	return args
}

// Issue 27: every bad value of `farm day` is bad usage — exit 2, nothing
// on stdout, one line on stderr naming the flag, refused before anything
// large is allocated (peak under 100 MB).
func TestProbeDayBadValues(t *testing.T) {
	for _, tc := range []struct{ flag, value string }{
		{"layout", "circle"}, {"harness", "Z"}, {"workers", "0"}, {"workers", "-3"}, {"workers", "abc"},
		{"workers", "100001"}, {"workers", "1e300"}, {"message-bytes", "-1"}, {"message-bytes", "nan"},
		{"message-bytes", "inf"}, {"result-bytes", "-5"}, {"job-time", "0"}, {"job-time", "-1"},
		{"job-time", "inf"}, {"bandwidth", "0"}, {"bandwidth", "fast"}, {"bandwidth", "inf"}, {"bandwidth", ""},
		{"setup-bytes", "-1"}, {"setup-bytes", ""}, {"bidirectional-factor", "0"}, {"bidirectional-factor", "1.5"},
		{"bidirectional-factor", "-0.1"}, {"bidirectional-factor", "nan"}, {"farmer-cost", "-1"},
		{"farmer-cost", "inf"}, {"cpu-per-message", "nan"}, {"priority", "far"}, {"format", "xml"},
		{"max-memory", "5"}, {"max-memory", "x"}, {"max-events", "0"}, {"max-events", "1e30"},
		{"out", "/nonexistent/dir/x"},
		// Values whose sums would overflow the simulated times (m + s =
		// +Inf made the kernel panic: "bad work +Inf", exit 1).
		{"message-bytes", "1e308"}, {"setup-bytes", "1e308"}, {"bandwidth", "1e-300"}, {"job-time", "1e300"},
		{"farmer-cost", "1e300"}, {"cpu-per-message", "1e300"},
	} {
		args := dayBase(tc.flag, tc.value)
		if tc.value == "" {
			refused(t, "missing --"+tc.flag, args...)
			continue
		}
		refused(t, "--"+tc.flag, args...)
	}
	// The delay-loop form, its range, and the flags that need another.
	for _, v := range []string{"0", "-5", "1e13", "x"} {
		refused(t, "invalid --delay-loop ", dayBase("job-time", "", "delay-loop", v)...)
	}
	refused(t, "--delay-loop", dayBase("delay-loop", "3")...)
	refused(t, "--setup-time", dayBase("setup-time", "3e-6")...)
	for _, flag := range []string{"plot", "job-times", "total-work", "bytes-per-second"} {
		refused(t, "invalid --"+flag+": it needs --granularity", dayBase(flag, "1")...)
	}
	refused(t, "invalid --workers 5: want full levels", dayBase("layout", "tree", "workers", "5")...)
}

// Issue 27: an explicit --bidirectional-factor 0 was silently the default
// 0.727. It would stop a link direction whenever the other is busy (a
// tree's links would stall), so it is refused; an explicit 0.5 is used.
func TestProbeDayBidirectionalFactor(t *testing.T) {
	tree := []string{"farm", "day", "--layout", "tree", "--workers", "3", "--message-bytes", "4096", "--job-time", "0.005",
		"--bandwidth", "1.177MiB", "--setup-bytes", "12.9", "--format", "json"}
	refused(t, "invalid --bidirectional-factor 0: want a share of B in (0, 1]", append(tree, "--bidirectional-factor", "0")...)
	half, _, code := dlsched(t, append(tree, "--bidirectional-factor", "0.5")...)
	def, _, code2 := dlsched(t, tree...)
	if code != 0 || code2 != 0 {
		t.Fatalf("exit %d, %d", code, code2)
	}
	p, q := decodeJSON(t, half), decodeJSON(t, def)
	f := func(m map[string]any, k string) float64 { return m["parameters"].(map[string]any)[k].(float64) }
	e := func(m map[string]any) float64 { return m["simulated"].(map[string]any)["efficiency"].(float64) }
	if f(p, "bidirectional_factor") != 0.5 || f(q, "bidirectional_factor") != 0.727 || !(e(p) < e(q)) {
		t.Errorf("factor 0.5: %g, efficiency %g; default %g, efficiency %g", f(p, "bidirectional_factor"), e(p), f(q, "bidirectional_factor"), e(q))
	}
}

// Issue 27: sizes are checked before anything is built, against
// --max-memory and --max-events. The largest farms are refused in one line
// naming --workers and the limit, with a peak under 100 MB; raising the
// limit the line names accepts the run. The largest run accepted by the
// defaults (a line of 157 workers, about 2.5 million messages) is probed
// with DLSCHED_PROBE_LARGEST=1: it runs in 27 s, 29 MB on this machine.
func TestProbeDaySizes(t *testing.T) {
	refused(t, "a line of 100000 workers with 10000000 jobs needs about 2735 MB of memory, more than --max-memory 1024: raise it or use fewer workers (--workers)",
		dayBase("workers", "1e5")...)
	refused(t, "more than --max-memory", dayBase("workers", "100000", "max-events", "1e15")...)
	refused(t, "a tree of 88572 workers with 8857200 jobs needs about 1961 MB of memory", dayBase("workers", "88572", "layout", "tree")...)
	refused(t, "a tree of 29523 workers with 2952300 jobs may need up to 1.488e+09 simulation events, more than --max-events 50000000: raise it or use fewer workers (--workers)",
		dayBase("workers", "29523", "layout", "tree")...)
	refused(t, "a line of 158 workers with 15800 jobs may need up to 5.025e+07 simulation events", dayBase("workers", "158")...)
	refused(t, "a line of 20 workers with 2000 jobs may need up to", dayBase("workers", "20", "max-events", "100000")...)
	// The granularity study: all its runs count.
	gran := []string{"farm", "day", "--granularity", "--workers", "32", "--harness", "A", "--bandwidth", "1.51MiB", "--setup-time", "3e-6"}
	refused(t, "the granularity study's 8 runs may need up to 4.309e+08 simulation events, more than --max-events 50000000: raise it or use fewer jobs (less --total-work or longer --job-times)", gran...)
	refused(t, "invalid --total-work 1e+12: want at most 100000000 jobs", append(gran, "--total-work", "1e12")...)
	refused(t, "invalid --total-work 4194.304: want at most 100000000 jobs: in jobs of 1e-12 s (--job-times)", append(gran, "--job-times", "1e-12")...)
	refused(t, "invalid --job-times (1001 times)", append(gran, "--job-times", strings.Repeat("1,", 1000)+"1")...)
	// Raising the limit the refusal names accepts the run.
	out, _, code, peak := probe(t, dayBase("workers", "20", "max-events", "1e6")...)
	if code != 0 || !strings.Contains(out, "simulated: efficiency") || peak > 100 {
		t.Errorf("20 workers within 1e6 events: exit %d, peak %.0f MB:\n%s", code, peak, out)
	}
	// The model alone allocates nothing in proportion to the farm.
	if out, _, code, peak := probe(t, append(dayBase("workers", "100000"), "--no-sim")...); code != 0 || !strings.Contains(out, "communication bound") || peak > 100 {
		t.Errorf("--no-sim with 100,000 workers: exit %d, peak %.0f MB", code, peak)
	}
	if os.Getenv("DLSCHED_PROBE_LARGEST") == "" {
		return
	}
	out, _, code, peak = probe(t, dayBase("workers", "157")...)
	if code != 0 || !strings.Contains(out, "simulated: efficiency 0.117855, makespan 52.8616 s, 2480600 messages") || peak > 2048 {
		t.Errorf("157 workers: exit %d, peak %.0f MB:\n%s", code, peak, out)
	}
}

// The model's line names the supply's limit; the example is
// communication bound by its result messages (thesis 4.14.4).
func TestProbeDayResultMessages(t *testing.T) {
	out, errOut, code, _ := probe(t, "farm", "day", "--layout", "line", "--harness", "D", "--workers", "8", "--message-bytes", "512",
		"--result-bytes", "4096", "--job-time", "0.01", "--bandwidth", "1583349.76", "--setup-bytes", "13.5")
	if code != 0 || errOut != "" || !strings.Contains(out, "supply 385.29 jobs/s (1 link from the farmer, limited by result messages), demand 802.568 jobs/s: communication bound; w_max 3.84057; efficiency ceiling 0.480071") ||
		!strings.Contains(out, "simulated: efficiency 0.476292") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errOut, out)
	}
	// An explicit --result-bytes 0 is a result of its set-up alone (it
	// was silently the job size).
	out, _, _, _ = probe(t, append(dayBase("result-bytes", "0"), "--no-sim")...)
	if !strings.Contains(out, "(job 0.00332927 s, result 1.04523e-05 s)") {
		t.Errorf("--result-bytes 0:\n%s", out)
	}
}

// --trace writes the simulated run as a Chrome trace (Perfetto,
// chrome://tracing), the same bytes for the same run: it validates
// against schema/trace.schema.json, no
// two spans of one track overlap, its last event ends at the makespan the
// report gives, and it has a process per node (the farmer, each worker,
// the harvester). The report is the one written without --trace.
func TestProbeDayTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "day.json")
	args := append(dayBase("workers", "4", "cpu-per-message", "1e-4", "farmer-cost", "1e-3"), "--format", "json")
	out, errOut, code, _ := probe(t, append(args, "--trace", path)...)
	plain, _, _, _ := probe(t, args...)
	if code != 0 || errOut != "" || out != plain {
		t.Fatalf("exit %d, stderr %q; the report differs from the untraced one: %v", code, errOut, out != plain)
	}
	doc, b := traceFile(t, path)
	again := filepath.Join(t.TempDir(), "again.json")
	probe(t, append(args, "--trace", again)...)
	if b2, _ := os.ReadFile(again); !bytes.Equal(b, b2) {
		t.Error("the same run wrote two different traces")
	}
	ms := decodeJSON(t, out)["simulated"].(map[string]any)["makespan"].(float64)
	if o := doc.Overlap(1e-12 * ms); o != "" {
		t.Error(o)
	}
	if end := doc.End(); math.Abs(end-ms) > 1e-9*ms || doc.Makespan != ms || doc.Unit != "s" {
		t.Errorf("trace ends at %.12g (otherData: makespan %g, unit %q), the report's makespan is %.12g", end, doc.Makespan, doc.Unit, ms)
	}
	procs := map[string]bool{}
	for _, s := range doc.Spans {
		procs[s.Process] = true
	}
	for _, p := range []string{"farmer", "worker 1", "worker 2", "worker 3", "worker 4"} {
		if !procs[p] {
			t.Errorf("no spans of %q: %v", p, procs)
		}
	}
	if len(doc.Instants) != 1 || doc.Instants[0].Process != "harvester" {
		t.Errorf("instants %+v, want the harvester's last result", doc.Instants)
	}
	// Nothing to trace, a trace the memory limit does not allow, a file
	// that is not .json: one line, before anything is run.
	refused(t, "invalid --trace: --no-sim simulates nothing to trace", append(dayBase(), "--no-sim", "--trace", path)...)
	refused(t, "invalid --trace: --granularity runs one farm per job size",
		"farm", "day", "--granularity", "--workers", "4", "--bandwidth", "1.51MiB", "--setup-time", "3e-6", "--trace", path)
	refused(t, "invalid --no-sim: the granularity study simulates every job size",
		"farm", "day", "--granularity", "--workers", "4", "--bandwidth", "1.51MiB", "--setup-time", "3e-6", "--no-sim")
	refused(t, "a line of 157 workers with 15700 jobs and its trace needs about 2443 MB of memory, more than --max-memory 1024",
		append(dayBase("workers", "157"), "--trace", path)...)
	refused(t, "--trace", append(dayBase(), "--trace", filepath.Join(t.TempDir(), "day.txt"))...)
}

// The documented commands' JSON declares its format first and validates
// against schema/day.schema.json and schema/day-study.schema.json.
func TestProbeDayJSON(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []string
	}{
		{schema.Day, dayBase()},
		{schema.Day, append(dayBase("workers", "100000"), "--no-sim")},
		{schema.Day, []string{"farm", "day", "--layout", "tree", "--workers", "3", "--message-bytes", "4096", "--job-time", "0.005",
			"--bandwidth", "1.177MiB", "--setup-bytes", "12.9", "--bidirectional-factor", "0.5"}},
		{schema.DayStudy, []string{"farm", "day", "--granularity", "--workers", "4", "--harness", "A", "--bandwidth", "1.51MiB",
			"--setup-time", "3e-6", "--total-work", "8", "--job-times", "0.01,0.1,0.5"}},
	} {
		out, errOut, code, _ := probe(t, append(c.args, "--format", "json")...)
		if code != 0 || errOut != "" {
			t.Fatalf("%v: exit %d, %s", c.args, code, errOut)
		}
		if !strings.HasPrefix(out, "{\n  \"format\": \""+c.format+"\",\n") {
			t.Errorf("%v: does not begin with its format:\n%.80s", c.args, out)
		}
		if err := validate.Document([]byte(out), c.format); err != nil {
			t.Errorf("%v: %v", c.args, err)
		}
	}
}
