package engine

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/backends"
)

// Settings are the solve options as a user states them (names and plain
// numbers); Options checks them and turns them into Options with a solver.
// DefaultSettings gives the defaults (every field but Form must be set).
type Settings struct {
	// Solver is "clp" or "gonum".
	Solver string
	// Algorithm is the first attempt's algorithm: "auto" (the settings
	// measured best for these LPs), "dual", "primal" or "barrier".
	Algorithm string
	// Form is the LP form: "compact" or "paper".
	Form string
	// Tolerance is the certified relative gap to reach, in (0, 1).
	Tolerance float64
	// MaxMemoryMB refuses an LP or a verification estimated to need more
	// (MinMemoryMB to MaxMemoryMB).
	MaxMemoryMB int64
	// NoPrune returns the raw LP optimum of the full pattern.
	NoPrune bool
	// NoStageGeneration solves large compact LPs whole instead of by
	// stage generation (Options.NoStageGeneration).
	NoStageGeneration bool
	// Context cancels the solves.
	Context context.Context
}

// DefaultSettings are clp, auto, the compact form, DefaultTolerance and
// DefaultMaxModelBytes.
func DefaultSettings() Settings {
	return Settings{Solver: "clp", Algorithm: "auto", Form: "compact", Tolerance: DefaultTolerance,
		MaxMemoryMB: DefaultMaxModelBytes >> 20, Context: context.Background()}
}

// The bounds of Settings.MaxMemoryMB: below 16 MB not even a small LP
// fits, above 1 TB is a typo.
const MinMemoryMB, MaxMemoryMB = 16, 1 << 20

// The field names of Settings in errors (*problem.FieldError).
const (
	FieldSolver      = "solver"
	FieldAlgorithm   = "algorithm"
	FieldForm        = "form"
	FieldTolerance   = "tolerance"
	FieldMaxMemoryMB = "MaxMemoryMB"
)

// Options checks the settings and returns the options with a fresh
// solver, and the function that releases it. Errors about a setting are
// *problem.FieldError naming it.
func (st Settings) Options() (Options, func(), error) {
	var opt Options
	var err error
	if opt.Form, err = formulations.ParseForm(st.Form); err != nil {
		return opt, nil, &problem.FieldError{Field: FieldForm, Value: st.Form, Want: "compact, paper or chain"}
	}
	switch st.Algorithm {
	case "auto":
		opt.Auto = true
	case "dual":
		opt.Base.Algorithm = solver.Dual
	case "primal":
		opt.Base.Algorithm = solver.Primal
	case "barrier":
		opt.Base.Algorithm = solver.Barrier
	default:
		return opt, nil, &problem.FieldError{Field: FieldAlgorithm, Value: st.Algorithm, Want: "auto, dual, primal or barrier"}
	}
	tol := st.Tolerance
	if !(tol > 0 && tol < 1) {
		return opt, nil, &problem.FieldError{Field: FieldTolerance, Value: fmt.Sprintf("%g", tol), Want: "a number in (0, 1)"}
	}
	opt.Tolerance = tol
	opt.NoStageGeneration = st.NoStageGeneration
	mem := st.MaxMemoryMB
	if mem < MinMemoryMB || mem > MaxMemoryMB {
		return opt, nil, &problem.FieldError{Field: FieldMaxMemoryMB, Value: fmt.Sprint(mem), Want: fmt.Sprintf("a number of MB from %d to %d", MinMemoryMB, MaxMemoryMB)}
	}
	opt.MaxModelBytes = mem << 20
	name := st.Solver
	if name != "clp" && name != "gonum" {
		return opt, nil, &problem.FieldError{Field: FieldSolver, Value: name, Want: "clp or gonum"}
	}
	s, done, err := NewSolver(name)
	if err != nil {
		return opt, nil, err
	}
	opt.Solver = s
	opt.NoPrune = st.NoPrune
	opt.Base.Context = st.Context
	return opt, done, nil
}

// WriteModel writes the LP of the full n-stage pattern of p in opt.Form
// to w, as CPLEX LP when lpFormat is true and as free MPS otherwise, with
// comments giving the scaled units. It refuses (SizeError) a model over
// opt's memory limit before building it.
func WriteModel(w io.Writer, p *problem.Problem, n int, opt Options, lpFormat bool) error {
	if err := CheckSize(p, n, opt); err != nil {
		return err
	}
	nw, err := formulations.NewNetwork(p, formulations.FullPattern(p, n))
	if err != nil {
		return err
	}
	sc := formulations.NewScale(p)
	m, _ := nw.Build(opt.Form, sc)
	m.Comments = []string{
		fmt.Sprintf("dlsched %s LP, %s form, n=%d stages", p.Kind, opt.Form, n),
		fmt.Sprintf("scaled units: load unit L0=%g, time unit T0=%g; Cmax(user) = T0 * objective", sc.L0, sc.T0),
	}
	if lpFormat {
		return m.WriteLP(w)
	}
	return m.WriteMPS(w)
}

// ModelBytes is the estimated memory of the LP of the full n-stage
// pattern of p in the given form (formulations.EstimateFull), before
// anything is built.
func ModelBytes(p *problem.Problem, n int, form formulations.Form) int64 {
	return formulations.EstimateFull(p, n, form).Bytes()
}

// IsLPFile reports whether path names a CPLEX LP file (".lp", any case)
// rather than MPS.
func IsLPFile(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".lp") }

// NewSolver returns a fresh LP solver of the named backend ("clp" or
// "gonum") and the function that releases it.
func NewSolver(name string) (solver.Solver, func(), error) {
	s, err := backends.New(name)
	if err != nil {
		return nil, nil, err
	}
	return s, func() { backends.Close(s) }, nil
}
