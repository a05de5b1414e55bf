package solve

import (
	"time"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solve/order"
	"github.com/dlsched/dlsched/solve/pattern"
)

// Result is a solved, optionally verified schedule.
type Result struct {
	// Schedule has Cmax, the certified bound, the pattern and its bound
	// over every pattern, and Verification when Options.Verify.
	Schedule *schedule.Schedule
	// SearchLPs counts the LPs the pattern search solved beyond the
	// schedule's own attempts.
	SearchLPs int
	// SolveSeconds and VerifySeconds are wall-clock times.
	SolveSeconds, VerifySeconds float64
	// VerifyErr is the replay's error, if it could not run (the schedule
	// is still the solve's); a replay that ran and found violations is
	// not an error (Schedule.Verification.OK is false).
	VerifyErr error
}

// Check refuses, before anything is built, an LP over opt's memory limit
// (*SizeError; CheckSize) and, with opt.Verify, a replay (with
// opt.VerifyTrace, and its trace) over its limit (*replay.SizeError).
func Check(p *problem.Problem, n int, opt Options) error {
	eo, err := opt.engine()
	if err != nil {
		return err
	}
	return check(p, n, eo, opt)
}

// check is Check with the engine's options eo of opt.
func check(p *problem.Problem, n int, eo engine.Options, opt Options) error {
	if err := engine.CheckSize(p, n, eo); err != nil {
		return wrap(err)
	}
	if opt.Verify && opt.VerifyTrace != nil {
		return replay.CheckTracedPlatform(p.Kind, p.M, p.P, p.H, float64(n)*p.Processors(), opt.verifyLimit())
	}
	if opt.Verify {
		return replay.CheckPlatform(p.Kind, p.M, p.P, p.H, float64(n)*p.Processors(), opt.verifyLimit())
	}
	return nil
}

// CheckSize returns a *SizeError if the LP of the full n-stage pattern of
// p is estimated to need more memory than opt allows (a
// *problem.FieldError for an unknown form or algorithm). It allocates
// nothing in proportion to n.
func CheckSize(p *problem.Problem, n int, opt Options) error {
	eo, err := opt.engine()
	if err != nil {
		return err
	}
	return wrap(engine.CheckSize(p, n, eo))
}

// Schedule solves p with n stages: the pattern search (solve/pattern)
// chooses the messages as opt.Pattern says and calls the LP engine
// (solve/engine) for every pattern it tries; with opt.Verify the schedule
// is then replayed on the executor. Errors: a *problem.FieldError names a
// field (or the options' Pattern, Form, Algorithm), a
// *problem.StagesError a stage count below n_min, a *SizeError or
// *replay.SizeError a refusal over the memory limit, an *ExactSizeError an
// exact MILP too large; IsInfeasible tells an infeasible LP.
func Schedule(p *problem.Problem, n int, opt Options) (*Result, error) {
	eo, err := opt.engine()
	if err != nil {
		return nil, err
	}
	if err := check(p, n, eo, opt); err != nil {
		return nil, err
	}
	t0 := time.Now()
	r, searchLPs, err := schedulePermuted(p, n, eo, opt)
	if err != nil {
		return nil, wrap(err)
	}
	s := r.s
	if r.perm != nil {
		s = r.remap(p)
	}
	res := &Result{Schedule: s, SearchLPs: searchLPs, SolveSeconds: time.Since(t0).Seconds()}
	if opt.Verify {
		res.VerifySeconds, res.VerifyErr = Verify(s, opt)
	}
	return res, nil
}

// schedulePermuted is Schedule's search — the worker order where it
// applies, then the message pattern — with the schedule still in the
// numbers of the processors in the chosen order (perm nil: p's own,
// without a worker order to record).
func schedulePermuted(p *problem.Problem, n int, eo engine.Options, opt Options) (*permuted, int, error) {
	ordered, err := opt.searchesOrder(p)
	if err != nil {
		return nil, 0, err
	}
	if ordered {
		return scheduleOrdered(p, n, eo, opt)
	}
	s, lps, err := pattern.Solve(p, n, opt.pattern(eo))
	if err != nil {
		return nil, 0, err
	}
	r := &permuted{s: s, q: p}
	if order.Applies(p) {
		r.perm = identity(p.M)
	}
	return r, lps, nil
}

// Greedy is the paper's method alone, the step a search over n or D
// repeats: the LP of the full n-stage pattern, certified and (unless
// opt.NoPrune) pruned — empty messages removed and the LP re-solved until
// every load is positive — on a heterogeneous star whose worker order is
// searched (Options.WorkerOrder), in the order the search chooses, or
// with Options.Orders in the best of those orders. Unlike Schedule it
// states no bound over every pattern and ignores opt's Pattern, Cache,
// Warm and Verify.
func Greedy(p *problem.Problem, n int, opt Options) (*schedule.Schedule, error) {
	eo, err := opt.engine()
	if err != nil {
		return nil, err
	}
	ordered, err := opt.searchesOrder(p)
	if err != nil {
		return nil, err
	}
	if len(opt.Orders) > 0 && order.Applies(p) {
		r, err := greedyAmong(p, n, eo, opt.Orders)
		if err != nil {
			return nil, wrap(err)
		}
		return r.remap(p), nil
	}
	if ordered {
		r, err := greedyOrdered(p, n, eo)
		if err != nil {
			return nil, wrap(err)
		}
		return r.remap(p), nil
	}
	s, err := engine.Solve(p, n, eo)
	if err == nil && order.Applies(p) {
		s = (&permuted{s: s, q: p, perm: identity(p.M)}).remap(p)
	}
	return s, wrap(err)
}

// Verify replays s on the executor within opt's memory limit and context
// and sets s.Verification; it returns the replay's wall-clock time and its
// error if it could not run (violations are not an error).
func Verify(s *schedule.Schedule, opt Options) (float64, error) {
	t0 := time.Now()
	v, err := replay.Verify(s, replay.Options{Context: opt.Context, MaxBytes: opt.verifyLimit(), Recorder: opt.VerifyTrace})
	if err == nil {
		s.Verification = v
	}
	return time.Since(t0).Seconds(), err
}
