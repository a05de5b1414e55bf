package cbc

import (
	"errors"
	"fmt"
)

// ErrUnavailable is returned when the package was built without Cbc.
var ErrUnavailable = errors.New("cbc: not built in (needs cgo and coinor-libcbc-dev; built with the nocbc tag?)")

// Status is the outcome of a branch-and-cut search.
type Status int

const (
	// Optimal: the search completed; X is an optimal solution, proven
	// within Options.Gap.
	Optimal Status = iota
	// Infeasible: no integer solution exists.
	Infeasible
	// Unbounded: the linear relaxation is unbounded.
	Unbounded
	// Stopped: a node or time limit (or the context) stopped the search;
	// X holds the best solution found, if any (Result.HasSolution).
	Stopped
	// Failed: numerical difficulties or a bad model.
	Failed
)

// String names the status.
func (s Status) String() string {
	switch s {
	case Optimal:
		return "optimal"
	case Infeasible:
		return "infeasible"
	case Unbounded:
		return "unbounded"
	case Stopped:
		return "stopped"
	case Failed:
		return "failed"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// DefaultGap is the relative optimality gap used when Options.Gap is 0.
const DefaultGap = 1e-9

// Options limit a search. Zero values mean Cbc's defaults.
type Options struct {
	// Seconds bounds the search time (0: none).
	Seconds float64
	// MaxNodes bounds the branch-and-bound nodes (0: none).
	MaxNodes int
	// Gap is the relative gap at which the search stops as optimal
	// (Cbc's ratioGap). 0 means DefaultGap, not Cbc's own default (1e-4),
	// which would call schedules optimal that are not.
	Gap float64
}

// Result is what a search found.
type Result struct {
	Status Status
	// HasSolution reports whether X holds an integer-feasible solution.
	HasSolution bool
	// X is the best solution found (one value per column), Objective its
	// value (with the model's ObjOffset).
	X         []float64
	Objective float64
	// Bound is the best proven bound on the optimum (a lower bound for a
	// minimisation), with the model's ObjOffset.
	Bound float64
	// Nodes is the number of branch-and-bound nodes explored.
	Nodes int
}
