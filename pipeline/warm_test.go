package pipeline

import (
	"strings"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/topology"
)

// TestSequenceMatchesCold: the warm-start option of the engine gives, at
// every stage count of a run, the certified unpruned optimum that a cold
// Solve gives (both certified to 1e-9 against the same n-stage LP, so the
// makespans agree to about 2e-9), and after the first count it starts from
// the previous basis. Star, ordinary tree (1 and 2 buffers) and binomial
// tree, all with buffers that bind.
func TestSequenceMatchesCold(t *testing.T) {
	s := newClp(t)
	cases := []formulations.Problem{
		{Kind: topology.Star, M: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 2e4, V: 1e5},
		{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 3, S: 1e-3, C: 1e-6, A: 1e-3, D: 5e3, V: 1e5},
		{Kind: topology.Tree, Order: topology.LLF, Buffers: 2, P: 2, H: 3, S: 1e-3, C: 1e-6, A: 1e-3, D: 5e3, V: 1e5},
		{Kind: topology.Binomial, Order: topology.NLF, P: 2, H: 3, S: 1e-3, C: 1e-6, A: 1e-3, D: 5e3, V: 1e5},
	}
	for _, p := range cases {
		p := p
		t.Run(p.Kind.String(), func(t *testing.T) {
			opt := Options{Solver: s, Auto: true, NoPrune: true}
			seq := NewSequence(&p, opt)
			if seq == nil {
				t.Fatal("no warm-start engine for the compact form with Clp")
			}
			defer seq.Close()
			nmin := p.NMin()
			warmRuns := 0
			for n := nmin; n < nmin+6; n++ {
				out, warm, ok := seq.Solve(n)
				if !ok {
					t.Fatalf("n=%d: warm solve not certified", n)
				}
				if n > nmin && warm {
					warmRuns++
				}
				if g := out.Gap(); g > DefaultTolerance {
					t.Errorf("n=%d: gap %.3g above the tolerance", n, g)
				}
				cold, err := Solve(&p, n, opt)
				if err != nil {
					t.Fatal(err)
				}
				if d := relDiff(out.Cmax, cold.Cmax); d > 3e-9 {
					t.Errorf("n=%d: warm Cmax %.15g, cold %.15g (rel %.2g)", n, out.Cmax, cold.Cmax, d)
				}
				if out.LowerBound > cold.Cmax*(1+1e-12) || cold.LowerBound > out.Cmax*(1+1e-12) {
					t.Errorf("n=%d: a certified bound exceeds the other side's makespan: warm [%g, %g], cold [%g, %g]",
						n, out.LowerBound, out.Cmax, cold.LowerBound, cold.Cmax)
				}
				seq.Invalidate() // the cold solve replaced the loaded model
			}
			if warmRuns != 0 {
				t.Errorf("%d solves claimed a warm start right after a cold solve replaced the model", warmRuns)
			}
			// Without cold solves in between, every count after the first
			// is warm.
			seq2 := NewSequence(&p, opt)
			for n := nmin; n < nmin+6; n++ {
				out, warm, ok := seq2.Solve(n)
				if !ok || warm != (n > nmin) {
					t.Fatalf("n=%d: ok %v warm %v, want ok and warm %v", n, ok, warm, n > nmin)
				}
				if got := strings.HasSuffix(out.Attempts[0].Algorithm, "(warm)"); got != warm {
					t.Errorf("n=%d: first attempt %q, warm %v", n, out.Attempts[0].Algorithm, warm)
				}
			}
		})
	}
}

// TestSequenceNeedsIncrementalCompact: no warm-start engine for the paper
// form (its n-stage LP is not a prefix of a larger one).
func TestSequenceNeedsIncrementalCompact(t *testing.T) {
	s := newClp(t)
	p := formulations.Problem{Kind: topology.Star, M: 2, S: 1, C: 1, A: 1, D: 1, V: 2}
	if NewSequence(&p, Options{Solver: s, Form: formulations.FormPaper}) != nil {
		t.Error("a warm-start engine for the paper form")
	}
}
