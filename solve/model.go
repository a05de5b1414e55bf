package solve

import (
	"io"
	"strings"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve/engine"
)

// WriteModel writes the LP of the full n-stage pattern of p in opt.Form
// to w — the LP the engine solves first — as CPLEX LP when lpFormat is
// true and as free MPS otherwise, with comments giving the scaled units
// (Cmax = T0 × objective). It refuses (*SizeError) a model over opt's
// memory limit before building it.
func WriteModel(w io.Writer, p *problem.Problem, n int, opt Options, lpFormat bool) error {
	eo, err := opt.engine()
	if err != nil {
		return err
	}
	return wrap(engine.WriteModel(w, p, n, eo, lpFormat))
}

// IsLPFile reports whether path names a CPLEX LP file (".lp", any case)
// rather than MPS.
func IsLPFile(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".lp") }

// ModelBytes is the estimated memory of the LP of the full n-stage
// pattern of p in opt's form, before anything is built (an unknown form
// is a *problem.FieldError).
func ModelBytes(p *problem.Problem, n int, opt Options) (int64, error) {
	eo, err := opt.engine()
	if err != nil {
		return 0, err
	}
	return engine.ModelBytes(p, n, eo.Form), nil
}
