package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Same input, same bytes: with --no-timings two runs of solve, optimize
// and a two-worker sweep (CSV, written in grid order) give identical
// output, and no output mentions seconds (issue 16: wall-clock times and
// completion order made every run differ).
func TestDeterministicOutput(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "grid.toml")
	os.WriteFile(spec, []byte(`[problem]
topology = ["star", "tree"]
m = [3]
p = [2]
h = [2]
S = [1e-3]
C = [1e-6]
A = [1e-3]
D = [10, "inf"]
V = [100, 1000, 10000]
`), 0o644)
	prob := []string{"--m", "4", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--V", "1000", "--D", "100"}
	for _, c := range []struct {
		name string
		args func(run int) []string
		file func(run int) string
	}{
		{"solve json", func(int) []string { return append([]string{"solve", "--format", "json", "--no-timings"}, prob...) }, nil},
		{"solve table", func(int) []string { return append([]string{"solve", "--no-timings"}, prob...) }, nil},
		{"optimize json", func(int) []string {
			return append([]string{"optimize", "--over", "n", "--n-max", "8", "--format", "json", "--no-timings"}, prob...)
		}, nil},
		{"sweep csv", func(run int) []string {
			return []string{"sweep", spec, "--workers", "2", "--quiet", "--no-timings", "--out", filepath.Join(dir, "r"+string(rune('0'+run))+".csv")}
		}, func(run int) string { return filepath.Join(dir, "r"+string(rune('0'+run))+".csv") }},
	} {
		var outs [2]string
		for run := 0; run < 2; run++ {
			stdout, stderr, code := dlsched(t, c.args(run)...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
			}
			outs[run] = stdout
			if c.file != nil {
				b, err := os.ReadFile(c.file(run))
				if err != nil {
					t.Fatal(err)
				}
				outs[run] = string(b)
			}
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: two runs differ:\n%s\n---\n%s", c.name, outs[0], outs[1])
		}
		// (The CSV keeps its columns; their values are 0.)
		if c.file == nil && (strings.Contains(outs[0], "seconds") || strings.Contains(outs[0], "attempt(s),")) {
			t.Errorf("%s: output still carries timings:\n%s", c.name, outs[0])
		}
	}
}
