package main

import (
	"errors"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/topology"
)

// peakKB runs dlsched solve through testdata/peak (built once) and
// returns its peak resident memory in KB. Measured from the test process
// itself, every run would read at least the test process's own peak
// (Linux starts a vforked child's ru_maxrss at its parent's high-water
// mark): the baseline read 28 MB alone and 37–40 MB after the package's
// other tests, against 21 MB for the binary started from a shell.
func peakKB(t *testing.T, args ...string) float64 {
	t.Helper()
	peakOnce.Do(func() {
		peakBin = filepath.Join(filepath.Dir(binary), "peak")
		if out, err := exec.Command("go", "build", "-o", peakBin, "./testdata/peak").CombinedOutput(); err != nil {
			peakErr = fmt.Errorf("building testdata/peak: %v\n%s", err, out)
		}
	})
	if peakErr != nil {
		t.Fatal(peakErr)
	}
	cmd := exec.Command(peakBin, append([]string{binary, "solve", "--format", "json", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--V", "5e6"}, args...)...)
	out, err := cmd.Output()
	if cmd.ProcessState != nil && cmd.ProcessState.ExitCode() == 3 {
		t.Skip("no rusage on this platform")
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		t.Fatalf("%v: %v\n%s", args, err, ee.Stderr)
	}
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	kb, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		t.Fatalf("%v: peak printed %q", args, out)
	}
	return kb
}

// peakBin is testdata/peak, built by the first peakKB.
var (
	peakOnce sync.Once
	peakBin  string
	peakErr  error
)

// The memory estimates that guard every solve and verification (issue 16)
// are at least 2/3 of the measured peak above the process's own memory
// and at most twice it, for LP-bound and replay-bound runs of each
// topology. Before, the LP estimate was 2–3× low and the replay had none.
// The band is asymmetric because the estimate guards a refusal: too high
// refuses early, too low lets a run exceed its limit; and the peak of a
// small run (the star's 21 MB) moves by a few MB with the collector's
// timing (1.55 for the star on a loaded machine, in a run that passed
// before it).
func TestMemoryEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs solves of a few hundred MB")
	}
	base := peakKB(t, "--topology", "star", "--m", "2", "--D", "inf", "--stages", "1", "--no-verify")
	for _, c := range []struct {
		p      problem.Problem
		n      int
		verify bool
	}{
		{problem.Problem{Kind: topology.Star, M: 10}, 1000, false},
		{problem.Problem{Kind: topology.Tree, P: 2, H: 8, Buffers: 1}, 300, false},
		{problem.Problem{Kind: topology.Binomial, P: 2, H: 6}, 1000, false},
		{problem.Problem{Kind: topology.Tree, P: 2, H: 13, Buffers: 1}, 2, true},
		{problem.Problem{Kind: topology.Binomial, P: 2, H: 9}, 2, true},
	} {
		p := c.p
		p.S, p.C, p.A, p.D, p.V = 1e-3, 1e-6, 1e-3, math.Inf(1), 5e6
		lpBytes, err := solve.ModelBytes(&p, c.n, solve.Options{Form: "compact"})
		if err != nil {
			t.Fatal(err)
		}
		est := float64(lpBytes)
		args := []string{"--topology", p.Kind.String(), "--D", "inf", "--stages", strconv.Itoa(c.n), "--no-prune"}
		if p.Kind == topology.Star {
			args = append(args, "--m", strconv.Itoa(p.M))
		} else {
			args = append(args, "--p", strconv.Itoa(p.P), "--h", strconv.Itoa(p.H))
		}
		if c.verify {
			est += float64(replay.EstimateBytes(p.Kind, p.M, p.P, p.H, float64(c.n)*p.Processors()))
		} else {
			args = append(args, "--no-verify")
		}
		got := (peakKB(t, args...) - base) * 1024
		r := est / got
		t.Logf("%v n=%d verify=%v: estimate %.0f MB, measured %.0f MB above the process's %.0f MB (ratio %.2f)", args[:6], c.n, c.verify, est/1e6, got/1e6, base/1024, r)
		if r < 1/1.5 || r > 2 {
			t.Errorf("%v: estimate %.0f MB, measured %.0f MB: ratio %.2f outside [0.67, 2]", args, est/1e6, got/1e6, r)
		}
	}
}
