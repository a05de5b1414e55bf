// Package gonumlp is a solver.Solver backed by the pure-Go simplex method of
// gonum.org/v1/gonum/optimize/convex/lp. It needs no C library and serves for
// small models and as an independent cross-check of the Clp backend.
//
// # Standard form
//
// gonum's lp.Simplex solves only min cᵀz subject to Az = b, z ≥ 0 with a
// dense A. Solve converts a general lp.Model to that form:
//
//   - a fixed column (lower == upper) is substituted by its value;
//   - a column with a finite lower bound l becomes z = x − l, and when its
//     upper bound u is finite too it gets a row z + t = u − l with a slack t;
//   - a column with only a finite upper bound u becomes z = u − x;
//   - a free column becomes z⁺ − z⁻;
//   - a ≥ row gets a surplus, a ≤ row a slack, a ranged row lo ≤ a·x ≤ up
//     becomes a·x − s = lo with s + t = up − lo, an equality row none;
//   - a free row (both bounds infinite) and a row without coefficients on
//     unfixed columns are dropped (the latter after checking that its
//     constant activity lies within its bounds);
//   - equality rows that are linear combinations of others are dropped (or
//     prove the model infeasible), because lp.Simplex needs full row rank;
//   - a column left without coefficients is set to the bound its objective
//     coefficient prefers (the model is unbounded when that bound is
//     infinite).
//
// Rows and columns of the standard form are scaled by powers of two
// (geometric mean scaling) unless Options.Scaling is 0 with ScalingSet.
//
// Because this form is dense, models whose standard form exceeds
// Solver.MaxCols columns or Solver.MaxRows rows (DefaultMaxCols and
// DefaultMaxRows when zero) are refused with a *solver.StatusError of status
// solver.Failed whose detail gives the size.
//
// # Phases
//
// Solve runs its own phase I (artificial variables where no slack gives a
// feasible starting basis, minimised with lp.Simplex from the slack and
// artificial basis) and then phase II with lp.Simplex from a basis built on
// the phase-I point, instead of relying on lp.Simplex's internal phase I,
// which can report a feasible problem infeasible. Because lp.Simplex's
// optimality test is absolute, a phase I that ends short of feasibility is
// repeated once with tolerance 1e-15 before the model is declared
// infeasible. Should this path fail numerically, plain lp.Simplex is tried
// as a fallback. Every optimal point is finally checked against the model's
// bounds (lp.Model.MaxViolation); a relative violation above
// max(1e-7, 100·PrimalTolerance) is reported as solver.Numerical.
//
// gonum errors are mapped to statuses: lp.ErrInfeasible to
// solver.Infeasible, lp.ErrUnbounded to solver.Unbounded, and
// lp.ErrSingular, lp.ErrLinSolve, lp.ErrBland, ill-conditioning and any panic
// of lp.Simplex to solver.Numerical; the error is then a
// *solver.StatusError with Solver "gonum".
//
// # Duals
//
// lp.Simplex returns no duals. Solve recovers them from a basis containing
// the support of the optimal point, solving Bᵀŷ = c_B, and accepts them when
// they are dual feasible; at a degenerate optimum, where that basis may be
// the wrong one, it solves the dual LP max bᵀŷ, Aᵀŷ ≤ c with lp.Simplex
// instead. Duals that fail both checks are left nil.
//
// Sign convention (see package solver): for a minimisation model,
// Solution.Duals are y and Solution.ReducedCosts d = c − Aᵀy, so that a row at
// its lower bound has y ≥ 0, a row at its upper bound y ≤ 0, a column at its
// lower bound d ≥ 0 and one at its upper bound d ≤ 0, and for every y the
// Lagrangian lower bound
//
//	c·x ≥ Σ_r min_{lo_r ≤ v ≤ up_r} y_r·v + Σ_j min_{l_j ≤ x_j ≤ u_j} d_j·x_j
//
// holds, with equality at the optimum.
//
// For a maximisation model the same formula d = c − Aᵀy holds with the
// model's own objective c, and y is still the derivative of the optimal
// value with respect to the row bound that is active; the signs therefore
// flip: a row at its upper bound has y ≥ 0, a row at its lower bound y ≤ 0,
// a column at its upper bound d ≥ 0 and one at its lower bound d ≤ 0, and
// the Lagrangian bound is an upper bound,
//
//	c·x ≤ Σ_r max_{lo_r ≤ v ≤ up_r} y_r·v + Σ_j max_{l_j ≤ x_j ≤ u_j} d_j·x_j,
//
// again with equality at the optimum. (Equivalently, −y and −d are the
// minimisation duals of min −c·x.) ObjOffset is added to both sides.
//
// # Options
//
// DualTolerance (default 1e-10) is passed to lp.Simplex as its optimality
// tolerance on reduced costs; PrimalTolerance (default 1e-9) decides the
// phase-I infeasibility test and the consistency checks of dropped rows.
// lp.Simplex has no iteration or time limit and reports no iteration count,
// so MaxIterations and MaxSeconds are ignored and Solution.Iterations is 0.
// Algorithm, Presolve and LogLevel are ignored too: the method is always
// gonum's primal simplex (Solution.Algorithm "primal").
package gonumlp
