package pattern

import (
	"context"
	"fmt"
	"math"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver/cbc"
	"github.com/dlsched/dlsched/topology"
)

// MaxExactMessages bounds the messages (n times the destinations) of a
// pattern MILP: one binary each, so the search may visit 2^k nodes.
const MaxExactMessages = 40

// DefaultExactSeconds bounds one pattern MILP search.
const DefaultExactSeconds = 60

// ExactSizeError reports a problem too large for the exact pattern MILP.
type ExactSizeError struct {
	Messages int
}

// Error implements error.
func (e *ExactSizeError) Error() string {
	return fmt.Sprintf("the exact pattern search needs one binary per message: %d messages, more than %d (use fewer stages or the heuristic search)", e.Messages, MaxExactMessages)
}

// Exact finds the best sub-pattern of the full n-stage pattern with the
// MILP of formulations.BuildPatternMILP (one binary per message, its
// startup paid only if it is sent), solved by Cbc within
// opt.ExactSeconds, then solves the LP of that pattern as every other
// schedule is solved (repaired, certified, pruned; opt.Engine). The
// schedule's PatternLowerBound is Cbc's proven bound (and at least the
// trivial bound): a bound over every pattern of at most n stages, for a
// star, a binomial tree and a 1-buffer ordinary tree. For a 2-buffer tree
// the MILP is not exact (a phantom message still holds a buffer) and
// Exact refuses it.
func Exact(p *problem.Problem, n int, opt Options) (*schedule.Schedule, error) {
	if err := checkExact(p, n); err != nil {
		return nil, err
	}
	nw, err := formulations.NewNetwork(p, formulations.FullPattern(p, n))
	if err != nil {
		return nil, err
	}
	sc := formulations.NewScale(p)
	pat, res, err := exactPattern(nw, sc, opt)
	if err != nil {
		return nil, err
	}
	s, err := engine.SolveFrom(p, n, pat, opt.Engine)
	if err != nil {
		return nil, err
	}
	SetBound(p, s)
	info := &schedule.PatternInfo{Method: MethodExact, Candidates: 1}
	if used := s.ProcessorsUsed(); len(used) < len(p.Dests()) {
		info.Destinations = used
	}
	if res.Status == cbc.Optimal {
		lb := res.Bound * sc.T0 * (1 - 1e-9)
		if lb > s.PatternLowerBound {
			s.PatternLowerBound = lb
		}
		info.Bound = "the MILP's proven bound, every pattern of at most n stages"
	} else {
		info.Bound = "S + VA/P, the trivial bound"
		info.Note = fmt.Sprintf("MILP search stopped (%s) after %d nodes: the pattern may not be the best", res.Status, res.Nodes)
	}
	if s.Cmax > 0 {
		s.PatternGap = math.Max((s.Cmax-s.PatternLowerBound)/s.Cmax, 0)
	}
	s.Pattern = info
	return s, nil
}

// checkExact refuses, before anything is built, what Exact cannot solve:
// an invalid problem, a 2-buffer tree, n below n_min, more than
// MaxExactMessages messages, a build without Cbc.
func checkExact(p *problem.Problem, n int) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if p.Kind == topology.Tree && p.Buffers == 2 {
		return &problem.FieldError{Field: "buffers", Value: "2", Want: "1 for the exact pattern search (with 2 buffers its MILP is not exact)"}
	}
	if nmin := p.NMin(); n < nmin {
		return &problem.StagesError{N: n, NMin: nmin}
	}
	if k := n * len(p.Dests()); k > MaxExactMessages {
		return &ExactSizeError{Messages: k}
	}
	if !cbc.Available() {
		return fmt.Errorf("pattern: the exact pattern search needs Cbc, which this build lacks")
	}
	return nil
}

// exactPattern solves the pattern MILP of nw (scale sc) with Cbc and
// returns the messages it sends with load, and Cbc's result.
func exactPattern(nw *formulations.Network, sc formulations.Scale, opt Options) (formulations.Pattern, *cbc.Result, error) {
	m, lay := nw.BuildPatternMILP(sc)
	ctx := opt.Engine.Base.Context
	if ctx == nil {
		ctx = context.Background()
	}
	secs := opt.ExactSeconds
	if secs <= 0 {
		secs = DefaultExactSeconds
	}
	res, err := cbc.Solve(ctx, m, lay.Exist, cbc.Options{Seconds: secs})
	if err != nil {
		return nil, nil, fmt.Errorf("pattern: pattern MILP: %w", err)
	}
	if !res.HasSolution {
		return nil, nil, fmt.Errorf("pattern: pattern MILP: no pattern found (%s)", res.Status)
	}
	var pat formulations.Pattern
	for j, msg := range nw.Pattern {
		if res.X[lay.Exist[j]] > 0.5 && res.X[lay.Alpha[j]] > 1e-12 {
			pat = append(pat, msg)
		}
	}
	return pat, res, nil
}
