package solver_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dlsched/dlsched/solver"
)

// The words are the JSON contract (docs: "status" of a schedule and of each
// attempt), the sentinels those declared in solver.go.
var statusTable = []struct {
	st   solver.Status
	word string
	err  error
}{
	{solver.Optimal, "optimal", nil},
	{solver.Infeasible, "infeasible", solver.ErrInfeasible},
	{solver.Unbounded, "unbounded", solver.ErrUnbounded},
	{solver.IterationLimit, "iteration_limit", solver.ErrIterationLimit},
	{solver.TimeLimit, "time_limit", solver.ErrTimeLimit},
	{solver.Numerical, "numerical_trouble", solver.ErrNumerical},
	{solver.Failed, "failed", solver.ErrFailed},
}

func TestStatusStringAndErr(t *testing.T) {
	for _, tc := range statusTable {
		if got := tc.st.String(); got != tc.word {
			t.Errorf("Status(%d).String() = %q, want %q", int(tc.st), got, tc.word)
		}
		if got := tc.st.Err(); got != tc.err {
			t.Errorf("%v.Err() = %v, want %v", tc.st, got, tc.err)
		}
	}
	for _, bad := range []solver.Status{-1, 7, 100} {
		if got, want := bad.String(), fmt.Sprintf("status(%d)", int(bad)); got != want {
			t.Errorf("Status(%d).String() = %q, want %q", int(bad), got, want)
		}
		if got := bad.Err(); got != solver.ErrFailed {
			t.Errorf("Status(%d).Err() = %v, want ErrFailed", int(bad), got)
		}
	}
	// The sentinels are distinct, so errors.Is cannot confuse them.
	seen := map[error]solver.Status{}
	for _, tc := range statusTable {
		if tc.err == nil {
			continue
		}
		if prev, dup := seen[tc.err]; dup {
			t.Errorf("%v and %v share a sentinel", prev, tc.st)
		}
		seen[tc.err] = tc.st
	}
	if errors.Is(solver.ErrUnavailable, solver.ErrFailed) {
		t.Errorf("ErrUnavailable should not match ErrFailed")
	}
}

func TestStatusError(t *testing.T) {
	for _, tc := range statusTable[1:] {
		t.Run(tc.word, func(t *testing.T) {
			e := &solver.StatusError{Solver: "clp", Status: tc.st}
			if got, want := e.Error(), "clp: "+tc.err.Error(); got != want {
				t.Errorf("Error() = %q, want %q", got, want)
			}
			e.Detail = "row r7"
			if got, want := e.Error(), "clp: "+tc.err.Error()+" (row r7)"; got != want {
				t.Errorf("Error() with detail = %q, want %q", got, want)
			}
			// errors.Is matches the status's sentinel, also through
			// wrapping, and no other sentinel.
			wrapped := fmt.Errorf("pipeline: star LP: %w", e)
			for _, other := range statusTable[1:] {
				want := other.st == tc.st
				if got := errors.Is(e, other.err); got != want {
					t.Errorf("errors.Is(%v, %v) = %v, want %v", e, other.err, got, want)
				}
				if got := errors.Is(wrapped, other.err); got != want {
					t.Errorf("errors.Is(wrapped %v, %v) = %v, want %v", e, other.err, got, want)
				}
			}
			if errors.Is(e, solver.ErrUnavailable) {
				t.Errorf("%v matches ErrUnavailable", e)
			}
			var se *solver.StatusError
			if !errors.As(wrapped, &se) || se != e {
				t.Errorf("errors.As did not recover the *StatusError")
			}
		})
	}
	// An out-of-range status maps to ErrFailed.
	e := &solver.StatusError{Solver: "gonum", Status: 42}
	if !errors.Is(e, solver.ErrFailed) || e.Error() != "gonum: solver failed" {
		t.Errorf("Status 42: Is(ErrFailed) = %v, Error() = %q", errors.Is(e, solver.ErrFailed), e.Error())
	}
}

func TestAlgorithmString(t *testing.T) {
	for _, tc := range []struct {
		a    solver.Algorithm
		want string
	}{{solver.Dual, "dual"}, {solver.Primal, "primal"}, {solver.Barrier, "barrier"}} {
		if got := tc.a.String(); got != tc.want {
			t.Errorf("Algorithm(%d).String() = %q, want %q", int(tc.a), got, tc.want)
		}
	}
	var zero solver.Options
	if zero.Algorithm != solver.Dual || zero.Presolve != solver.PresolveAuto {
		t.Errorf("zero Options are %v / %v, want dual simplex with automatic presolve", zero.Algorithm, zero.Presolve)
	}
}
