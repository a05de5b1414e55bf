package solve

import (
	"context"
	"fmt"
	"runtime"
	"slices"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solve/pattern"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/backends"
	"github.com/dlsched/dlsched/trace"
)

// DefaultTolerance is the certified relative gap a schedule must reach
// when Options.Tolerance is zero.
const DefaultTolerance = engine.DefaultTolerance

// DefaultMaxModelBytes is the memory limit of one LP, and of one
// verification, when Options.MaxModelBytes (VerifyMaxBytes) is zero.
const DefaultMaxModelBytes = engine.DefaultMaxModelBytes

// Solver is an LP solver of one backend (SolverNames), for one goroutine
// at a time: a sweep gives each worker its own.
type Solver struct{ lp solver.Solver }

// SolverNames lists the names NewSolver knows: the LP backends in order
// of preference — clp (COIN-OR Clp), highs (HiGHS, in builds with the
// highs tag), gonum (pure Go, small models) — and auto, the first of them
// built in (backends.Auto).
func SolverNames() []string { return append(slices.Clone(backends.Names), "auto") }

// NewSolver returns a fresh solver of the named backend (SolverNames) and
// the function that releases it.
func NewSolver(name string) (*Solver, func(), error) {
	s, err := backends.New(name)
	if err != nil {
		return nil, nil, err
	}
	return &Solver{lp: s}, func() { backends.Close(s) }, nil
}

// Name returns the solver's backend name, e.g. "clp".
func (s *Solver) Name() string { return s.lp.Name() }

// Options configure every solve of this package. The zero value with a
// Solver is a plain solve: the backend's first algorithm (dual simplex),
// the compact form, DefaultTolerance, DefaultMaxModelBytes, the pattern
// search, no verification.
type Options struct {
	// Solver solves the LPs (NewSolver); required.
	Solver *Solver
	// Algorithm is the first attempt's: "auto" (the settings measured
	// best for these LPs), "dual", "primal", "barrier", or "" for the
	// backend's default (dual simplex). Others follow while the certified
	// gap exceeds the tolerance.
	Algorithm string
	// Form is the LP form: "compact" (also ""), "paper" or "chain".
	Form string
	// Tolerance is the certified relative gap to reach (DefaultTolerance
	// when zero).
	Tolerance float64
	// MaxModelBytes refuses an LP estimated to need more memory
	// (DefaultMaxModelBytes when zero), before it is built.
	MaxModelBytes int64
	// NoPrune returns the LP optimum of the full n-stage pattern, every
	// message sent, empty ones too (the paper's model of Figs. 9, 12, 13).
	NoPrune bool
	// NoStageGeneration solves large compact LPs whole instead of by
	// stage generation.
	NoStageGeneration bool
	// Context cancels the solves and the verification.
	Context context.Context
	// Pattern chooses the messages: "search" (also ""), "greedy" (the
	// paper's prune alone) or "exact" (the pattern MILP, Cbc). Without
	// pruning the full pattern is solved and only "" or "search" are
	// valid.
	Pattern string
	// WorkerOrder, for a star with per-processor parameters: "search"
	// chooses which processors carry load and the order every stage
	// activates them (package solve/order), "given" keeps the order given;
	// "" is "search" when the processors differ, else "given".
	WorkerOrder string
	// Orders, for Greedy on a star with per-processor parameters: the
	// worker orders (processor numbers in activation order, subsets
	// allowed) to try instead of searching; the shortest schedule is
	// kept. Searches over n and D pass the order SearchOrder found and
	// those of neighbouring points.
	Orders [][]int
	// Cache shares the pattern search's chains between calls (sweeps).
	Cache *PatternCache
	// Parallel is the number of LPs the pattern search may solve at once,
	// on further solvers of Solver's backend (pattern.Options.Parallel;
	// not with Cache). The schedule is the same for every value. The LPs
	// held at once share MaxModelBytes. Zero means one per CPU
	// (runtime.GOMAXPROCS), 1 one at a time.
	Parallel int
	// Warm, without pruning, solves from the basis of the previous call
	// (a Sequence); sweeps pass one per chain of points that differ in V
	// and n only.
	Warm *Sequence
	// Progress, if not nil, is told Schedule's progress through the
	// pattern search's chain of stage counts: done of total, (0, total)
	// first (pattern.Options.Progress). It is not called by the search of
	// a worker order, which runs one pattern search per order it tries,
	// nor by MaxLoad, which runs one per load it tries.
	Progress func(done, total int)
	// Verify replays the schedule on the executor (Result.Schedule's
	// Verification); VerifyMaxBytes limits the replay's memory
	// (DefaultMaxModelBytes when zero); VerifyTrace, if set, receives the
	// trace of the replay (replay.Options.Recorder: its timed run).
	Verify         bool
	VerifyMaxBytes int64
	VerifyTrace    trace.Recorder
}

// The names of Options' fields in errors (*problem.FieldError), in the
// user's words.
const (
	FieldAlgorithm = "algorithm"
	FieldForm      = "form"
	FieldPattern   = pattern.FieldMethod
)

// engine returns the engine's options for o: its solver, form, first
// algorithm, limits and context. An unknown form or algorithm is a
// *problem.FieldError naming it.
func (o *Options) engine() (engine.Options, error) {
	var eo engine.Options
	form, err := formulations.ParseForm(o.Form)
	if err != nil {
		return eo, &problem.FieldError{Field: FieldForm, Value: o.Form, Want: "compact, paper or chain"}
	}
	switch o.Algorithm {
	case "":
	case "auto":
		eo.Auto = true
	case "dual":
		eo.Base.Algorithm = solver.Dual
	case "primal":
		eo.Base.Algorithm = solver.Primal
	case "barrier":
		eo.Base.Algorithm = solver.Barrier
	default:
		return eo, &problem.FieldError{Field: FieldAlgorithm, Value: o.Algorithm, Want: "auto, dual, primal or barrier"}
	}
	if o.Solver != nil {
		eo.Solver = o.Solver.lp
	}
	eo.Form, eo.Tolerance, eo.MaxModelBytes = form, o.Tolerance, o.MaxModelBytes
	eo.NoPrune, eo.NoStageGeneration = o.NoPrune, o.NoStageGeneration
	eo.Base.Context = o.Context
	return eo, nil
}

// pattern returns the pattern search's options for o.
func (o *Options) pattern(eo engine.Options) pattern.Options {
	po := pattern.Options{Engine: eo, Method: o.Pattern, Parallel: o.Parallel, Progress: o.Progress}
	if po.Parallel == 0 {
		po.Parallel = runtime.GOMAXPROCS(0)
	}
	if o.Solver != nil {
		name := o.Solver.Name()
		po.NewSolver = func() (solver.Solver, func(), error) {
			s, err := backends.New(name)
			if err != nil {
				return nil, nil, err
			}
			return s, func() { backends.Close(s) }, nil
		}
	}
	if o.Cache != nil {
		po.Cache = o.Cache.c
	}
	if o.Warm != nil {
		po.Warm = o.Warm.e
	}
	return po
}

func (o *Options) verifyLimit() int64 {
	if o.VerifyMaxBytes > 0 {
		return o.VerifyMaxBytes
	}
	return DefaultMaxModelBytes
}

// PatternCache shares the pattern search's results per stage count
// between calls on the same problems with the same options (a sweep's
// points along n); the results are those computed without it. It is safe
// for concurrent use. A nil cache caches nothing.
type PatternCache struct{ c *pattern.Cache }

// NewPatternCache returns an empty cache.
func NewPatternCache() *PatternCache { return &PatternCache{c: pattern.NewCache()} }

// Settings are the solve options as a user states them (names and plain
// numbers); Options checks them and turns them into Options with a fresh
// solver. DefaultSettings gives the defaults.
type Settings struct {
	// Solver is a backend name (SolverNames).
	Solver string
	// Algorithm is the first attempt's algorithm: "auto" (the settings
	// measured best for these LPs), "dual", "primal" or "barrier".
	Algorithm string
	// Form is the LP form: "compact", "paper" or "chain".
	Form string
	// Tolerance is the certified relative gap to reach, in (0, 1).
	Tolerance float64
	// MaxMemoryMB refuses an LP or a verification estimated to need more
	// (MinMemoryMB to MaxMemoryMB).
	MaxMemoryMB int64
	// NoPrune returns the raw LP optimum of the full pattern.
	NoPrune bool
	// NoStageGeneration solves large compact LPs whole instead of by
	// stage generation.
	NoStageGeneration bool
	// Context cancels the solves.
	Context context.Context
	// Parallel is the number of LPs the pattern search may solve at once
	// (Options.Parallel): 0 for one per CPU, else 1 to MaxParallel.
	Parallel int
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

// The names of Settings' fields in errors (*problem.FieldError) that
// Options does not share.
const (
	FieldSolver      = "solver"
	FieldTolerance   = "tolerance"
	FieldMaxMemoryMB = "MaxMemoryMB"
	FieldParallel    = "parallel"
)

// MaxParallel bounds Settings.Parallel: each LP solved at once holds its
// own model.
const MaxParallel = 256

// Options checks the settings (form, algorithm, tolerance, memory,
// solver, in that order) and returns the options with a fresh solver, and
// the function that releases it; the verification's memory limit is the
// LP's. Errors about a setting are *problem.FieldError naming it.
func (st Settings) Options() (Options, func(), error) {
	opt := Options{Algorithm: st.Algorithm, Form: st.Form, Tolerance: st.Tolerance,
		NoPrune: st.NoPrune, NoStageGeneration: st.NoStageGeneration, Context: st.Context, Parallel: st.Parallel}
	if _, err := opt.engine(); err != nil {
		return opt, nil, err
	}
	if tol := st.Tolerance; !(tol > 0 && tol < 1) {
		return opt, nil, &problem.FieldError{Field: FieldTolerance, Value: fmt.Sprintf("%g", tol), Want: "a number in (0, 1)"}
	}
	mem := st.MaxMemoryMB
	if mem < MinMemoryMB || mem > MaxMemoryMB {
		return opt, nil, &problem.FieldError{Field: FieldMaxMemoryMB, Value: fmt.Sprint(mem), Want: fmt.Sprintf("a number of MB from %d to %d", MinMemoryMB, MaxMemoryMB)}
	}
	opt.MaxModelBytes = mem << 20
	opt.VerifyMaxBytes = opt.MaxModelBytes
	if st.Parallel < 0 || st.Parallel > MaxParallel {
		return opt, nil, &problem.FieldError{Field: FieldParallel, Value: fmt.Sprint(st.Parallel), Want: fmt.Sprintf("0 (one per CPU) or a number of LPs from 1 to %d", MaxParallel)}
	}
	if !slices.Contains(SolverNames(), st.Solver) {
		return opt, nil, &problem.FieldError{Field: FieldSolver, Value: st.Solver, Want: backends.Valid}
	}
	s, done, err := NewSolver(st.Solver)
	if err != nil {
		return opt, nil, err
	}
	opt.Solver = s
	return opt, done, nil
}
