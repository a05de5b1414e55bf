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

// ModelSize is the estimated size of the LP of a full n-stage pattern,
// before anything is built.
type ModelSize struct {
	// Vars, Rows and Nonzeros count the LP's columns, rows and matrix
	// entries.
	Vars, Rows, Nonzeros int64
	// Generated is true when the engine solves the LP by stage
	// generation (compact form, large stars and binomial trees).
	Generated bool
	// Bytes is the peak memory it is estimated to need.
	Bytes int64
}

// EstimateModel estimates the LP of the full n-stage pattern of p in
// opt's form (an unknown form is a *problem.FieldError).
func EstimateModel(p *problem.Problem, n int, opt Options) (ModelSize, error) {
	eo, err := opt.engine()
	if err != nil {
		return ModelSize{}, err
	}
	e := engine.EstimateFull(p, n, eo.Form)
	return ModelSize{Vars: e.Vars, Rows: e.Rows, Nonzeros: e.Nonzeros, Generated: e.Generated, Bytes: e.Bytes()}, nil
}
