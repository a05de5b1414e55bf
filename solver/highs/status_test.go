package highs

import (
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/solver"
)

// TestClassify maps every model status of HiGHS 1.12 (kHighsModelStatus*
// in highs_c_api.h) as classify's doc comment says, with HiGHS's own word
// in the detail.
func TestClassify(t *testing.T) {
	want := map[int]solver.Status{
		modelNotset: solver.Failed, modelLoadError: solver.Failed, modelModelError: solver.Failed,
		modelPresolveError: solver.Numerical, modelSolveError: solver.Numerical, modelPostsolveError: solver.Numerical,
		modelEmpty: solver.Optimal, modelOptimal: solver.Optimal, modelInfeasible: solver.Infeasible,
		modelUnboundedOrInfeasible: solver.Infeasible, modelUnbounded: solver.Unbounded,
		modelObjectiveBound: solver.Failed, modelObjectiveTarget: solver.Failed, modelTimeLimit: solver.TimeLimit,
		modelIterationLimit: solver.IterationLimit, modelUnknown: solver.Numerical,
		modelSolutionLimit: solver.Failed, modelInterrupt: solver.Failed,
		-1: solver.Failed, 18: solver.Failed,
	}
	for code, st := range want {
		got, detail := classify(code)
		if got != st {
			t.Errorf("classify(%d) = %v, want %v", code, got, st)
		}
		if st == solver.Optimal {
			if detail != "" {
				t.Errorf("classify(%d): detail %q for an optimum", code, detail)
			}
			continue
		}
		if code >= 0 && code < len(modelStatusNames) && !strings.Contains(detail, modelStatusNames[code]) {
			t.Errorf("classify(%d): detail %q lacks %q", code, detail, modelStatusNames[code])
		}
	}
	if len(modelStatusNames) != modelInterrupt+1 {
		t.Errorf("%d status names for %d statuses", len(modelStatusNames), modelInterrupt+1)
	}
}

// TestBasisMapping: HiGHS's statuses map to package solver's and back for
// entries with finite bounds, fixed entries, one-sided and free ones.
func TestBasisMapping(t *testing.T) {
	cases := []struct {
		highs  int
		lo, up float64
		want   solver.BasisStatus
		back   int
	}{
		{basisBasic, 0, 1, solver.Basic, basisBasic},
		{basisLower, 0, 1, solver.AtLower, basisLower},
		{basisUpper, 0, 1, solver.AtUpper, basisUpper},
		{basisLower, 2, 2, solver.Fixed, basisLower},
		{basisUpper, 2, 2, solver.Fixed, basisLower},
		{basisZero, math.Inf(-1), math.Inf(1), solver.Free, basisZero},
		{basisNonbasic, 0, 1, solver.Superbasic, basisLower},
		{basisUpper, math.Inf(-1), 3, solver.AtUpper, basisUpper},
	}
	for _, c := range cases {
		got := fromHighsBasis(c.highs, c.lo, c.up)
		if got != c.want {
			t.Errorf("fromHighsBasis(%d, %g, %g) = %d, want %d", c.highs, c.lo, c.up, got, c.want)
		}
		if back := toHighsBasis(got, c.lo, c.up); back != c.back {
			t.Errorf("toHighsBasis(%d, %g, %g) = %d, want %d", got, c.lo, c.up, back, c.back)
		}
	}
	// A nonbasic status naming an infinite bound goes to the finite one.
	if s := toHighsBasis(solver.AtLower, math.Inf(-1), 5); s != basisUpper {
		t.Errorf("AtLower without a lower bound: %d, want upper", s)
	}
	if s := toHighsBasis(solver.AtUpper, 0, math.Inf(1)); s != basisLower {
		t.Errorf("AtUpper without an upper bound: %d, want lower", s)
	}
}

// TestRepairBasis: whatever the statuses, the repaired basis has exactly
// one basic entry per row, as Highs_setBasis requires, changing exactly
// as many entries as there were basic entries too many or too few.
func TestRepairBasis(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nc := rapid.IntRange(0, 12).Draw(t, "cols")
		nr := rapid.IntRange(0, 12).Draw(t, "rows")
		status := rapid.SampledFrom([]int32{basisLower, basisBasic, basisUpper, basisZero})
		cols := rapid.SliceOfN(status, nc, nc).Draw(t, "colStatus")
		rows := rapid.SliceOfN(status, nr, nr).Draw(t, "rowStatus")
		lo := make([]float64, nc)
		up := make([]float64, nc)
		for j := range lo {
			lo[j], up[j] = 0, rapid.SampledFrom([]float64{0, 1, math.Inf(1)}).Draw(t, "up")
		}
		basic := func() int {
			n := 0
			for _, s := range append(append([]int32(nil), cols...), rows...) {
				if s == basisBasic {
					n++
				}
			}
			return n
		}
		before := basic()
		changed := repairBasis(cols, rows, lo, up)
		if after := basic(); after != nr {
			t.Fatalf("%d basic entries after the repair, want %d", after, nr)
		}
		if want := before - nr; changed != max(want, -want) {
			t.Fatalf("%d entries changed, %d basic entries before for %d rows", changed, before, nr)
		}
	})
}

// TestTolerance: unset tolerances keep HiGHS's default; smaller ones than
// HiGHS accepts are raised to 1e-10.
func TestTolerance(t *testing.T) {
	for _, c := range []struct{ v, want float64 }{
		{0, 1e-7}, {-1, 1e-7}, {math.NaN(), 1e-7}, {1e-12, 1e-10}, {1e-10, 1e-10}, {1e-8, 1e-8},
	} {
		if got := tolerance(c.v, 1e-7); got != c.want {
			t.Errorf("tolerance(%g) = %g, want %g", c.v, got, c.want)
		}
	}
}
