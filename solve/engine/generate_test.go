package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// generationCases are the instances of the stage-generation tests:
// stars (the paper's with D = V/n, without a buffer limit, without
// startup, heterogeneous) and binomial trees.
var generationCases = []struct {
	name string
	p    *problem.Problem
	n    int
}{
	{"star D=V/n", &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: 5e6 / 200}, 200},
	{"star D=inf", &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: math.Inf(1)}, 150},
	{"star S=0", &problem.Problem{Kind: topology.Star, M: 8, S: 0, C: 1e-6, A: 1e-3, V: 1e5, D: 1e3}, 200},
	{"heterogeneous star", &problem.Problem{Kind: topology.Star, M: 4, V: 1e5, D: 1e3, Procs: []schedule.Proc{
		{S: 1e-3, C: 1e-6, A: 1e-3}, {S: 2e-3, C: 2e-6, A: 1e-3}, {S: 1e-3, C: 1e-6, A: 3e-3}, {S: 5e-4, C: 4e-6, A: 2e-3}}}, 300},
	{"binomial nlf", &problem.Problem{Kind: topology.Binomial, Order: topology.NLF, P: 2, H: 5, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e5, D: 1e3}, 300},
	{"binomial llf", &problem.Problem{Kind: topology.Binomial, Order: topology.LLF, P: 3, H: 4, S: 1e-3, C: 1e-6, A: 1e-3, V: 1e5, D: math.Inf(1)}, 300},
}

// Stage generation gives the full LP's optimum: on each instance the
// schedule of the generated solve and that of the full LP solved at once
// (the second, independent computation) are both certified within the
// tolerance against the full LP, so their makespans agree within it; the
// generated solve's last restricted LP holds fewer messages than the
// pattern. On stars the first restricted LP is solved from the crash basis
// and ends optimal.
func TestStageGenerationMatchesFullLP(t *testing.T) {
	s := newClp(t)
	for _, c := range generationCases {
		t.Run(c.name, func(t *testing.T) {
			gen, err := Solve(c.p, c.n, Options{Solver: s, Auto: true, NoPrune: true})
			if err != nil {
				t.Fatal(err)
			}
			full, err := Solve(c.p, c.n, Options{Solver: s, Auto: true, NoPrune: true, NoStageGeneration: true})
			if err != nil {
				t.Fatal(err)
			}
			if !gen.Solve.Certified || !full.Solve.Certified {
				t.Fatalf("certified: generated %v (gap %.3g), full %v (gap %.3g)", gen.Solve.Certified, gen.Gap, full.Solve.Certified, full.Gap)
			}
			if d := relDiff(gen.Cmax, full.Cmax); d > 2*DefaultTolerance {
				t.Errorf("Cmax generated %.15g, full LP %.15g: relative difference %.3g", gen.Cmax, full.Cmax, d)
			}
			first := gen.Solve.Attempts[0]
			if crash := strings.Contains(first.Algorithm, "crash start"); crash != (c.p.Kind == topology.Star) || first.Status != "optimal" {
				t.Errorf("first attempt %s %s: want an optimal crash start on stars only", first.Algorithm, first.Status)
			}
			msgs := c.n * len(c.p.Dests())
			last := gen.Solve.Attempts[len(gen.Solve.Attempts)-1].Messages
			if last == 0 || last >= msgs {
				t.Errorf("last restricted LP has %d messages of %d: stage generation not used", last, msgs)
			}
			if gen.Solve.Variables != full.Solve.Variables {
				t.Errorf("reported LP size %d variables, full LP %d: the full LP's size must be reported", gen.Solve.Variables, full.Solve.Variables)
			}
			t.Logf("Cmax %.12g, gap %.2g; %d restricted LPs, the last with %d of %d messages", gen.Cmax, gen.Gap, len(gen.Solve.Attempts), last, msgs)
		})
	}
}

// The general restricted LP (every hop kept, as on ordinary trees, where
// stage generation is not the default) also reaches the full LP's
// certified optimum, 1- and 2-buffer trees included.
func TestStageGenerationTrees(t *testing.T) {
	s := newClp(t)
	for _, p := range []*problem.Problem{
		{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 4, S: 1e-3, C: 1e-6, A: 1e-3, V: 1e5, D: 1e3},
		{Kind: topology.Tree, Order: topology.LLF, Buffers: 2, P: 2, H: 4, S: 1e-3, C: 1e-6, A: 1e-3, V: 1e5, D: 1e3},
	} {
		n := 150
		pat := formulations.FullPattern(p, n)
		nw, err := formulations.NewNetwork(p, pat)
		if err != nil {
			t.Fatal(err)
		}
		sc := formulations.NewScale(p)
		model, lay := nw.Build(formulations.FormCompact, sc)
		live := make([]bool, len(pat))
		for j, m := range pat {
			live[j] = m.Stage <= p.NMin()+2
		}
		out := &Outcome{Network: nw, Model: model, Cmax: math.Inf(1), LowerBound: math.Inf(-1)}
		ok, err := out.generate(nw, model, lay, sc, live, Options{Solver: s, Auto: true})
		if err != nil || !ok {
			t.Fatalf("buffers %d: generation ok=%v err=%v, gap %.3g", p.Buffers, ok, err, out.Gap())
		}
		full, err := Solve(p, n, Options{Solver: s, Auto: true, NoPrune: true})
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(out.Cmax, full.Cmax); d > 2*DefaultTolerance || !full.Solve.Certified {
			t.Errorf("buffers %d: Cmax generated %.15g, full LP %.15g (certified %v): relative difference %.3g", p.Buffers, out.Cmax, full.Cmax, full.Solve.Certified, d)
		}
	}
}

// The crash basis of a star's restricted LP is a square basis: one basic
// entry per row (every hop time, suffix sum and Cmax, the load that
// completes V, every computing row's slack but one), so Clp need not
// repair it.
func TestCrashBasisIsSquare(t *testing.T) {
	for _, c := range generationCases {
		if c.p.Kind != topology.Star {
			continue
		}
		pat := formulations.FullPattern(c.p, c.n)
		nw, err := formulations.NewNetwork(c.p, pat)
		if err != nil {
			t.Fatal(err)
		}
		live := initialLive(c.p, pat, Options{Form: formulations.FormCompact})
		if live == nil {
			t.Fatalf("%s: no stage generation at n = %d", c.name, c.n)
		}
		rm, rlay := nw.BuildRestricted(formulations.NewScale(c.p), live)
		if basic := crashBasis(nw, rm, rlay).NumBasic(); basic != rm.NumRows() {
			t.Errorf("%s: %d basic entries for %d rows", c.name, basic, rm.NumRows())
		}
	}
}

// From the crash basis the first restricted LP takes a few dozen
// iterations where the slack basis takes about two per message: star
// m = 10, D = V/n, n = 500, 640 messages: 52 from the crash basis, 1,249
// from the slack basis (measured on 2026-11-26).
func TestCrashStartIterations(t *testing.T) {
	p := &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: 5e6 / 500}
	out, err := Solve(p, 500, Options{Solver: newClp(t), Auto: true, NoPrune: true})
	if err != nil {
		t.Fatal(err)
	}
	first := out.Solve.Attempts[0]
	if !strings.Contains(first.Algorithm, "crash start") || first.Iterations > first.Messages/10 {
		t.Errorf("first attempt %s: %d iterations for %d messages; want a crash start of at most one per ten", first.Algorithm, first.Iterations, first.Messages)
	}
}

// A crash start that fails is recorded and the restricted LP solved cold:
// the schedule is the same optimum, certified.
func TestCrashStartFallsBackCold(t *testing.T) {
	c := generationCases[0]
	out, err := Solve(c.p, c.n, Options{Solver: failingResolve{newRestarter(t)}, Auto: true, NoPrune: true})
	if err != nil {
		t.Fatal(err)
	}
	at := out.Solve.Attempts
	if len(at) < 2 || !strings.Contains(at[0].Algorithm, "crash start") || at[1].Algorithm != "primal" {
		t.Fatalf("attempts %+v: want the failed crash start, then the cold primal simplex", at)
	}
	if !out.Solve.Certified {
		t.Fatalf("not certified after the cold solve: gap %.3g", out.Gap)
	}
}

// The deadline LP started from its crash basis (deadlineCrash) reaches
// the cold solve's optimum (the second, independent computation): the same
// largest load to the tolerance, and a certified upper bound at or above
// it; the crash basis is square. Measured on 2026-11-27: the crash start
// is taken on the first and third instance (62 and 69 iterations, gaps
// 9e-11 and 3e-11); on the second (D = ∞) its load 999944.45169 is above
// its own certified bound 999944.44446, so MaxLoad solves cold, as it
// must. Each has at least formulations.GenerationMinMessages messages.
// Which path MaxLoad took is asserted by counting its cold solves.
func TestDeadlineCrashMatchesCold(t *testing.T) {
	rs := newRestarter(t)
	for _, c := range []struct {
		p        *problem.Problem
		n        int
		deadline float64
		crash    bool // whether MaxLoad takes the crash start's answer
	}{
		{&problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: 1e4}, 500, 500, true},
		{&problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: math.Inf(1)}, 150, 100, false},
		{generationCases[3].p, 300, 30, true},
	} {
		pat := formulations.FullPattern(c.p, c.n)
		counted := &coldCounter{Restarter: rs}
		warm, wUp, err := MaxLoad(c.p, pat, c.deadline, Options{Solver: counted, Auto: true})
		if err != nil {
			t.Fatal(err)
		}
		if tookCrash := counted.cold == 0; tookCrash != c.crash {
			t.Errorf("deadline %g: crash start taken %v (%d cold solves), want %v", c.deadline, tookCrash, counted.cold, c.crash)
		}
		cold, cUp, err := MaxLoad(c.p, pat, c.deadline, Options{Solver: noRestart{rs}, Auto: true})
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(warm, cold); d > 2*DefaultTolerance || wUp < warm*(1-1e-9) || cUp < cold*(1-1e-9) {
			t.Errorf("deadline %g: load %.15g (bound %.15g) from the crash basis, %.15g (bound %.15g) cold: relative difference %.3g", c.deadline, warm, wUp, cold, cUp, d)
		}
		nw, _ := formulations.NewNetwork(c.p, pat)
		model, lay, _ := deadlineModel(nw, c.deadline)
		if basic := deadlineCrash(nw, model, lay, c.deadline).NumBasic(); basic != model.NumRows() {
			t.Errorf("deadline %g: crash basis with %d basic entries for %d rows", c.deadline, basic, model.NumRows())
		}
	}
}

// coldCounter counts the cold solves (Solve) made through a Restarter; a
// crash start goes through Load, SetBasis and Resolve instead.
type coldCounter struct {
	solver.Restarter
	cold int
}

// Solve counts the call and solves with the wrapped solver.
func (c *coldCounter) Solve(m *lp.Model, o solver.Options) (*solver.Solution, error) {
	c.cold++
	return c.Restarter.Solve(m, o)
}

// A star LP that stage generation leaves whole — n = n_min, where the
// first 1.25·n_min + 2 stages are every stage, and a pruned pattern whose
// first stages hold it all (as the deadline form's does) — starts from the
// crash basis too when Options.CrashWhole asks for it (crashWhole): its first attempt is the crash start,
// certified, and its makespan the cold solve's (the second, independent
// computation) to the tolerance. A pattern of fewer than
// formulations.GenerationMinMessages messages is solved cold as before.
// (The deadline form's own pruned pattern, star m = 10, 1,004 of 3,000
// stages: 54 iterations from the crash basis against 20,171 cold.)
func TestCrashWholeMatchesCold(t *testing.T) {
	rs := newRestarter(t)
	star := func(v float64) *problem.Problem {
		return &problem.Problem{Kind: topology.Star, M: 4, S: 1e-3, C: 1e-6, A: 1e-3, V: v, D: 1000}
	}
	big := star(1e6) // n_min = 250
	var pruned formulations.Pattern
	for _, m := range formulations.FullPattern(big, 1000) {
		if m.Stage <= 260 {
			pruned = append(pruned, m)
		}
	}
	for _, c := range []struct {
		name  string
		p     *problem.Problem
		pat   formulations.Pattern
		crash bool
	}{
		{"n = n_min = 250", big, formulations.FullPattern(big, 250), true},
		{"260 stages of 1,000", big, pruned, true},
		{"n = n_min = 249 (996 messages)", star(9.96e5), formulations.FullPattern(star(9.96e5), 249), false},
	} {
		opt := Options{Solver: rs, Auto: true, NoPrune: true, CrashWhole: true}
		warm, err := SolvePattern(c.p, c.pat, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Solver = noRestart{rs}
		cold, err := SolvePattern(c.p, c.pat, opt)
		if err != nil {
			t.Fatal(err)
		}
		took := strings.Contains(warm.Attempts[0].Algorithm, "crash start")
		if took != c.crash || len(warm.Attempts) != 1 && c.crash {
			t.Errorf("%s: attempts %+v, want the crash start alone: %v", c.name, warm.Attempts, c.crash)
		}
		if warm.Gap() > DefaultTolerance || relDiff(warm.Cmax, cold.Cmax) > 2*DefaultTolerance {
			t.Errorf("%s: Cmax %.15g (gap %.3g) from the crash basis, %.15g cold", c.name, warm.Cmax, warm.Gap(), cold.Cmax)
		}
		t.Logf("%s: %d iterations from the crash basis, %d cold", c.name, warm.Attempts[0].Iterations, cold.Attempts[0].Iterations)
	}
	// Without CrashWhole (the default) the same LP is solved cold.
	out, err := SolvePattern(big, pruned, Options{Solver: rs, Auto: true, NoPrune: true})
	if err != nil {
		t.Fatal(err)
	}
	if a := out.Attempts[0].Algorithm; strings.Contains(a, "crash start") {
		t.Errorf("without CrashWhole the first attempt is %q", a)
	}
}
