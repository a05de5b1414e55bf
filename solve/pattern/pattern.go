package pattern

import (
	"math"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// The methods Solve can choose a pattern with (Options.Method).
const (
	// MethodSearch is Search: the greedy prune, destination subsets,
	// local search and a chain over stage counts (the default).
	MethodSearch = "search"
	// MethodGreedy is the paper's prune alone (engine.Solve).
	MethodGreedy = "greedy"
	// MethodExact is the pattern MILP (Exact, Cbc).
	MethodExact = "exact"
)

// FieldMethod names Options.Method in errors (*problem.FieldError): the
// user's word for it is "pattern".
const FieldMethod = "pattern"

// tieTol is the relative difference below which two makespans count as
// equal: a candidate replaces the best only when it is shorter by more.
const tieTol = 1e-9

// Options configure Solve, Search and Exact.
type Options struct {
	// Engine holds the solver and LP settings of every candidate. Its
	// NoPrune sends every message of the full n-stage pattern (the paper's
	// model) and leaves nothing to choose.
	Engine engine.Options
	// Method is MethodSearch (also ""), MethodGreedy or MethodExact;
	// without pruning only MethodSearch (or "") is valid.
	Method string
	// Cache, if not nil, shares Search's results between calls.
	Cache *Cache
	// Exhaustive: for trees of height h <= Exhaustive every non-empty
	// subset of layers is a candidate of Search (zero means
	// DefaultExhaustive); higher trees get every single layer and a greedy
	// extension of the best one.
	Exhaustive int
	// Warm, if not nil, solves the full pattern without pruning
	// (Engine.NoPrune) from the basis of the previous call
	// (engine.Sequence; the problem may differ from the previous one in V
	// only, else it starts afresh); a point it cannot certify is solved
	// cold. Sweeps pass one per run of points that differ in n and V only.
	Warm *engine.Sequence
	// ExactSeconds bounds Exact's MILP search (0: DefaultExactSeconds).
	ExactSeconds float64
	// Parallel is the number of LPs Search may solve at once: with more
	// than one, and NewSolver, the greedy prunes of its chain's stage
	// counts are solved ahead on Parallel−1 further solvers while it works
	// on the counts below (not with Cache: a sweep solves its points in
	// parallel instead). The schedule is the same for every value. The
	// LPs held at once share Engine.MaxModelBytes: fewer workers run when
	// fewer LPs fit.
	Parallel int
	// NewSolver returns a further solver of Engine.Solver's backend and
	// the function that releases it (Parallel).
	NewSolver func() (solver.Solver, func(), error)
	// Progress, if not nil, is called by Search (MethodSearch with
	// pruning) with the number of its chain's stage counts done and their
	// number: (0, total) before the first, then after each. It runs on
	// Search's goroutine and must return quickly.
	Progress func(done, total int)
	// forget makes Search solve every candidate, as if it kept no record
	// of the patterns it has solved (tests compare the two).
	forget bool
}

// Solve solves p with n stages in the pattern opt.Method chooses and
// returns the schedule, with its bound over every pattern, and the LPs the
// search solved beyond the schedule's own attempts. Errors are the
// engine's (a *problem.FieldError names the field; *engine.SizeError), a
// *problem.FieldError on FieldMethod, and *ExactSizeError when the exact
// MILP is too large.
func Solve(p *problem.Problem, n int, opt Options) (*schedule.Schedule, int, error) {
	method := opt.Method
	if method == "" {
		method = MethodSearch
	}
	if opt.Engine.NoPrune && method != MethodSearch {
		return nil, 0, &problem.FieldError{Field: FieldMethod, Value: method,
			Want: "search when pruning is off (without pruning every message of the n-stage pattern is sent)"}
	}
	if err := p.CheckStages(n); err != nil {
		// As engine.Solve says it, before any candidate's capacity does.
		return nil, 0, err
	}
	switch method {
	case MethodGreedy:
		s, err := engine.Solve(p, n, opt.Engine)
		if err != nil {
			return nil, 0, err
		}
		SetBound(p, s)
		return s, 0, nil
	case MethodSearch:
		// Without pruning Search solves the full pattern as it is.
		s, err := Search(p, n, opt)
		if err != nil {
			return nil, 0, err
		}
		lps := 0
		if s.Pattern != nil && s.Pattern.Candidates > 0 {
			lps = s.Pattern.Candidates - 1
		}
		return s, lps, nil
	case MethodExact:
		s, err := Exact(p, n, opt)
		return s, 0, err
	}
	return nil, 0, &problem.FieldError{Field: FieldMethod, Value: method, Want: "search, greedy or exact"}
}

// SetBound fills s.PatternLowerBound and s.PatternGap with a bound that
// holds for every pattern and every n, and records the method (greedy)
// unless s already has one. The bound is the larger of
//
//   - S + VA/P, the trivial bound (every processor computing from the
//     first startup on), and
//   - for a star with finite D, ⌈V/D⌉·S + V·C (min S and C over the
//     processors of a heterogeneous star): the originator's one port sends
//     every unit, in messages of at most D units, one after the other, and
//     the makespan cannot end before the last message does.
func SetBound(p *problem.Problem, s *schedule.Schedule) {
	lb, how := Bound(p)
	s.PatternLowerBound = lb
	if s.Cmax > 0 {
		s.PatternGap = math.Max((s.Cmax-lb)/s.Cmax, 0)
	}
	if s.Pattern == nil {
		s.Pattern = &schedule.PatternInfo{Method: MethodGreedy, Candidates: 1}
	}
	s.Pattern.Bound = how
}

// Bound returns SetBound's bound and its name.
func Bound(p *problem.Problem) (float64, string) {
	lb, how := p.LowerBoundLB(), "S + VA/P, the trivial bound"
	if p.Kind != topology.Star || math.IsInf(p.D, 1) {
		return lb, how
	}
	sMin, cMin := p.S, p.C
	if len(p.Procs) > 0 {
		sMin, cMin = p.Procs[0].S, p.Procs[0].C
		for _, q := range p.Procs[1:] {
			sMin, cMin = math.Min(sMin, q.S), math.Min(cMin, q.C)
		}
	}
	if port := math.Ceil(p.V/p.D*(1-1e-12))*sMin + p.V*cMin; port > lb {
		return port, "⌈V/D⌉S + VC, the originator's port"
	}
	return lb, how
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

// joinNote appends remark b to the remarks a.
func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// stopped returns the context's error once the solve's context is done
// (a candidate that failed because of it is not merely infeasible).
func stopped(opt Options) error {
	if ctx := opt.Engine.Base.Context; ctx != nil {
		return ctx.Err()
	}
	return nil
}
