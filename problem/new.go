package problem

import (
	"fmt"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// Input is a problem as its entry points hold it before validation: names
// for the topology and the order, numbers for the rest (D may be +Inf).
// Fields that do not apply to the topology are ignored (Order and P, H for
// a star; M and Procs for trees; Buffers for stars and binomial trees).
type Input struct {
	Topology, Order string
	Buffers         int
	M, P, H         int
	S, C, A, D, V   float64
	Procs           []schedule.Proc
	Relay           []int
	// ResultRatio is β (stars; see Problem.ResultRatio) and Return the
	// order of the result messages, "fifo" (also "") or "lifo".
	ResultRatio float64
	Return      string
}

// New is the one constructor: it reads the names, fills the defaults
// (order nlf, 1 buffer) and validates (Validate). Every error is a
// *FieldError naming the field.
func New(in Input) (*Problem, error) { return newProblem(in, false) }

func newProblem(in Input, relaxed bool) (*Problem, error) {
	kind, err := ParseTopology(in.Topology)
	if err != nil {
		return nil, err
	}
	p := &Problem{Kind: kind, Buffers: 1, S: in.S, C: in.C, A: in.A, D: in.D, V: in.V, ResultRatio: in.ResultRatio}
	if p.Return, err = ParseReturn(in.Return); err != nil {
		return nil, err
	}
	switch kind {
	case topology.Star:
		p.M = in.M
		p.Procs = append([]schedule.Proc(nil), in.Procs...)
	default:
		if in.Order != "" {
			if p.Order, err = ParseOrder(in.Order); err != nil {
				return nil, err
			}
		}
		p.P, p.H = in.P, in.H
		if kind == topology.Tree && in.Buffers != 0 {
			p.Buffers = in.Buffers
		}
		p.Relay = append([]int(nil), in.Relay...)
	}
	if err := p.validate(relaxed); err != nil {
		return nil, err
	}
	return p, nil
}

// FromSchedule builds the problem recorded in a schedule (its JSON
// "problem" object) with New, and checks its stage count when the schedule
// states one (stages >= 1). A star given only per-processor parameters
// takes m from them; an ordinary tree without a stated buffer count has 2
// (alternating) buffers, as the replay reads it.
func FromSchedule(s *schedule.Schedule) (*Problem, error) { return fromSchedule(s, false) }

// FromScheduleRelaxed is FromSchedule under the replay's rules
// (ValidateRelaxed): C, A and V may also be 0, and the stated stage count
// is not checked (a replay reads the stages of the chunks).
func FromScheduleRelaxed(s *schedule.Schedule) (*Problem, error) { return fromSchedule(s, true) }

func fromSchedule(s *schedule.Schedule, relaxed bool) (*Problem, error) {
	sp := s.Problem
	in := Input{Topology: sp.Topology, Order: sp.Order, Buffers: sp.Buffers, M: sp.M, P: sp.P, H: sp.H,
		S: sp.S, C: sp.C, A: sp.A, D: float64(sp.D), V: sp.V, Procs: sp.Procs, Relay: sp.Relay,
		ResultRatio: sp.ResultRatio, Return: sp.Return}
	if in.M == 0 && len(in.Procs) > 0 {
		in.M = len(in.Procs)
	}
	if in.Topology == "tree" && in.Buffers == 0 {
		in.Buffers = 2
	}
	p, err := newProblem(in, relaxed)
	if err != nil {
		return nil, err
	}
	if !relaxed && s.Has(schedule.FieldProblemStages) {
		if err := CheckInt(FieldStages, sp.Stages); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// StagesError reports a stage count below n_min.
type StagesError struct {
	N, NMin int
}

// Error implements error: "invalid stages 1: below n_min=2, ...".
func (e *StagesError) Error() string { return e.Format(plainName) }

// Format renders the error with the stages field named by name.
func (e *StagesError) Format(name func(string) string) string {
	return fmt.Sprintf("invalid %s %d: below n_min=%d, the fewest stages that can carry V with buffers of size D", name(FieldStages), e.N, e.NMin)
}

// CheckStages checks a stage count n for p: n >= 1 (a *FieldError) and
// n >= n_min (a *StagesError).
func (p *Problem) CheckStages(n int) error {
	if err := CheckInt(FieldStages, n); err != nil {
		return err
	}
	if nmin := p.NMin(); n < nmin {
		return &StagesError{N: n, NMin: nmin}
	}
	return nil
}
