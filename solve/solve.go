package solve

import (
	"context"
	"time"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solve/pattern"
)

// The message patterns Schedule can choose.
const (
	// PatternSearch is optimize.SolveBest: the greedy prune, destination
	// subsets, local search and a chain over stage counts (the default).
	PatternSearch = "search"
	// PatternGreedy is the paper's prune alone (engine.Solve).
	PatternGreedy = "greedy"
	// PatternExact is the pattern MILP (optimize.SolveExact, Cbc).
	PatternExact = "exact"
)

// FieldPattern names Options.Pattern in errors.
const FieldPattern = "pattern"

// Options configure Schedule.
type Options struct {
	// Pipeline are the engine's options (solver, form, tolerances, memory
	// limit, NoPrune, context in Base.Context).
	Pipeline engine.Options
	// Pattern is PatternSearch (also ""), PatternGreedy or PatternExact.
	// Without pruning (Pipeline.NoPrune) the full pattern is solved and
	// only "" or PatternSearch are valid.
	Pattern string
	// Cache shares the pattern search's chains between calls (sweeps).
	Cache *pattern.Cache
	// Warm, without pruning, solves from the basis of the previous call
	// (optimize.PatternOptions.Warm); sweeps pass one per chain of points
	// that differ in V and n only.
	Warm *engine.Sequence
	// Verify replays the schedule on the executor (Result.Schedule's
	// Verification); VerifyMaxBytes limits the replay's memory
	// (engine.DefaultMaxModelBytes when zero).
	Verify         bool
	VerifyMaxBytes int64
	// Context stops the verification (the solve reads
	// Pipeline.Base.Context).
	Context context.Context
}

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

// Check refuses, before anything is built, an LP over the engine's memory
// limit (*engine.SizeError) and, with verification, a replay over its
// limit (*replay.SizeError).
func Check(p *problem.Problem, n int, opt Options) error {
	if err := engine.CheckSize(p, n, opt.Pipeline); err != nil {
		return err
	}
	if opt.Verify {
		return replay.CheckPlatform(p.Kind, p.M, p.P, p.H, float64(n)*p.Processors(), opt.verifyLimit())
	}
	return nil
}

func (o *Options) verifyLimit() int64 {
	if o.VerifyMaxBytes > 0 {
		return o.VerifyMaxBytes
	}
	return engine.DefaultMaxModelBytes
}

// Schedule solves p with n stages in the chosen pattern and, with
// Options.Verify, replays the result. Errors of the solve are returned as
// the engine and optimize give them (a *problem.FieldError names the
// field; *optimize.SizeExactError when the exact MILP is too large).
func Schedule(p *problem.Problem, n int, opt Options) (*Result, error) {
	if err := Check(p, n, opt); err != nil {
		return nil, err
	}
	t0 := time.Now()
	s, searchLPs, err := solvePattern(p, n, opt)
	if err != nil {
		return nil, err
	}
	res := &Result{Schedule: s, SearchLPs: searchLPs, SolveSeconds: time.Since(t0).Seconds()}
	if opt.Verify {
		res.VerifySeconds, res.VerifyErr = Verify(s, opt)
	}
	return res, nil
}

// Verify replays s on the executor within opt's memory limit and context
// and sets s.Verification; it returns the replay's wall-clock time and its
// error if it could not run (violations are not an error).
func Verify(s *schedule.Schedule, opt Options) (float64, error) {
	t0 := time.Now()
	v, err := replay.Verify(s, replay.Options{Context: opt.Context, MaxBytes: opt.verifyLimit()})
	if err == nil {
		s.Verification = v
	}
	return time.Since(t0).Seconds(), err
}

// solvePattern solves in the pattern of opt and states the bound over
// every pattern.
func solvePattern(p *problem.Problem, n int, opt Options) (*schedule.Schedule, int, error) {
	return pattern.Solve(p, n, pattern.Options{Engine: opt.Pipeline, Method: opt.Pattern, Cache: opt.Cache, Warm: opt.Warm})
}
