package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Every size a user supplies is checked before anything in proportion to
// it is allocated (issue 16: each of these exhausted memory or was killed).
// The runs must end at once with one line and exit 2.
func TestSizeGuards(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "big.toml")
	os.WriteFile(spec, []byte(`[problem]
topology = ["star"]
m = [10]
S = [1e-3]
C = [1e-6]
A = [1e-3]
D = { from = 1, to = 1e6, points = 1000000, scale = "log" }
V = { from = 1e2, to = 1e6, points = 1000000, scale = "log" }
`), 0o644)
	sched := filepath.Join(dir, "huge-m.json")
	os.WriteFile(sched, []byte(`{"status":"optimal","cmax":1,"lower_bound":1,"gap":0,"stages":1,"n_min":1,
"problem":{"topology":"star","m":1000000000,"S":0.001,"C":1e-06,"A":0.001,"D":"inf","V":1,"stages":1},
"chunks":[{"stage":1,"processor":1,"load":1,"start":0}]}`), 0o644)
	prob := []string{"--S", "1e-3", "--C", "1e-6", "--A", "1e-3"}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"1e9 stages", append([]string{"solve", "--m", "10", "--V", "10", "--D", "1", "--stages", "1000000000"}, prob...), "the LP needs about"},
		{"n_min of 1e8", append([]string{"solve", "--m", "10", "--V", "1e9", "--D", "1"}, prob...), "--D 1"},
		{"tree h=20 verification", append([]string{"solve", "--topology", "tree", "--p", "2", "--h", "20", "--V", "5e6", "--D", "inf"}, prob...), "--no-verify"},
		{"binomial h=14 verification", append([]string{"solve", "--topology", "binomial", "--p", "2", "--h", "14", "--V", "5e6", "--D", "inf", "--stages", "10"}, prob...), "--no-verify"},
		{"optimize 1e9 points", append([]string{"optimize", "--m", "10", "--V", "5e6", "--over", "D", "--D-min", "1", "--D-max", "1e6", "--points", "1000000000"}, prob...), "--points 1000000000"},
		{"optimize within Inf", append([]string{"optimize", "--m", "10", "--V", "5e6", "--over", "D", "--D-min", "1", "--D-max", "1e6", "--within", "Inf"}, prob...), "--within +Inf"},
		{"sweep of 1e12 points", []string{"sweep", spec, "--out", filepath.Join(dir, "r.jsonl")}, "1e+12 points"},
		{"schedule with m = 1e9", []string{"verify", sched}, "needs about"},
	} {
		stdout, stderr, code := dlsched(t, c.args...)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line containing %q", c.name, code, stdout, stderr, c.want)
		}
	}
}

// optimize with nothing feasible says so and why, and exits 1 (issue 16:
// it printed "best: D = 0, n = 0, Cmax = +Inf" and exited 0).
func TestOptimizeNothingFeasible(t *testing.T) {
	stdout, stderr, code := dlsched(t, "optimize", "--m", "10", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--V", "1e9",
		"--over", "D", "--D-min", "1", "--D-max", "2", "--points", "2", "--stages", "min")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "nothing is feasible") || !strings.Contains(stderr, "D=1 skipped: n_min=100000000 stages") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// sweep resumes only from regular files: a device or a pipe as --out is
// refused before anything is read (issue 16: /dev/zero was read whole,
// /dev/stdout hung).
func TestSweepOutMustBeRegular(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "s.toml")
	os.WriteFile(spec, []byte("[problem]\ntopology = [\"star\"]\nm = [2]\nS = [1]\nC = [1]\nA = [1]\nD = [\"inf\"]\nV = [1]\n"), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"/dev/zero", "/dev/null", fifo} {
		stdout, stderr, code := dlsched(t, "sweep", spec, "--out", out, "--quiet")
		if code != 2 || stdout != "" || !strings.Contains(stderr, "not a regular file") {
			t.Errorf("--out %s: exit %d, stdout %q, stderr %q", out, code, stdout, stderr)
		}
	}
}

// --out through a symbolic link writes the link's target and keeps the
// link; --out /dev/null writes to the device and leaves it a device
// (issue 16: both were replaced by regular files).
func TestOutFollowsLinksAndDevices(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string(nil), starArgs...), "--format", "json", "--no-verify")
	for _, out := range []string{link, "/dev/null"} {
		if _, stderr, code := dlsched(t, append(args, "--out", out)...); code != 0 {
			t.Fatalf("--out %s: exit %d %s", out, code, stderr)
		}
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), `"cmax"`) {
		t.Errorf("the link's target was not written: %q", b)
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a device: %v", fi.Mode())
	}
}
