package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// crashStars are the stars of the crash-start tests: the paper's star with
// D = V/n (loads at their bound), without a buffer limit, without startup,
// and heterogeneous.
var crashStars = []struct {
	name string
	p    *problem.Problem
	n    int
}{
	{"star D=V/n", &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: 5e6 / 500}, 500},
	{"star D=inf", &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: math.Inf(1)}, 150},
	{"star S=0", &problem.Problem{Kind: topology.Star, M: 8, S: 0, C: 1e-6, A: 1e-3, V: 1e5, D: 1e3}, 200},
	{"heterogeneous star", &problem.Problem{Kind: topology.Star, M: 4, V: 1e5, D: 1e3, Procs: []schedule.Proc{
		{S: 1e-3, C: 1e-6, A: 1e-3}, {S: 2e-3, C: 2e-6, A: 1e-3}, {S: 1e-3, C: 1e-6, A: 3e-3}, {S: 5e-4, C: 4e-6, A: 2e-3}}}, 300},
}

// The crash basis of a star's restricted LP is a square basis: one basic
// entry per row (every hop time, suffix sum and Cmax, the load that
// completes V, every computing row's slack but one), so Clp need not
// repair it.
func TestCrashBasisIsSquare(t *testing.T) {
	for _, c := range crashStars {
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
		b := crashBasis(nw, rm, rlay)
		basic := 0
		for _, st := range append(append([]solver.BasisStatus(nil), b.Cols...), b.Rows...) {
			if st == solver.Basic {
				basic++
			}
		}
		if basic != rm.NumRows() {
			t.Errorf("%s: %d basic entries for %d rows", c.name, basic, rm.NumRows())
		}
	}
}

// From the crash basis the first restricted LP takes a few dozen
// iterations where the slack basis takes about two per message (star
// m = 10, D = V/n, n = 500, 640 messages: 52 from the crash basis, 1,249
// from the slack basis, measured on 2026-11-26), and the schedule is the full LP's optimum: certified, and
// its makespan that of the full LP solved at once (the second,
// independent computation) within the tolerance.
func TestCrashStartReachesFullLP(t *testing.T) {
	s := newClp(t)
	for _, c := range crashStars {
		t.Run(c.name, func(t *testing.T) {
			gen, err := Solve(c.p, c.n, Options{Solver: s, Auto: true, NoPrune: true})
			if err != nil {
				t.Fatal(err)
			}
			full, err := Solve(c.p, c.n, Options{Solver: s, Auto: true, NoPrune: true, NoStageGeneration: true})
			if err != nil {
				t.Fatal(err)
			}
			first := gen.Solve.Attempts[0]
			if !strings.Contains(first.Algorithm, "crash start") || first.Status != "optimal" {
				t.Fatalf("first attempt %s %s: want an optimal crash start", first.Algorithm, first.Status)
			}
			if c.p.D == 5e6/500 && first.Iterations > first.Messages/10 {
				t.Errorf("crash start took %d iterations for %d messages: want at most one per ten", first.Iterations, first.Messages)
			}
			if !gen.Solve.Certified {
				t.Fatalf("not certified: gap %.3g", gen.Gap)
			}
			if d := relDiff(gen.Cmax, full.Cmax); d > 2*DefaultTolerance {
				t.Errorf("Cmax from the crash start %.15g, full LP %.15g: relative difference %.3g", gen.Cmax, full.Cmax, d)
			}
			t.Logf("crash start: %d iterations for %d messages; Cmax %.12g", first.Iterations, first.Messages, gen.Cmax)
		})
	}
}

// A crash start that fails is recorded and the restricted LP solved cold:
// the schedule is the same optimum.
func TestCrashStartFallsBackCold(t *testing.T) {
	c := crashStars[0]
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
