package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fig6Star is the platform of the paper's Fig. 6 star on m workers
// (Drozdowski & Wolniewicz, JPDC 2004): S = 1 ms, C = 1 µs, A = 1 ms per
// unit, V = 5000.
func fig6Star(m string, more ...string) []string {
	return append([]string{"compare", "--topology", "star", "--m", m, "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--V", "5e3"}, more...)
}

// Issue 27 item 1: compare with D = 0.01 on a star of 4 (n_min = 125,000
// stages, an LP of 500,000 messages) grew past 1.8 GB with no output. It
// is refused from the inputs, before anything is built, naming the
// memory limit; the LP-time and event limits are refused the same way;
// the limits are flags. A run within them finishes: D = 0.2 (n_min =
// 6,250 stages, 25,000 messages) completes well under 2 GB.
func TestProbeCompareSizes(t *testing.T) {
	refused(t, "the LP of n_min = 125000 stages (500000 messages) needs about 1573 MB, more than the limit of 1024 MB (--max-memory)",
		fig6Star("4", "--D", "1e-2", "--tasks", "10", "--nmax", "0")...)
	refused(t, "more than the limit of 60 s (--max-lp-seconds)", fig6Star("4", "--D", "2e-2", "--tasks", "10", "--nmax", "0")...)
	refused(t, "(--max-events); every result crosses the whole line: use fewer --tasks or fewer workers (--m)",
		"compare", "--topology", "chain", "--m", "10000", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--V", "5e3", "--tasks", "10000", "--strategies", "harness")
	refused(t, "more than the limit of 16 MB (--max-memory)", fig6Star("4", "--D", "0.2", "--nmax", "0", "--max-memory", "16")...)
	refused(t, "invalid --max-lp-seconds 0", fig6Star("4", "--max-lp-seconds", "0")...)
	refused(t, "invalid --max-events -1", fig6Star("4", "--max-events", "-1")...)
	stdout, stderr, code, peak := probe(t, fig6Star("4", "--D", "0.2", "--tasks", "10", "--nmax", "0", "--format", "json")...)
	if code != 0 || stderr != "" || peak > 2048 {
		t.Fatalf("D = 0.2: exit %d, stderr %q, peak %.0f MB", code, stderr, peak)
	}
	r := compareJSON(t, stdout)
	if d := r.row(t, "dls", 0); d.Makespan == nil || d.Plan.Stages < 6250 {
		t.Errorf("D = 0.2: dls %+v", d)
	}
}

// Issue 27 item 2: every worker crashing gave exit 0, an empty "best:" and
// a dls makespan of 0. Nothing completed is a failure: exit 1 with one
// line on stderr, the report on stdout with every row "did not complete"
// and why, JSON makespans null; the same on a chain with one crash.
func TestProbeCompareNothingCompleted(t *testing.T) {
	crashAll := fig6Star("4", "--D", "1e4", "--tasks", "10", "--crash", "1@0", "--crash", "2@0", "--crash", "3@0", "--crash", "4@0")
	chain := []string{"compare", "--topology", "chain", "--m", "4", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--V", "5e3",
		"--D", "1e4", "--tasks", "10", "--crash", "2@0.1"}
	for _, args := range [][]string{crashAll, chain} {
		stdout, stderr, code, _ := probe(t, args...)
		if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "no strategy completed") ||
			!strings.Contains(stdout, "best: none: no strategy completed") || !strings.Contains(stdout, "did not complete: lost") {
			t.Errorf("%v: exit %d\nstdout %s\nstderr %q", args, code, stdout, stderr)
		}
		stdout, _, code, _ = probe(t, append(args, "--format", "json")...)
		r := compareJSON(t, stdout)
		if code != 1 || r.Best != nil {
			t.Errorf("%v: JSON exit %d, best %v", args, code, r.Best)
		}
		for _, x := range r.Rows {
			if x.Completed || x.Makespan != nil || x.Utilisation != nil || x.Ratio != nil {
				t.Errorf("%v: JSON row %+v", args, x)
			}
		}
	}
}

// Issue 27 item 3: --slow 2@0=10 reported a utilisation of 3.237 (with a
// factor 1e300: 208): the capacity was counted at nominal speed. It is
// busy time over workers × makespan: at most 1, and for dls, where workers
// 1, 3, 4 compute about 1250 units each in 1.25 s and worker 2 its 1250 in
// 0.125 s, (3 × 1.25 + 0.125) / (4 × 1.25251) = 0.7735 (within 1e-3: the
// plan's loads are not exactly V/4).
func TestProbeCompareUtilisation(t *testing.T) {
	for _, f := range []string{"10", "1e300", "0.2"} {
		stdout, stderr, code, _ := probe(t, fig6Star("4", "--D", "1e4", "--tasks", "10,1000", "--slow", "2@0="+f, "--format", "json")...)
		if code != 0 {
			t.Fatalf("factor %s: exit %d: %s", f, code, stderr)
		}
		r := compareJSON(t, stdout)
		for _, x := range r.Rows {
			if x.Utilisation != nil && !(*x.Utilisation >= 0 && *x.Utilisation <= 1) {
				t.Errorf("factor %s: %s/%d: utilisation %g", f, x.Strategy, x.Tasks, *x.Utilisation)
			}
		}
		if d := r.row(t, "dls", 0); f == "10" && math.Abs(*d.Utilisation-(3*1.25+0.125)/(4**d.Makespan)) > 1e-3 {
			t.Errorf("factor 10: dls utilisation %g, makespan %g", *d.Utilisation, *d.Makespan)
		}
	}
}

// Issue 27 item 4: "invalid NMax 50" named a Go field; errors name
// compare's flags and what would be valid.
func TestProbeCompareFlagNames(t *testing.T) {
	refused(t, "invalid --nmax 50: want at least n_min = 1250000000, the fewest stages that carry V = 5000 with buffers of --D = 1e-06; raise --nmax or --D",
		fig6Star("4", "--D", "1e-6")...)
	refused(t, "invalid --slow 5@0=0.5: want worker 1..4", fig6Star("4", "--slow", "5@0=0.5")...)
	refused(t, "invalid --crash 1@-1: want worker 1..4 and a finite time >= 0", fig6Star("4", "--crash", "1@-1")...)
	refused(t, "invalid --result-per-unit -1", fig6Star("4", "--result-per-unit", "-1")...)
	refused(t, "invalid --depth 20", "compare", "--topology", "kary", "--k", "2", "--depth", "20", "--S", "0", "--C", "0", "--A", "1", "--V", "1")
	refused(t, "invalid --procs", fig6Star("4", "--procs", "1,2")...)
}

// Issue 27 item 5: verify accepted a chunk of stage 1e12 in a 2-stage
// schedule, and printed every one of a million violations (297 MB).
func TestProbeVerify(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "s.json")
	if _, stderr, code := dlsched(t, "solve", "--topology", "tree", "--p", "2", "--h", "2", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3",
		"--D", "1e4", "--V", "5e3", "--stages", "2", "--format", "json", "--out", good); code != 0 {
		t.Fatal(stderr)
	}
	var m map[string]any
	b, _ := os.ReadFile(good)
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["chunks"].([]any)[2].(map[string]any)["stage"] = 1e12
	bad := filepath.Join(dir, "bad.json")
	b, _ = json.Marshal(m)
	os.WriteFile(bad, b, 0o644)
	refused(t, "chunk 3: stage 1000000000000, want 1..2", "verify", bad)

	// 100,000 chunks sent to one processor all at time 0: every chunk
	// after the first finds the port busy (link_busy). The file is
	// streamed, so that the test process stays small (probe's peak
	// memory of a child includes its parent's at the fork).
	const n = 100_000
	many := manyViolations(t, dir, n)
	stdout, _, code, _ := probe(t, "verify", many)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 1 || len(lines) != 22 || lines[0] != fmt.Sprintf("FAILED: %d violation(s), the first 20 by time", n-1) ||
		lines[21] != fmt.Sprintf("... and %d more (--max-violations 0 lists them all)", n-21) {
		t.Errorf("exit %d, %d lines: %q ... %q", code, len(lines), lines[0], lines[len(lines)-1])
	}
	few := manyViolations(t, dir, 50)
	if stdout, _, _, _ = probe(t, "verify", "--max-violations", "0", few); strings.Count(stdout, "\n") != 50 {
		t.Errorf("--max-violations 0: %d lines, want 50", strings.Count(stdout, "\n"))
	}
	refused(t, "invalid --max-violations -1", "verify", "--max-violations", "-1", many)
}

// manyViolations writes a schedule of n one-unit chunks for one processor,
// all starting at 0 (n − 1 link_busy violations).
func manyViolations(t *testing.T, dir string, n int) string {
	path := filepath.Join(dir, fmt.Sprintf("many-%d.json", n))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, `{"problem":{"topology":"star","m":1,"S":0.001,"C":1e-6,"A":0.001,"D":1e4,"V":%d,"stages":%d},"chunks":[`, n, n)
	for i := 1; i <= n; i++ {
		if i > 1 {
			w.WriteString(",")
		}
		fmt.Fprintf(w, `{"stage":%d,"processor":1,"load":1,"start":0}`, i)
	}
	w.WriteString("]}")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// Issue 27 items 6 and 7: plot on an empty file blamed --where filters
// nobody gave; a wrong output path (a directory, a directory that takes
// no file) was reported after the whole run. Both are refused at once.
func TestProbeOutputs(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	refused(t, "empty.jsonl has no rows: nothing to draw", "plot", empty, "--x", "V", "--out", filepath.Join(dir, "e.svg"))
	unwritable := "/proc/dlsched-probe.svg" // /proc takes no new files, even for root
	refused(t, "invalid --out "+unwritable+": cannot create a file in directory /proc", "plot", empty, "--x", "V", "--out", unwritable)
	refused(t, "invalid --out "+dir+": it is a directory", fig6Star("4", "--out", dir)...)
	refused(t, "invalid --plot "+unwritable+": cannot create a file in directory /proc", fig6Star("4", "--plot", unwritable)...)
	refused(t, "invalid --plot "+filepath.Join(dir, "x.svg", "y.svg"), fig6Star("4", "--plot", filepath.Join(dir, "x.svg", "y.svg"))...)
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the checks left files behind: %v", entries)
	}
}

// compareReport and compareRow are the JSON of compare, as the tests
// read it.
type compareReport struct {
	Best *string      `json:"best"`
	Rows []compareRow `json:"rows"`
}

type compareRow struct {
	Strategy    string   `json:"strategy"`
	Tasks       int      `json:"tasks"`
	Makespan    *float64 `json:"makespan"`
	Ratio       *float64 `json:"ratio_to_best"`
	Utilisation *float64 `json:"worker_utilisation"`
	Completed   bool     `json:"completed"`
	Plan        *struct {
		Stages int `json:"stages"`
	} `json:"plan"`
}

func compareJSON(t *testing.T, s string) compareReport {
	t.Helper()
	var r compareReport
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("%v: %q", err, s)
	}
	return r
}

func (r compareReport) row(t *testing.T, strategy string, tasks int) compareRow {
	t.Helper()
	for _, x := range r.Rows {
		if x.Strategy == strategy && x.Tasks == tasks {
			return x
		}
	}
	t.Fatalf("no row %s/%d", strategy, tasks)
	return compareRow{}
}

// Issue 27 item 8: compare's chart. The SVG names no font (its text is
// drawn as glyph outlines, the strings kept in <desc>), the plan (0.505556
// s) and the bound (0.5 s) are labelled with their values, the axes say
// their units; the PNG is a PNG.
func TestProbeComparePlot(t *testing.T) {
	dir := t.TempDir()
	svg, png := filepath.Join(dir, "c.svg"), filepath.Join(dir, "c.png")
	for _, path := range []string{svg, png} {
		if _, stderr, code, _ := probe(t, fig6Star("10", "--D", "1e4", "--tasks", "10,100", "--strategies", "dls,demand", "--plot", path)...); code != 0 {
			t.Fatalf("--plot %s: exit %d: %s", path, code, stderr)
		}
	}
	b, _ := os.ReadFile(svg)
	doc := string(b)
	for _, want := range []string{"<desc>", "dls 0.505556", "bound 0.5", "makespan (s)", "tasks M (the load cut into M equal tasks)", "<use xlink:href="} {
		if !strings.Contains(doc, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if strings.Contains(doc, "font-family") || strings.Contains(doc, "<text") || len(b) > 100<<10 {
		t.Errorf("the SVG names a font or is %d bytes", len(b))
	}
	if b, _ := os.ReadFile(png); !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("not a PNG")
	}
}
