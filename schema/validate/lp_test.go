package validate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/optimize"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/sweep"
	"github.com/dlsched/dlsched/topology"
)

// sampleSeed draws the generated sample of the LP side's documents.
const sampleSeed = 31

// clpOptions returns the solve options of `dlsched solve` with Clp, or
// skips the test when Clp is not built in.
func clpOptions(t *testing.T) solve.Options {
	t.Helper()
	opt, done, err := solve.DefaultSettings().Options()
	if err != nil {
		t.Skipf("clp unavailable (%v): the sample of generated LP documents needs it", err)
	}
	t.Cleanup(done)
	return opt
}

// randomProblem draws a small problem of the given kind (0: star, 1:
// ordinary tree, 2: binomial tree, 3: heterogeneous star, with results
// half of the time), finite or unlimited buffers, and its stage count
// (n_min or one more).
func randomProblem(r *rand.Rand, kind int) (*problem.Problem, int) {
	p := &problem.Problem{S: 1e-3 * float64(r.IntN(3)), C: 1e-6 * (1 + 9*r.Float64()), A: 1e-3 * (1 + r.Float64()),
		V: math.Round(10 + 990*r.Float64()), D: math.Inf(1)}
	if r.IntN(2) == 0 {
		p.D = math.Round(p.V/float64(1+r.IntN(4))) + 1
	}
	switch kind {
	case 0:
		p.Kind, p.M = topology.Star, 2+r.IntN(4)
	case 1:
		p.Kind, p.P, p.H, p.Buffers, p.Order = topology.Tree, 2, 1+r.IntN(2), 1+r.IntN(2), topology.Order(r.IntN(2))
	case 2:
		p.Kind, p.P, p.H, p.Order = topology.Binomial, 2, 1+r.IntN(2), topology.Order(r.IntN(2))
	default:
		p.Kind, p.M, p.D = topology.Star, 2+r.IntN(3), math.Inf(1)
		for range p.M {
			p.Procs = append(p.Procs, schedule.Proc{S: 1e-3 * float64(r.IntN(3)), C: 1e-6 * (1 + 9*r.Float64()), A: 1e-3 * (1 + 3*r.Float64())})
		}
		if r.IntN(2) == 0 {
			p.ResultRatio, p.Return = 0.1+0.4*r.Float64(), problem.ReturnOrder(r.IntN(2))
		}
	}
	return p, p.NMin() + r.IntN(2)
}

// sampleSchedule solves a random problem of the kind as `dlsched solve`
// does; half of the heterogeneous stars ask the deadline form instead.
func sampleSchedule(t *testing.T, r *rand.Rand, kind int, opt solve.Options) *schedule.Schedule {
	t.Helper()
	for {
		p, n := randomProblem(r, kind)
		var res *solve.Result
		var err error
		if len(p.Procs) > 0 && r.IntN(2) == 0 {
			res, err = solve.MaxLoad(p, n, 0.05+0.5*r.Float64(), opt)
		} else {
			res, err = solve.Schedule(p, n, opt)
		}
		if solve.IsInfeasible(err) {
			continue // nothing finishes by the deadline: draw again
		}
		if err != nil {
			t.Fatalf("%+v n=%d: %v", p, n, err)
		}
		return res.Schedule
	}
}

// check validates one generated document against want's schema and counts
// it under want.
func check(t *testing.T, counts map[string]int, want string, write func(*bytes.Buffer) error) {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	if err := Document(b.Bytes(), want); err != nil {
		t.Errorf("%v\n%.2000s", err, b.String())
	}
	counts[want]++
}

// A seeded sample of 100 generated outputs of the LP side validates
// against their schemas (issue 31, item 1): 40 schedules (random stars,
// trees, binomial trees, heterogeneous stars with results and deadlines,
// solved by the library as `dlsched solve` does), 20 verify reports (10
// of those schedules, 10 of them made late so that the replay finds
// violations), 20 optimize reports (over n, D and the relay split) and 20
// sweep rows (a random grid with invalid points among them).
func TestGeneratedSample(t *testing.T) {
	opt := clpOptions(t)
	opt.Verify = true
	r := rand.New(rand.NewPCG(sampleSeed, 1))
	counts := map[string]int{}
	var scheds []*schedule.Schedule
	for i := range 40 {
		s := sampleSchedule(t, r, i%4, opt)
		scheds = append(scheds, s)
		check(t, counts, schema.Schedule, func(b *bytes.Buffer) error { return s.WriteJSON(b) })
	}
	kinds := map[string]int{}
	for _, s := range scheds {
		k := s.Problem.Topology
		if len(s.Problem.Procs) > 0 {
			k = "heterogeneous star"
		}
		kinds[k]++
		if s.Problem.ResultRatio > 0 {
			kinds["with results"]++
		}
		if s.Deadline > 0 {
			kinds["deadline form"]++
		}
	}
	t.Logf("schedules (seed %d): %v", sampleSeed, kinds)
	if len(kinds) < 6 {
		t.Errorf("the sample of schedules misses a kind: %v", kinds)
	}
	violations := 0
	for i, s := range scheds[:20] {
		if i%2 == 1 { // the first message 1 s late: the stated times disagree with the replay
			late := *s
			late.Chunks = append([]schedule.Chunk(nil), s.Chunks...)
			late.Chunks[0].Start++
			s = &late
		}
		v, err := replay.Verify(s, replay.Options{})
		if err != nil {
			t.Fatal(err)
		}
		violations += len(v.Violations)
		rep := replay.NewReport(s, v, 1+r.IntN(3))
		check(t, counts, schema.Verify, func(b *bytes.Buffer) error { return rep.WriteJSON(b) })
	}
	if violations == 0 {
		t.Error("no late schedule had a violation: the reports with violations went untested")
	}
	sampleOptimize(t, r, opt, counts)
	sampleRows(t, r, counts)
	want := map[string]int{schema.Schedule: 40, schema.Verify: 20, schema.Optimize: 20, schema.SweepRow: 20}
	for f, n := range want {
		if counts[f] != n {
			t.Errorf("%d documents of %s, want %d", counts[f], f, n)
		}
	}
}

// sampleOptimize validates 20 optimize reports: 12 searches over n, 4
// over D and 4 relay splits, on random problems.
func sampleOptimize(t *testing.T, r *rand.Rand, opt solve.Options, counts map[string]int) {
	t.Helper()
	base := optimize.Options{Solve: opt, NoTimings: true}
	for i := range 20 {
		p, _ := randomProblem(r, r.IntN(4))
		var rep optimize.Report
		switch {
		case i < 12:
			o := base
			o.NMax = p.NMin() + 1 + r.IntN(2)
			res, err := optimize.OverN(p, o)
			if err != nil {
				t.Fatal(err)
			}
			rep = optimize.NReport{P: p, R: res}
		case i < 16:
			p.D = math.Inf(1)
			res, err := optimize.OverD(p, optimize.DOptions{Options: base, DMin: p.V / 8, DMax: p.V, Points: 2, Refine: -1,
				Stages: optimize.StagesMin, Within: 0.01})
			if err != nil {
				t.Fatal(err)
			}
			rep = optimize.DReport{P: p, R: res}
		default:
			q := &problem.Problem{Kind: topology.Binomial, P: 2, H: 2, Order: topology.Order(r.IntN(2)), S: p.S, C: p.C, A: p.A, D: math.Inf(1), V: p.V}
			res, err := optimize.RelaySplit(q, optimize.SplitOptions{Options: base, Stages: optimize.StagesMin})
			if err != nil {
				t.Fatal(err)
			}
			rep = optimize.SplitReport{P: q, R: res}
		}
		check(t, counts, schema.Optimize, func(b *bytes.Buffer) error { return rep.WriteJSON(b) })
	}
}

// sampleRows runs a random sweep of 20 points (stars and binomial trees,
// random loads, a stage count below n_min for some: invalid rows) and
// validates every row of its results file.
func sampleRows(t *testing.T, r *rand.Rand, counts map[string]int) {
	t.Helper()
	var vs []string
	for range 5 {
		vs = append(vs, fmt.Sprint(math.Round(10+990*r.Float64())))
	}
	spec := fmt.Sprintf("[problem]\ntopology = [\"star\", \"binomial\"]\nm = [3]\np = [2]\nh = [2]\norder = [\"llf\"]\n"+
		"S = [%g]\nC = [1e-6]\nA = [1e-3]\nD = [%g, \"inf\"]\nV = [%s]\nstages = [%d]\n",
		1e-3*float64(r.IntN(3)), math.Round(20+100*r.Float64()), strings.Join(vs, ", "), 1+r.IntN(3))
	sp, err := sweep.Parse("sample.toml", spec)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if _, err := sweep.Run(context.Background(), sp, path, sweep.Options{Workers: 1, Run: sp.Run, NoTimings: true}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]int{}
	for _, st := range []string{sweep.StatusOptimal, sweep.StatusInvalid} {
		status[st] = bytes.Count(b, []byte(`"status":"`+st+`"`))
	}
	t.Logf("sweep rows: %v", status)
	for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if err := Document(line, schema.SweepRow); err != nil {
			t.Errorf("%v\n%s", err, line)
		}
		counts[schema.SweepRow]++
	}
}

// mutate decodes a JSON document, applies f to it and encodes it again.
func mutate(t *testing.T, doc []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// written returns what write writes.
func written(t *testing.T, write func(io.Writer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Broken documents of each LP format do not validate, each for the one
// thing broken in it: another major version, a required field missing, a
// value of the wrong type or out of range, a verdict that contradicts
// itself. The unbroken documents they come from validate.
func TestBrokenDocuments(t *testing.T) {
	opt := clpOptions(t)
	opt.Verify = true
	p := &problem.Problem{Kind: topology.Star, M: 3, S: 1e-3, C: 1e-6, A: 1e-3, D: 50, V: 100}
	res, err := solve.Schedule(p, p.NMin(), opt)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Schedule
	sched := written(t, s.WriteJSON)
	report := written(t, replay.NewReport(s, s.Verification, 0).WriteJSON)
	on, err := optimize.OverN(p, optimize.Options{Solve: opt, NMax: p.NMin() + 1, NoTimings: true})
	if err != nil {
		t.Fatal(err)
	}
	opti := written(t, optimize.NReport{P: p, R: on}.WriteJSON)
	c := schedule.Float(s.Cmax)
	row := written(t, func(b io.Writer) error {
		return sweep.WriteJSONL(b, []sweep.Row{{Key: "k", Problem: s.Problem, StagesPolicy: "min", Status: sweep.StatusOptimal,
			Cmax: &c, LowerBound: &c, Gap: new(schedule.Float), NMin: s.NMin, Pattern: "search 1,3"}})
	})
	for _, d := range []struct {
		name, format string
		doc          []byte
		broken       func(m map[string]any)
	}{
		{"schedule of major version 2", schema.Schedule, sched, func(m map[string]any) { m["format"] = "dlsched.schedule/2" }},
		{"schedule without chunks", schema.Schedule, sched, func(m map[string]any) { delete(m, "chunks") }},
		{"schedule with D = \"infinite\"", schema.Schedule, sched, func(m map[string]any) { m["problem"].(map[string]any)["D"] = "infinite" }},
		{"schedule with a negative load", schema.Schedule, sched, func(m map[string]any) { m["chunks"].([]any)[0].(map[string]any)["load"] = -1 }},
		{"verify report ok with a violation", schema.Verify, report, func(m map[string]any) { m["violation_count"] = 1 }},
		{"verify report without events", schema.Verify, report, func(m map[string]any) { delete(m, "events") }},
		{"optimize over n without its curve", schema.Optimize, opti, func(m map[string]any) { delete(m, "curve") }},
		{"optimize over \"m\"", schema.Optimize, opti, func(m map[string]any) { m["over"] = "m" }},
		{"optimal row without cmax", schema.SweepRow, row, func(m map[string]any) { delete(m, "cmax") }},
		{"row with pattern \"best\"", schema.SweepRow, row, func(m map[string]any) { m["pattern"] = "best" }},
		{"row with a string index", schema.SweepRow, row, func(m map[string]any) { m["index"] = "0" }},
	} {
		if err := Document(mutate(t, d.doc, func(map[string]any) {}), d.format); err != nil {
			t.Errorf("%s: the unbroken document does not validate: %v", d.name, err)
		}
		if err := Document(mutate(t, d.doc, d.broken), d.format); err == nil {
			t.Errorf("%s validated", d.name)
		}
	}
}
