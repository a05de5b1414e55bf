// Package backends chooses an LP backend by name: "clp" (COIN-OR Clp through
// cgo, the default) or "gonum" (pure Go, small models).
package backends

import (
	"fmt"

	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/clp"
	"github.com/dlsched/dlsched/solver/gonumlp"
)

// Names lists the backends in order of preference.
var Names = []string{"clp", "gonum"}

// New returns a fresh solver of the named backend. The caller owns it and
// should Close it if it implements io.Closer-like Close() error.
func New(name string) (solver.Solver, error) {
	switch name {
	case "clp", "":
		p, err := clp.New()
		if err != nil {
			return nil, fmt.Errorf("solver clp: %w (rebuild with cgo and Clp, or use the gonum solver)", err)
		}
		return p, nil
	case "gonum":
		return gonumlp.New(), nil
	}
	return nil, fmt.Errorf("unknown solver %q (want clp or gonum)", name)
}

// Close releases a solver returned by New if it holds resources.
func Close(s solver.Solver) {
	if c, ok := s.(interface{ Close() error }); ok {
		c.Close()
	}
}
