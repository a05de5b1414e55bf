//go:build !cgo || !highs || !(linux || darwin) || !(amd64 || arm64)

package highs

import (
	"fmt"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
)

// errUnavailable is what every entry point of the stub returns.
var errUnavailable = fmt.Errorf("highs: built without HiGHS (it needs the highs build tag, cgo, and linux or darwin on amd64 or arm64): %w", solver.ErrUnavailable)

// Available reports whether the HiGHS backend is compiled in. It is false
// in this build.
func Available() bool { return false }

// Version returns the version of the linked HiGHS library; without HiGHS
// it returns "".
func Version() string { return "" }

// Problem stands in for a HiGHS instance in builds without HiGHS. New
// never returns one; its methods fail with solver.ErrUnavailable.
type Problem struct{}

// Compile-time check that Problem satisfies the solver interfaces.
var _ solver.Restarter = (*Problem)(nil)

// New returns an error wrapping solver.ErrUnavailable: this build has no
// HiGHS.
func New() (*Problem, error) { return nil, errUnavailable }

// Name returns "highs".
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

// Basis reports no basis.
func (p *Problem) Basis() (solver.Basis, bool) { return solver.Basis{}, false }

// SetBasis fails with solver.ErrUnavailable.
func (p *Problem) SetBasis(b solver.Basis) error { return errUnavailable }

// Close does nothing and returns nil.
func (p *Problem) Close() error { return nil }
