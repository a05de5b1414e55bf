package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// updateGolden rewrites testdata/golden from the current binary:
// go test ./cmd/dlsched -run Golden -update-golden.
var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden from the current binary")

// goldenSpec is the small sweep of the golden set: two topologies, finite
// and unlimited buffers, three loads, the closed-form columns included.
const goldenSpec = `[problem]
topology = ["star", "binomial"]
m = [3]
p = [2]
h = [2]
order = ["nlf"]
S = [1e-3]
C = [1e-6]
A = [1e-3]
D = [10, "inf"]
V = [100, 1000, 10000]
`

// goldenCase is one command of the golden set: its arguments ({dir} is the
// test's temporary directory), the files it writes that are compared too,
// and the file under testdata/golden holding stdout, stderr, the exit
// status and those files.
type goldenCase struct {
	name  string
	args  []string
	files []string
}

var problemStar = []string{"--topology", "star", "--m", "4", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--V", "1000", "--D", "100"}

func goldenCases() []goldenCase {
	cat := func(a ...[]string) []string {
		var out []string
		for _, x := range a {
			out = append(out, x...)
		}
		return out
	}
	return []goldenCase{
		{"solve-star-table", cat([]string{"solve", "--no-timings"}, problemStar), nil},
		{"solve-star-json", cat([]string{"solve", "--no-timings", "--format", "json"}, problemStar), nil},
		{"solve-star-csv", cat([]string{"solve", "--no-timings", "--format", "csv", "--stages", "3"}, problemStar), nil},
		{"solve-hetero-table", []string{"solve", "--no-timings", "--procs", "1e-3:1e-6:1e-3,2e-3:2e-6:2e-3,1e-3:1e-6:4e-3", "--D", "50", "--V", "200"}, nil},
		{"solve-binomial-json", []string{"solve", "--no-timings", "--format", "json", "--topology", "binomial", "--p", "2", "--h", "3", "--order", "llf",
			"--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--D", "20", "--V", "500"}, nil},
		{"solve-tree2-table", []string{"solve", "--no-timings", "--topology", "tree", "--p", "2", "--h", "2", "--buffers", "2",
			"--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--D", "inf", "--V", "500", "--stages", "2"}, nil},
		{"solve-search-table", []string{"solve", "--no-timings", "--topology", "binomial", "--p", "2", "--h", "3", "--order", "llf",
			"--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--D", "inf", "--V", "1", "--pattern", "search"}, nil},
		{"solve-hetero-json", []string{"solve", "--no-timings", "--format", "json", "--procs", "1e-3:1e-6:1e-3,2e-3:2e-6:2e-3,1e-3:1e-6:4e-3",
			"--result-ratio", "0.5", "--D", "inf", "--deadline", "0.5", "--stages", "2", "--out", "{dir}/h.json"}, []string{"h.json"}},
		{"verify-json", []string{"verify", "--format", "json", "{dir}/h.json"}, nil},
		{"optimize-n-table", cat([]string{"optimize", "--no-timings", "--over", "n", "--n-max", "8"}, problemStar), nil},
		{"optimize-n-json", cat([]string{"optimize", "--no-timings", "--over", "n", "--n-max", "8", "--format", "json"}, problemStar), nil},
		{"optimize-D-table", []string{"optimize", "--no-timings", "--over", "D", "--topology", "star", "--m", "4", "--S", "1e-2", "--C", "1e-8", "--A", "1e-7",
			"--V", "1e7", "--D-min", "1e4", "--D-max", "1e6", "--points", "3", "--refine", "0", "--plot", "{dir}/od.svg"}, []string{"od.svg"}},
		{"optimize-D-json", []string{"optimize", "--no-timings", "--over", "D", "--format", "json", "--topology", "star", "--m", "4", "--S", "1e-2", "--C", "1e-8", "--A", "1e-7",
			"--V", "1e7", "--D-min", "1e4", "--D-max", "1e6", "--points", "3", "--refine", "0"}, nil},
		{"optimize-relay-table", []string{"optimize", "--no-timings", "--over", "relay", "--topology", "binomial", "--p", "2", "--h", "3", "--order", "nlf",
			"--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--D", "100", "--V", "1e4"}, nil},
		{"optimize-relay-json", []string{"optimize", "--no-timings", "--over", "relay", "--format", "json", "--topology", "binomial", "--p", "2", "--h", "3", "--order", "nlf",
			"--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--D", "100", "--V", "1e4"}, nil},
		{"sweep-csv", []string{"sweep", "{dir}/spec.toml", "--workers", "1", "--quiet", "--no-timings", "--out", "{dir}/r.csv"}, []string{"r.csv"}},
		{"sweep-jsonl", []string{"sweep", "{dir}/spec.toml", "--workers", "1", "--quiet", "--no-timings", "--out", "{dir}/r1.jsonl"}, []string{"r1.jsonl"}},
		{"plot-svg", []string{"plot", "{dir}/r1.jsonl", "--x", "V", "--y", "cmax,lb_trivial", "--series", "topology,D", "--logx", "--logy", "--out", "{dir}/f.svg"}, []string{"f.svg"}},
		{"plot-where-svg", []string{"plot", "{dir}/r1.jsonl", "--where", "topology=binomial", "--x", "V", "--y", "cmax", "--series", "D", "--agg", "min", "--out", "{dir}/g.svg"}, []string{"g.svg"}},
		{"plot-empty", []string{"plot", "{dir}/r1.jsonl", "--where", "topology=star", "--x", "V", "--y", "cmax", "--minus", "D=inf", "--out", "{dir}/h.svg"}, nil},
		{"plot-bad-column", []string{"plot", "{dir}/r1.jsonl", "--x", "nosuch", "--out", "{dir}/h.svg"}, nil},
		{"bad-S-nan", cat([]string{"solve"}, with("S", "NaN")[1:]), nil},
		{"bad-m-zero", cat([]string{"solve"}, with("m", "0")[1:]), nil},
		{"bad-D-neginf", cat([]string{"solve"}, with("D", "-inf")[1:]), nil},
		{"bad-topology", cat([]string{"solve"}, with("topology", "ring")[1:]), nil},
		{"bad-h-zero", []string{"solve", "--topology", "tree", "--p", "2", "--h", "0", "--S", "0", "--C", "1", "--A", "1", "--V", "3", "--D", "1"}, nil},
		{"bad-stages", cat([]string{"solve"}, with("stages", "0")[1:]), nil},
		{"bad-sweep-spec", []string{"sweep", "{dir}/bad.toml", "--quiet", "--no-timings", "--out", "{dir}/bad.jsonl"}, nil},
	}
}

// TestGolden runs solve, optimize, sweep and plot on a few small instances
// with --no-timings and compares stdout, stderr, the exit status and the
// files written with testdata/golden, byte for byte: the refactoring of
// issue 11 must not change any output. The golden files were written by
// the binary before the refactoring (-update-golden).
func TestGolden(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "spec.toml"), []byte(goldenSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.toml"), []byte(strings.Replace(goldenSpec, "m = [3]", "m = [0]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range goldenCases() {
		args := make([]string, len(c.args))
		for i, a := range c.args {
			args[i] = strings.ReplaceAll(a, "{dir}", dir)
		}
		stdout, stderr, code := dlsched(t, args...)
		var b strings.Builder
		fmt.Fprintf(&b, "$ dlsched %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(c.args, " "), code, stdout, strings.ReplaceAll(stderr, dir, "{dir}"))
		for _, f := range c.files {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			fmt.Fprintf(&b, "--- file %s\n%s", f, data)
		}
		got := b.String()
		path := filepath.Join("testdata", "golden", c.name+".golden")
		if *updateGolden {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (run with -update-golden to create it)", c.name, err)
		}
		if got != string(want) {
			t.Errorf("%s: output differs from %s:\n%s", c.name, path, firstDiff(string(want), got))
		}
	}
}

// firstDiff shows the first differing line of want and got.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, w, g)
		}
	}
	return "(same lines)"
}
