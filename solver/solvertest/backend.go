package solvertest

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
)

// Backend is an LP backend under the shared tests: its name (in its
// StatusErrors), a fresh solver per call (released when t ends), and the
// algorithms and presolve settings to run.
type Backend struct {
	Name       string
	New        func(t testing.TB) solver.Solver
	Algorithms []solver.Algorithm
	Presolves  []solver.Presolve
}

// CheckSmallLPs solves every SmallCases model with every algorithm and
// presolve setting of b and checks it against the hand computation
// (CheckCase, 1e-9) and d = c − Aᵀy with its signs (CheckDuals, dualTol).
func CheckSmallLPs(t *testing.T, b Backend, dualTol float64) {
	for _, tc := range SmallCases {
		for _, alg := range b.Algorithms {
			for _, pre := range b.Presolves {
				t.Run(fmt.Sprintf("%s/%s/presolve%d", tc.Name, alg, pre), func(t *testing.T) {
					m := tc.Model()
					sol, err := b.New(t).Solve(m, solver.Options{Algorithm: alg, Presolve: pre})
					if err != nil {
						t.Fatalf("Solve: %v", err)
					}
					CheckCase(t, tc, m, sol, 1e-9)
					CheckDuals(t, m, sol, dualTol)
				})
			}
		}
	}
}

// CheckDualSignConvention pins the sign convention of the duals on the
// production LP (hand-computed duals in Production's comment): a tight <=
// row has y > 0 when maximising and y < 0 when minimising, the
// maximisation's duals are the minimisation's negated (to tol; 0: exactly)
// and no result is a negative zero.
func CheckDualSignConvention(t *testing.T, s solver.Solver, tol float64) {
	maxSol, err := s.Solve(Production(lp.Maximize), solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	minSol, err := s.Solve(Production(lp.Minimize), solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if maxSol.Duals[0] <= 0 || minSol.Duals[0] >= 0 {
		t.Errorf("tight <= row: max dual %g (want > 0), min dual %g (want < 0)", maxSol.Duals[0], minSol.Duals[0])
	}
	for i := range maxSol.Duals {
		if !Near(maxSol.Duals[i], -minSol.Duals[i], tol) {
			t.Errorf("row %d: max dual %g, min dual %g, want negatives", i, maxSol.Duals[i], minSol.Duals[i])
		}
	}
	for _, v := range append(maxSol.Duals, maxSol.ReducedCosts...) {
		if v == 0 && math.Signbit(v) {
			t.Errorf("negative zero in results: %v %v", maxSol.Duals, maxSol.ReducedCosts)
		}
	}
}

// CheckInfeasibleUnbounded solves Infeasible and Unbounded with every
// algorithm and presolve setting of b: the error is a *solver.StatusError
// of b.Name with the status and its sentinel (ErrInfeasible,
// ErrUnbounded), and the partial solution carries the status and both
// columns.
func CheckInfeasibleUnbounded(t *testing.T, b Backend) {
	cases := []struct {
		name   string
		model  func() *lp.Model
		status solver.Status
		target error
	}{
		{"infeasible", Infeasible, solver.Infeasible, solver.ErrInfeasible},
		{"unbounded", Unbounded, solver.Unbounded, solver.ErrUnbounded},
	}
	for _, tc := range cases {
		for _, alg := range b.Algorithms {
			for _, pre := range b.Presolves {
				t.Run(fmt.Sprintf("%s/%s/presolve%d", tc.name, alg, pre), func(t *testing.T) {
					sol, err := b.New(t).Solve(tc.model(), solver.Options{Algorithm: alg, Presolve: pre})
					var se *solver.StatusError
					if !errors.As(err, &se) {
						t.Fatalf("err = %v, want *solver.StatusError", err)
					}
					if se.Solver != b.Name || se.Status != tc.status || !errors.Is(err, tc.target) {
						t.Fatalf("err = %#v (%v), want a %s StatusError with status %v", se, err, b.Name, tc.status)
					}
					if sol == nil || sol.Status != tc.status || len(sol.X) != 2 {
						t.Fatalf("partial solution = %+v", sol)
					}
				})
			}
		}
	}
}
