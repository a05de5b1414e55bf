package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// canonicalProcs is DLT-Studio's five-worker instance (S:C:A), issue 30's
// example.
const canonicalProcs = "0:.23:.12,0:.11:.23,0:.11:.11,0:.11:.31,0:.11:.11"

// jsonSchedule runs dlsched with --format json and decodes what the
// worker order, results and deadline add to a schedule.
func jsonSchedule(t *testing.T, args ...string) (out struct {
	Cmax              float64 `json:"cmax"`
	WorkerOrder       []int   `json:"worker_order"`
	WorkerOrderMethod string  `json:"worker_order_method"`
	WorkerOrderBound  float64 `json:"worker_order_bound"`
	WorkerOrderGap    float64 `json:"worker_order_gap"`
	Deadline          float64 `json:"deadline"`
	MaxLoad           float64 `json:"max_load"`
	Returns           []struct {
		Processor  int
		Load       float64
		Start, End float64
	} `json:"returns"`
	Verification struct{ OK bool } `json:"verification"`
}) {
	t.Helper()
	stdout, stderr, code, _ := probe(t, append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("dlsched %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Issue 30's canonical instance: the searched order reaches 120,296.70
// (an order of the same makespan as 4 3 5 2 1), proved optimal, one text
// line; --worker-order given keeps 125,689.14.
func TestProbeHeteroCanonical(t *testing.T) {
	args := []string{"solve", "--procs", canonicalProcs, "--V", "1e6", "--D", "inf", "--stages", "1"}
	s := jsonSchedule(t, args...)
	if math.Abs(s.Cmax-120296.70) > 0.005 || s.WorkerOrderMethod != "exact" || s.WorkerOrderGap > 1e-8 ||
		len(s.WorkerOrder) != 5 || s.WorkerOrder[4] != 1 || !s.Verification.OK {
		t.Errorf("search: %+v", s)
	}
	stdout, _, code, _ := probe(t, args...)
	if code != 0 || strings.Count(stdout, "worker order:") != 1 || !strings.Contains(stdout, "(exact: proved best of every order and subset") {
		t.Errorf("table: exit %d\n%s", code, stdout)
	}
	g := jsonSchedule(t, append(args, "--worker-order", "given")...)
	if math.Abs(g.Cmax-125689.14) > 0.005 || g.WorkerOrderMethod != "given" {
		t.Errorf("given: %+v", g)
	}
}

// The results: two identical workers, β = 0.5: FIFO 115/7, LIFO
// 125/7, one worker 25; verified, the last result ending at Cmax.
func TestProbeResults(t *testing.T) {
	for _, c := range []struct {
		procs, ret string
		want       float64
	}{{"0:1:1,0:1:1", "fifo", 115.0 / 7}, {"0:1:1,0:1:1", "lifo", 125.0 / 7}, {"0:1:1", "fifo", 25}} {
		s := jsonSchedule(t, "solve", "--procs", c.procs, "--V", "10", "--D", "inf", "--result-ratio", "0.5", "--return", c.ret)
		if math.Abs(s.Cmax-c.want) > 1e-9*c.want || !s.Verification.OK || len(s.Returns) == 0 ||
			math.Abs(s.Returns[len(s.Returns)-1].End-s.Cmax) > 1e-9*c.want {
			t.Errorf("%s %s: %+v, want Cmax %g", c.procs, c.ret, s, c.want)
		}
	}
}

// The deadline form: one worker S = 2, C = 0, A = 1 computes 10 by 12.
func TestProbeDeadline(t *testing.T) {
	s := jsonSchedule(t, "solve", "--procs", "2:0:1", "--deadline", "12", "--D", "inf")
	if math.Abs(s.MaxLoad-10) > 1e-9 || s.Deadline != 12 || math.Abs(s.Cmax-12) > 1e-9 || !s.Verification.OK {
		t.Errorf("%+v", s)
	}
	stdout, _, code, _ := probe(t, "solve", "--procs", "2:0:1", "--deadline", "12", "--D", "inf")
	if code != 0 || !strings.Contains(stdout, "deadline 12: max load 10 ") {
		t.Errorf("exit %d\n%s", code, stdout)
	}
	_, stderr, code, _ := probe(t, "solve", "--procs", "2:0:1", "--deadline", "1", "--D", "inf")
	if code != 1 || !strings.Contains(stderr, "no load finishes by the deadline 1") {
		t.Errorf("deadline below the startup: exit %d, %q", code, stderr)
	}
}

// Bad input of the new flags is bad usage naming the flag, refused before
// anything is solved.
func TestProbeHeteroRefusals(t *testing.T) {
	star := []string{"solve", "--procs", "0:1:1,0:1:2", "--V", "10", "--D", "inf"}
	tree := []string{"solve", "--topology", "tree", "--p", "2", "--h", "2", "--S", "0", "--C", "1", "--A", "1", "--V", "10", "--D", "inf"}
	for _, c := range []struct {
		want string
		args []string
	}{
		{"invalid --result-ratio 0.5: want 0 for a tree", append(tree, "--result-ratio", "0.5")},
		{"invalid --return: it does not apply to --topology tree", append(tree, "--return", "lifo")},
		{"invalid --worker-order: it does not apply to --topology tree", append(tree, "--worker-order", "search")},
		{"invalid --result-ratio -1: want a finite number >= 0", append(star, "--result-ratio", "-1")},
		{"invalid --result-ratio", append(star, "--result-ratio", "x")},
		{"invalid --return random: want fifo or lifo", append(star, "--return", "random")},
		{"invalid --worker-order best: want search or given", append(star, "--worker-order", "best")},
		{"invalid --worker-order search: it needs --procs", []string{"solve", "--m", "2", "--S", "0", "--C", "1", "--A", "1", "--V", "10", "--D", "inf", "--worker-order", "search"}},
		{"invalid --form paper: want compact when results are returned (--result-ratio > 0)", append(star, "--result-ratio", "1", "--form", "paper")},
		{"invalid --C (processor 2) 0: want C > 0 or A > 0", []string{"solve", "--procs", "0:1:1,1:0:0", "--V", "10", "--D", "inf"}},
		{"invalid --deadline: give --V or --deadline, not both", append(star, "--deadline", "5")},
		{"invalid --deadline 0: want a finite time > 0", []string{"solve", "--procs", "0:1:1", "--D", "inf", "--deadline", "0"}},
		{"invalid --deadline", []string{"solve", "--procs", "0:1:1", "--D", "inf", "--deadline", "inf"}},
		{"invalid --stages min: with --deadline and a finite --D", []string{"solve", "--procs", "0:1:1", "--D", "5", "--deadline", "10"}},
		{"invalid --export-model", []string{"solve", "--procs", "0:1:1", "--D", "inf", "--deadline", "10", "--export-model", "/tmp/x.lp"}},
	} {
		refused(t, c.want, c.args...)
	}
}
