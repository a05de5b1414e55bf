package main

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// solve shows the pattern search's progress over its stage counts on
// stderr when stderr is a terminal, and not with --quiet; stdout is the
// same either way (the terminal is util-linux's script(1), which Linux
// machines have; elsewhere the test skips). Without a terminal nothing is
// written to stderr (every other test of solve).
func TestSolveProgressOnTerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil || runtime.GOOS != "linux" {
		t.Skip("no util-linux script(1) to run dlsched on a terminal")
	}
	// Fig. 10's binomial tree at V = 2,500: n_min = 1, a chain of counts 1-4.
	args := binary + " solve --topology binomial --p 2 --h 10 --S 1e-3 --C 1e-6 --A 1e-3 --D 1e2 --V 2500 --stages 4 --no-verify --no-timings"
	for _, c := range []struct {
		extra string
		bar   bool
	}{{"", true}, {" --quiet", false}} {
		out, err := exec.Command(script, "-qec", args+c.extra, "/dev/null").CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.extra, err, out)
		}
		text := string(out)
		if got := strings.Contains(text, "pattern search, stage counts") && strings.Contains(text, "(0/4)"); got != c.bar {
			t.Errorf("solve%s on a terminal: progress bar shown %v, want %v:\n%q", c.extra, got, c.bar, text)
		}
		if !strings.Contains(text, "status optimal") {
			t.Errorf("solve%s: no schedule on the terminal:\n%s", c.extra, text)
		}
	}
	stdout, stderr, code := dlsched(t, strings.Fields(args)[1:]...)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "status optimal") {
		t.Errorf("solve without a terminal: exit %d, stderr %q", code, stderr)
	}
}
