package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/internal/testutil"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// newClp returns a Clp solver or skips the test when Clp is not built in.
func newClp(t testing.TB) solver.Solver { return testutil.Clp(t) }

func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(math.Max(math.Abs(a), math.Abs(b)), 1e-300)
}

// checkAgainstLP rebuilds the schedule's loads and times as a point of the
// LPs of its final pattern, in both forms (the paper form on a full pattern
// uses the paper's printed families, docs/formulations.md), and asserts
// that every constraint holds within tol (relative, lp.Model.MaxViolation),
// and that the stated Cmax is the earliest-start makespan of the loads.
//
// The schedule's hops are mapped onto the network's: hop q of a tree chunk
// is the network hop of level q (its load p^(i−q−1)·α, its end start +
// S + C·load); a star chunk has one hop; a binomial chunk states the i
// steps of its scatter, which the network models as one hop starting at
// Hops[0].Start: the steps must follow each other without gaps, carry
// BinomialStepLoad·α, and end when the network hop ends.
func checkAgainstLP(t *testing.T, p *problem.Problem, s *schedule.Schedule, tol float64) {
	t.Helper()
	pat := make(formulations.Pattern, len(s.Chunks))
	alpha := make([]float64, len(s.Chunks))
	for j, c := range s.Chunks {
		pat[j] = formulations.Msg{Stage: c.Stage, Dest: c.Dest()}
		alpha[j] = c.Load
	}
	nw, err := formulations.NewNetwork(p, pat)
	if err != nil {
		t.Fatal(err)
	}
	tm := nw.Evaluate(alpha)
	if d := relDiff(tm.Cmax, s.Cmax); d > 1e-12 {
		t.Errorf("stated Cmax %.15g, earliest makespan of its loads %.15g", s.Cmax, tm.Cmax)
	}
	// Use the schedule's own start times, not the recomputed ones.
	abs := tol * math.Max(s.Cmax, 1e-300)
	for j, c := range s.Chunks {
		hops := nw.MsgHops[j]
		where := func() string { return fmt.Sprintf("stage %d dest %d", c.Stage, c.Dest()) }
		switch {
		case p.Kind == topology.Binomial:
			if len(c.Hops) != c.Dest() {
				t.Fatalf("%s: %d binomial steps, want %d", where(), len(c.Hops), c.Dest())
			}
			for q, hp := range c.Hops {
				want := topology.BinomialStepLoad(p.P, c.Dest(), q+1) * c.Load
				if relDiff(hp.Load, want) > 1e-12 && math.Abs(hp.Load-want) > 1e-300 {
					t.Errorf("%s: step %d carries %g, want %g", where(), q+1, hp.Load, want)
				}
				if math.Abs(hp.End-(hp.Start+p.S+p.C*hp.Load)) > abs {
					t.Errorf("%s: step %d lasts %g, want S+C·load = %g", where(), q+1, hp.End-hp.Start, p.S+p.C*hp.Load)
				}
				if q > 0 && math.Abs(hp.Start-c.Hops[q-1].End) > abs {
					t.Errorf("%s: step %d starts at %g, step %d ended at %g", where(), q+1, hp.Start, q, c.Hops[q-1].End)
				}
			}
			tm.Start[hops[0]] = c.Hops[0].Start
			if end := c.Hops[len(c.Hops)-1].End; math.Abs(end-nw.Duration(hops[0], c.Load)-c.Hops[0].Start) > abs {
				t.Errorf("%s: scatter ends at %g, want start + Si + C(p+1)^(i-1)α = %g", where(), end, c.Hops[0].Start+nw.Duration(hops[0], c.Load))
			}
		default:
			if len(c.Hops) != len(hops) {
				t.Fatalf("%s: %d hops stated, network has %d", where(), len(c.Hops), len(hops))
			}
			for q, h := range hops {
				hp := c.Hops[q]
				want := nw.Hops[h].Coef / coefUnit(p, c.Dest()) * c.Load
				if relDiff(hp.Load, want) > 1e-12 && math.Abs(hp.Load-want) > 1e-300 {
					t.Errorf("%s: hop %d carries %g, want %g", where(), q, hp.Load, want)
				}
				if math.Abs(hp.End-hp.Start-nw.Duration(h, c.Load)) > abs {
					t.Errorf("%s: hop %d lasts %g, want %g", where(), q, hp.End-hp.Start, nw.Duration(h, c.Load))
				}
				tm.Start[h] = hp.Start
			}
		}
	}
	tm.Cmax = s.Cmax
	for _, f := range []formulations.Form{formulations.FormPaper, formulations.FormCompact} {
		m, lay := nw.Build(f, formulations.NewScale(p))
		x := lay.Point(m, nw, tm)
		if v := m.MaxViolation(x); v.Relative() > tol {
			t.Errorf("%s form: constraint %s violated by %.3g (relative %.3g)", f, v.Name, v.Amount, v.Relative())
		}
	}
	sum := 0.0
	for _, c := range s.Chunks {
		sum += c.Load * p.DestSize(c.Dest())
		if c.Load < 0 || c.Load > p.MaxLoad(c.Dest())*(1+1e-15) {
			t.Errorf("load %g of stage %d dest %d outside [0, %g]", c.Load, c.Stage, c.Dest(), p.MaxLoad(c.Dest()))
		}
	}
	if relDiff(sum, p.V) > 1e-12 {
		t.Errorf("loads sum to %.17g, V = %.17g", sum, p.V)
	}
}

// coefUnit returns the per-unit transfer time C of destination d (C_i of
// a heterogeneous star).
func coefUnit(p *problem.Problem, d int) float64 {
	if p.Kind == topology.Star && len(p.Procs) > 0 {
		return p.Procs[d-1].C
	}
	return p.C
}

func randomProc(r *rand.Rand) schedule.Proc {
	return schedule.Proc{S: math.Pow(10, -4+3*r.Float64()), C: math.Pow(10, -7+3*r.Float64()), A: math.Pow(10, -4+2*r.Float64())}
}
