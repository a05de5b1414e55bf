package solve

import (
	"fmt"
	"math"
	"time"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver"
)

// FieldDeadline names MaxLoad's deadline in errors.
const FieldDeadline = "deadline"

// maxDeadlineRounds bounds MaxLoad's alternation of searches and deadline
// LPs; each round strictly raises the load, so it ends long before.
const maxDeadlineRounds = 50

// deadlineTol is the relative margin below the deadline at which a
// search's makespan counts as reaching it.
const deadlineTol = 1e-9

// MaxLoad answers the deadline form: the largest load that finishes by
// the deadline with n stages, under everything Schedule searches (the
// worker order of a heterogeneous star, the message pattern; buffers and
// results as p states them). p.V is ignored (it must be valid). It
// alternates two steps from the given order's full n-stage pattern: the
// deadline LP of a pattern (engine.MaxLoad: maximise the load with Cmax
// at most the deadline) gives a load V; Schedule's search at V gives the
// best makespan and pattern for V. While that makespan is below the
// deadline, the pattern carries more: its deadline LP gives the next V,
// larger. When the search finds nothing shorter than the deadline, V is
// the answer: the returned schedule (Schedule's, verified with
// opt.Verify) carries it, its Cmax is the deadline to the LP's tolerance,
// and Schedule.MaxLoad and Deadline record the question and the answer
// (docs/heterogeneous.md). Errors are Schedule's, a *problem.FieldError on
// FieldDeadline, and an infeasible error (IsInfeasible) when no load at
// all finishes by the deadline.
func MaxLoad(p *problem.Problem, n int, deadline float64, opt Options) (*Result, error) {
	if !(deadline > 0) || math.IsInf(deadline, 0) {
		return nil, &problem.FieldError{Field: FieldDeadline, Value: fmt.Sprintf("%g", deadline), Want: "a finite time > 0"}
	}
	eo, err := opt.engine()
	if err != nil {
		return nil, err
	}
	if err := check(p, n, eo, opt); err != nil {
		return nil, err
	}
	t0 := time.Now()
	v, _, err := engine.MaxLoad(p, formulations.FullPattern(p, n), deadline, eo)
	if err != nil {
		return nil, wrap(err)
	}
	r, q, v, lps, err := raiseLoad(p, n, deadline, v, eo, opt)
	if err != nil {
		return nil, wrap(err)
	}
	s := r.s
	if r.perm != nil {
		s = r.remap(q)
	}
	s.Deadline, s.MaxLoad = deadline, v
	res := &Result{Schedule: s, SearchLPs: lps, SolveSeconds: time.Since(t0).Seconds()}
	if opt.Verify {
		res.VerifySeconds, res.VerifyErr = Verify(s, opt)
	}
	return res, nil
}

// raiseLoad is MaxLoad's alternation from load v: it returns the last
// search's schedule, its problem (p at the answer's load), the answer and
// the LPs solved.
func raiseLoad(p *problem.Problem, n int, deadline, v float64, eo engine.Options, opt Options) (*permuted, *problem.Problem, float64, int, error) {
	lps := 0
	for round := 0; ; round++ {
		if !(v > 0) {
			return nil, nil, 0, 0, fmt.Errorf("no load finishes by the deadline %g with %d stage(s): %w", deadline, n, solver.ErrInfeasible)
		}
		q := *p
		q.V = v
		r, k, err := schedulePermuted(&q, n, eo, opt)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		lps += k
		if r.s.Cmax >= deadline*(1-deadlineTol) || round+1 >= maxDeadlineRounds {
			return r, &q, v, lps, nil
		}
		next, _, err := engine.MaxLoad(r.q, patternOf(r.s), deadline, eo)
		lps++
		if err != nil {
			return nil, nil, 0, 0, err
		}
		if !(next > v*(1+1e-12)) {
			return r, &q, v, lps, nil
		}
		v = next
	}
}

// patternOf returns the message pattern of a schedule: its chunks' stages
// and destinations in send order.
func patternOf(s *schedule.Schedule) formulations.Pattern {
	out := make(formulations.Pattern, len(s.Chunks))
	for i := range s.Chunks {
		out[i] = formulations.Msg{Stage: s.Chunks[i].Stage, Dest: s.Chunks[i].Dest()}
	}
	return out
}
