package sweep

import (
	"errors"

	"github.com/dlsched/dlsched/optimize"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
)

// errNoOptimizer is returned for stages = "opt" when the optimizer is not
// built in (kept for builds that leave package optimize out).
var errNoOptimizer = errors.New("unsupported: optimize package not built")

// solveOpt solves p at the number of stages that optimize.OverN finds best
// (the pruned curve, or the unpruned one when opt.NoPrune), and returns
// the schedule of that n and the LP solves the search took.
func solveOpt(p *problem.Problem, opt solve.Options) (*schedule.Schedule, int, error) {
	res, err := optimize.OverN(p, optimize.Options{Solve: opt})
	if err != nil {
		return nil, 0, err
	}
	lps := res.Stats.Warm + res.Stats.Cold
	// The best n solved as `dlsched solve --stages n` solves it.
	s := res.Final.Schedule
	if s.Pattern != nil {
		lps += s.Pattern.Candidates
	}
	return s, lps, nil
}
