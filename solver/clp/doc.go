// Package clp is dlsched's own thin cgo binding of COIN-OR Clp, the simplex
// and barrier LP solver, through Clp's C API (Clp_C_Interface.h, found with
// pkg-config clp). It is written in the spirit of github.com/lanl/clp but
// covers only what dlsched needs: load an lp.Model, solve it, change bounds
// and re-solve from the previous basis.
//
// # Use
//
//	p, err := clp.New()
//	if err != nil { ... }        // solver.ErrUnavailable without Clp
//	defer p.Close()
//	sol, err := p.Solve(model, solver.Options{})
//	p.SetColBounds(j, 0, 5)      // then warm start:
//	sol, err = p.Resolve(solver.Options{})
//
// A *Problem implements solver.Solver and solver.Incremental. It is not safe
// for concurrent use; use one Problem per goroutine. Close frees Clp's memory
// at once and may be called more than once; a runtime cleanup frees a
// Problem that was never closed, as a safety net only.
//
// # Solving
//
// Solve loads the model (Clp_loadProblem on the model's CSC copy, made in
// C-allocated memory) and calls Clp_initialSolveWithOptions with a ClpSolve
// whose solve type follows Options.Algorithm (Dual, the default; Primal;
// Barrier, which is Clp's barrier followed by crossover to a basis, as
// Clp_initialBarrierSolve does) and whose presolve follows Options.Presolve
// (PresolveAuto means on, Clp's default). Because Clp 1.17's barrier can
// report an unbounded LP as optimal, a barrier solve that Clp calls optimal
// is followed by a primal simplex pass from the crossover basis, which
// takes no iterations when the optimum is real.
//
// Resolve re-solves the loaded model with Clp_dual (Clp_primal when
// Options.Algorithm is Primal; barrier cannot be warm-started, so it means
// dual) from the basis left by the previous solve, without presolve.
// SetColBounds and SetRowBounds change bounds in place; the changes are
// handed to Clp at the next solve.
//
// Options.Scaling is passed to Clp_scaling when positive, or zero with
// ScalingSet (0 off, 1 equilibrium, 2 geometric, 3 auto, 4 dynamic; Clp's
// default is 3; larger values are an error). Positive tolerances, MaxIterations and
// MaxSeconds override Clp's defaults; unset options restore them, so a
// setting never leaks from one solve into the next. The limits count per
// call. MaxSeconds is checked by Clp against the process's CPU time (all
// threads), so with other goroutines busy it can stop a solve earlier than
// the wall clock would.
//
// Output is silent by default: log level 0 prints nothing on stdout or
// stderr. Options.LogLevel 1 to 4 make Clp increasingly verbose (on stdout).
//
// # Results and status
//
// Clp_status and Clp_secondaryStatus map to solver.Status: 0 Optimal,
// 1 Infeasible, 2 Unbounded, 3 IterationLimit or TimeLimit (secondary
// status 9 means time; otherwise reaching MaxIterations means iterations,
// and a stop with only MaxSeconds set means time), 4 Numerical, 5 (stopped
// by an event handler) and anything else Failed. A solve that does not end
// Optimal returns the partial Solution together with a *solver.StatusError
// (Solver "clp") whose Detail gives Clp's two status codes. Invalid models
// and options give a StatusError with Status Failed and no Solution.
//
// The Solution's slices are Go copies of Clp's arrays: X
// (Clp_getColSolution), RowActivity (Clp_getRowActivity), Duals
// (Clp_getRowPrice) and ReducedCosts (Clp_getReducedCost). Objective is
// Clp's objective value plus the model's ObjOffset, which Clp never sees.
// Iterations counts the simplex (or barrier plus crossover) iterations of
// this call only.
//
// # Dual signs
//
// The reduced costs satisfy d = c − Aᵀy with c the model's own objective
// coefficients, whatever the sense; y is the rate of change of the optimal
// objective with a row bound. For a minimisation this is the convention of
// package solver: a row at its lower bound has y ≥ 0, a row at its upper
// bound y ≤ 0, and likewise d ≥ 0 at a lower and d ≤ 0 at an upper column
// bound. For a maximisation (Clp's optimisation direction −1) the same
// formula holds and the signs flip: a tight <= row has y ≥ 0. The duals of
// a maximisation are thus the negated duals of the minimisation of −c·x.
// These are the values Clp returns; the binding does not change them, only
// turning −0 into 0.
//
// # Infinity
//
// ±math.Inf bounds are passed to Clp as ±COIN_DBL_MAX (DBL_MAX), and any
// ±COIN_DBL_MAX that Clp reports comes back as ±Inf. Clp itself treats
// bounds beyond ±1e27 as infinite.
//
// # Why not github.com/lanl/clp
//
// The design card names github.com/lanl/clp, and v1.2.0 is on the module
// proxy; it builds against Debian's Clp 1.17.6 and solves. Checked by its
// code (clp-interface.h, simplex.go), it wraps a ClpSimplex through a C++
// shim and lacks these calls that this package makes:
//
//   - the basis: Clp_statusExists, Clp_statusArray and Clp_copyinStatus
//     (Basis and SetBasis, the prune rounds' restarts);
//   - bound changes on a loaded model: Clp_columnLower/Upper,
//     Clp_rowLower/Upper and Clp_chgColumnLower/Upper, Clp_chgRowLower/Upper
//     (SetColBounds, SetRowBounds; there, only a new LoadProblem changes a
//     bound, and it discards the basis, so no warm start);
//   - presolve and the solve type: ClpSolve_new, ClpSolve_setSolveType,
//     ClpSolve_setPresolveType, ClpSolve_setSpecialOption and
//     Clp_initialSolveWithOptions (its Primal and Dual call
//     ClpSimplex::primal and ::dual, which never presolve; Options.Presolve
//     could not be honoured);
//   - Clp_setDualTolerance and Clp_dualTolerance (dlsched's first attempt
//     sets a dual tolerance of 1e-12), Clp_setLogLevel (fixed at 0),
//     Clp_numberIterations and Clp_setNumberIterations (Solution.Iterations
//     and the limit's classification), Clp_Version, and an explicit free
//     (a Simplex and its copies of the bounds are released only by a
//     finalizer).
//
// Cancellation it could do as this package does (SetMaxIterations(0) from
// another goroutine), and it has the status (Primal and Dual return
// Clp_status's value; SecondaryStatus), the solution, the row and column
// duals and the objective. Neither binding reads Clp's rays (Clp_infeasibilityRay,
// Clp_unboundedRay): dlsched needs none. It loads a model column by column
// (one cgo call each, PackedMatrix.AppendColumn) and panics on arrays of
// the wrong length. So dlsched keeps its own binding.
//
// # Building without Clp
//
// The binding needs cgo and Clp's development files (Debian:
// coinor-libclp-dev). With the noclp build tag, or with cgo disabled, the
// package compiles to a stub: Available reports false and New returns an
// error wrapping solver.ErrUnavailable, so the rest of dlsched still builds
// and can fall back to another backend.
package clp
