package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
)

var binary string

// TestMain builds the dlsched binary once; the tests run it as a user
// would, checking exit status, stdout, stderr and files.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "dlsched-cli")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "dlsched")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// dlsched runs the binary and returns stdout, stderr and the exit status.
func dlsched(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

var starArgs = []string{"solve", "--topology", "star", "--m", "3", "--S", "0", "--C", "1", "--A", "1", "--V", "3", "--D", "1.5", "--stages", "1"}

// with returns starArgs with flag set to value.
func with(flag, value string) []string {
	out := append([]string(nil), starArgs...)
	for i := range out {
		if out[i] == "--"+flag {
			out[i+1] = value
			return out
		}
	}
	return append(out, "--"+flag, value)
}

func TestSolveBadInput(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string // substring of the one-line error
	}{
		{"NaN S", with("S", "NaN"), "--S NaN"},
		{"Inf C", with("C", "Inf"), "--C Inf"},
		{"negative A", with("A", "-1"), "--A -1"},
		{"zero A", with("A", "0"), "--A 0"},
		{"zero C", with("C", "0"), "--C 0"},
		{"negative S", with("S", "-0.1"), "--S -0.1"},
		{"zero V", with("V", "0"), "--V 0"},
		{"Inf V", with("V", "inf"), "--V inf"},
		{"NaN V", with("V", "nan"), "--V nan"},
		{"zero m", with("m", "0"), "--m 0"},
		{"negative m", with("m", "-3"), "--m -3"},
		{"text m", with("m", "ten"), "--m ten"},
		{"zero n", with("stages", "0"), "--stages 0"},
		{"negative n", with("stages", "-2"), "--stages -2"},
		{"zero D", with("D", "0"), "--D 0"},
		{"negative D", with("D", "-5"), "--D -5"},
		{"NaN D", with("D", "NaN"), "--D NaN"},
		{"unknown topology", with("topology", "ring"), "--topology ring"},
		{"n below n_min", with("D", "0.5"), "--stages 1: below n_min=2"},
		{"model too large", append(with("stages", "2000"), "--form", "paper", "--max-memory", "16"), "memory limit of 16 MB: raise --max-memory"},
		{"memory limit too small", with("max-memory", "1"), "--max-memory 1"},
		{"bad format", with("format", "xml"), "--format xml"},
		{"bad solver", with("solver", "cplex"), "--solver cplex"},
		{"negative parallel", with("parallel", "-1"), "--parallel -1: want 0 (one per CPU)"},
		{"tree without p", []string{"solve", "--topology", "tree", "--h", "2", "--S", "0", "--C", "1", "--A", "1", "--V", "3", "--D", "1"}, "--p"},
		{"bad buffers", []string{"solve", "--topology", "tree", "--p", "2", "--h", "2", "--buffers", "3", "--S", "0", "--C", "1", "--A", "1", "--V", "3", "--D", "1"}, "--buffers 3"},
		{"bad gantt name", with("gantt", "chart.png"), "--gantt chart.png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.json")
			args := append(append([]string(nil), c.args...), "--out", out)
			stdout, stderr, code := dlsched(t, args...)
			if code != 2 {
				t.Errorf("exit status %d, want 2 (stderr %q)", code, stderr)
			}
			if strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 || !strings.HasPrefix(stderr, "dlsched: ") {
				t.Errorf("want one line 'dlsched: ...', got %q", stderr)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q does not name %q", stderr, c.want)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("--out file was written")
			}
		})
	}
}

// The paper's Section 4.1 example through the CLI, as JSON.
func TestSolveJSONContract(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.json")
	gantt := filepath.Join(dir, "g.svg")
	model := filepath.Join(dir, "m.mps")
	_, stderr, code := dlsched(t, append(starArgs, "--format", "json", "--out", out, "--gantt", gantt, "--export-model", model)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"status", "cmax", "lower_bound", "gap", "stages", "problem", "chunks", "verification"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	s, err := schedule.ReadJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	// Paper, Section 4.1: D >= 1.5 gives loads (1.5, 1, 0.5) and Cmax 3.5.
	if s.Status != "optimal" || math.Abs(s.Cmax-3.5) > 1e-9 || len(s.Chunks) != 3 {
		t.Fatalf("status %s Cmax %v chunks %d, want optimal 3.5 3", s.Status, s.Cmax, len(s.Chunks))
	}
	for i, want := range []float64{1.5, 1, 0.5} {
		c := s.Chunks[i]
		if c.Processor != i+1 || c.Stage != 1 || math.Abs(c.Load-want) > 1e-9 {
			t.Errorf("chunk %d: %+v, want processor %d load %g", i, c, i+1, want)
		}
	}
	if !s.Verification.OK || math.Abs(s.Verification.Makespan-3.5) > 1e-9 {
		t.Errorf("verification %+v", s.Verification)
	}
	svg, _ := os.ReadFile(gantt)
	if !strings.Contains(string(svg), "<svg") || !strings.Contains(string(svg), "P3 computes") {
		t.Errorf("Gantt SVG lacks a lane: %.300s", svg)
	}
	mps, _ := os.ReadFile(model)
	if !strings.Contains(string(mps), "ROWS") || !strings.Contains(string(mps), "ENDATA") {
		t.Errorf("exported model is not MPS")
	}
	// verify accepts it and rejects a tampered copy.
	stdout, _, code := dlsched(t, "verify", out)
	if code != 0 || !strings.HasPrefix(stdout, "ok:") {
		t.Errorf("verify: exit %d, %q", code, stdout)
	}
	s.Chunks[2].Load = 2 // more than D and load no longer sums to V
	bad := filepath.Join(dir, "bad.json")
	f, _ := os.Create(bad)
	s.WriteJSON(f)
	f.Close()
	stdout, _, code = dlsched(t, "verify", bad)
	if code != 1 || !strings.Contains(stdout, "too_large") || !strings.Contains(stdout, "load") {
		t.Errorf("verify of a tampered schedule: exit %d, %q", code, stdout)
	}
}

// Same input, same bytes.
func TestSolveDeterministic(t *testing.T) {
	args := []string{"solve", "--topology", "tree", "--p", "2", "--h", "3", "--buffers", "2", "--order", "llf",
		"--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--D", "1e2", "--V", "5e3", "--format", "csv"}
	a, _, c1 := dlsched(t, args...)
	b, _, c2 := dlsched(t, args...)
	if c1 != 0 || c2 != 0 || a != b || a == "" {
		t.Errorf("two runs differ or failed (exit %d %d)", c1, c2)
	}
}

// --parallel changes how many LPs the pattern search solves at once, not
// the schedule: the same bytes (timings dropped) for 1 and 3, on a tree
// whose chain of stage counts is solved ahead.
func TestSolveParallelSameBytes(t *testing.T) {
	args := []string{"solve", "--topology", "tree", "--p", "2", "--h", "4", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3",
		"--D", "1e2", "--V", "4e3", "--stages", "14", "--no-verify", "--format", "json", "--no-timings"}
	a, _, c1 := dlsched(t, append(args, "--parallel", "1")...)
	b, _, c2 := dlsched(t, append(args, "--parallel", "3")...)
	if c1 != 0 || c2 != 0 || a != b || !strings.Contains(a, `"cmax"`) {
		t.Errorf("--parallel 1 and 3 differ or failed (exit %d %d):\n%s\n%s", c1, c2, a, b)
	}
}

// A heterogeneous star: m defaults to the number of --procs entries. With
// S=0, C=1, A=1 on all three processors it is the Section 4.1 example, whose
// optimum for D=1.5 is 3.5 (paper); a mismatch of m and --procs is bad usage.
func TestSolveHeterogeneousStar(t *testing.T) {
	out := filepath.Join(t.TempDir(), "h.json")
	_, stderr, code := dlsched(t, "solve", "--topology", "star", "--procs", "0:1:1,0:1:1,0:1:1",
		"--V", "3", "--D", "1.5", "--stages", "1", "--format", "json", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, _ := os.Open(out)
	defer f.Close()
	s, err := schedule.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if s.Problem.M != 3 || len(s.Problem.Procs) != 3 || math.Abs(s.Cmax-3.5) > 1e-9 || !s.Verification.OK {
		t.Errorf("m=%d procs=%d Cmax=%v verified=%v, want 3 3 3.5 true", s.Problem.M, len(s.Problem.Procs), s.Cmax, s.Verification.OK)
	}
	_, stderr, code = dlsched(t, "solve", "--topology", "star", "--m", "2", "--procs", "0:1:1,0:1:1,0:1:1", "--V", "3", "--D", "1.5")
	if code != 2 || !strings.Contains(stderr, "--procs") {
		t.Errorf("m=2 with three --procs: exit %d, %q", code, stderr)
	}
}
