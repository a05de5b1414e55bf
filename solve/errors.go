package solve

import (
	"errors"

	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solve/pattern"
	"github.com/dlsched/dlsched/solver"
)

// SizeError reports an LP estimated to need more memory than the limit
// (Options.MaxModelBytes); it is returned before the LP, or anything in
// proportion to it, is built.
type SizeError struct {
	// Bytes is the LP's estimated memory, Limit the limit.
	Bytes, Limit int64
	err          error // the engine's error, with its context
}

// Error implements error: the LP's size against the limit.
func (e *SizeError) Error() string { return e.err.Error() }

// Unwrap returns the engine's error.
func (e *SizeError) Unwrap() error { return e.err }

// ExactSizeError reports a problem with more messages than the exact
// pattern MILP takes (Options.Pattern "exact": one binary per message).
type ExactSizeError struct {
	// Messages is n times the destinations.
	Messages int
	err      error
}

// Error implements error.
func (e *ExactSizeError) Error() string { return e.err.Error() }

// Unwrap returns the pattern search's error.
func (e *ExactSizeError) Unwrap() error { return e.err }

// IsInfeasible reports whether err says that no schedule exists: the LP
// is infeasible (too little buffer capacity for V in n stages).
func IsInfeasible(err error) bool { return errors.Is(err, solver.ErrInfeasible) }

// wrap gives the errors of the engine and the pattern search that callers
// tell apart this package's types, keeping their messages.
func wrap(err error) error {
	var ze *engine.SizeError
	if errors.As(err, &ze) {
		return &SizeError{Bytes: ze.Estimate.Bytes(), Limit: ze.Limit, err: err}
	}
	var xe *pattern.ExactSizeError
	if errors.As(err, &xe) {
		return &ExactSizeError{Messages: xe.Messages, err: err}
	}
	return err
}
