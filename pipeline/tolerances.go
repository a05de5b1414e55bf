package pipeline

// The solver tolerances of dlsched's solves, in one place: the pipeline's
// attempts and the warm-started searches of optimize (optimize/warm.go)
// both read them. The warm path still uses WarmDualTolerance (1e-10) where
// the pipeline's first attempt uses FirstDualTolerance (1e-12): a drift
// issue 11 names, kept as it is until the two engines are one.
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
	// WarmPrimalTolerance and WarmDualTolerance are the first solve of a
	// warm-started search (optimize).
	WarmPrimalTolerance = 1e-10
	WarmDualTolerance   = 1e-10
)
