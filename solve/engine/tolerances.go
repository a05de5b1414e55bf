package engine

// The solver tolerances of dlsched's solves, in one place: the cold
// attempts (attempts) and the warm-started Sequence read the same ones —
// a warm run's first solve is the cold path's first attempt, and both
// polish with PolishTolerance.
const (
	// FirstPrimalTolerance and FirstDualTolerance are the first attempt's
	// (FirstAttempt): the tight dual tolerance lets one primal simplex
	// solve certify the optimum (README, Performance).
	FirstPrimalTolerance = 1e-10
	FirstDualTolerance   = 1e-12
	// StrictTolerance is the primal and dual tolerance of the strict
	// dual-simplex attempt without presolve.
	StrictTolerance = 1e-11
	// PolishTolerance is the primal and dual tolerance of the polishing
	// dual-simplex re-solve from the final basis.
	PolishTolerance = 1e-12
)
