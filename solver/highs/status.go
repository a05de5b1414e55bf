package highs

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/solver"
)

// name is the backend name used in Solver.Name and StatusError.Solver.
const name = "highs"

// HiGHS's model status codes (kHighsModelStatus* in highs_c_api.h, HiGHS
// 1.12).
const (
	modelNotset                = 0
	modelLoadError             = 1
	modelModelError            = 2
	modelPresolveError         = 3
	modelSolveError            = 4
	modelPostsolveError        = 5
	modelEmpty                 = 6
	modelOptimal               = 7
	modelInfeasible            = 8
	modelUnboundedOrInfeasible = 9
	modelUnbounded             = 10
	modelObjectiveBound        = 11
	modelObjectiveTarget       = 12
	modelTimeLimit             = 13
	modelIterationLimit        = 14
	modelUnknown               = 15
	modelSolutionLimit         = 16
	modelInterrupt             = 17
)

// modelStatusNames are HiGHS's own words for its model statuses
// (Highs::modelStatusToString).
var modelStatusNames = [...]string{
	"not set", "load error", "model error", "presolve error", "solve error",
	"postsolve error", "empty", "optimal", "infeasible",
	"primal infeasible or unbounded", "unbounded", "bound on objective reached",
	"target for objective reached", "time limit reached",
	"iteration limit reached", "unknown", "solution limit reached", "interrupted by user",
}

// classify maps HiGHS's model status to a solver.Status and the detail of
// the StatusError:
//
//	optimal, empty (no columns: the objective is its offset)  Optimal
//	infeasible, primal infeasible or unbounded               Infeasible
//	unbounded                                                Unbounded
//	time limit                                               TimeLimit
//	iteration limit                                          IterationLimit
//	solve, presolve or postsolve error, unknown              Numerical
//	anything else (load or model error, a target or bound
//	reached, a solution limit, an interrupt)                 Failed
//
// "Primal infeasible or unbounded" comes out of presolve; HiGHS settles it
// by solving again without presolve unless allow_unbounded_or_infeasible
// is set, which this package never sets, so it is reported as what
// certainly holds: there is no optimum, and a model whose objective is
// bounded below (every dlsched LP: Cmax ≥ 0) is infeasible.
func classify(status int) (solver.Status, string) {
	detail := fmt.Sprintf("HiGHS model status %d", status)
	if status >= 0 && status < len(modelStatusNames) {
		detail += ": " + modelStatusNames[status]
	} else {
		detail += ": not a status HiGHS 1.12 defines"
	}
	switch status {
	case modelOptimal, modelEmpty:
		return solver.Optimal, ""
	case modelInfeasible, modelUnboundedOrInfeasible:
		return solver.Infeasible, detail
	case modelUnbounded:
		return solver.Unbounded, detail
	case modelTimeLimit:
		return solver.TimeLimit, detail
	case modelIterationLimit:
		return solver.IterationLimit, detail
	case modelSolveError, modelPresolveError, modelPostsolveError, modelUnknown:
		return solver.Numerical, detail
	}
	return solver.Failed, detail
}

// HiGHS's basis status codes (kHighsBasisStatus*).
const (
	basisLower    = 0
	basisBasic    = 1
	basisUpper    = 2
	basisZero     = 3
	basisNonbasic = 4
)

// fromHighsBasis maps a HiGHS basis status to solver.BasisStatus: lower
// AtLower (Fixed when the bounds are equal), upper AtUpper, basic Basic,
// zero (a nonbasic free column at 0) Free, and nonbasic without a bound
// Superbasic.
func fromHighsBasis(s int, lo, up float64) solver.BasisStatus {
	switch s {
	case basisBasic:
		return solver.Basic
	case basisUpper:
		if lo == up {
			return solver.Fixed
		}
		return solver.AtUpper
	case basisZero:
		return solver.Free
	case basisNonbasic:
		return solver.Superbasic
	}
	if lo == up {
		return solver.Fixed
	}
	return solver.AtLower
}

// toHighsBasis maps a solver.BasisStatus to HiGHS's code for an entry
// with bounds [lo, up]. A nonbasic status names a bound; where that bound
// is infinite the entry goes to the other bound, or to zero when both are
// infinite, as HiGHS requires of a nonbasic entry.
func toHighsBasis(s solver.BasisStatus, lo, up float64) int {
	if s == solver.Basic {
		return basisBasic
	}
	loInf, upInf := math.IsInf(lo, -1), math.IsInf(up, 1)
	switch {
	case loInf && upInf:
		return basisZero
	case s == solver.AtUpper && !upInf, loInf:
		return basisUpper
	}
	return basisLower
}

// repairBasis makes the statuses cols and rows (HiGHS codes, changed in
// place) hold exactly one basic entry per row, as Highs_setBasis requires:
// with too many, the last basic columns become nonbasic (at the bound
// toHighsBasis picks); with too few, the last nonbasic row slacks become
// basic. It returns the number of entries changed. HiGHS's factorisation
// then replaces what is left singular by slacks.
func repairBasis(cols, rows []int32, colLo, colUp []float64) int {
	basic := 0
	for _, s := range cols {
		if s == basisBasic {
			basic++
		}
	}
	for _, s := range rows {
		if s == basisBasic {
			basic++
		}
	}
	changed := 0
	for j := len(cols) - 1; j >= 0 && basic > len(rows); j-- {
		if cols[j] == basisBasic {
			cols[j] = int32(toHighsBasis(solver.AtLower, colLo[j], colUp[j]))
			basic--
			changed++
		}
	}
	for i := len(rows) - 1; i >= 0 && basic < len(rows); i-- {
		if rows[i] != basisBasic {
			rows[i] = basisBasic
			basic++
			changed++
		}
	}
	return changed
}

// tolerance returns the HiGHS feasibility tolerance for a requested one:
// def when v is not positive, else v raised to HiGHS's smallest accepted
// value (1e-10; the pipeline asks for 1e-12 of Clp's dual simplex).
func tolerance(v, def float64) float64 {
	if !(v > 0) {
		return def
	}
	return math.Max(v, minTolerance)
}

// minTolerance is the smallest feasibility tolerance HiGHS accepts
// (primal_feasibility_tolerance and dual_feasibility_tolerance: range
// [1e-10, inf]).
const minTolerance = 1e-10

// clean turns −0 into 0 in place, so that results print the same whatever
// the sign of a zero HiGHS computed.
func clean(v []float64) []float64 {
	for i, x := range v {
		if x == 0 {
			v[i] = 0
		}
	}
	return v
}
