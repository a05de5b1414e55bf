//go:build !cgo || noclp

package clp

import (
	"fmt"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
)

// errUnavailable is what every entry point of the stub returns.
var errUnavailable = fmt.Errorf("clp: built without Clp (noclp build tag or cgo disabled): %w", solver.ErrUnavailable)

// Available reports whether the Clp backend is compiled in. It is false in
// this build (noclp build tag, or cgo disabled).
func Available() bool { return false }

// Version returns the version of the linked Clp library; without Clp it
// returns "".
func Version() string { return "" }

// Problem stands in for a Clp model in builds without Clp. New never returns
// one; its methods fail with solver.ErrUnavailable.
type Problem struct{}

// Compile-time check that Problem satisfies the solver interfaces.
var _ solver.Incremental = (*Problem)(nil)

// New returns an error wrapping solver.ErrUnavailable: this build has no
// Clp.
func New() (*Problem, error) { return nil, errUnavailable }

// Name returns "clp".
func (p *Problem) Name() string { return name }

// Load fails with solver.ErrUnavailable.
func (p *Problem) Load(m *lp.Model) error { return errUnavailable }

// Solve fails with solver.ErrUnavailable.
func (p *Problem) Solve(m *lp.Model, opt solver.Options) (*solver.Solution, error) {
	return nil, errUnavailable
}

// SolveLoaded fails with solver.ErrUnavailable.
func (p *Problem) SolveLoaded(opt solver.Options) (*solver.Solution, error) {
	return nil, errUnavailable
}

// SetColBounds does nothing.
func (p *Problem) SetColBounds(j int, lo, up float64) {}

// SetRowBounds does nothing.
func (p *Problem) SetRowBounds(i int, lo, up float64) {}

// Resolve fails with solver.ErrUnavailable.
func (p *Problem) Resolve(opt solver.Options) (*solver.Solution, error) {
	return nil, errUnavailable
}

// Close does nothing and returns nil.
func (p *Problem) Close() error { return nil }
