package pipeline

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/clp"
)

// newClp returns a Clp solver or skips the test when Clp is not built in.
func newClp(t testing.TB) solver.Solver {
	t.Helper()
	s, err := clp.New()
	if err != nil {
		t.Skipf("clp unavailable: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(math.Max(math.Abs(a), math.Abs(b)), 1e-300)
}

// checkAgainstLP rebuilds the schedule's loads and times as a point of the
// paper-form LP of its final pattern and asserts that every constraint
// holds within tol (relative, lp.Model.MaxViolation), and that the stated
// Cmax is the earliest-start makespan of the loads.
func checkAgainstLP(t *testing.T, p *formulations.Problem, s *schedule.Schedule, tol float64) {
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
	for j, c := range s.Chunks {
		hops := nw.MsgHops[j]
		if len(hops) == 1 && len(c.Hops) >= 1 {
			tm.Start[hops[0]] = c.Hops[0].Start
		} else {
			for q, h := range hops {
				tm.Start[h] = c.Hops[q].Start
			}
		}
	}
	tm.Cmax = s.Cmax
	m, lay := nw.Build(formulations.FormPaper, formulations.NewScale(p))
	x := lay.Point(m, nw, tm)
	if v := m.MaxViolation(x); v.Relative() > tol {
		t.Errorf("constraint %s violated by %.3g (relative %.3g)", v.Name, v.Amount, v.Relative())
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

func randomProc(r *rand.Rand) schedule.Proc {
	return schedule.Proc{S: math.Pow(10, -4+3*r.Float64()), C: math.Pow(10, -7+3*r.Float64()), A: math.Pow(10, -4+2*r.Float64())}
}
