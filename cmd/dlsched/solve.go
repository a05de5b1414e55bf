package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/internal/atomicfile"
	"github.com/dlsched/dlsched/optimize"
	"github.com/dlsched/dlsched/pipeline"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/backends"
	"github.com/urfave/cli/v2"
)

// largeLPBytes is the estimated LP memory above which solve lowers the
// garbage collector's target (see solveAction).
const largeLPBytes = 64 << 20

func solverFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "solver", Value: "clp", Usage: "LP backend: clp or gonum"},
		&cli.StringFlag{Name: "algorithm", Value: "auto", Usage: "first LP algorithm: auto, dual, primal or barrier (others follow if the gap is too wide)"},
		&cli.StringFlag{Name: "form", Value: "compact", Usage: "LP form: compact (suffix sums), paper (as printed) or chain (compute-start chains; Cmax in one row per processor or layer)"},
		&cli.Float64Flag{Name: "tolerance", Value: pipeline.DefaultTolerance, Usage: "certified relative gap to reach"},
		&cli.BoolFlag{Name: "stage-generation", Value: true, Usage: "solve large compact LPs (1,000 messages or more) by stage generation: a restricted LP over the stages likely to carry load, grown by reduced costs and certified against the full LP; false solves the full LP at once"},
		&cli.Int64Flag{Name: "max-memory", Value: pipeline.DefaultMaxModelBytes >> 20, Usage: "refuse an LP or a verification estimated to need more MB (checked before anything is built)"},
	}
}

func solveCommand() *cli.Command {
	flags := append(problemFlags(), solverFlags()...)
	flags = append(flags,
		&cli.StringFlag{Name: "stages", Value: "min", Usage: "number of stages n, or min for n_min"},
		&cli.BoolFlag{Name: "no-prune", Usage: "return the raw LP optimum, empty messages included"},
		&cli.StringFlag{Name: "format", Value: "table", Usage: "output: table, json or csv"},
		&cli.StringFlag{Name: "out", Usage: "write the output to FILE (atomically) instead of stdout"},
		&cli.StringFlag{Name: "gantt", Usage: "write a Gantt chart to FILE.svg"},
		&cli.StringFlag{Name: "export-model", Usage: "write the (first) LP to FILE.mps or FILE.lp"},
		&cli.BoolFlag{Name: "no-verify", Usage: "skip the executor's check of the schedule"},
		&cli.StringFlag{Name: "pattern", Value: "search", Usage: "message pattern: search (the paper's greedy prune of the full pattern, patterns on fewer processors or layers, then single-message changes, each stage count seeded with the one below; the best is returned), greedy (only the paper's prune) or exact (a MILP over every sub-pattern, solved with Cbc; at most 40 messages)"},
		noTimingsFlag(),
	)
	return &cli.Command{
		Name:      "solve",
		Usage:     "solve the LP of one problem and stage count; prune, certify, verify",
		UsageText: "dlsched solve --topology star|tree|binomial [--order nlf|llf] [--buffers 1|2] [--m N | --p P --h H] --S s --C c --A a --D d|inf --V v [--stages N|min] ...",
		Flags:     flags,
		Action:    solveAction,
	}
}

// pipelineOptions reads the solver flags.
func pipelineOptions(c *cli.Context) (pipeline.Options, func(), error) {
	var opt pipeline.Options
	var err error
	if opt.Form, err = formulations.ParseForm(c.String("form")); err != nil {
		return opt, nil, usagef("invalid --form %s: want compact, paper or chain", c.String("form"))
	}
	switch c.String("algorithm") {
	case "auto":
		opt.Auto = true
	case "dual":
		opt.Base.Algorithm = solver.Dual
	case "primal":
		opt.Base.Algorithm = solver.Primal
	case "barrier":
		opt.Base.Algorithm = solver.Barrier
	default:
		return opt, nil, usagef("invalid --algorithm %s: want auto, dual, primal or barrier", c.String("algorithm"))
	}
	tol := c.Float64("tolerance")
	if !(tol > 0 && tol < 1) {
		return opt, nil, usagef("invalid --tolerance %g: want a number in (0, 1)", tol)
	}
	opt.Tolerance = tol
	opt.NoStageGeneration = !c.Bool("stage-generation")
	mem := c.Int64("max-memory")
	if mem < minMemoryMB || mem > maxMemoryMB {
		return opt, nil, usagef("invalid --max-memory %d: want a number of MB from %d to %d", mem, minMemoryMB, maxMemoryMB)
	}
	opt.MaxModelBytes = mem << 20
	name := c.String("solver")
	if name != "clp" && name != "gonum" {
		return opt, nil, usagef("invalid --solver %s: want clp or gonum", name)
	}
	s, err := backends.New(name)
	if err != nil {
		return opt, nil, err
	}
	opt.Solver = s
	opt.Base.Context = c.Context
	return opt, func() { backends.Close(s) }, nil
}

func checkOutPath(flag, path string, exts ...string) error {
	if path == "" {
		return nil
	}
	if len(exts) > 0 {
		ok := false
		for _, e := range exts {
			ok = ok || strings.EqualFold(filepath.Ext(path), e)
		}
		if !ok {
			return usagef("invalid --%s %s: want a file ending in %s", flag, path, strings.Join(exts, " or "))
		}
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return usagef("invalid --%s %s: directory %s does not exist", flag, path, filepath.Dir(path))
	}
	return nil
}

func solveAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("unexpected argument %q", c.Args().First())
	}
	p, err := parseProblem(c)
	if err != nil {
		return err
	}
	n, err := parseStages(c, p)
	if err != nil {
		return err
	}
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if err := checkOutPath("gantt", c.String("gantt"), ".svg"); err != nil {
		return err
	}
	if err := checkOutPath("export-model", c.String("export-model"), ".mps", ".lp"); err != nil {
		return err
	}
	opt, done, err := pipelineOptions(c)
	if err != nil {
		return err
	}
	defer done()
	opt.NoPrune = c.Bool("no-prune")

	if err := pipeline.CheckSize(p, n, opt); err != nil {
		return sizeUsage(err, "use fewer stages")
	}
	if !c.Bool("no-verify") {
		if err := replay.CheckPlatform(p.Kind, p.M, p.P, p.H, float64(n)*p.Processors(), opt.MaxModelBytes); err != nil {
			return sizeUsage(err, "skip verification with --no-verify")
		}
	}
	if path := c.String("export-model"); path != "" {
		if err := exportModel(p, n, opt, path); err != nil {
			return err
		}
	}
	// A large LP: collect garbage at 25% heap growth instead of 100% while
	// solving. The LP's memory is dominated by the model (kept by this
	// process for certification) and the solver's copy; Go's default lets
	// the heap double on top of them. Measured on the star m = 10,
	// n = 10,000, D = V/n: peak 318 MB with the default, 191 MB with 25%,
	// time unchanged (the solve is Clp's), against about 280 MB for the clp
	// command-line solver on the same model (README, Performance).
	gc := -2 // no change
	if est := p.EstimateFull(n, opt.Form); est.Bytes() > largeLPBytes && os.Getenv("GOGC") == "" {
		gc = debug.SetGCPercent(25)
	}
	var s *schedule.Schedule
	pattern := c.String("pattern")
	if opt.NoPrune {
		if c.IsSet("pattern") {
			return usagef("invalid --pattern %s with --no-prune: without pruning every message of the n-stage pattern is sent", pattern)
		}
		pattern = "search" // SolveBest solves the full pattern as it is
	}
	switch pattern {
	case "greedy":
		if s, err = pipeline.Solve(p, n, opt); err == nil {
			optimize.SetPatternBound(p, s)
		}
	case "search":
		s, err = optimize.SolveBest(p, n, optimize.PatternOptions{Pipeline: opt})
	case "exact":
		s, err = optimize.SolveExact(p, n, optimize.ExactOptions{Pipeline: opt})
		var se *optimize.SizeExactError
		if errors.As(err, &se) {
			return usagef("invalid --pattern exact: %v", err)
		}
	default:
		return usagef("invalid --pattern %s: want search, greedy or exact", pattern)
	}
	if gc != -2 {
		// Drop the model before going on, so that the default target
		// applies to what is left (the schedule), not to the model.
		debug.FreeOSMemory()
		debug.SetGCPercent(gc)
	}
	if err != nil {
		return err
	}
	if !c.Bool("no-verify") {
		v, err := replay.Verify(s, replay.Options{Context: c.Context, MaxBytes: opt.MaxModelBytes})
		if err != nil {
			return fmt.Errorf("verify: %w", err)
		}
		s.Verification = v
	}
	if c.Bool("no-timings") {
		s.DropTimings()
	}
	if path := c.String("gantt"); path != "" {
		if err := atomicfile.Write(path, s.WriteGantt); err != nil {
			return err
		}
	}
	if err := emit(c.String("out"), format, s); err != nil {
		return err
	}
	if s.Verification != nil && !s.Verification.OK {
		return cli.Exit(fmt.Sprintf("the executor rejected the schedule (%d violations)", len(s.Verification.Violations)), 1)
	}
	return nil
}

// exportModel writes the LP of the full n-stage pattern in the chosen form.
func exportModel(p *formulations.Problem, n int, opt pipeline.Options, path string) error {
	if err := pipeline.CheckSize(p, n, opt); err != nil {
		return sizeUsage(err, "use fewer stages")
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
	if strings.EqualFold(filepath.Ext(path), ".lp") {
		return atomicfile.Write(path, m.WriteLP)
	}
	return atomicfile.Write(path, m.WriteMPS)
}

// report is anything the CLI prints in the three output formats.
type report interface {
	WriteJSON(io.Writer) error
	WriteCSV(io.Writer) error
	WriteTable(io.Writer) error
}

// outputFormat checks --format (table, json or csv) and the directory of
// --out before anything is solved.
func outputFormat(c *cli.Context) (string, error) {
	format := c.String("format")
	if format != "table" && format != "json" && format != "csv" {
		return "", usagef("invalid --format %s: want table, json or csv", format)
	}
	return format, checkOutPath("out", c.String("out"))
}

// emit writes r in the format to path (atomically) or to stdout.
func emit(path, format string, r report) error {
	write := func(w io.Writer) error {
		switch format {
		case "json":
			return r.WriteJSON(w)
		case "csv":
			return r.WriteCSV(w)
		}
		return r.WriteTable(w)
	}
	if path != "" {
		return atomicfile.Write(path, write)
	}
	return write(os.Stdout)
}
