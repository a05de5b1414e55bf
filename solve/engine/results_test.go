package engine

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// The result messages of the acceptance (checked by hand in
// docs/heterogeneous.md): two identical workers S = 0, C = A = 1, V = 10,
// β = 0.5 return their results FIFO by 115/7 and LIFO by 125/7; one worker
// by 10 + 10 + 5 = 25.
func TestResultsClosedForms(t *testing.T) {
	slv := newClp(t)
	for _, c := range []struct {
		m    int
		ret  problem.ReturnOrder
		want float64
	}{
		{2, problem.ReturnFIFO, 115.0 / 7},
		{2, problem.ReturnLIFO, 125.0 / 7},
		{1, problem.ReturnFIFO, 25},
		{1, problem.ReturnLIFO, 25},
	} {
		procs := make([]schedule.Proc, c.m)
		for i := range procs {
			procs[i] = schedule.Proc{S: 0, C: 1, A: 1}
		}
		p := &problem.Problem{Kind: topology.Star, M: c.m, Procs: procs, D: math.Inf(1), V: 10, ResultRatio: 0.5, Return: c.ret}
		s, err := Solve(p, 1, Options{Solver: slv, Auto: true})
		if err != nil {
			t.Fatal(err)
		}
		if relDiff(s.Cmax, c.want) > 1e-12 || s.Gap > 1e-9 {
			t.Errorf("m=%d %v: Cmax %.15g gap %g, want %.15g", c.m, c.ret, s.Cmax, s.Gap, c.want)
		}
		if len(s.Returns) != c.m {
			t.Fatalf("m=%d %v: %d returns", c.m, c.ret, len(s.Returns))
		}
		last := s.Returns[len(s.Returns)-1]
		if relDiff(last.End, s.Cmax) > 1e-12 {
			t.Errorf("m=%d %v: last return ends at %g, Cmax %g", c.m, c.ret, last.End, s.Cmax)
		}
		if c.m == 2 && (s.Returns[0].Processor == 1) != (c.ret == problem.ReturnFIFO) {
			t.Errorf("%v: first return from P%d", c.ret, s.Returns[0].Processor)
		}
		checkAgainstLP(t, p, s, 1e-9)
	}
}
