package solver

import (
	"context"
	"errors"
	"fmt"

	"github.com/dlsched/dlsched/lp"
)

// Status is the outcome of a solve.
type Status int

const (
	// Optimal: the solver proved optimality within its tolerances.
	Optimal Status = iota
	// Infeasible: no point satisfies the constraints.
	Infeasible
	// Unbounded: the objective can be improved without limit.
	Unbounded
	// IterationLimit: the iteration limit stopped the solve.
	IterationLimit
	// TimeLimit: the time limit stopped the solve.
	TimeLimit
	// Numerical: the solver gave up on numerical difficulties.
	Numerical
	// Failed: any other failure (bad model, unavailable backend).
	Failed
)

var statusNames = [...]string{"optimal", "infeasible", "unbounded", "iteration_limit", "time_limit", "numerical_trouble", "failed"}

// String returns the status in the lower-case words used in JSON output.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("status(%d)", int(s))
	}
	return statusNames[s]
}

// Sentinel errors, one per non-optimal status; errors.Is matches a
// *StatusError against them.
var (
	ErrInfeasible     = errors.New("infeasible")
	ErrUnbounded      = errors.New("unbounded")
	ErrIterationLimit = errors.New("iteration limit reached")
	ErrTimeLimit      = errors.New("time limit reached")
	ErrNumerical      = errors.New("numerical trouble")
	ErrFailed         = errors.New("solver failed")
	// ErrUnavailable is returned by a backend that was not built in (for
	// example Clp under the noclp build tag).
	ErrUnavailable = errors.New("solver backend unavailable")
)

// Err returns the sentinel error of a status, nil for Optimal.
func (s Status) Err() error {
	switch s {
	case Optimal:
		return nil
	case Infeasible:
		return ErrInfeasible
	case Unbounded:
		return ErrUnbounded
	case IterationLimit:
		return ErrIterationLimit
	case TimeLimit:
		return ErrTimeLimit
	case Numerical:
		return ErrNumerical
	}
	return ErrFailed
}

// StatusError reports a solve that did not end optimal.
type StatusError struct {
	Solver string // backend name, e.g. "clp"
	Status Status
	Detail string // backend-specific detail, may be empty
	// Cause is the error behind the status, e.g. a cancelled context.
	Cause error
}

// Unwrap returns the cause.
func (e *StatusError) Unwrap() error { return e.Cause }

// Error implements error.
func (e *StatusError) Error() string {
	what := e.Status.String()
	if err := e.Status.Err(); err != nil {
		what = err.Error()
	}
	msg := e.Solver + ": " + what
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

// Is reports whether target is the sentinel error of e's status.
func (e *StatusError) Is(target error) bool { return target == e.Status.Err() }

// Algorithm selects the solution method.
type Algorithm int

const (
	// Dual simplex (the default).
	Dual Algorithm = iota
	// Primal simplex.
	Primal
	// Barrier (interior point) followed by crossover to a basis.
	Barrier
)

// String returns "dual", "primal" or "barrier".
func (a Algorithm) String() string {
	switch a {
	case Primal:
		return "primal"
	case Barrier:
		return "barrier"
	}
	return "dual"
}

// Presolve selects whether the solver presolves the model.
type Presolve int

const (
	// PresolveAuto leaves the choice to the backend (Clp: on).
	PresolveAuto Presolve = iota
	// PresolveOn forces presolve.
	PresolveOn
	// PresolveOff disables presolve.
	PresolveOff
)

// Options tune a solve. The zero value is a silent dual-simplex solve with
// the backend's default tolerances and no limits.
type Options struct {
	Algorithm Algorithm
	Presolve  Presolve
	// Scaling is the backend's scaling mode; for Clp 0 off, 1 equilibrium,
	// 2 geometric, 3 auto, 4 dynamic. Negative (or zero value with
	// ScalingSet false) keeps the backend default.
	Scaling    int
	ScalingSet bool
	// PrimalTolerance and DualTolerance override the feasibility
	// tolerances when positive.
	PrimalTolerance, DualTolerance float64
	// MaxIterations and MaxSeconds limit the solve when positive.
	MaxIterations int
	MaxSeconds    float64
	// LogLevel is the backend's verbosity; 0 is silent.
	LogLevel int
	// Context, if set, stops the solve when it is cancelled (within a
	// second for Clp; the solve returns an error wrapping ctx.Err()).
	Context context.Context
}

// Solution is what a solver returns.
type Solution struct {
	Status Status
	// Objective is the objective value reported by the solver.
	Objective float64
	// X are the column (variable) values, RowActivity = A·X.
	X, RowActivity []float64
	// Duals are the row duals y and ReducedCosts d = c − Aᵀy (see the
	// package doc for signs). Either may be nil if the backend cannot
	// produce them.
	Duals, ReducedCosts []float64
	// Iterations is the number of simplex (or barrier) iterations.
	Iterations int
	// Algorithm is a short description of what was run, e.g. "dual".
	Algorithm string
}

// Solver solves one model at a time. Implementations are not required to be
// safe for concurrent use; use one Solver per goroutine.
type Solver interface {
	// Name returns the backend name, e.g. "clp" or "gonum".
	Name() string
	// Solve solves m. For a non-optimal outcome it returns the (possibly
	// partial) Solution and a *StatusError.
	Solve(m *lp.Model, opt Options) (*Solution, error)
}

// Incremental is a solver that keeps a model loaded so that bounds can be
// changed and the model re-solved from the previous basis (warm start).
type Incremental interface {
	Solver
	// Load replaces the loaded model.
	Load(m *lp.Model) error
	// SetColBounds and SetRowBounds change bounds of the loaded model.
	SetColBounds(j int, lo, up float64)
	SetRowBounds(i int, lo, up float64)
	// Resolve re-solves the loaded model starting from the last basis.
	Resolve(opt Options) (*Solution, error)
	// Close releases the backend's memory; the solver is unusable after.
	Close() error
}

// BasisStatus is the simplex status of a column, or of a row's slack.
type BasisStatus int8

// The statuses of a basis; the values are Clp's (ClpSimplex::Status).
const (
	// Free: a nonbasic column without bounds.
	Free BasisStatus = iota
	// Basic: in the basis.
	Basic
	// AtUpper: nonbasic at its upper bound (a row: activity at its upper
	// bound).
	AtUpper
	// AtLower: nonbasic at its lower bound.
	AtLower
	// Superbasic: nonbasic between its bounds.
	Superbasic
	// Fixed: nonbasic with equal bounds.
	Fixed
)

// Basis is a simplex basis: the status of every column and of every row.
type Basis struct {
	Cols, Rows []BasisStatus
}

// NumBasic returns the number of basic entries, columns and rows; a basis
// a simplex can factorise has one per row.
func (b Basis) NumBasic() int {
	n := 0
	for _, s := range b.Cols {
		if s == Basic {
			n++
		}
	}
	for _, s := range b.Rows {
		if s == Basic {
			n++
		}
	}
	return n
}

// Restarter is an Incremental solver whose basis can be read and set, so
// that a model may start from the basis of a related one (the engine's
// prune rounds: the same LP less a few messages). A basis with the wrong
// number of basic entries is repaired by the backend.
type Restarter interface {
	Incremental
	// Basis returns the basis of the last solve of the loaded model, and
	// false if there is none.
	Basis() (Basis, bool)
	// SetBasis makes b (one status per column and per row of the loaded
	// model) the starting basis of the next Resolve.
	SetBasis(b Basis) error
}
