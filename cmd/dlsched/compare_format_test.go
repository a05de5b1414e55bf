package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/trace"
)

// compareGolden are compare's golden outputs: the paper's Fig. 6 star on
// four workers with worker 2 slowed (as in docs/compare.md), as JSON and
// as a table, and a chain of four (Pfarm and Day's harness) as JSON.
var compareGolden = []goldenCase{
	{"compare-star-json", fig6Star("4", "--D", "1e4", "--slow", "2@0=0.2", "--tasks", "10,100", "--nmax", "20", "--format", "json"), nil},
	{"compare-star-table", fig6Star("4", "--D", "1e4", "--slow", "2@0=0.2", "--tasks", "10,100", "--nmax", "20"), nil},
	{"compare-chain-json", []string{"compare", "--topology", "chain", "--m", "4", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--V", "5e3",
		"--D", "inf", "--tasks", "10,100", "--nmax", "20", "--format", "json"}, nil},
}

// TestCompareGolden compares compare's outputs with testdata/golden byte
// for byte (-update-golden rewrites them), and validates the JSON ones
// against schema/compare.schema.json: the golden documents are
// dlsched.compare/1 documents.
func TestCompareGolden(t *testing.T) {
	for _, c := range compareGolden {
		stdout, stderr, code := dlsched(t, c.args...)
		got := fmt.Sprintf("$ dlsched %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(c.args, " "), code, stdout, stderr)
		path := filepath.Join("testdata", "golden", c.name+".golden")
		if *updateGolden {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if want, err := os.ReadFile(path); err != nil {
			t.Fatalf("%s: %v (run with -update-golden to create it)", c.name, err)
		} else if got != string(want) {
			t.Errorf("%s: output differs from %s:\n%s", c.name, path, firstDiff(string(want), got))
		}
		if strings.HasSuffix(c.name, "-json") {
			if err := validate.Document([]byte(stdout), schema.Compare); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}
	}
}

// compare --trace FILE.json writes one Chrome trace of every row: one
// process per row, named after it in process_name metadata ("dls",
// "demand (M = 10)"), in the report's order; a completed row's process
// ends at the row's makespan; the trace validates against
// schema/trace.schema.json and states the best makespan. A --trace that
// is not a .json file is bad usage.
func TestProbeCompareTrace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	stdout, stderr, code, _ := probe(t, fig6Star("4", "--D", "1e4", "--slow", "2@0=0.2", "--crash", "3@0.3", "--tasks", "10,100",
		"--nmax", "20", "--format", "json", "--trace", path)...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	r := compareJSON(t, stdout)
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.Document(doc, schema.Trace); err != nil {
		t.Fatal(err)
	}
	names, ends, best := traceProcesses(t, doc)
	if len(names) != len(r.Rows) {
		t.Fatalf("%d processes for %d rows: %v", len(names), len(r.Rows), names)
	}
	completed, least := 0, math.Inf(1)
	for i, x := range r.Rows {
		name := x.Strategy
		if x.Tasks > 0 {
			name = fmt.Sprintf("%s (M = %d)", x.Strategy, x.Tasks)
		}
		if names[i] != name {
			t.Errorf("process %d is %q, row %q", i+1, names[i], name)
		}
		if x.Makespan != nil {
			completed++
			least = math.Min(least, *x.Makespan)
			if math.Abs(ends[i]-*x.Makespan) > 1e-9**x.Makespan {
				t.Errorf("%s: the trace ends at %g, the row's makespan is %g", name, ends[i], *x.Makespan)
			}
		}
	}
	if completed < 3 {
		t.Errorf("only %d rows completed: the check of the ends proves little", completed)
	}
	if best != least {
		t.Errorf("the trace's makespan %g is not the best row's, %g", best, least)
	}
	refused(t, "invalid --trace "+filepath.Join(dir, "c.txt"), fig6Star("4", "--trace", filepath.Join(dir, "c.txt"))...)
}

// traceProcesses reads a trace's process names in process-id order, each
// process's last end in seconds, and its makespan (trace.Read).
func traceProcesses(t *testing.T, doc []byte) ([]string, []float64, float64) {
	t.Helper()
	d, err := trace.Read(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var ends []float64
	for _, pid := range d.PIDs {
		ends = append(ends, d.EndOf(pid))
	}
	return d.Processes, ends, d.Makespan
}
