package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
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
	cases := []problem.Problem{
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
			// is warm, except where the model is outgrown and rebuilt (its
			// capacity n_min + 4 here, then doubled: once in this run).
			seq2 := NewSequence(&p, opt)
			cold := 0
			cmax := map[int]float64{}
			for n := nmin; n < nmin+6; n++ {
				out, warm, ok := seq2.Solve(n)
				if !ok || (n == nmin && warm) {
					t.Fatalf("n=%d: ok %v warm %v", n, ok, warm)
				}
				cmax[n] = out.Cmax
				if !warm {
					cold++
				}
				if got := strings.HasSuffix(out.Attempts[0].Algorithm, "(warm)"); got != warm {
					t.Errorf("n=%d: first attempt %q, warm %v", n, out.Attempts[0].Algorithm, warm)
				}
			}
			if cold != 2 {
				t.Errorf("%d solves from scratch, want 2 (the first and the rebuild at n_min+5)", cold)
			}
			// Reserved for the whole run (up to twice the first count),
			// the first model holds it all: one solve from scratch, the
			// same answers.
			seq3 := NewSequence(&p, opt)
			seq3.Reserve(2 * nmin)
			cold = 0
			for n := nmin; n <= 2*nmin; n++ {
				out, warm, ok := seq3.Solve(n)
				if !ok {
					t.Fatalf("n=%d reserved: not certified", n)
				}
				if !warm {
					cold++
				}
				if ref, ok := cmax[n]; ok && relDiff(out.Cmax, ref) > 2*DefaultTolerance {
					t.Errorf("n=%d reserved: Cmax %.15g, unreserved %.15g", n, out.Cmax, ref)
				}
			}
			if cold != 1 {
				t.Errorf("reserved: %d solves from scratch, want 1", cold)
			}
		})
	}
}

// TestSequenceNeedsIncrementalCompact: no warm-start engine for the paper
// form (its n-stage LP is not a prefix of a larger one).
func TestSequenceNeedsIncrementalCompact(t *testing.T) {
	s := newClp(t)
	p := problem.Problem{Kind: topology.Star, M: 2, S: 1, C: 1, A: 1, D: 1, V: 2}
	if NewSequence(&p, Options{Solver: s, Form: formulations.FormPaper}) != nil {
		t.Error("a warm-start engine for the paper form")
	}
}

// TestSequenceAlongV: SolveFor changes the load V of the loaded model (a
// change of bounds once the units stay fixed) and re-solves from the
// previous basis, with n = n_min(V) growing along the run as in a sweep
// at n_min. Every point equals the cold Solve within the certified
// tolerance and its loads carry V; a point is solved from scratch only
// first, where n_min outgrows the model, after a cold solve replaced the
// model, for another problem (a new D), and where the units drift more
// than MaxScaleDrift (D = ∞: L0 = V grows 100-fold).
func TestSequenceAlongV(t *testing.T) {
	s := newClp(t)
	opt := Options{Solver: s, Auto: true, NoPrune: true}
	coldOpt := opt
	coldOpt.Solver = newClp(t) // the cold solves leave the warm solver's model alone
	for _, base := range []problem.Problem{
		{Kind: topology.Star, M: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 2e3},
		{Kind: topology.Binomial, Order: topology.LLF, P: 2, H: 3, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e3},
		{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 3, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e3},
	} {
		t.Run(base.Kind.String(), func(t *testing.T) {
			seq := NewSequence(&base, opt)
			defer seq.Close()
			warmRuns, capacity := 0, 0
			vs := []float64{1e5, 1.1e5, 1.2e5, 1.3e5, 1.4e5, 1.5e5}
			for i, v := range vs {
				p := base
				p.V = v
				n := p.NMin()
				out, warm, ok := seq.SolveFor(&p, n)
				if !ok {
					t.Fatalf("V=%g n=%d: not certified", v, n)
				}
				if warm {
					warmRuns++
				} else if i > 0 && n <= capacity {
					t.Errorf("V=%g n=%d: from scratch within the model's %d stages", v, n, capacity)
				}
				capacity = seq.capacity
				cold, err := Solve(&p, n, coldOpt)
				if err != nil {
					t.Fatal(err)
				}
				if d := relDiff(out.Cmax, cold.Cmax); d > 3e-9 {
					t.Errorf("V=%g n=%d: warm Cmax %.15g, cold %.15g", v, n, out.Cmax, cold.Cmax)
				}
				var sum float64
				for j, m := range out.Network.Pattern {
					sum += out.Timing.Alpha[j] * p.DestSize(m.Dest)
				}
				if relDiff(sum, v) > 1e-12 {
					t.Errorf("V=%g: the loads carry %.15g", v, sum)
				}
			}
			if warmRuns < 3 {
				t.Errorf("%d of %d points warm", warmRuns, len(vs))
			}
			p := base
			p.V = 1.5e5
			seq.Invalidate() // a cold solve in between
			if _, warm, _ := seq.SolveFor(&p, p.NMin()); warm {
				t.Error("warm right after a cold solve replaced the model")
			}
			p.D = 2 * base.D
			if _, warm, ok := seq.SolveFor(&p, p.NMin()); !ok || warm {
				t.Errorf("a new D: ok %v warm %v, want a fresh start", ok, warm)
			}
		})
	}
	p := problem.Problem{Kind: topology.Star, M: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: math.Inf(1), V: 1e5}
	seq := NewSequence(&p, opt)
	for _, c := range []struct {
		v    float64
		warm bool
	}{{1e5, false}, {5e5, true}, {1e7, false}} {
		p.V = c.v
		if _, warm, ok := seq.SolveFor(&p, 3); !ok || warm != c.warm {
			t.Errorf("D=inf, V=%g: ok %v warm %v, want warm %v (units drift past %d)", c.v, ok, warm, c.warm, MaxScaleDrift)
		}
	}
}

// TestSequenceReserveOverLimit: a reservation whose model would exceed
// the memory limit is dropped; the Sequence builds the model it would
// have built without it and solves.
func TestSequenceReserveOverLimit(t *testing.T) {
	s := newClp(t)
	p := problem.Problem{Kind: topology.Star, M: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 2e4, V: 4e5}
	nmin := p.NMin()
	if nmin != 5 {
		t.Fatalf("n_min %d, want 5", nmin)
	}
	// Room for n_min + 4 stages (the default growth) but not 2·n_min.
	opt := Options{Solver: s, Auto: true, NoPrune: true, NoStageGeneration: true,
		MaxModelBytes: (ModelBytes(&p, nmin+4, formulations.FormCompact) + ModelBytes(&p, 2*nmin, formulations.FormCompact)) / 2}
	seq := NewSequence(&p, opt)
	defer seq.Close()
	seq.Reserve(2 * nmin)
	for n := nmin; n <= nmin+4; n++ {
		out, warm, ok := seq.Solve(n)
		if !ok || (n > nmin) != warm {
			t.Fatalf("n=%d: ok %v warm %v", n, ok, warm)
		}
		if out.Gap() > DefaultTolerance {
			t.Errorf("n=%d: gap %.3g", n, out.Gap())
		}
	}
}
