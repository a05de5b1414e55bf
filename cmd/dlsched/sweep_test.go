package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dlsched/dlsched/sweep"
)

// issueSpec is the spec of issue 6: 18 points.
const issueSpec = `
[problem]
topology = ["star"]
m = [10]
S = [1e-3]
C = [1e-6]
A = [1e-3]
D = [1e2, 1e4]
V = { from = 1e2, to = 1e6, points = 9, scale = "log" }
stages = ["min"]
`

// buildBinary builds dlsched into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dlsched")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func countLines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

func keysOf(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, torn, err := sweep.ReadRows(path, f)
	if err != nil || torn {
		t.Fatalf("%s: torn=%v err=%v", path, torn, err)
	}
	keys := map[string]int{}
	for _, r := range rows {
		keys[r.Key]++
	}
	return keys
}

// TestSweepKillResume runs the built binary on the issue's spec, kills it
// with SIGKILL after some rows are written, runs it again, and finds the
// 18 points exactly once each. Then shards 1/2 and 2/2 merged give the
// same 18 points.
func TestSweepKillResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	spec := filepath.Join(dir, "issue.toml")
	if err := os.WriteFile(spec, []byte(issueSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.jsonl")
	killedAt := -1
	for try := 0; try < 5 && killedAt < 0; try++ {
		os.Remove(out)
		cmd := exec.Command(bin, "sweep", spec, "--out", out, "--workers", "1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for countLines(out) < 3 && time.Now().Before(deadline) {
			time.Sleep(2 * time.Millisecond)
		}
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		if n := countLines(out); n < 18 {
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
				t.Fatalf("sweep was not killed: %v", err)
			}
			killedAt = n
		}
	}
	if killedAt < 0 {
		t.Fatal("the sweep finished before it could be killed, 5 times")
	}
	t.Logf("killed after %d rows", killedAt)
	res, err := exec.Command(bin, "sweep", spec, "--out", out).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, res)
	}
	if !strings.Contains(string(res), "already in the file") {
		t.Errorf("resume summary: %s", res)
	}
	keys := keysOf(t, out)
	if len(keys) != 18 {
		t.Errorf("%d distinct keys after resume, want 18", len(keys))
	}
	for k, n := range keys {
		if n != 1 {
			t.Errorf("%s appears %d times", k, n)
		}
	}

	// Shards, then merge with the spec: the same 18 keys, in grid order.
	a, b, all := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "all.jsonl")
	for i, p := range []string{a, b} {
		shard := []string{"1/2", "2/2"}[i]
		if res, err := exec.Command(bin, "sweep", spec, "--out", p, "--shard", shard, "--no-verify").CombinedOutput(); err != nil {
			t.Fatalf("shard %s: %v\n%s", shard, err, res)
		}
	}
	if res, err := exec.Command(bin, "merge", a, b, "--out", all, "--spec", spec).CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, res)
	}
	merged := keysOf(t, all)
	if len(merged) != 18 {
		t.Errorf("merged %d keys, want 18", len(merged))
	}
	for k := range keys {
		if merged[k] != 1 {
			t.Errorf("merged file has %s %d times", k, merged[k])
		}
	}
	// Slurm array variables choose the shard without --shard.
	c := exec.Command(bin, "sweep", spec, "--out", filepath.Join(dir, "s.jsonl"), "--no-verify")
	c.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=3", "SLURM_ARRAY_TASK_COUNT=3")
	if res, err := c.CombinedOutput(); err != nil || !strings.Contains(string(res), "shard 1/3 (from SLURM_ARRAY_TASK_ID)") {
		t.Errorf("slurm shard: %v\n%s", err, res)
	}
	if n := len(keysOf(t, filepath.Join(dir, "s.jsonl"))); n != 6 {
		t.Errorf("slurm shard 1/3 has %d rows, want 6", n)
	}
}

// TestSweepCLI covers usage errors (exit 2, naming the flag or field),
// CSV output, merge's report of missing points (exit 1), and plot.
func TestSweepCLI(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "s.toml")
	small := strings.Replace(issueSpec, `points = 9`, `points = 3`, 1)
	if err := os.WriteFile(spec, []byte(small), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte(strings.Replace(small, "m = [10]", "m = [0]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	usageCases := [][]string{
		{"sweep"},
		{"sweep", bad},
		{"sweep", spec, "--shard", "3/2"},
		{"sweep", spec, "--format", "xml"},
		{"sweep", spec, "--out", filepath.Join(dir, "x.csv"), "--format", "jsonl"},
		{"sweep", spec, "--bogus"},
		{"merge", "--out", filepath.Join(dir, "m.jsonl")},
		{"plot", filepath.Join(dir, "none.jsonl"), "--x", "V", "--out", filepath.Join(dir, "f.svg")},
		{"plot", spec, "--x", "V", "--out", filepath.Join(dir, "f.gif")},
	}
	for _, args := range usageCases {
		if code := run(append([]string{"dlsched"}, args...)); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	csvOut := filepath.Join(dir, "r.csv")
	if code := run([]string{"dlsched", "sweep", spec, "--out", csvOut, "--quiet", "--no-verify"}); code != 0 {
		t.Fatalf("csv sweep: exit %d", code)
	}
	b, err := os.ReadFile(csvOut)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "index,key,") || !strings.HasPrefix(lines[1], "0,") || !strings.HasPrefix(lines[6], "5,") {
		t.Errorf("csv: %d lines, first %q", len(lines), lines[0])
	}
	journal := filepath.Join(dir, "r.jsonl")
	if n := len(keysOf(t, journal)); n != 6 {
		t.Errorf("journal has %d rows, want 6", n)
	}
	// Merge against a bigger spec: its extra points are missing (exit 1),
	// the output is written anyway.
	bigger := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(bigger, []byte(issueSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	all := filepath.Join(dir, "all.jsonl")
	if code := run([]string{"dlsched", "merge", journal, "--out", all, "--spec", bigger}); code != 1 {
		t.Errorf("merge with missing points: exit %d, want 1", code)
	}
	if n := len(keysOf(t, all)); n != 6 {
		t.Errorf("merged %d rows, want 6", n)
	}
	svg := filepath.Join(dir, "f.svg")
	if code := run([]string{"dlsched", "plot", journal, "--x", "V", "--y", "cmax", "--series", "D", "--logx", "--logy",
		"--ref", "lb_trivial", "--where", "status=optimal", "--out", svg}); code != 0 {
		t.Fatalf("plot: exit %d", code)
	}
	if b, _ := os.ReadFile(svg); !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("D = 100")) || !bytes.Contains(b, []byte("makespan Cmax (s)")) {
		t.Errorf("plot output is not an SVG with the D = 100 series and the axis title with its unit")
	}
	if code := run([]string{"dlsched", "plot", journal, "--x", "V", "--y", "nope", "--out", svg}); code != 2 {
		t.Errorf("plot unknown column: exit %d, want 2", code)
	}
}
