package gonumlp

import (
	"errors"
	"fmt"
	"math"

	glp "gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
)

// SolverName is the backend name returned by Name and used in
// solver.StatusError.
const SolverName = "gonum"

// Default size limits of the dense standard form (see Solver).
const (
	DefaultMaxCols = 2000
	DefaultMaxRows = 2000
)

// Default tolerances (see the package documentation).
const (
	DefaultDualTolerance   = 1e-10
	DefaultPrimalTolerance = 1e-9
)

// Solver solves models with gonum's dense simplex method. The zero value is
// ready to use; a Solver holds no state between solves and may be shared by
// goroutines.
type Solver struct {
	// MaxCols and MaxRows bound the dense standard form (columns include
	// slacks and split free variables, rows include one per finite
	// two-sided column bound). Zero selects DefaultMaxCols and
	// DefaultMaxRows; a negative value removes the limit.
	MaxCols, MaxRows int

	// forceDualLP makes Solve skip the basis route to the duals (tests).
	forceDualLP bool
}

var _ solver.Solver = (*Solver)(nil)

// New returns a Solver with the default size limits.
func New() *Solver { return &Solver{} }

// Name returns "gonum".
func (s *Solver) Name() string { return SolverName }

func limit(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return math.MaxInt
	}
	return v
}

// fail returns a partial Solution with status st and the matching
// *solver.StatusError.
func fail(st solver.Status, detail string) (*solver.Solution, error) {
	return &solver.Solution{Status: st, Algorithm: "primal"},
		&solver.StatusError{Solver: SolverName, Status: st, Detail: detail}
}

// statusOf maps an error of lp.Simplex (or of this package's phases) to a
// status.
func statusOf(err error) solver.Status {
	switch {
	case errors.Is(err, glp.ErrInfeasible):
		return solver.Infeasible
	case errors.Is(err, glp.ErrUnbounded):
		return solver.Unbounded
	}
	// ErrSingular, ErrLinSolve, ErrBland, ErrZeroRow, ErrZeroColumn,
	// mat.Condition and recovered panics.
	return solver.Numerical
}

// Solve solves m; see the package documentation for the method, the options
// honoured and the sign convention of the duals. A non-optimal outcome
// returns a Solution carrying only the status and a *solver.StatusError.
func (s *Solver) Solve(m *lp.Model, opt solver.Options) (*solver.Solution, error) {
	if m == nil {
		return fail(solver.Failed, "nil model")
	}
	if err := m.Validate(); err != nil {
		return fail(solver.Failed, err.Error())
	}
	tol := opt.DualTolerance
	if tol <= 0 {
		tol = DefaultDualTolerance
	}
	ptol := opt.PrimalTolerance
	if ptol <= 0 {
		ptol = DefaultPrimalTolerance
	}
	f, err := analyse(m, ptol)
	if err != nil {
		return fail(solver.Infeasible, err.Error())
	}
	maxCols, maxRows := limit(s.MaxCols, DefaultMaxCols), limit(s.MaxRows, DefaultMaxRows)
	if f.nCols > maxCols || f.nRows > maxRows {
		return fail(solver.Failed, fmt.Sprintf(
			"model too large for the dense gonum backend: standard form has %d columns × %d rows, limit %d × %d (model %d columns × %d rows)",
			f.nCols, f.nRows, maxCols, maxRows, m.NumVars(), m.NumRows()))
	}
	z, yhat, err := s.solveForm(f, opt, tol, ptol)
	if err != nil {
		return fail(statusOf(err), err.Error())
	}
	if f.unbounded != "" {
		return fail(solver.Unbounded, fmt.Sprintf("column %s appears in no row and its objective is unbounded", f.unbounded))
	}
	x := f.primal(z)
	if v := m.MaxViolation(x); v.Relative() > math.Max(1e-7, 100*ptol) {
		what := "column"
		if v.Row {
			what = "row"
		}
		return fail(solver.Numerical, fmt.Sprintf("solution violates %s %s by %g", what, v.Name, v.Amount))
	}
	sol := &solver.Solution{
		Status:      solver.Optimal,
		Objective:   m.ObjectiveValue(x),
		X:           x,
		RowActivity: m.Activity(x),
		Algorithm:   "primal",
	}
	if yhat != nil || f.nRows == 0 {
		if yhat == nil {
			yhat = []float64{}
		}
		sol.Duals, sol.ReducedCosts = duals(m, f.duals(yhat))
	}
	return sol, nil
}

// solveForm solves the standard form f (scaled unless opt switches
// scaling off) and returns its primal z and, when the objective is
// bounded and they could be computed, its duals, both unscaled; nil when
// the form has no rows.
func (s *Solver) solveForm(f *stdForm, opt solver.Options, tol, ptol float64) (z, yhat []float64, err error) {
	if f.nRows == 0 {
		return nil, nil, nil
	}
	A, b, c := f.build()
	rs, cs := ones(f.nRows), ones(f.nCols)
	if !(opt.ScalingSet && opt.Scaling == 0) {
		rs, cs = scale(A, b, c)
	}
	zs, err := solveStd(c, A, b, tol, ptol)
	if err != nil {
		return nil, nil, err
	}
	if f.unbounded == "" {
		dtol := math.Max(1e-9, 10*tol)
		if ys := stdDuals(c, A, b, zs, tol, ptol, dtol, s.forceDualLP); ys != nil {
			yhat = make([]float64, len(ys))
			for i, v := range ys {
				yhat[i] = v * rs[i]
			}
		}
	}
	z = make([]float64, len(zs))
	for j, v := range zs {
		z[j] = v * cs[j]
	}
	return z, yhat, nil
}

// duals returns the row duals y and the reduced costs d = c − Aᵀy.
func duals(m *lp.Model, y []float64) ([]float64, []float64) {
	d := append([]float64(nil), m.Obj...)
	for r, yr := range y {
		if yr == 0 {
			continue
		}
		cols, vals := m.Row(r)
		for q, c := range cols {
			d[c] -= vals[q] * yr
		}
	}
	return y, d
}
