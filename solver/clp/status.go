package clp

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/solver"
)

// name is the backend name used in Solver.Name and StatusError.Solver.
const name = "clp"

// coinDBLMax is COIN_DBL_MAX (DBL_MAX), the value Clp uses for an infinite
// bound. Clp itself treats any bound beyond ±1e27 as infinite when loading.
const coinDBLMax = math.MaxFloat64

// toClp maps a bound to Clp's representation: ±Inf becomes ±COIN_DBL_MAX.
func toClp(v float64) float64 {
	switch {
	case math.IsInf(v, 1):
		return coinDBLMax
	case math.IsInf(v, -1):
		return -coinDBLMax
	}
	return v
}

// fromClp maps a value reported by Clp back: ±COIN_DBL_MAX becomes ±Inf
// and -0 becomes 0.
func fromClp(v float64) float64 {
	switch {
	case v >= coinDBLMax:
		return math.Inf(1)
	case v <= -coinDBLMax:
		return math.Inf(-1)
	case v == 0:
		return 0 // no negative zeros in results
	}
	return v
}

// outcome is what Clp reports at the end of a solve, plus what we asked for.
type outcome struct {
	status     int     // Clp_status
	secondary  int     // Clp_secondaryStatus
	iterations int     // Clp_numberIterations (counted from zero per call)
	maxIter    int     // Options.MaxIterations (<= 0: none)
	maxSeconds float64 // Options.MaxSeconds (<= 0: none)
}

// classify maps Clp's status pair to a solver.Status and a detail string
// for the StatusError. Clp's codes (ClpModel.hpp, Clp 1.17):
//
//	status    -1 unknown (not solved), 0 optimal, 1 primal infeasible,
//	          2 dual infeasible, 3 stopped on iterations or time,
//	          4 stopped due to errors, 5 stopped by event handler
//	secondary 0 none, 1 primal infeasible because dual limit reached (or,
//	          with status 4, probably infeasible but not proven),
//	          2/3/4 scaled optimal but unscaled has primal/dual/both
//	          infeasibilities, 5 giving up in primal with flagged variables,
//	          6 empty problem check failed, 7 postsolve says not optimal,
//	          8 bad element check failed, 9 status 3 and stopped on time,
//	          10 status 3 but stopped as primal feasible, 100+ event handler
//
// Status 3 is a time limit when the secondary status is 9; otherwise it is
// an iteration limit if the iteration count reached MaxIterations, and a
// time limit if only MaxSeconds was set (Clp checks process CPU time, which
// may run out before the wall clock says so).
func classify(o outcome) (solver.Status, string) {
	detail := fmt.Sprintf("Clp status %d, secondary status %d", o.status, o.secondary)
	switch o.status {
	case 0:
		return solver.Optimal, ""
	case 1:
		return solver.Infeasible, detail + ": primal infeasible"
	case 2:
		return solver.Unbounded, detail + ": dual infeasible"
	case 3:
		iterHit := o.maxIter > 0 && o.iterations >= o.maxIter
		switch {
		case o.secondary == 9:
			return solver.TimeLimit, detail + ": stopped on time"
		case iterHit:
			return solver.IterationLimit, fmt.Sprintf("%s: stopped after %d iterations", detail, o.iterations)
		case o.maxSeconds > 0:
			return solver.TimeLimit, detail + ": stopped on time"
		}
		return solver.IterationLimit, fmt.Sprintf("%s: stopped after %d iterations", detail, o.iterations)
	case 4:
		if o.secondary == 1 {
			return solver.Numerical, detail + ": stopped due to errors (probably primal infeasible, not proven)"
		}
		return solver.Numerical, detail + ": stopped due to errors"
	case 5:
		return solver.Failed, detail + ": stopped by event handler"
	case -1:
		return solver.Failed, detail + ": not solved"
	}
	return solver.Failed, detail + ": unknown status"
}
