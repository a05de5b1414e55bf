package solve

import (
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve/engine"
)

// Sequence solves the unpruned LPs of one problem for a run of stage
// counts n, or of loads V, from one basis (engine.Sequence): the n-stage
// LP is the LP of a larger pattern with its later messages switched off,
// and in the compact form a new V changes bounds only, so each is a
// re-solve from the previous basis. Every answer is repaired and
// certified as a cold one is; one that does not certify is reported not
// ok, for the caller to solve cold. A Sequence is used by one goroutine
// at a time (it holds the Options' solver).
type Sequence struct{ e *engine.Sequence }

// Outcome is the certified solution of the full n-stage pattern, without
// pruning.
type Outcome struct {
	// Cmax is the makespan of the repaired schedule, LowerBound a
	// certified lower bound on the LP's optimum.
	Cmax, LowerBound float64
	// StagesUsed counts the stages whose messages carry load.
	StagesUsed int
}

// NewSequence returns the warm-start engine for p with opt's solver and
// settings, or nil when opt does not allow one: the solver cannot
// re-solve from a basis, the form is not the compact one, the worker
// order of a heterogeneous star is searched, results are returned, or the
// options are invalid. Pruning is off in every solve of a Sequence.
func NewSequence(p *problem.Problem, opt Options) *Sequence {
	eo, err := opt.engine()
	if err != nil {
		return nil
	}
	if ordered, err := opt.searchesOrder(p); ordered || err != nil {
		return nil // the worker order may change with n: every point is searched
	}
	e := engine.NewSequence(p, eo)
	if e == nil {
		return nil
	}
	return &Sequence{e: e}
}

// Solve returns the certified outcome of the full n-stage pattern of the
// Sequence's problem (n at least n_min), solved from the previous basis
// when there is one. ok is false when the caller must solve n cold (the
// gap stayed above the tolerance, the solver failed, or the model would
// exceed the memory limit); warm reports whether the solve started from a
// previous basis.
func (s *Sequence) Solve(n int) (out Outcome, warm, ok bool) {
	o, warm, ok := s.e.Solve(n)
	if !ok {
		return Outcome{}, warm, false
	}
	return Outcome{Cmax: o.Cmax, LowerBound: o.LowerBound, StagesUsed: o.StagesUsed()}, warm, true
}

// Reserve says that the Sequence will be asked for up to n stages, so that
// the next model it builds holds them (a chain of stage counts known in
// advance is then solved in one model).
func (s *Sequence) Reserve(n int) { s.e.Reserve(n) }

// Invalidate records that the solver now holds another model (a cold
// solve in between): the next solve loads the Sequence's model again.
func (s *Sequence) Invalidate() { s.e.Invalidate() }

// Close drops the model; the solver stays open.
func (s *Sequence) Close() {
	if s != nil {
		s.e.Close()
	}
}
