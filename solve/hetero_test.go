package solve

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/internal/testutil"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

func clpOptions(t testing.TB) Options {
	return Options{Solver: &Solver{lp: testutil.Clp(t)}, Algorithm: "auto", Verify: true}
}

func hetero(v float64, procs ...schedule.Proc) *problem.Problem {
	return &problem.Problem{Kind: topology.Star, M: len(procs), Procs: procs, D: math.Inf(1), V: v}
}

// The canonical five-worker instance through solve.Schedule: the
// searched order reaches 120,296.70, proved optimal; "given" keeps
// 125,689.14; the schedule is in the user's numbers and verified.
func TestScheduleCanonicalOrder(t *testing.T) {
	p := hetero(1e6, schedule.Proc{C: .23, A: .12}, schedule.Proc{C: .11, A: .23}, schedule.Proc{C: .11, A: .11},
		schedule.Proc{C: .11, A: .31}, schedule.Proc{C: .11, A: .11})
	opt := clpOptions(t)
	res, err := Schedule(p, 1, opt)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Schedule
	t.Logf("%s", s.Summary())
	if math.Abs(s.Cmax-120296.70) > 0.005 || s.WorkerOrderMethod != "exact" || *s.WorkerOrderGap > 1e-8 {
		t.Errorf("Cmax %.4f order %v %s", s.Cmax, s.WorkerOrder, s.WorkerOrderMethod)
	}
	if !s.Verification.OK || len(s.Problem.Procs) != 5 || s.Problem.Procs[3].A != .31 {
		t.Errorf("verification %+v problem %+v", s.Verification, s.Problem)
	}
	opt.WorkerOrder = OrderGiven
	res, err = Schedule(p, 1, opt)
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Schedule; math.Abs(s.Cmax-125689.14) > 0.005 || s.WorkerOrderMethod != "given" {
		t.Errorf("given: Cmax %.4f %s", s.Cmax, s.WorkerOrderMethod)
	}
}

// The deadline form on one worker S = 2, C = 0, A = 1: by T = 12 it
// computes 12 − 2 = 10 (docs/heterogeneous.md).
func TestMaxLoadOneWorker(t *testing.T) {
	p := hetero(1, schedule.Proc{S: 2, C: 0, A: 1})
	res, err := MaxLoad(p, 1, 12, clpOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	s := res.Schedule
	t.Logf("%s", s.Summary())
	if math.Abs(s.MaxLoad-10) > 1e-9 || math.Abs(s.Cmax-12) > 1e-9*12 || s.Problem.V != s.MaxLoad || !s.Verification.OK {
		t.Errorf("max load %.15g Cmax %.15g V %g", s.MaxLoad, s.Cmax, s.Problem.V)
	}
}
