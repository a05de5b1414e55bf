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
	script := terminal(t)
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
		if got := strings.Contains(text, "pattern search over stage counts 1-4") && strings.Contains(text, "(0/4)"); got != c.bar {
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

// A search stopped by SIGINT on a terminal erases its progress bar before
// the one-line message, which then starts a line of its own. The tree
// TreeNLF-1 p = 2, h = 4, D = 10, n = 1,000 searches for minutes (its
// first LP alone takes seconds); its bar is drawn when the search starts,
// well before the signal at 1.5 s. timeout(1) runs in the
// foreground so that it signals dlsched once: without --foreground it
// signals its process group too, and a second SIGINT kills dlsched at once
// (signals.go), before it can say anything.
func TestSolveProgressClearedOnInterrupt(t *testing.T) {
	script := terminal(t)
	if testing.Short() {
		t.Skip("runs a search for a second and a half")
	}
	args := "timeout --foreground -k 10 -s INT 1.5 " + binary + " solve --topology tree --order nlf --buffers 1 --p 2 --h 4 --S 1e-3 --C 1e-6 --A 1e-3 --D 10 --V 5e3 --stages 1000 --no-verify"
	out, _ := exec.Command(script, "-qec", args, "/dev/null").CombinedOutput()
	text := string(out)
	// The search stops within the grace period ("stopped by SIGINT"), or,
	// on a machine loaded enough, the handler exits after it
	// ("interrupted"): either erases the bar first.
	i := strings.Index(text, "dlsched: stopped by SIGINT")
	if i < 0 {
		i = strings.Index(text, "dlsched: interrupted")
	}
	if i < 0 || !strings.Contains(text[:i], "pattern search over stage counts 993-1000") {
		t.Fatalf("want the bar, then the message:\n%q", text)
	}
	// What the terminal shows on the message's line before it: nothing
	// (the bar's line was overwritten with blanks and the cursor returned).
	line := text[:i]
	line = line[strings.LastIndexAny(line, "\r\n")+1:]
	if line != "" {
		t.Errorf("the message follows %q on its line", line)
	}
}

// terminal returns util-linux's script(1), which runs a command on a
// pseudo-terminal, or skips the test where it is missing or cannot make
// one (a container without /dev/ptmx).
func terminal(t *testing.T) string {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil || runtime.GOOS != "linux" {
		t.Skip("no util-linux script(1) to run dlsched on a terminal")
	}
	if out, err := exec.Command(script, "-qec", "true", "/dev/null").CombinedOutput(); err != nil {
		t.Skipf("script(1) cannot run a command on a terminal here: %v %s", err, out)
	}
	return script
}
