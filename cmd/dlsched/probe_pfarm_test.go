package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/executor/farm/pfarm"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/topology"
)

// pfarmArgs is `farm pfarm` with args appended.
func pfarmArgs(args ...string) []string {
	return append([]string{"farm", "pfarm"}, args...)
}

// Sizes are checked before anything is allocated (issue 27): the binary
// tree of 19 levels (524,287 processors, about 14 GB), the 1000×1000 mesh
// and the chain of 1e5 are refused under the default --max-memory, a
// million-task run under the default --max-events, each with one line
// naming the flag and the limit, at a peak under 100 MB.
func TestProbePfarmRefusedSizes(t *testing.T) {
	refused(t, "MB of memory, more than --max-memory 1024: raise it or use fewer levels (--depth)",
		pfarmArgs("--topology", "kary", "-k", "2", "--depth", "19", "-M", "1000", "--Te", "0.01")...)
	refused(t, "MB of memory, more than --max-memory 1024: raise it or use fewer rows (--rows) or columns (--cols)",
		pfarmArgs("--topology", "mesh", "--rows", "1000", "--cols", "1000", "-M", "1000", "--Te", "0.01")...)
	refused(t, "MB of memory, more than --max-memory 1024: raise it or use fewer processors (--N)",
		pfarmArgs("--topology", "chain", "--N", "1e5", "-M", "1000", "--Te", "0.01")...)
	refused(t, "kernel events, more than --max-events 50000000: raise it or use fewer tasks (--M); --no-sim gives the model alone",
		pfarmArgs("--topology", "chain", "--N", "4", "-M", "1e9", "--Te", "0.01")...)
	refused(t, "--depth 20: want at most 19 levels", pfarmArgs("--topology", "kary", "-k", "2", "--depth", "20", "-M", "10", "--Te", "0.01")...)
	refused(t, "--max-memory", pfarmArgs("--topology", "chain", "--N", "4", "-M", "10", "--Te", "0.01", "--max-memory", "x")...)
}

// The limits can be raised: a chain of 2,000 processors is refused at
// --max-memory 32 and runs at 128, within its estimate; a run refused at
// --max-events 1000 runs at the default.
func TestProbePfarmRaisedLimits(t *testing.T) {
	args := pfarmArgs("--topology", "chain", "--N", "2000", "-M", "10", "--Te", "0.01")
	refused(t, "more than --max-memory 32: raise it", append(args, "--max-memory", "32")...)
	est, err := pfarm.Estimate(pfarm.Config{Topology: topology.FarmSpec{Kind: "chain", N: 2000},
		Params: pfarm.Params{M: 10, Te: 0.01, BetaE: pfarm.DefaultBetaE, BetaF: pfarm.DefaultBetaF, Tau: pfarm.DefaultTau, Dt: 4, Dr: 4}}, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code, peak := probe(t, append(args, "--max-memory", "128")...)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "simulated") {
		t.Fatalf("--max-memory 128: exit %d, stderr %q", code, stderr)
	}
	if mb := float64(est.Bytes) / (1 << 20); peak > mb {
		t.Errorf("chain of 2,000: peak %.0f MB, above the estimate %.0f MB", peak, mb)
	}
	small := pfarmArgs("--topology", "kary", "-k", "2", "--depth", "3", "-M", "1000", "--Te", "0.01")
	refused(t, "more than --max-events 1000: raise it", append(small, "--max-events", "1000")...)
	if _, stderr, code, _ := probe(t, small...); code != 0 || stderr != "" {
		t.Errorf("binary tree of 7, M = 1000: exit %d, stderr %q", code, stderr)
	}
}

// The documented maximum M = 1e9 is an integer the model takes at once
// (the simulation is refused above); the model of a chain of 1e5, which
// took 42 s when Lemma 1 was evaluated per processor up its path, runs in
// linear time and little memory.
func TestProbePfarmModelAlone(t *testing.T) {
	stdout, stderr, code, peak := probe(t, pfarmArgs("--topology", "chain", "--N", "4", "-M", "1e9", "--Te", "0.01", "--no-sim")...)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "M=1000000000 tasks") || peak > 100 {
		t.Errorf("-M 1e9 --no-sim: exit %d, stderr %q, peak %.0f MB, stdout %q", code, stderr, peak, stdout)
	}
	stdout, stderr, code, peak = probe(t, pfarmArgs("--topology", "chain", "--N", "1e5", "-M", "1e6", "--Te", "0.01", "--no-sim")...)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "chain N=100000") || peak > 200 {
		t.Errorf("chain of 1e5, --no-sim: exit %d, stderr %q, peak %.0f MB", code, stderr, peak)
	}
}

// Bad input names the flag at fault: --tasks uniform:-1,1 blamed --Te,
// whose value was never given.
func TestProbePfarmNamesTheFlag(t *testing.T) {
	refused(t, "invalid --tasks uniform:-1,1: want uniform:a,b with 0 < a <= b", pfarmArgs("--topology", "chain", "--N", "4", "-M", "10", "--tasks", "uniform:-1,1")...)
	refused(t, "invalid --tasks \"bimodal:1,2,3\"", pfarmArgs("--topology", "chain", "--N", "4", "-M", "10", "--tasks", "bimodal:1,2,3")...)
	refused(t, "invalid --M 0", pfarmArgs("--topology", "chain", "--N", "4", "-M", "0", "--Te", "1")...)
	refused(t, "invalid --M 2000000000", pfarmArgs("--topology", "chain", "--N", "4", "-M", "2e9", "--Te", "1")...)
	refused(t, "invalid --beta-f -1", pfarmArgs("--topology", "chain", "--N", "4", "-M", "10", "--Te", "1", "--beta-f", "-1")...)
	refused(t, "invalid --root 5,0", pfarmArgs("--topology", "mesh", "--rows", "3", "--cols", "3", "--root", "5,0", "-M", "10", "--Te", "1")...)
	refused(t, "invalid --bfs \"x\"", pfarmArgs("--topology", "mesh", "--rows", "3", "--cols", "3", "--bfs", "x", "-M", "10", "--Te", "1")...)
	refused(t, "invalid --topology \"ring\"", pfarmArgs("--topology", "ring", "-M", "10", "--Te", "1")...)
	refused(t, "invalid --beta-f 0.02", pfarmArgs("--topology", "chain", "--N", "4", "-M", "10", "--Te", "0.01", "--beta-f", "0.02", "--find-opt")...)
}

// Where the model's assumptions fail the table says so, as farm nepp's
// does (M < 4N: Section 5.6; a communication-bound farm: Section 5.5);
// the progress bar stays off when stderr is not a terminal.
func TestProbePfarmWarnings(t *testing.T) {
	stdout, stderr, code, _ := probe(t, pfarmArgs("--topology", "kary", "-k", "2", "--depth", "3", "-M", "20", "--Te", "0.01")...)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "warning: M = 20 < 4N = 28") {
		t.Errorf("M = 20 on 7 processors: exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
	stdout, _, _, _ = probe(t, pfarmArgs("--topology", "mesh", "--rows", "3", "--cols", "3", "--root", "1,1", "--Te", "2.888e-4",
		"--beta-e", "8.333e-4", "--beta-f", "3.411e-4", "--Dt", "1582", "-M", "1020")...)
	if !strings.Contains(stdout, "warning: T_comm = 1.0038 s > T_ss(M) = 0.3479 s") {
		t.Errorf("the communication-bound mesh of issue 28 gives no warning:\n%s", stdout)
	}
	stdout, _, _, _ = probe(t, pfarmArgs("--topology", "kary", "-k", "2", "--depth", "3", "-M", "1000", "--Te", "0.01")...)
	if strings.Contains(stdout, "warning") {
		t.Errorf("Table 3's binary tree of 7 warns:\n%s", stdout)
	}
}

// The outputs of docs/pfarm.md's "Outputs" example (Table 3's binary tree
// of 7 at 10 ms, M = 1,000): the report is a dlsched.pfarm/1 document,
// its format first, that validates against schema/pfarm.schema.json and
// is the same with and without --trace; the trace validates against
// schema/trace.schema.json, no two spans of a track overlap, and its last
// span ends at the reported makespan, which its otherData states.
func TestProbePfarmOutputs(t *testing.T) {
	tracePath := filepath.Join(t.TempDir(), "pfarm.json")
	args := pfarmArgs("--topology", "kary", "--k", "2", "--depth", "3", "--Te", "0.01", "--M", "1000", "--format", "json")
	stdout, stderr, code, _ := probe(t, append(args, "--trace", tracePath)...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(stdout, "{\n  \"format\": \"dlsched.pfarm/1\",") {
		t.Errorf("the report does not start with its format: %.60s", stdout)
	}
	if err := validate.Document([]byte(stdout), schema.Pfarm); err != nil {
		t.Error(err)
	}
	if plain, _, _, _ := probe(t, args...); plain != stdout {
		t.Error("the report differs with --trace")
	}
	var rep struct {
		Simulated struct{ Makespan float64 } `json:"simulated"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	doc, _ := traceFile(t, tracePath)
	ms := rep.Simulated.Makespan
	if o := doc.Overlap(1e-9 * ms); o != "" {
		t.Error(o)
	}
	if end := doc.End(); math.Abs(end-ms) > 1e-9*ms || doc.Makespan != ms || doc.Unit != "s" {
		t.Errorf("trace ends at %.12g s, states makespan %.12g %s; the report's makespan is %.12g s", end, doc.Makespan, doc.Unit, ms)
	}
}

// --trace needs a simulation and a .json file: with --no-sim, or another
// extension, it is refused in one line before any work.
func TestProbePfarmTraceRefused(t *testing.T) {
	dir := t.TempDir()
	args := pfarmArgs("--topology", "chain", "--N", "4", "-M", "10", "--Te", "0.01")
	refused(t, "invalid --trace "+filepath.Join(dir, "t.json")+": --no-sim simulates nothing to trace", append(args, "--no-sim", "--trace", filepath.Join(dir, "t.json"))...)
	refused(t, "--trace", append(args, "--trace", filepath.Join(dir, "t.txt"))...)
	if _, err := os.Stat(filepath.Join(dir, "t.json")); err == nil {
		t.Error("a refused run wrote its trace")
	}
}
