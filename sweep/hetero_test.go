package sweep

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// heteroSpec sweeps issue 30's canonical five-worker star: the load, the
// results (none, β = 0.1 both ways) and two deadlines.
const heteroSpec = `
[[problem]]
label = "load"
topology = "star"
procs = ["0:.23:.12", "0:.11:.23", "0:.11:.11", "0:.11:.31", "0:.11:.11"]
D = "inf"
V = 1e6
result_ratio = [0, 0.1]
return = ["fifo", "lifo"]

[[problem]]
label = "deadline"
topology = "star"
procs = ["2:0:1"]
D = "inf"
deadline = [12, 20]
`

// A sweep of heterogeneous stars searches the worker order as `dlsched
// solve` does (the canonical instance: 120,296.70, exact), returns
// results, and answers the deadline form (one worker S = 2, C = 0, A = 1:
// max_load = T − 2), with the new columns in the CSV; run.worker_order =
// "given" keeps 125,689.14.
func TestHeterogeneousSweep(t *testing.T) {
	sp := mustParse(t, heteroSpec)
	pts := sp.Points()
	if len(pts) != 5 { // β = 0 once (its order does not apply), β = 0.1 twice, two deadlines
		t.Fatalf("%d points: %+v", len(pts), pts)
	}
	if !strings.Contains(pts[0].Key, "procs=0:0.23:0.12,0:0.11:0.23,0:0.11:0.11,0:0.11:0.31,0:0.11:0.11 D=inf V=1e+06 stages=min") ||
		!strings.Contains(pts[1].Key, "result_ratio=0.1 return=fifo") || !strings.Contains(pts[3].Key, "D=inf deadline=12 stages=min") {
		t.Errorf("keys: %q %q %q", pts[0].Key, pts[1].Key, pts[3].Key)
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if _, err := Run(context.Background(), sp, path, Options{Workers: 2, Run: sp.Run}); err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, path)
	SortRows(rows)
	plain := rows[0]
	if plain.Cmax == nil || math.Abs(float64(*plain.Cmax)-120296.70) > 0.005 || plain.WorkerOrderMethod != "exact" || plain.Verification == nil || !plain.Verification.OK {
		t.Errorf("canonical row %+v", plain)
	}
	for _, r := range rows[1:3] {
		if r.Status != StatusOptimal || r.Problem.ResultRatio != 0.1 || float64(*r.Cmax) <= float64(*plain.Cmax) || !r.Verification.OK {
			t.Errorf("results row %+v", r)
		}
	}
	for i, dl := range []float64{12, 20} {
		r := rows[3+i]
		if r.MaxLoad == nil || math.Abs(float64(*r.MaxLoad)-(dl-2)) > 1e-9 || float64(*r.Deadline) != dl || r.Problem.V != float64(*r.MaxLoad) {
			t.Errorf("deadline %g: row %+v", dl, r)
		}
	}
	rec := RowRecords(rows).Rows[3]
	if rec["deadline"] != "12" || rec["max_load"] != "10" || rec["procs"] != "2:0:1" || rec["worker_order"] != "1" {
		t.Errorf("CSV cells %v", rec)
	}
	sp.Run.WorkerOrder = "given"
	given := SolvePoint(context.Background(), pts[0], newClp(t), sp.Run)
	if math.Abs(float64(*given.Cmax)-125689.14) > 0.005 || given.WorkerOrderMethod != "given" {
		t.Errorf("given order: %+v", given)
	}
}

// The heterogeneous keys are refused where they do not apply.
func TestHeterogeneousSpecErrors(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{`[problem]
topology = ["star", "tree"]
procs = ["0:1:1"]
p = 2
h = 2
D = 1
V = 1`, "problem.procs: per-processor parameters need topology star alone"},
		{`[problem]
topology = "star"
procs = ["0:1:1"]
m = 1
D = 1
V = 1`, "problem.m: not used with procs"},
		{`[problem]
topology = "star"
procs = ["0:1:1"]
S = 1
D = 1
V = 1`, "problem.S: not used with procs"},
		{`[problem]
topology = "star"
procs = ["0:1"]
D = 1
V = 1`, `problem.procs[1]: value 0:1: want "S:C:A" numbers`},
		{`[problem]
topology = "star"
procs = ["0:0:0"]
D = 1
V = 1`, "problem.procs: value 0:0:0: want C > 0 or A > 0"},
		{`[problem]
topology = "tree"
p = 2
h = 2
S = 0
C = 1
A = 1
D = 1
V = 1
result_ratio = 0.5`, "problem.result_ratio: value 0.5: want 0 for a tree"},
		{`[problem]
topology = "star"
m = 2
S = 0
C = 1
A = 1
D = 1
V = 1
deadline = 5`, "problem.V: give V or deadline, not both"},
		{`[problem]
topology = "star"
m = 2
S = 0
C = 1
A = 1
D = 1
deadline = 0`, "problem.deadline: value 0: want a finite time > 0"},
		{`[problem]
topology = "star"
m = 2
S = 0
C = 1
A = 1
D = 1
V = 1
return = "random"`, `problem.return: value random: want "fifo" or "lifo"`},
		{`[problem]
topology = "star"
m = 2
S = 0
C = 1
A = 1
D = 1
V = 1
[run]
worker_order = "best"`, `run.worker_order: value best: want "search" or "given"`},
	} {
		_, err := Parse("x.toml", c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\n: %v, want %q", c.spec, err, c.want)
		}
	}
}
