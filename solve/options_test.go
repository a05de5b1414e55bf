package solve

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/internal/testutil"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/gonumlp"
	"github.com/dlsched/dlsched/topology"
)

// TestSettingsRefusals: each bad setting is a *problem.FieldError naming
// it in the library's words, checked in the order form, algorithm,
// tolerance, memory, solver, before any solver is opened.
func TestSettingsRefusals(t *testing.T) {
	ok := Settings{Solver: "gonum", Algorithm: "auto", Form: "compact", Tolerance: 1e-9, MaxMemoryMB: 1024}
	for _, c := range []struct {
		field string
		edit  func(*Settings)
	}{
		{FieldForm, func(s *Settings) { s.Form, s.Algorithm = "printed", "fast" }},
		{FieldAlgorithm, func(s *Settings) { s.Algorithm, s.Tolerance = "fast", 2 }},
		{FieldTolerance, func(s *Settings) { s.Tolerance, s.MaxMemoryMB = 1, 1 }},
		{FieldTolerance, func(s *Settings) { s.Tolerance = 0 }},
		{FieldMaxMemoryMB, func(s *Settings) { s.MaxMemoryMB, s.Solver = MinMemoryMB-1, "cplex" }},
		{FieldMaxMemoryMB, func(s *Settings) { s.MaxMemoryMB = MaxMemoryMB + 1 }},
		{FieldSolver, func(s *Settings) { s.Solver = "cplex" }},
	} {
		st := ok
		c.edit(&st)
		_, done, err := st.Options()
		var fe *problem.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || done != nil {
			t.Errorf("%+v: %v, want a FieldError on %s and no solver", st, err, c.field)
		}
	}
	opt, done, err := ok.Options()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if opt.Solver.Name() != "gonum" || opt.MaxModelBytes != 1024<<20 || opt.VerifyMaxBytes != opt.MaxModelBytes {
		t.Errorf("options %+v: want gonum, 1024 MB for the LP and the replay", opt)
	}
}

// TestDefaultSettings: the defaults are valid and give clp, the measured
// first algorithm and the 4 GiB limit.
func TestDefaultSettings(t *testing.T) {
	opt, done, err := DefaultSettings().Options()
	if err != nil {
		t.Skipf("clp unavailable: %v", err)
	}
	defer done()
	if opt.Solver.Name() != "clp" || opt.Algorithm != "auto" || opt.MaxModelBytes != DefaultMaxModelBytes || opt.Tolerance != DefaultTolerance {
		t.Errorf("default options %+v", opt)
	}
}

// TestOptionsToEngine: the names become the engine's settings; "" keeps
// the backend's default first attempt (dual simplex, Auto off), as a
// zero engine.Options did.
func TestOptionsToEngine(t *testing.T) {
	for _, c := range []struct {
		alg, form string
		auto      bool
		want      solver.Algorithm
		f         formulations.Form
	}{
		{"", "", false, solver.Dual, formulations.FormCompact},
		{"auto", "compact", true, solver.Dual, formulations.FormCompact},
		{"primal", "paper", false, solver.Primal, formulations.FormPaper},
		{"barrier", "chain", false, solver.Barrier, formulations.FormChain},
		{"dual", "", false, solver.Dual, formulations.FormCompact},
	} {
		o := Options{Algorithm: c.alg, Form: c.form, Tolerance: 1e-7, MaxModelBytes: 1 << 30, NoPrune: true}
		eo, err := o.engine()
		if err != nil {
			t.Fatal(err)
		}
		if eo.Auto != c.auto || eo.Base.Algorithm != c.want || eo.Form != c.f || eo.Tolerance != 1e-7 || eo.MaxModelBytes != 1<<30 || !eo.NoPrune {
			t.Errorf("%q %q: engine options %+v", c.alg, c.form, eo)
		}
	}
}

// TestSolverNames: the backends --solver offers, and an unknown one.
func TestSolverNames(t *testing.T) {
	if got := SolverNames(); !slices.Equal(got, []string{"clp", "highs", "gonum", "auto"}) {
		t.Errorf("SolverNames %v", got)
	}
	if _, _, err := NewSolver("cplex"); err == nil || !strings.Contains(err.Error(), "want clp, highs, gonum or auto") {
		t.Errorf("NewSolver(cplex): %v", err)
	}
}

// TestErrorsKeepTheirMessage: the engine's size refusal and the exact
// MILP's are this package's types with the engine's and the pattern
// search's messages unchanged, and IsInfeasible sees an infeasible LP
// through wrapping.
func TestErrorsKeepTheirMessage(t *testing.T) {
	big := &problem.Problem{Kind: topology.Star, M: 1000, S: 1, C: 1, A: 1, D: 1, V: 1e6}
	opt := Options{Solver: &Solver{lp: gonumlp.New()}, MaxModelBytes: 1 << 20}
	_, err := Schedule(big, 1000, opt)
	var ze *SizeError
	want := engine.CheckSize(big, 1000, engine.Options{MaxModelBytes: 1 << 20})
	if !errors.As(err, &ze) || err.Error() != want.Error() || ze.Bytes <= ze.Limit {
		t.Errorf("Schedule over the limit: %v, want a *SizeError saying %q", err, want)
	}
	star := &problem.Problem{Kind: topology.Star, M: 10, S: 1, C: 1, A: 1, D: math.Inf(1), V: 1}
	_, err = Schedule(star, 5, Options{Solver: &Solver{lp: gonumlp.New()}, Pattern: "exact"})
	var xe *ExactSizeError
	if !errors.As(err, &xe) || xe.Messages != 50 || !strings.Contains(err.Error(), "50 messages, more than 40") {
		t.Errorf("exact MILP of 50 messages: %v", err)
	}
	inf := fmt.Errorf("engine: star LP with 4 messages: %w", &solver.StatusError{Solver: "clp", Status: solver.Infeasible})
	if !IsInfeasible(inf) || IsInfeasible(err) {
		t.Errorf("IsInfeasible: %v for %v, %v for %v", IsInfeasible(inf), inf, IsInfeasible(err), err)
	}
}

// TestModelExport: WriteModel writes the engine's model byte for byte,
// and ModelBytes is the engine's estimate.
func TestModelExport(t *testing.T) {
	p := &problem.Problem{Kind: topology.Star, M: 3, S: 1e-3, C: 1e-6, A: 1e-3, D: 100, V: 1000}
	for _, lpFormat := range []bool{false, true} {
		var a, b bytes.Buffer
		if err := WriteModel(&a, p, 4, Options{Form: "paper"}, lpFormat); err != nil {
			t.Fatal(err)
		}
		if err := engine.WriteModel(&b, p, 4, engine.Options{Form: formulations.FormPaper}, lpFormat); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() || a.Len() == 0 {
			t.Errorf("lp=%v: the export differs from the engine's model", lpFormat)
		}
	}
	got, err := ModelBytes(p, 4, Options{})
	if want := engine.ModelBytes(p, 4, formulations.FormCompact); err != nil || got != want || got <= 0 {
		t.Errorf("ModelBytes %d (%v), engine %d", got, err, want)
	}
	if _, err := ModelBytes(p, 4, Options{Form: "printed"}); err == nil {
		t.Error("ModelBytes accepted an unknown form")
	}
}

// TestSequence: a warm-start engine exists only for a solver that
// re-solves from a basis and the compact form; its outcomes are the
// certified unpruned optimum, as Greedy without pruning finds it cold
// (within the certified tolerance).
func TestSequence(t *testing.T) {
	p := &problem.Problem{Kind: topology.Star, M: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 100, V: 1000}
	if NewSequence(p, Options{Solver: &Solver{lp: gonumlp.New()}}) != nil {
		t.Error("a Sequence on gonum, which cannot re-solve from a basis")
	}
	clp := &Solver{lp: testutil.Clp(t)}
	if NewSequence(p, Options{Solver: clp, Form: "paper"}) != nil {
		t.Error("a Sequence in the paper form")
	}
	seq := NewSequence(p, Options{Solver: clp, Algorithm: "auto"})
	if seq == nil {
		t.Fatal("no Sequence on clp")
	}
	defer seq.Close()
	other := &Solver{lp: testutil.Clp(t)} // the cold solves': the Sequence keeps its model loaded in clp
	for n := p.NMin(); n <= p.NMin()+3; n++ {
		out, warm, ok := seq.Solve(n)
		if !ok || warm != (n > p.NMin()) {
			t.Fatalf("n=%d: ok %v warm %v", n, ok, warm)
		}
		cold, err := Greedy(p, n, Options{Solver: other, Algorithm: "auto", NoPrune: true})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(out.Cmax-cold.Cmax) > 2*DefaultTolerance*cold.Cmax || out.LowerBound > out.Cmax || out.StagesUsed < 1 {
			t.Errorf("n=%d: warm %+v, cold Cmax %.15g", n, out, cold.Cmax)
		}
	}
}
