// Package backends chooses an LP backend by name: "clp" (COIN-OR Clp
// through cgo), "highs" (HiGHS through cgo, its static library bundled by
// a Go module), "gonum" (pure Go, small models), or "auto" (also the empty
// name), which picks the first of them built in, in that order (Auto).
package backends

import (
	"fmt"

	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/clp"
	"github.com/dlsched/dlsched/solver/gonumlp"
	"github.com/dlsched/dlsched/solver/highs"
)

// Names lists the backends in order of preference (the order Auto tries).
var Names = []string{"clp", "highs", "gonum"}

// Valid lists every name New accepts, for messages.
const Valid = "clp, highs, gonum or auto"

// Auto returns the backend "auto" selects: Clp where it is built in, else
// HiGHS, else gonum. The rule is measured (benchmarks/highs: one process,
// alternating rounds, medians). On the LPs dlsched builds, HiGHS given
// dlsched's first-attempt settings took longer than Clp given the same:
// 1.9–2.5 times as long on the paper's figure set swept whole, 2.5 times
// the CPU time on the star m = 10, n = 3,000, 1.2–1.5 times on the tree
// p = 2, h = 8, n = 100 (it drew level, CPU 0.96, only on the full LP of
// the star at n = 10,000, which dlsched solves by stage generation); and
// Cbc beat HiGHS's MIP on every pattern MILP.
// HiGHS beat gonum's dense simplex by three orders of magnitude (gonum: 5
// to 13 s per 140-row LP of Figs. 6 and 10) and has no size limit.
func Auto() string {
	switch {
	case clp.Available():
		return "clp"
	case highs.Available():
		return "highs"
	}
	return "gonum"
}

// New returns a fresh solver of the named backend. The caller owns it and
// should release it with Close.
func New(name string) (solver.Solver, error) {
	if name == "auto" || name == "" {
		name = Auto()
	}
	switch name {
	case "clp":
		p, err := clp.New()
		if err != nil {
			return nil, fmt.Errorf("solver clp: %w (rebuild with cgo and Clp, or use the highs or gonum solver)", err)
		}
		return p, nil
	case "highs":
		p, err := highs.New()
		if err != nil {
			return nil, fmt.Errorf("solver highs: %w (rebuild with cgo and the highs build tag, or use the clp or gonum solver)", err)
		}
		return p, nil
	case "gonum":
		return gonumlp.New(), nil
	}
	return nil, fmt.Errorf("unknown solver %q (want %s)", name, Valid)
}

// Close releases a solver returned by New if it holds resources.
func Close(s solver.Solver) {
	if c, ok := s.(interface{ Close() error }); ok {
		c.Close()
	}
}
