// Package highs is dlsched's binding of HiGHS, the LP solver of the
// University of Edinburgh (HiGHS 1.12: dual and primal simplex, an
// interior point method with crossover), through HiGHS's C API. The
// library is the static build that the Go module
// github.com/bartolsthoorn/gohighs bundles, so a build needs no HiGHS
// package: only cgo, the C++ runtime and zlib (the link adds -lstdc++,
// -lm, -ldl and -lz), and the highs build tag (see the end). The package calls the C API itself rather than
// gohighs's Go API, which offers neither the interrupt callback nor
// Highs_zeroAllClocks, and knows no "interrupted" model status.
//
// # Use
//
//	p, err := highs.New()
//	if err != nil { ... }        // solver.ErrUnavailable without HiGHS
//	defer p.Close()
//	sol, err := p.Solve(model, solver.Options{})
//	p.SetColBounds(j, 0, 5)      // then warm start:
//	sol, err = p.Resolve(solver.Options{})
//
// A *Problem implements solver.Solver, solver.Incremental and
// solver.Restarter, like solver/clp's. It is not safe for concurrent use;
// use one Problem per goroutine. Close frees HiGHS's memory at once and
// may be called more than once; a runtime cleanup frees a Problem that
// was never closed, as a safety net only.
//
// # Solving
//
// Load hands the model to Highs_passLp row-wise, objective offset
// included. Solve (and SolveLoaded, which keeps bound changes) clears
// HiGHS's basis and solves from scratch; Options.Algorithm selects the
// serial dual simplex (Dual, simplex_strategy 1), the primal simplex
// (Primal, 4) or the interior point method followed by crossover to a
// basis (Barrier: solver "ipm", run_crossover "on"), and Options.Presolve
// HiGHS's presolve ("choose" for PresolveAuto, "on", "off"). Resolve
// starts from the basis of the last solve (or the one SetBasis gave)
// without presolve, with the dual simplex, or the primal when
// Options.Algorithm is Primal. SetColBounds and SetRowBounds change the
// loaded model at once (Highs_changeColBounds, Highs_changeRowBounds).
//
// HiGHS has no counterpart to Clp's scaling modes: Options.Scaling 0 with
// ScalingSet switches scaling off (simplex_scale_strategy 0), anything
// else keeps HiGHS's default, and values above 4 are an error as for Clp.
// PrimalTolerance and DualTolerance set primal_feasibility_tolerance and
// dual_feasibility_tolerance, raised to 1e-10, the least HiGHS accepts
// (dlsched's first attempt asks Clp for a dual tolerance of 1e-12).
// MaxIterations bounds the simplex and the interior point iterations,
// MaxSeconds the wall time of the call: HiGHS counts its time limit on a
// clock that runs on from one solve to the next, so the binding zeroes it
// before every solve (Highs_zeroAllClocks). Unset options restore HiGHS's
// defaults; nothing leaks from one solve into the next.
//
// Options.Context stops a running solve: a callback on the context
// raises a flag that HiGHS's simplex and interior-point interrupt
// callbacks read at every iteration, and the solve returns an error
// wrapping the context's error (measured: 2–70 ms after the cancellation
// on a 1000×1000 LP, TestCancel). The callback writes HiGHS's interrupt
// field on every call, raised or not, because HiGHS keeps it from one run
// to the next.
//
// Output is silent at LogLevel 0 (output_flag off); LogLevel 1 and more
// switch HiGHS's log on (stdout). One exception is HiGHS's own: when an
// iteration limit stops an LP whose presolve ended "unbounded or
// infeasible", HiGHS 1.12 prints a line with printf whatever output_flag
// says. dlsched never sets an iteration limit.
//
// # Results and status
//
// HiGHS's model status maps to solver.Status: optimal Optimal; infeasible
// and "primal infeasible or unbounded" Infeasible (HiGHS settles the
// latter by solving again without presolve, so it is rare, and an LP of
// dlsched's is bounded below); unbounded Unbounded; time and iteration
// limits TimeLimit and IterationLimit; presolve, solve and postsolve
// errors and "unknown" Numerical; anything else (a model error, an
// interrupt) Failed. A model without columns, which HiGHS calls "empty"
// and optimal with objective 0, is optimal with its offset as objective
// when every row admits activity 0 and infeasible otherwise. A solve that
// does not end Optimal returns the partial Solution with a
// *solver.StatusError (Solver "highs"). X, RowActivity, Duals and
// ReducedCosts come from Highs_getSolution, Objective from
// Highs_getObjectiveValue, Iterations is the sum of the simplex, interior
// point and crossover iterations of the call.
//
// # Dual signs
//
// HiGHS's duals follow the convention of package solver and of Clp: the
// reduced costs are d = c − Aᵀy with c the model's own objective,
// whatever the sense, so a row at its lower bound of a minimisation has
// y ≥ 0, and the duals of a maximisation are the negated duals of the
// minimisation of −c·x (TestSmallLPs and TestDualSignConvention check it
// on hand-computed optima). Negative zeros are turned into zeros.
//
// # Bases
//
// Basis and SetBasis translate HiGHS's statuses (lower, basic, upper,
// zero, nonbasic) to solver.BasisStatus and back; a nonbasic status that
// names an infinite bound goes to the finite one, or to zero. Highs_setBasis
// refuses a basis without exactly one basic entry per row, so SetBasis
// first repairs one with too many (the last basic columns become
// nonbasic) or too few (the last nonbasic rows become basic); HiGHS's
// factorisation replaces what is left singular by slacks.
//
// # Infinity
//
// ±math.Inf bounds pass unchanged (HiGHS's infinity is IEEE infinity);
// HiGHS treats bounds of magnitude 1e20 and more as infinite.
//
// # Building with HiGHS
//
// HiGHS is built in only with the highs build tag (go build -tags highs),
// with cgo, on linux or darwin on amd64 or arm64 (the platforms gohighs
// ships a library for); otherwise the package compiles to a stub:
// Available reports false and New returns an error wrapping
// solver.ErrUnavailable. It is off by default: on the LPs dlsched builds
// it is slower than Clp (benchmarks/highs: the figure set 1.9–2.5×, the
// star m = 10, n = 3,000 2.5×, the tree p = 2, h = 8, n = 100 1.2–1.5×;
// level only on the full star LP at n = 10,000, which dlsched solves by
// stage generation),
// and it costs every build — bin/dlsched grows by 5.0 MB (29.3 MB against
// 24.3 MB, +20%), relinking it takes about 4 s more (medians of three:
// 13.4 s against 9.6 s on the loaded 2-core machine), nine test binaries
// link it, the module download is 12.5 MB, and the link needs the C++
// runtime's development files and zlib's (libstdc++.so and libz.so: g++
// and zlib1g-dev on Debian), which the packages scripts/deps.sh installs
// do not bring. Its use is as an independent cross-check of Clp.
package highs
