package solve

import (
	"errors"
	"math"
	"testing"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/internal/testutil"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solver/gonumlp"
	"github.com/dlsched/dlsched/topology"
)

// star2 is a 2-processor star with unlimited buffers, small enough for
// a closed form with one stage.
func star2() *problem.Problem {
	return &problem.Problem{Kind: topology.Star, M: 2, S: 1, C: 1, A: 2, D: math.Inf(1), V: 10}
}

// TestGreedyOneStageClosedForm: the greedy pattern of one stage on star2
// is the closed form, and the replay verifies it. Solved with gonum's
// simplex, so it runs where Clp is missing.
func TestGreedyOneStageClosedForm(t *testing.T) {
	p := star2()
	// One port: processor 1 receives α1 by S + Cα1 and computes Aα1;
	// processor 2 receives α2 after it, by 2S + Cα1 + Cα2. Both finish
	// together in the optimum: S + (C+A)α1 = 2S + Cα1 + (C+A)α2, i.e.
	// Aα1 = S + (C+A)α2, with α1 + α2 = V: α2 = (AV − S)/(C + 2A) = 3.8,
	// α1 = 6.2, Cmax = S + (C+A)α1 = 19.6.
	a2 := (p.A*p.V - p.S) / (p.C + 2*p.A)
	want := p.S + (p.C+p.A)*(p.V-a2)
	res, err := Schedule(p, 1, Options{Solver: &Solver{lp: gonumlp.New()}, Pattern: "greedy", Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Schedule
	if math.Abs(s.Cmax-want) > 1e-9*want {
		t.Errorf("Cmax %.15g, closed form %.15g", s.Cmax, want)
	}
	if res.VerifyErr != nil || s.Verification == nil || !s.Verification.OK {
		t.Fatalf("verification: %v %+v", res.VerifyErr, s.Verification)
	}
	if math.Abs(s.Verification.Makespan-s.Cmax) > 1e-9*want {
		t.Errorf("replayed makespan %.15g, Cmax %.15g", s.Verification.Makespan, s.Cmax)
	}
	if s.Pattern == nil || s.Pattern.Method != "greedy" || !(s.PatternLowerBound > 0 && s.PatternLowerBound <= s.Cmax) {
		t.Errorf("pattern %+v, bound over every pattern %g (Cmax %g)", s.Pattern, s.PatternLowerBound, s.Cmax)
	}
}

// TestRefusals: a pattern the options cannot have, and the two memory
// limits, are refused before anything is solved, with the field or the
// limit's own error type.
func TestRefusals(t *testing.T) {
	p := star2()
	g := &Solver{lp: gonumlp.New()}
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Solver: g, NoPrune: true, Pattern: "greedy"}, "search when pruning is off"},
		{Options{Solver: g, Pattern: "best"}, "search, greedy or exact"},
	} {
		_, err := Schedule(p, 1, c.opt)
		var fe *problem.FieldError
		if !errors.As(err, &fe) || fe.Field != FieldPattern || fe.Want[:len(c.want)] != c.want {
			t.Errorf("pattern %q: %v, want a FieldError on %s (%s)", c.opt.Pattern, err, FieldPattern, c.want)
		}
	}
	big := &problem.Problem{Kind: topology.Star, M: 1000, S: 1, C: 1, A: 1, D: 1, V: 1e6}
	var ps *SizeError
	if err := Check(big, 1e6, Options{MaxModelBytes: 1 << 20}); !errors.As(err, &ps) || ps.Limit != 1<<20 || ps.Bytes <= ps.Limit {
		t.Errorf("LP over the limit: %v, want a *SizeError above 1 MB", err)
	}
	var rs *replay.SizeError
	tree := &problem.Problem{Kind: topology.Tree, P: 4, H: 12, Buffers: 1, S: 1, C: 1, A: 1, D: math.Inf(1), V: 1}
	if err := Check(tree, 1, Options{Verify: true, VerifyMaxBytes: 1 << 20}); !errors.As(err, &rs) {
		t.Errorf("replay over the limit: %v, want a *replay.SizeError", err)
	}
	if err := Check(tree, 1, Options{VerifyMaxBytes: 1 << 20}); err != nil {
		t.Errorf("without verification the replay's limit does not apply: %v", err)
	}
}

// TestSearchNeverWorseThanGreedy: the default pattern search returns a
// makespan no longer than the paper's prune, on a star whose buffers
// bind, and both are certified and verified (Clp).
func TestSearchNeverWorseThanGreedy(t *testing.T) {
	s := &Solver{lp: testutil.Clp(t)}
	p := &problem.Problem{Kind: topology.Star, M: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 2e4, V: 1e5}
	greedy, err := Schedule(p, 8, Options{Solver: s, Algorithm: "auto", Pattern: "greedy", Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	search, err := Schedule(p, 8, Options{Solver: s, Algorithm: "auto", Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*Result{greedy, search} {
		if !r.Schedule.Solve.Certified || r.Schedule.Verification == nil || !r.Schedule.Verification.OK {
			t.Errorf("%s: certified %v, verification %+v", r.Schedule.Pattern.Method, r.Schedule.Solve.Certified, r.Schedule.Verification)
		}
	}
	if search.Schedule.Cmax > greedy.Schedule.Cmax*(1+1e-12) {
		t.Errorf("search %.15g longer than greedy %.15g", search.Schedule.Cmax, greedy.Schedule.Cmax)
	}
	if search.SearchLPs < 1 {
		t.Errorf("the search solved %d LPs beyond its schedule's", search.SearchLPs)
	}
}
