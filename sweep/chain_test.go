package sweep

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/solve"
)

const chainSpec = `
[[problem]]
topology = "star"
m = 4
S = 1e-3
C = 1e-6
A = 1e-3
D = [2e4, inf]
V = 1e5
stages = { from = 1, to = 10, points = 10, scale = "lin" }

[[problem]]
label = "min"
topology = "star"
m = 4
S = 1e-3
C = 1e-6
A = 1e-3
D = 2e4
V = [1e5, 2e5]
stages = "min"

[run]
prune = false
verify = true
`

// TestChains: without pruning, the points that differ only in V and their
// stage count are one job in increasing V, then n (cut at chainPoints); every
// point of a pruned or cold run (run.warm = false) is a job of its own.
func TestChains(t *testing.T) {
	sp := mustParse(t, chainSpec)
	pts := sp.Points()
	// Reverse the order, as a resumed or sharded run may hand them out.
	rev := append([]Point(nil), pts...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	jobs := chains(rev, sp.Run)
	if len(jobs) != 3 { // n = 1..10 for D = 2e4 and for D = inf; n_min for V = 1e5, 2e5
		t.Fatalf("%d jobs, want 3: %v", len(jobs), jobs)
	}
	for _, grp := range jobs {
		if grp[0].Stages.Policy != StagesFixed {
			if len(grp) != 2 || grp[0].Problem.V != 1e5 || grp[1].Problem.V != 2e5 {
				t.Errorf("n_min chain %v, want V = 1e5 then 2e5", grp)
			}
			if got, want := maxStages(grp), grp[1].Problem.NMin(); got != want || want <= grp[0].Problem.NMin() {
				t.Errorf("n_min chain reserves %d stages, want the larger n_min %d (first %d)", got, want, grp[0].Problem.NMin())
			}
			continue
		}
		if len(grp) != 10 {
			t.Errorf("chain of %d points, want 10", len(grp))
		}
		if got := maxStages(grp); got != 10 {
			t.Errorf("chain of n = 1..10 reserves %d stages, want 10", got)
		}
		for i, pt := range grp {
			if pt.Stages.N != i+1 || pt.Problem.D != grp[0].Problem.D || pt.Label != grp[0].Label {
				t.Errorf("chain position %d: n=%d, problem %+v (first %+v)", i, pt.Stages.N, pt.Problem, grp[0].Problem)
			}
		}
	}
	for _, rc := range []RunConfig{{Prune: true, Pattern: "greedy"}, {Prune: true, Pattern: "exact"}, {NoWarm: true}} {
		if jobs := chains(pts, rc); len(jobs) != len(pts) {
			t.Errorf("prune=%v pattern=%q warm=%v: %d jobs for %d points, want one each", rc.Prune, rc.Pattern, !rc.NoWarm, len(jobs), len(pts))
		}
	}
	// With the pattern search, the points that differ only in their stage
	// count, whatever their label, are one job in increasing n: D = 2e4 at
	// V = 1e5 (n = 1..10 and the n_min point, n_min = 2), D = inf at V =
	// 1e5 (n = 1..10), and the n_min point of V = 2e5 alone.
	for _, pattern := range []string{"", "search"} {
		jobs := chains(rev, RunConfig{Prune: true, Pattern: pattern})
		var lens []int
		for _, grp := range jobs {
			lens = append(lens, len(grp))
			for i := 1; i < len(grp); i++ {
				a, b := grp[i-1], grp[i]
				if Key("", &a.Problem, Stages{}) != Key("", &b.Problem, Stages{}) || stageCount(a) > stageCount(b) {
					t.Errorf("pattern %q: job %v then %v: want one problem in increasing n", pattern, a.Key, b.Key)
				}
			}
		}
		slices.Sort(lens)
		if fmt.Sprint(lens) != "[1 10 11]" {
			t.Errorf("pattern %q: job lengths %v, want [1 10 11]", pattern, lens)
		}
	}
	// A long chain is cut into jobs of chainPoints points.
	long := mustParse(t, strings.Replace(chainSpec, "to = 10, points = 10", "to = 40, points = 40", 1))
	lens := map[int]int{}
	for _, grp := range chains(long.Points(), long.Run) {
		lens[len(grp)]++
	}
	if lens[chainPoints] != 4 || lens[40-2*chainPoints] != 2 || lens[2] != 1 {
		t.Errorf("job lengths %v, want 4 of %d, 2 of %d and the n_min pair", lens, chainPoints, 40-2*chainPoints)
	}
}

// TestWarmSweepAgreesWithCold: the warm run (the default) and a cold one
// (run.warm = false) give the same rows within the certified tolerance,
// every schedule verified by the executor; in the warm run every fixed-n
// row after the first feasible one of its chain is warm, in the cold run
// none.
func TestWarmSweepAgreesWithCold(t *testing.T) {
	newClp(t) // skips without Clp
	rows := map[bool]map[string]Row{}
	summaryWarm := map[bool]int{}
	for _, warm := range []bool{true, false} {
		sp := mustParse(t, chainSpec)
		sp.Run.NoWarm = !warm
		path := filepath.Join(t.TempDir(), "r.jsonl")
		sum, err := Run(context.Background(), sp, path, Options{Workers: 2, Run: sp.Run})
		if err != nil {
			t.Fatal(err)
		}
		summaryWarm[warm] = sum.Warm
		rows[warm] = map[string]Row{}
		for _, r := range readRows(t, path) {
			rows[warm][r.Key] = r
		}
	}
	nWarm := 0
	for k, w := range rows[true] {
		c := rows[false][k]
		if w.Status != c.Status {
			t.Errorf("%s: warm %s, cold %s", k, w.Status, c.Status)
			continue
		}
		if c.Warm {
			t.Errorf("%s: warm row in the cold run", k)
		}
		if w.Status != StatusOptimal {
			continue
		}
		if w.Warm {
			nWarm++
		}
		if !w.Certified || w.Verification == nil || !w.Verification.OK {
			t.Errorf("%s: certified %v verification %+v", k, w.Certified, w.Verification)
		}
		wc, cc := float64(*w.Cmax), float64(*c.Cmax)
		if d := (wc - cc) / cc; d > 2*solve.DefaultTolerance || d < -2*solve.DefaultTolerance {
			t.Errorf("%s: warm Cmax %.15g, cold %.15g", k, wc, cc)
		}
	}
	// The model holds n + 4 stages when first built and doubles when
	// outgrown (solve.Sequence). D = inf: n = 1 builds 5, 2..5 warm, 6
	// rebuilds 10, 7..10 warm: 8. D = 2e4: n_min = 2 (V = 1e5 over m = 4
	// processors of D = 2e4 each) builds 6, 3..6 warm, 7 rebuilds 12,
	// 8..10 warm: 7. The n_min pair (V = 1e5, n = 2; V = 2e5, n = 3, units
	// within MaxScaleDrift): 1.
	if nWarm != 16 || summaryWarm[true] != 16 || summaryWarm[false] != 0 {
		t.Errorf("%d warm rows, want 16; the summaries count %d warm and %d cold-run warm", nWarm, summaryWarm[true], summaryWarm[false])
	}
}
