package problem

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// New fills the defaults (order nlf, 1 buffer), ignores fields of other
// topologies and names the field of every refusal.
func TestNew(t *testing.T) {
	p, err := New(Input{Topology: "tree", P: 2, H: 3, S: 0, C: 1, A: 1, D: math.Inf(1), V: 10, M: 99})
	if err != nil || p.Kind != topology.Tree || p.Order != topology.NLF || p.Buffers != 1 || p.M != 0 {
		t.Fatalf("tree: %+v %v", p, err)
	}
	for _, c := range []struct {
		in    Input
		field string
	}{
		{Input{Topology: "ring"}, FieldTopology},
		{Input{Topology: "binomial", Order: "fifo", P: 2, H: 2}, FieldOrder},
		{Input{Topology: "star", M: 0, C: 1, A: 1, D: 1, V: 1}, FieldM},
		{Input{Topology: "star", M: 100001, C: 1, A: 1, D: 1, V: 1}, FieldM},
		{Input{Topology: "tree", P: 2, H: 2, Buffers: 3, C: 1, A: 1, D: 1, V: 1}, FieldBuffers},
		{Input{Topology: "star", M: 2, C: 1, A: 1, D: math.Inf(-1), V: 1}, FieldD},
		{Input{Topology: "star", M: 2, C: 1, A: 1, D: 1, V: math.NaN()}, FieldV},
		{Input{Topology: "star", M: 2, Procs: []schedule.Proc{{S: 0, C: 1, A: 1}, {S: 0, C: 0, A: 0}}, D: 1, V: 1}, "C (processor 2)"},
		{Input{Topology: "star", M: 2, Procs: []schedule.Proc{{S: 0, C: 1, A: 1}, {S: 0, C: -1, A: 1}}, D: 1, V: 1}, "C (processor 2)"},
		{Input{Topology: "star", M: 1, C: 1, A: 1, D: 1, V: 1, ResultRatio: -1}, FieldResultRatio},
		{Input{Topology: "star", M: 1, C: 1, A: 1, D: 1, V: 1, ResultRatio: 1, Return: "random"}, FieldReturn},
		{Input{Topology: "tree", P: 2, H: 2, C: 1, A: 1, D: 1, V: 1, ResultRatio: 0.5}, FieldResultRatio},
	} {
		_, err := New(c.in)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%+v: %v, want a FieldError on %q", c.in, err, c.field)
		}
	}
}

// FromSchedule reads a schedule's problem as the replay does (m from
// procs, 2 buffers when a tree states none) and checks a stated stage
// count.
func TestFromSchedule(t *testing.T) {
	s := &schedule.Schedule{Problem: schedule.Problem{Topology: "tree", P: 2, H: 2, C: 1, A: 1, D: schedule.Float(math.Inf(1)), V: 1}}
	if p, err := FromSchedule(s); err != nil || p.Buffers != 2 {
		t.Fatalf("tree without buffers: %+v %v", p, err)
	}
	s = &schedule.Schedule{Problem: schedule.Problem{Topology: "star", Procs: []schedule.Proc{{C: 1, A: 1}, {C: 1, A: 2}}, D: 1, V: 1}}
	if p, err := FromSchedule(s); err != nil || p.M != 2 {
		t.Fatalf("star from procs: %+v %v", p, err)
	}
	r, err := schedule.ReadJSON(strings.NewReader(`{"problem":{"topology":"star","m":2,"S":0,"C":1,"A":1,"D":1,"V":1,"stages":0},"chunks":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	var fe *FieldError
	if _, err := FromSchedule(r); !errors.As(err, &fe) || fe.Field != FieldStages {
		t.Errorf("stated stages 0: %v", err)
	}
	r, _ = schedule.ReadJSON(strings.NewReader(`{"problem":{"topology":"star","m":2,"S":0,"C":1,"A":1,"D":1,"V":1},"chunks":[]}`))
	if _, err := FromSchedule(r); err != nil {
		t.Errorf("no stages stated: %v", err)
	}
}

// ParseNumber reads inf only where allowed and never NaN; errors name the
// field and render as flags through Format.
func TestParseAndFormat(t *testing.T) {
	if v, err := ParseFloat(FieldD, " Infinity "); err != nil || !math.IsInf(v, 1) {
		t.Errorf("D inf: %v %v", v, err)
	}
	for _, s := range []string{"inf", "nan", "-inf", "", "x"} {
		_, err := ParseFloat(FieldV, s)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != FieldV {
			t.Errorf("V %q: %v", s, err)
		}
	}
	e := &FieldError{Field: "DMax", Value: "5", Want: "a finite number > {DMin} 10"}
	if got := e.Error(); got != "invalid DMax 5: want a finite number > DMin 10" {
		t.Errorf("Error: %q", got)
	}
	flag := func(f string) string { return "--" + strings.ToLower(f[:1]) + f[1:] }
	if got := e.Format(flag); got != "invalid --dMax 5: want a finite number > --dMin 10" {
		t.Errorf("Format: %q", got)
	}
	p := &Problem{Kind: topology.Star, M: 2, C: 1, A: 1, D: 1, V: 3}
	var se *StagesError
	if err := p.CheckStages(1); !errors.As(err, &se) || se.NMin != 2 || strings.Contains(err.Error(), "--") {
		t.Errorf("stages below n_min: %v", err)
	}
}

// The replay's rules (FromScheduleRelaxed) accept what only they may —
// C, A or V of 0, a stated stage count of 0 — and refuse the rest with the
// same field as the strict rules; the strict rules refuse all of it.
func TestFromScheduleRelaxed(t *testing.T) {
	base := func() *schedule.Schedule {
		return &schedule.Schedule{Problem: schedule.Problem{Topology: "star", M: 2, S: 0, C: 1, A: 1, D: 1, V: 1}}
	}
	for _, c := range []struct {
		name  string
		edit  func(*schedule.Problem)
		field string // the field both refuse; "" if only the strict rules do
	}{
		{"C=0", func(p *schedule.Problem) { p.C = 0 }, ""},
		{"A=0", func(p *schedule.Problem) { p.A = 0 }, ""},
		{"V=0", func(p *schedule.Problem) { p.V = 0 }, ""},
		{"proc C=A=0", func(p *schedule.Problem) { p.Procs = []schedule.Proc{{C: 0, A: 0}, {C: 1, A: 0}} }, ""},
		{"V<0", func(p *schedule.Problem) { p.V = -1 }, FieldV},
		{"C NaN", func(p *schedule.Problem) { p.C = math.NaN() }, FieldC},
		{"A Inf", func(p *schedule.Problem) { p.A = math.Inf(1) }, FieldA},
		{"S<0", func(p *schedule.Problem) { p.S = -1 }, FieldS},
		{"D=0", func(p *schedule.Problem) { p.D = 0 }, FieldD},
		{"m=0", func(p *schedule.Problem) { p.M = 0 }, FieldM},
	} {
		s := base()
		c.edit(&s.Problem)
		_, strictErr := FromSchedule(s)
		_, relaxedErr := FromScheduleRelaxed(s)
		if strictErr == nil {
			t.Errorf("%s: the strict rules accept it", c.name)
		}
		var fe *FieldError
		switch {
		case c.field == "" && relaxedErr != nil:
			t.Errorf("%s: the replay's rules refuse it: %v", c.name, relaxedErr)
		case c.field != "" && (!errors.As(relaxedErr, &fe) || fe.Field != c.field):
			t.Errorf("%s: replay's rules: %v, want a FieldError on %q", c.name, relaxedErr, c.field)
		}
	}
	if _, err := FromScheduleRelaxed(base()); err != nil {
		t.Errorf("a valid problem refused: %v", err)
	}
}

// Integers may be written in exponent form when the value is integral
// (issue 27: -M 1e9, the documented maximum, was refused as "want an
// integer"); fractions and values beyond 2^53 are still refused.
func TestParseIntExponent(t *testing.T) {
	for s, want := range map[string]int{"1e9": 1000000000, " 12 ": 12, "3.0": 3, "-2e1": -20, "9007199254740992": 1 << 53} {
		got, err := ParseInt("M", s)
		if err != nil || got != want {
			t.Errorf("ParseInt(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"1.5", "1e300", "inf", "NaN", "", "x"} {
		if _, err := ParseInt("M", s); err == nil {
			t.Errorf("ParseInt(%q) accepted", s)
		}
	}
}

// A heterogeneous star's processor may have C = 0 (a free link) or A = 0
// (free computing), as the closed forms of docs/heterogeneous.md use, and
// β and the return order reach the schedule's problem and back.
func TestZeroRatesAndResults(t *testing.T) {
	p, err := New(Input{Topology: "star", M: 2, Procs: []schedule.Proc{{S: 2, C: 0, A: 1}, {S: 0, C: 1, A: 0}},
		D: math.Inf(1), V: 10, ResultRatio: 0.5, Return: "lifo"})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Returns() || p.Return != ReturnLIFO {
		t.Fatalf("%+v", p)
	}
	sp := p.ScheduleProblem(1)
	if sp.ResultRatio != 0.5 || sp.Return != "lifo" {
		t.Fatalf("schedule problem %+v", sp)
	}
	q, err := FromSchedule(&schedule.Schedule{Problem: sp})
	if err != nil || q.ResultRatio != 0.5 || q.Return != ReturnLIFO {
		t.Fatalf("back: %+v %v", q, err)
	}
	if lb := p.LowerBoundLB(); !(lb >= 0) || math.IsInf(lb, 0) {
		t.Errorf("trivial bound with A = 0: %g", lb)
	}
}
