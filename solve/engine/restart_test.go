package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// newRestarter returns Clp as a solver.Restarter, or skips the test.
func newRestarter(t *testing.T) solver.Restarter {
	rs, ok := newClp(t).(solver.Restarter)
	if !ok {
		t.Skip("solver without bases")
	}
	return rs
}

// noRestart hides the solver's Basis and SetBasis: every prune round is
// then solved from scratch, as before restarts.
type noRestart struct{ solver.Incremental }

// TestPruneRoundsRestart: prune rounds start from the basis of the round
// before (solveRestarted) on an ordinary tree and a star, and from scratch
// on a binomial tree. The restarted schedule is certified and its makespan equals the one of
// cold rounds within the tolerance (both are LP optima of the patterns
// they keep; a degenerate optimum may leave other zero-load messages, so
// the patterns may differ, never the makespan by more than the certified
// gaps). On the tree the restarted round takes far fewer iterations than
// the cold one (measured 322 against 2,816).
func TestPruneRoundsRestart(t *testing.T) {
	s := newRestarter(t)
	inc := solver.Incremental(s)
	cases := []struct {
		name string
		p    problem.Problem
		n    int
	}{
		{"tree p=2 h=6", problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 6, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 6e4}, 100},
		{"star m=10", problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: 5e4, V: 5e6}, 300},
		{"binomial p=2 h=8", problem.Problem{Kind: topology.Binomial, Order: topology.NLF, P: 2, H: 8, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 3e4}, 60},
	}
	for _, c := range cases {
		p := c.p
		opt := Options{Solver: s, Auto: true, NoStageGeneration: true}
		warm, err := Solve(&p, c.n, opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		opt.Solver = noRestart{inc}
		cold, err := Solve(&p, c.n, opt)
		if err != nil {
			t.Fatalf("%s cold: %v", c.name, err)
		}
		restarted, coldIters, warmIters := 0, 0, 0
		for _, at := range warm.Solve.Attempts {
			if strings.HasSuffix(at.Algorithm, "(restart)") {
				restarted++
				warmIters += at.Iterations
			}
		}
		for _, at := range cold.Solve.Attempts[1:] {
			coldIters += at.Iterations
		}
		t.Logf("%s: Cmax restarted %.15g cold %.15g; prune rounds %d / %d; iterations after the first LP %d / %d",
			c.name, warm.Cmax, cold.Cmax, warm.Pruning.Rounds, cold.Pruning.Rounds, warmIters, coldIters)
		if binomial := c.p.Kind == topology.Binomial; (restarted == 0) != binomial || warm.Pruning.Rounds == 0 {
			t.Errorf("%s: %d of %d prune rounds restarted", c.name, restarted, warm.Pruning.Rounds)
		}
		if !warm.Solve.Certified || !cold.Solve.Certified {
			t.Errorf("%s: certified restarted %v, cold %v", c.name, warm.Solve.Certified, cold.Solve.Certified)
		}
		if d := relDiff(warm.Cmax, cold.Cmax); d > 2*DefaultTolerance {
			t.Errorf("%s: Cmax restarted %.15g, cold %.15g (%.2g apart)", c.name, warm.Cmax, cold.Cmax, d)
		}
		checkAgainstLP(t, &p, warm, 1e-9)
		if c.p.Kind == topology.Tree && warmIters >= coldIters {
			t.Errorf("%s: restarted rounds took %d iterations, cold ones %d", c.name, warmIters, coldIters)
		}
	}
}

// failingResolve is a Restarter whose re-solves fail: a restart that
// fails must leave the round to the cold path.
type failingResolve struct{ solver.Restarter }

func (f failingResolve) Resolve(opt solver.Options) (*solver.Solution, error) {
	return nil, &solver.StatusError{Solver: "test", Status: solver.Failed, Detail: "refused"}
}

// TestPruneRestartFallsBack: when the restarted re-solve fails, the round
// is solved from scratch; the schedule is the cold path's, certified, and
// its record shows the failed restart before the cold attempts.
func TestPruneRestartFallsBack(t *testing.T) {
	rs := newRestarter(t)
	p := problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 8e3}
	opt := Options{Solver: failingResolve{rs}, Auto: true}
	got, err := Solve(&p, 20, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Solver = noRestart{rs}
	cold, err := Solve(&p, 20, opt)
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, at := range got.Solve.Attempts {
		if strings.HasSuffix(at.Algorithm, "(restart)") && at.Status == solver.Failed.String() {
			failed++
		}
	}
	// One per round tried: the rounds kept, and a last one whose LP was
	// no shorter.
	if failed < max(got.Pruning.Rounds, 1) || failed > got.Pruning.Rounds+1 {
		t.Errorf("%d failed restarts in the record for %d prune rounds", failed, got.Pruning.Rounds)
	}
	if !got.Solve.Certified || got.Cmax != cold.Cmax {
		t.Errorf("after failed restarts: certified %v, Cmax %.17g; cold %.17g", got.Solve.Certified, got.Cmax, cold.Cmax)
	}
}

// TestStartsAcrossPatterns: with Options.Starts each call's first LP
// starts from the basis the call before ended with — a pattern search's
// candidates. On a 2-buffer ordinary tree, the full pattern and then every
// pattern with one message of its result left out: each makespan equals
// the cold one within the tolerance, every schedule is certified, and the
// restarted calls take fewer simplex iterations in all.
func TestStartsAcrossPatterns(t *testing.T) {
	s := newRestarter(t)
	inc := solver.Incremental(s)
	p := problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 2, P: 2, H: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 5e3}
	const n = 12
	warm := Options{Solver: s, Auto: true, Starts: &Starts{}}
	cold := Options{Solver: noRestart{inc}, Auto: true}
	iters := func(sc *schedule.Schedule) int {
		k := 0
		for _, at := range sc.Solve.Attempts {
			k += at.Iterations
		}
		return k
	}
	base, err := Solve(&p, n, warm)
	if err != nil {
		t.Fatal(err)
	}
	var pat formulations.Pattern
	for _, c := range base.Chunks {
		pat = append(pat, formulations.Msg{Stage: c.Stage, Dest: c.Dest()})
	}
	warmIters, coldIters, restarted := 0, 0, 0
	for j := range pat {
		cand := append(append(formulations.Pattern(nil), pat[:j]...), pat[j+1:]...)
		w, werr := SolveFrom(&p, n, cand, warm)
		c, cerr := SolveFrom(&p, n, cand, cold)
		if (werr == nil) != (cerr == nil) {
			t.Fatalf("candidate %d: restarted err %v, cold err %v", j, werr, cerr)
		}
		if werr != nil {
			continue // infeasible without that message
		}
		if !w.Solve.Certified || relDiff(w.Cmax, c.Cmax) > 2*DefaultTolerance {
			t.Errorf("candidate %d: restarted Cmax %.15g (certified %v), cold %.15g", j, w.Cmax, w.Solve.Certified, c.Cmax)
		}
		if strings.HasSuffix(w.Solve.Attempts[0].Algorithm, "(restart)") {
			restarted++
		}
		warmIters += iters(w)
		coldIters += iters(c)
	}
	t.Logf("%d candidates, %d restarted; iterations restarted %d, cold %d", len(pat), restarted, warmIters, coldIters)
	if restarted == 0 || warmIters >= coldIters {
		t.Errorf("%d candidates restarted, iterations %d against %d cold", restarted, warmIters, coldIters)
	}
}

// TestTreeRestartPrimal: with Auto, a prune round on an ordinary tree
// restarts with the primal simplex (restartAttempt): the loads before the
// round stay feasible after it. From the same bases, the tree's first
// algorithm (the dual simplex, what restarts used before) takes more
// iterations and the schedules agree to the certified tolerance.
func TestTreeRestartPrimal(t *testing.T) {
	s := newRestarter(t)
	p := problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 7, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 7e4}
	iters := map[string]int{}
	cmax := map[string]float64{}
	for _, auto := range []bool{true, false} {
		opt := Options{Solver: s, Auto: auto, NoStageGeneration: true}
		if !auto {
			opt.Base = TreeFirstAttempt(solver.Options{})
		}
		sc, err := Solve(&p, 100, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range sc.Solve.Attempts {
			if alg, ok := strings.CutSuffix(at.Algorithm, " (restart)"); ok {
				iters[alg] += at.Iterations
			}
		}
		cmax[fmt.Sprint(auto)] = sc.Cmax
		if !sc.Solve.Certified {
			t.Errorf("auto=%v: not certified", auto)
		}
	}
	t.Logf("restart iterations %v, Cmax %v", iters, cmax)
	if iters["primal"] == 0 || iters["dual"] == 0 {
		t.Fatalf("restart iterations %v: want primal (auto) and dual restarts", iters)
	}
	if iters["primal"] >= iters["dual"] {
		t.Errorf("primal restarts took %d iterations, dual ones %d", iters["primal"], iters["dual"])
	}
}

// TestChainRestartBasis: on a star (a chain of hops), the first prune
// round after stage generation restarts from the restricted LP's basis
// with the arc that joins the hops around each removed message taking the
// status of the old arc into the same hop (restartBasis): the count of
// basic entries is the new LP's row count, and the re-solve takes a few
// iterations (the paper's Section 4.1 star at n = 3,000, D = V/n: 6; with
// those arcs basic it took 677). The schedule is certified.
func TestChainRestartBasis(t *testing.T) {
	s := newRestarter(t)
	p := problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: 5e6 / 3000, V: 5e6}
	sc, err := Solve(&p, 3000, Options{Solver: s, Auto: true})
	if err != nil {
		t.Fatal(err)
	}
	at := sc.Solve.Attempts
	if len(at) < 2 || at[0].Messages == 0 || !strings.HasSuffix(at[1].Algorithm, "(restart)") {
		t.Fatalf("attempts %+v: want stage generation, then a restarted prune round", at)
	}
	t.Logf("restricted LP: %d messages, %d iterations; first prune round: %d iterations", at[0].Messages, at[0].Iterations, at[1].Iterations)
	if at[1].Iterations > 50 {
		t.Errorf("the first prune round took %d iterations from the restricted LP's basis, want a few", at[1].Iterations)
	}
	if !sc.Solve.Certified || sc.Pruning == nil || len(sc.Pruning.Messages) == 0 {
		t.Errorf("certified %v, pruning %+v", sc.Solve.Certified, sc.Pruning)
	}
	checkAgainstLP(t, &p, sc, 1e-9)
}
