package optimize

import (
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
)

// Final is the schedule a search's best point stands for: the problem at
// the best (n, D) solved as `dlsched solve` solves it (solve.Schedule: the
// pattern search, or the full pattern without pruning). Its Cmax can be
// below the curve's, which follows one rule for every point (the greedy
// prune); the two gaps say what is proven about it.
type Final struct {
	// Stages and D are the best point's.
	Stages int            `json:"stages"`
	D      schedule.Float `json:"D"`
	// Cmax is the schedule's makespan.
	Cmax schedule.Float `json:"cmax"`
	// LowerBound and Gap certify the LP of the returned pattern: no
	// schedule with these messages is shorter than LowerBound.
	LowerBound schedule.Float `json:"lower_bound"`
	Gap        schedule.Float `json:"gap"`
	// PatternLowerBound and PatternGap hold for every pattern (any set of
	// messages, any n).
	PatternLowerBound schedule.Float `json:"pattern_lower_bound"`
	PatternGap        schedule.Float `json:"pattern_gap"`
	// Pattern says how the messages were chosen.
	Pattern *schedule.PatternInfo `json:"pattern"`
	// WorkerOrder and WorkerOrderMethod are the schedule's (a star with
	// per-processor parameters; schedule.Schedule.WorkerOrder).
	WorkerOrder       []int  `json:"worker_order,omitempty"`
	WorkerOrderMethod string `json:"worker_order_method,omitempty"`
	// Schedule is the schedule itself.
	Schedule *schedule.Schedule `json:"-"`
}

// finalAt solves p (with buffer d) at n stages as `dlsched solve` does:
// the pattern search of solve.Schedule, without verification.
func finalAt(p *problem.Problem, n int, d float64, opt solve.Options) (*Final, error) {
	q := *p
	q.D = d
	opt.Pattern, opt.Cache, opt.Warm, opt.Verify = "search", nil, nil, false
	res, err := solve.Schedule(&q, n, opt)
	if err != nil {
		return nil, err
	}
	s := res.Schedule
	return &Final{Stages: n, D: schedule.Float(d), Cmax: schedule.Float(s.Cmax),
		LowerBound: schedule.Float(s.LowerBound), Gap: schedule.Float(s.Gap),
		PatternLowerBound: schedule.Float(s.PatternLowerBound), PatternGap: schedule.Float(s.PatternGap),
		Pattern: s.Pattern, WorkerOrder: s.WorkerOrder, WorkerOrderMethod: s.WorkerOrderMethod, Schedule: s}, nil
}
