package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
)

// goldenSections splits a golden file into its stdout and the files it
// holds (name → content).
func goldenSections(text string) (stdout string, files map[string]string) {
	files = map[string]string{}
	_, rest, _ := strings.Cut(text, "--- stdout\n")
	stdout, rest, _ = strings.Cut(rest, "--- stderr\n")
	parts := strings.Split(rest, "--- file ")
	for _, p := range parts[1:] {
		name, body, _ := strings.Cut(p, "\n")
		files[name] = body
	}
	return stdout, files
}

// goldenWant is the format the JSON stdout of a golden command must
// declare: its command's format.
var goldenWant = map[string]string{"solve": schema.Schedule, "verify": schema.Verify, "optimize": schema.Optimize, "compare": schema.Compare}

// Every JSON and JSON Lines output of the golden set (testdata/golden:
// stdout of solve, verify, optimize and compare with --format json, the files
// they write, a sweep's rows) declares its command's format first and
// validates against that format's schema (issue 31, item 1: "every golden
// output validates").
func TestGoldenFormats(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "golden", "*.golden"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden files (%v)", err)
	}
	docs := 0
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(string(b), "$ dlsched "), " ")
		stdout, files := goldenSections(string(b))
		if strings.HasPrefix(stdout, "{") {
			checkGoldenDoc(t, path, stdout, goldenWant[first])
			docs++
		}
		for name, body := range files {
			switch filepath.Ext(name) {
			case ".json":
				checkGoldenDoc(t, path+" "+name, body, schema.Schedule)
				docs++
			case ".jsonl":
				if err := validate.Lines([]byte(body), schema.SweepRow); err != nil {
					t.Errorf("%s %s: %v", path, name, err)
				}
				docs += strings.Count(body, "\n")
			}
		}
	}
	// 19 documents: the stdout of solve ×2, verify, optimize ×3, the
	// schedule file h.json and the sweep's 12 rows. Fewer means the golden
	// set lost JSON outputs and this test would pass on less.
	if docs < 19 {
		t.Errorf("validated %d golden documents, want at least 19", docs)
	}
}

// checkGoldenDoc validates one JSON document whose first key must be its
// format want.
func checkGoldenDoc(t *testing.T, name, doc, want string) {
	t.Helper()
	if want == "" {
		t.Errorf("%s: JSON output of a command without a known format", name)
		return
	}
	if !strings.HasPrefix(doc, "{\n  \"format\": \""+want+"\",") {
		t.Errorf("%s: the first key is not \"format\": %q", name, want)
	}
	if err := validate.Document([]byte(doc), want); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

// formatFiles writes a schedule and a sweep's rows (as solve and sweep
// write them), the same with another major version or kind, and the same
// without a format (as dlsched wrote them before formats were declared).
func formatFiles(t *testing.T) (dir string, sched, rows string) {
	t.Helper()
	dir = t.TempDir()
	sched = filepath.Join(dir, "s.json")
	out, stderr, code := dlsched(t, "solve", "--no-timings", "--format", "json", "--topology", "star", "--m", "3",
		"--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--D", "50", "--V", "100", "--out", sched)
	if code != 0 || out != "" {
		t.Fatalf("solve: exit %d, %s", code, stderr)
	}
	spec := filepath.Join(dir, "spec.toml")
	if err := os.WriteFile(spec, []byte("[problem]\ntopology = \"star\"\nm = 2\nS = 1e-3\nC = 1e-6\nA = 1e-3\nD = \"inf\"\nV = [10, 20]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows = filepath.Join(dir, "r.jsonl")
	if _, stderr, code := dlsched(t, "sweep", spec, "--quiet", "--no-timings", "--workers", "1", "--out", rows); code != 0 {
		t.Fatalf("sweep: exit %d, %s", code, stderr)
	}
	return dir, sched, rows
}

// rewrite writes a copy of file with every old replaced by new.
func rewrite(t *testing.T, file, name, old, new string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s holds no %q", file, old)
	}
	out := filepath.Join(filepath.Dir(file), name)
	if err := os.WriteFile(out, []byte(strings.ReplaceAll(string(b), old, new)), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// verify and plot read a schedule by its declared format: major version 2
// or another kind is refused with exit 2 and one line naming the file, the
// format found and the one wanted; a schedule without a format (older
// dlsched) is read as version 1.
func TestProbeFormatsSchedule(t *testing.T) {
	dir, sched, _ := formatFiles(t)
	v2 := rewrite(t, sched, "s2.json", `"dlsched.schedule/1"`, `"dlsched.schedule/2"`)
	refused(t, `s2.json: format "dlsched.schedule/2" is major version 2 of schedule, which this dlsched does not read; want dlsched.schedule/1`,
		"verify", v2)
	refused(t, `s2.json: format "dlsched.schedule/2" is major version 2 of schedule, which this dlsched does not read; want dlsched.schedule/1`,
		"plot", v2, "--x", "stage", "--y", "load", "--out", filepath.Join(dir, "f.svg"))
	other := rewrite(t, sched, "sv.json", `"dlsched.schedule/1"`, `"dlsched.verify/1"`)
	refused(t, `sv.json: format "dlsched.verify/1" is a document of kind verify; want dlsched.schedule/1`, "verify", other)
	bad := rewrite(t, sched, "sx.json", `"dlsched.schedule/1"`, `"schedule-1"`)
	refused(t, `sx.json: format "schedule-1" is not of the form dlsched.<kind>/<major>; want dlsched.schedule/1`, "verify", bad)
	refused(t, "invalid --format yaml: want table or json", "verify", "--format", "yaml", sched)

	old := rewrite(t, sched, "s0.json", "  \"format\": \"dlsched.schedule/1\",\n", "")
	for _, f := range []string{sched, old} {
		out, stderr, code := dlsched(t, "verify", f)
		if code != 0 || !strings.HasPrefix(out, "ok: 3 chunks on 3 processors") || stderr != "" {
			t.Errorf("verify %s: exit %d, stdout %q, stderr %q; want ok", filepath.Base(f), code, out, stderr)
		}
		if _, stderr, code := dlsched(t, "plot", f, "--x", "stage", "--y", "load", "--series", "processor", "--out", filepath.Join(dir, "g.svg")); code != 0 {
			t.Errorf("plot %s: exit %d, %s", filepath.Base(f), code, stderr)
		}
	}
}

// verify --format json writes a dlsched.verify/1 report that validates;
// a schedule the replay rejects gives ok false, its violations, exit 1.
func TestProbeFormatsVerifyReport(t *testing.T) {
	_, sched, _ := formatFiles(t)
	out, stderr, code := dlsched(t, "verify", "--format", "json", sched)
	if code != 0 || stderr != "" {
		t.Fatalf("verify: exit %d, %s", code, stderr)
	}
	if err := validate.Document([]byte(out), schema.Verify); err != nil || !strings.Contains(out, `"ok": true`) {
		t.Errorf("verify report: %v\n%s", err, out)
	}
	// The first chunk starts 1 s late: every time the schedule states
	// after it disagrees with the replay.
	late := rewrite(t, sched, "late.json", "\"start\": 0,\n", "\"start\": 1,\n")
	out, _, code = dlsched(t, "verify", "--format", "json", "--max-violations", "1", late)
	if code != 1 {
		t.Errorf("verify of a late schedule: exit %d, want 1", code)
	}
	if err := validate.Document([]byte(out), schema.Verify); err != nil || !strings.Contains(out, `"ok": false`) ||
		strings.Count(out, `"kind":`) != 1 || strings.Contains(out, `"violation_count": 1,`) {
		t.Errorf("verify report of a late schedule (one violation listed of several): %v\n%s", err, out)
	}
}

// A sweep's rows are read by their declared format wherever they are read
// (resume, merge, plot): a row of major version 2 is refused with exit 2
// and one line naming the file and line, the format found and the one
// wanted; rows without a format (older dlsched) are read as version 1 and
// merge writes them with it.
func TestProbeFormatsRows(t *testing.T) {
	dir, _, rows := formatFiles(t)
	spec := filepath.Join(dir, "spec.toml")
	v2 := rewrite(t, rows, "r2.jsonl", `"dlsched.sweep-row/1"`, `"dlsched.sweep-row/2"`)
	want := `r2.jsonl line 1: format "dlsched.sweep-row/2" is major version 2 of sweep-row, which this dlsched does not read; want dlsched.sweep-row/1`
	refused(t, want, "sweep", spec, "--quiet", "--out", v2)
	refused(t, want, "merge", v2, "--out", filepath.Join(dir, "m.jsonl"))
	refused(t, want, "plot", v2, "--x", "V", "--out", filepath.Join(dir, "f.svg"))
	opt := filepath.Join(dir, "o.json")
	if _, stderr, code := dlsched(t, "optimize", "--over", "n", "--n-max", "2", "--format", "json", "--out", opt,
		"--topology", "star", "--m", "2", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--D", "50", "--V", "100"); code != 0 {
		t.Fatalf("optimize: exit %d, %s", code, stderr)
	}
	refused(t, `o.json: format "dlsched.optimize/1" is a document of kind optimize; want dlsched.sweep-row/1`,
		"plot", opt, "--x", "stages", "--out", filepath.Join(dir, "f.svg"))

	old := rewrite(t, rows, "r0.jsonl", `"format":"dlsched.sweep-row/1",`, "")
	merged := filepath.Join(dir, "m.jsonl")
	if _, stderr, code := dlsched(t, "merge", old, "--out", merged); code != 0 {
		t.Fatalf("merge of unversioned rows: exit %d, %s", code, stderr)
	}
	b, _ := os.ReadFile(merged)
	if err := validate.Lines(b, schema.SweepRow); err != nil || strings.Count(string(b), "\n") != 2 {
		t.Errorf("merged rows: %v\n%s", err, b)
	}
	if _, stderr, code := dlsched(t, "plot", old, "--x", "V", "--out", filepath.Join(dir, "f.svg")); code != 0 {
		t.Errorf("plot of unversioned rows: exit %d, %s", code, stderr)
	}
	// Resuming from unversioned rows: both points are there, nothing to do.
	if _, stderr, code := dlsched(t, "sweep", spec, "--no-timings", "--workers", "1", "--out", old); code != 0 || !strings.Contains(stderr, "2 already in the file, 0 solved") {
		t.Errorf("resume from unversioned rows: exit %d, %s", code, stderr)
	}
}
