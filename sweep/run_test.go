package sweep

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/closedform"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

func readRows(t *testing.T, path string) []Row {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, torn, err := ReadRows(path, f)
	if err != nil || torn {
		t.Fatalf("%s: torn=%v err=%v", path, torn, err)
	}
	return rows
}

func quickRun(rc RunConfig) RunConfig {
	if testing.Short() {
		rc.Verify = false
	}
	return rc
}

// TestRunIssueSpec: the issue's spec gives 18 rows, every one optimal;
// two values are checked against closed forms.
func TestRunIssueSpec(t *testing.T) {
	sp := mustParse(t, issueSpec)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	sum, err := Run(context.Background(), sp, path, Options{Workers: 2, Run: quickRun(sp.Run)})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total != 18 || sum.Solved != 18 || sum.Status[StatusOptimal] != 18 {
		t.Fatalf("summary %+v, want 18 optimal rows", sum)
	}
	rows := readRows(t, path)
	if len(rows) != 18 {
		t.Fatalf("%d rows, want 18", len(rows))
	}
	byKey := map[string]Row{}
	for _, r := range rows {
		byKey[r.Key] = r
		if !testing.Short() && (r.Verification == nil || !r.Verification.OK) {
			t.Errorf("%s: verification %+v %s", r.Key, r.Verification, r.Error)
		}
	}
	// V = mD = 1000 with D = 100: every processor gets exactly D in the
	// one stage, so Cmax = m(S + DC) + DA = 10·0.0011 + 0.1 = 0.111 (by
	// hand from the star model of Section 3.1).
	r := byKey["topology=star m=10 S=0.001 C=1e-06 A=0.001 D=100 V=1000 stages=min"]
	if r.Cmax == nil || math.Abs(float64(*r.Cmax)-0.111) > 1e-12 || r.NMin != 1 {
		t.Errorf("V=1000 D=100: row %+v, want Cmax 0.111 with n_min 1", r)
	}
	// D = 1e4 ≥ V = 100: one installment, equal finish times (the classic
	// closed form, closedform.StarEqualFinish).
	r = byKey["topology=star m=10 S=0.001 C=1e-06 A=0.001 D=10000 V=100 stages=min"]
	_, want, ok := closedform.StarEqualFinish(10, 1e-3, 1e-6, 1e-3, 100)
	if !ok || r.Cmax == nil || math.Abs(float64(*r.Cmax)-want) > 1e-9*want {
		t.Errorf("V=100 D=1e4: Cmax %v, want the equal-finish %.12g", r.Cmax, want)
	}
	// n_min = ⌈V/(mD)⌉ (Section 3.1): V=1e6, D=100 needs 1000 stages.
	r = byKey["topology=star m=10 S=0.001 C=1e-06 A=0.001 D=100 V=1e+06 stages=min"]
	if r.NMin != 1000 || r.Problem.Stages != 1000 {
		t.Errorf("V=1e6 D=100: n_min %d stages %d, want 1000", r.NMin, r.Problem.Stages)
	}
	// A second run finds everything done.
	sum, err = Run(context.Background(), sp, path, Options{Run: quickRun(sp.Run)})
	if err != nil || sum.Done != 18 || sum.Solved != 0 {
		t.Fatalf("rerun: %+v %v", sum, err)
	}
}

// TestInvalidPoints: fixed n below n_min, and an invalid parameter, are
// rows with a status and a message, not failures of the run.
func TestInvalidPoints(t *testing.T) {
	sp := mustParse(t, `
[problem]
topology = "star"
m = 10
S = 1e-3
C = 1e-6
A = 1e-3
D = 100
V = 1e4
stages = [1, 5, "min", 12]
[run]
verify = false
`)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if _, err := Run(context.Background(), sp, path, Options{Workers: 2, Run: sp.Run}); err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, path)
	SortRows(rows)
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	// n_min = ⌈1e4/(10·100)⌉ = 10 (Section 3.1).
	for i, want := range []struct {
		status, msg string
	}{
		{StatusInvalid, "invalid stages 1: below n_min=10"},
		{StatusInvalid, "invalid stages 5: below n_min=10"},
		{StatusOptimal, ""},
		{StatusOptimal, ""},
	} {
		r := rows[i]
		if r.Status != want.status || !strings.Contains(r.Error, want.msg) || r.NMin != 10 {
			t.Errorf("row %d (%s): status %q error %q n_min %d, want %q %q 10", i, r.StagesPolicy, r.Status, r.Error, r.NMin, want.status, want.msg)
		}
	}
	if rows[2].Problem.Stages != 10 || rows[3].Problem.Stages != 12 {
		t.Errorf("stages built %d, %d, want 10, 12", rows[2].Problem.Stages, rows[3].Problem.Stages)
	}
	// More stages cannot make the optimum worse than n_min's: the LP of
	// n = 12 contains that of n = 10 (empty messages cost S in the paper's
	// model, but pruning removes them).
	if float64(*rows[3].Cmax) > float64(*rows[2].Cmax)*(1+1e-9) {
		t.Errorf("Cmax(12)=%v > Cmax(10)=%v", *rows[3].Cmax, *rows[2].Cmax)
	}
}

// TestSkippedAndOpt: max_stages turns big points into skipped rows;
// stages = "opt" gives a row either way.
func TestSkippedAndOpt(t *testing.T) {
	sp := mustParse(t, `
[problem]
topology = "star"
m = 2
S = 1e-3
C = 1e-6
A = 1e-3
D = 1
V = [1, 100]
stages = ["min", "opt"]
[run]
verify = false
max_stages = 10
`)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if _, err := Run(context.Background(), sp, path, Options{Run: sp.Run}); err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, path)
	SortRows(rows)
	if len(rows) != 4 {
		t.Fatalf("%d rows", len(rows))
	}
	// V=100, D=1, m=2: n_min = 50 > 10.
	if r := rows[2]; r.Status != StatusSkipped || !strings.Contains(r.Error, "max_stages=10") {
		t.Errorf("row %s: %s %q, want skipped", r.Key, r.Status, r.Error)
	}
	if r := rows[1]; r.Status != StatusOptimal && r.Status != StatusUnsupported {
		t.Errorf("opt row: %s %q", r.Status, r.Error)
	}
}

// TestTornLine: a last line cut short is removed before appending, and
// the run completes the file with every point once.
func TestTornLine(t *testing.T) {
	sp := mustParse(t, issueSpec)
	sp.Run.Verify = false
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	if _, err := Run(context.Background(), sp, full, Options{Run: sp.Run}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(full)
	lines := strings.SplitAfter(string(b), "\n")
	// Keep 5 whole lines and half of the 6th.
	torn := strings.Join(lines[:5], "") + lines[5][:len(lines[5])/2]
	path := filepath.Join(dir, "r.jsonl")
	if err := os.WriteFile(path, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	got, isTorn, err := ReadRows(path, f)
	f.Close()
	if err != nil || !isTorn || len(got) != 5 {
		t.Fatalf("ReadRows: %d rows torn=%v err=%v, want 5 rows, torn", len(got), isTorn, err)
	}
	sum, err := Run(context.Background(), sp, path, Options{Run: sp.Run})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Torn || sum.Done != 5 || sum.Solved != 13 {
		t.Errorf("summary %+v, want torn, 5 done, 13 solved", sum)
	}
	rows := readRows(t, path)
	keys := map[string]bool{}
	for _, r := range rows {
		keys[r.Key] = true
	}
	if len(rows) != 18 || len(keys) != 18 {
		t.Errorf("%d rows, %d keys, want 18 each", len(rows), len(keys))
	}
	// A broken line in the middle is an error, and the file is kept.
	bad := strings.Join(lines[:2], "") + "{not json\n" + lines[2]
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), sp, path, Options{Run: sp.Run}); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("corrupt line: err %v, want one naming line 3", err)
	}
	if after, _ := os.ReadFile(path); string(after) != bad {
		t.Error("the corrupt file was modified")
	}
}

// TestShardsMerge: shards 1/2 and 2/2 together hold the 18 points of the
// full run, once each; merging a shard with itself reports duplicates,
// one shard alone reports the other's points missing.
func TestShardsMerge(t *testing.T) {
	sp := mustParse(t, issueSpec)
	sp.Run.Verify = false
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for i, p := range []string{a, b} {
		sum, err := Run(context.Background(), sp, p, Options{Shard: Shard{Index: i + 1, Count: 2}, Run: sp.Run})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Total != 9 {
			t.Errorf("shard %d/2 has %d points, want 9", i+1, sum.Total)
		}
	}
	rows, rep, err := Merge([]string{b, a}, sp)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 18 || len(rep.Missing) != 0 || rep.DuplicateCount() != 0 {
		t.Fatalf("merge: %d rows, report %s", len(rows), rep.String())
	}
	pts := sp.Points()
	for i, r := range rows {
		if r.Key != pts[i].Key || r.Index != i {
			t.Errorf("row %d: %s (index %d), want %s", i, r.Key, r.Index, pts[i].Key)
		}
	}
	_, rep, _ = Merge([]string{a, a}, sp)
	if rep.DuplicateCount() != 9 || len(rep.Missing) != 9 {
		t.Errorf("a+a: %s, want 9 duplicates and 9 missing", rep.String())
	}
	for _, pt := range rep.Missing {
		if pt.Index%2 != 1 {
			t.Errorf("missing point %d belongs to shard 1", pt.Index)
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, s := range []string{"0/2", "3/2", "1", "a/b", "1/0", ""} {
		// The error names the option in the library's words (issue 11: no
		// flag syntax outside cmd/); the CLI renders it as --shard.
		var se *ShardError
		if _, err := ParseShard(s); err == nil || !strings.HasPrefix(err.Error(), "invalid shard ") || !errors.As(err, &se) || se.Source != SourceShard {
			t.Errorf("%q: err %v", s, err)
		}
	}
	sh, err := ParseShard("2/3")
	if err != nil || !sh.Contains(1) || !sh.Contains(4) || sh.Contains(0) || sh.Contains(2) {
		t.Errorf("2/3: %+v %v", sh, err)
	}
}

func TestShardFromEnv(t *testing.T) {
	cases := []struct {
		name   string
		env    map[string]string
		shards int
		want   Shard
		errVar string
	}{
		{"none", nil, 0, Shard{}, ""},
		{"slurm 0-based", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"}, 0, Shard{1, 4}, ""},
		{"slurm 1-based", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4"}, 0, Shard{4, 4}, ""},
		{"slurm step", map[string]string{"SLURM_ARRAY_TASK_ID": "10", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "10", "SLURM_ARRAY_TASK_STEP": "5"}, 0, Shard{3, 3}, ""},
		{"slurm no min", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"}, 0, Shard{3, 3}, ""},
		{"slurm gaps", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "8"}, 0, Shard{}, "SLURM_ARRAY_TASK_COUNT"},
		{"slurm id out of range", map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"}, 0, Shard{}, "SLURM_ARRAY_TASK_ID"},
		{"slurm no count", map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, 0, Shard{}, "SLURM_ARRAY_TASK_COUNT"},
		{"k8s flag", map[string]string{"JOB_COMPLETION_INDEX": "0"}, 5, Shard{1, 5}, ""},
		{"k8s env", map[string]string{"JOB_COMPLETION_INDEX": "4", "DLSCHED_SHARDS": "5"}, 0, Shard{5, 5}, ""},
		{"k8s no count", map[string]string{"JOB_COMPLETION_INDEX": "4"}, 0, Shard{}, "DLSCHED_SHARDS"},
		{"k8s index too big", map[string]string{"JOB_COMPLETION_INDEX": "5", "DLSCHED_SHARDS": "5"}, 0, Shard{}, "JOB_COMPLETION_INDEX"},
		{"k8s bad index", map[string]string{"JOB_COMPLETION_INDEX": "x", "DLSCHED_SHARDS": "5"}, 0, Shard{}, "JOB_COMPLETION_INDEX"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sh, _, err := ShardFromEnv(func(k string) string { return c.env[k] }, c.shards)
			if c.errVar != "" {
				if err == nil || !strings.Contains(err.Error(), c.errVar) {
					t.Errorf("err %v, want one naming %s", err, c.errVar)
				}
				return
			}
			if err != nil || sh != c.want {
				t.Errorf("got %+v %v, want %+v", sh, err, c.want)
			}
		})
	}
}

// TestLayerStrategy checks the one-layer strategy of Section 4.2 by hand
// for p=1, h=1: Cmax(n) = n(S + VC/n) + AV/n = nS + VC + AV/n, minimal at
// n* = √(AV/S) = 10 for A=1, V=100, S=1: 10 + 100C + 10 = 20 + 100C.
func TestLayerStrategy(t *testing.T) {
	p := &problem.Problem{Kind: topology.Binomial, P: 1, H: 1, S: 1, C: 0.01, A: 1, V: 100, D: math.Inf(1)}
	got, ok := closedform.LBLine(p)
	if !ok || math.Abs(got-21) > 1e-12 {
		t.Errorf("got %v %v, want 21", got, ok)
	}
	if _, ok := closedform.LBLine(&problem.Problem{Kind: topology.Star}); ok {
		t.Error("star has no layer strategy")
	}
}

// TestLBLayerAgreesWithOptimize is the test that would have caught the two
// LB closed forms of issue 11 disagreeing: sweep's lb_layer column and the
// LB strategy optimize reports (its paper pick) must be the same number,
// also when the buffer D binds. Here p=2, h=2, S=1e-3, C=1e-6, A=1e-3,
// V=1e4, D=10: layer 2 has P=6 processors, n* = √(AV/(2SP)) = 28.9, but a
// first hop carries 2α ≤ D, so n ≥ V/(5·6) → n_min = 334 (layer 1: α ≤ 10,
// n* = √(1e4/2) = 70.7 < n_min = 500). The old sweep formula used n = 29
// on layer 2 — chunks of 57.5 units, a first hop of 115 through a buffer
// of 10 — and reported 0.1205 s; with n = 334 the paper's formula gives
// 0.678 s on layer 2 and 0.515 s on layer 1 at n = 500, the pick.
func TestLBLayerAgreesWithOptimize(t *testing.T) {
	for _, d := range []float64{10, 1e3, math.Inf(1)} {
		p := problem.Problem{Kind: topology.Binomial, Order: topology.NLF, P: 2, H: 2, S: 1e-3, C: 1e-6, A: 1e-3, D: d, V: 1e4}
		row := SolvePoint(context.Background(), Point{Key: "k", Problem: p, Stages: Stages{Policy: StagesMin}}, nil, RunConfig{MaxStages: 1})
		layers, pick, err := closedform.LBStrategy(&p)
		if err != nil {
			t.Fatal(err)
		}
		if row.LBLayer == nil || float64(*row.LBLayer) != layers[pick].Paper {
			t.Fatalf("D=%g: sweep lb_layer %v, optimize's LB strategy %v", d, row.LBLayer, layers[pick].Paper)
		}
		// Every chunk of the strategy fits in the buffer: the first hop to
		// layer i carries FirstHopFactor(i)·V/(nP) ≤ D.
		for _, l := range layers {
			alpha := p.V / (float64(l.Stages) * l.Processors)
			if f := p.FirstHopFactor(l.Layer) * alpha; f > d*(1+1e-12) {
				t.Errorf("D=%g layer %d n=%d: first hop carries %g > D", d, l.Layer, l.Stages, f)
			}
		}
	}
	p := problem.Problem{Kind: topology.Binomial, Order: topology.NLF, P: 2, H: 2, S: 1e-3, C: 1e-6, A: 1e-3, D: 10, V: 1e4}
	got, _ := closedform.LBLine(&p)
	// Layer 1 at n = 500: n·(S + VC/(2n)) + AV/(2n) = 0.5 + 0.005 + 0.01 = 0.515.
	if want := 500*(1e-3+1e4*1e-6/(2*500.0)) + 1e-3*1e4/(2*500.0); math.Abs(got-want) > 1e-12 {
		t.Errorf("D=10: lb_layer %.12g, want %.12g (layer 1 at n_min=500)", got, want)
	}
}
