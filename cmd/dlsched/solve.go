package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/internal/atomicfile"
	"github.com/dlsched/dlsched/plotting"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/trace"
	"github.com/urfave/cli/v2"
)

// largeLPBytes is the estimated LP memory above which solve lowers the
// garbage collector's target (see solveAction).
const largeLPBytes = 64 << 20

func solverFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "solver", Value: "clp", Usage: "LP backend: " + strings.Join(solve.SolverNames(), ", ") + " (highs in builds with -tags highs; auto: the first built in)"},
		&cli.StringFlag{Name: "algorithm", Value: "auto", Usage: "first LP algorithm: auto, dual, primal or barrier (others follow if the gap is too wide)"},
		&cli.StringFlag{Name: "form", Value: "compact", Usage: "LP form: compact (suffix sums), paper (as printed) or chain (compute-start chains; Cmax in one row per processor or layer)"},
		&cli.Float64Flag{Name: "tolerance", Value: solve.DefaultTolerance, Usage: "certified relative gap to reach"},
		&cli.BoolFlag{Name: "stage-generation", Value: true, Usage: "solve large compact LPs (1,000 messages or more) by stage generation: a restricted LP over the stages likely to carry load, grown by reduced costs and certified against the full LP; false solves the full LP at once"},
		&cli.Int64Flag{Name: "max-memory", Value: solve.DefaultMaxModelBytes >> 20, Usage: "refuse an LP or a verification estimated to need more MB (checked before anything is built)"},
		&cli.IntFlag{Name: "parallel", DefaultText: "one per CPU", Usage: "LPs the pattern search may solve at once (its stage counts' greedy prunes, ahead); the schedule is the same for every value, 1 solves one at a time"},
		&cli.StringFlag{Name: "worker-order", DefaultText: "search when the --procs differ, else given", Usage: "star with --procs: search (choose the processors that carry load and the order every stage activates them: exact up to 8 processors, heuristic with a bound beyond) or given (the order listed)"},
	}
}

func solveCommand() *cli.Command {
	flags := append(problemFlags(), solverFlags()...)
	flags = append(flags,
		&cli.StringFlag{Name: "stages", Value: "min", Usage: "number of stages n, or min for n_min"},
		&cli.StringFlag{Name: "deadline", Usage: "instead of --V: the largest load that finishes by this time (the deadline form)"},
		&cli.BoolFlag{Name: "no-prune", Usage: "return the raw LP optimum, empty messages included"},
		&cli.StringFlag{Name: "format", Value: "table", Usage: "output: table, json or csv"},
		&cli.StringFlag{Name: "out", Usage: "write the output to FILE (atomically) instead of stdout"},
		&cli.StringFlag{Name: "gantt", Usage: "write a Gantt chart to FILE.svg"},
		&cli.StringFlag{Name: "export-model", Usage: "write the (first) LP to FILE.mps or FILE.lp"},
		&cli.BoolFlag{Name: "no-verify", Usage: "skip the executor's check of the schedule"},
		&cli.StringFlag{Name: "trace", Usage: "write the verification's replay as a Chrome trace to FILE.json (Perfetto, chrome://tracing)"},
		&cli.StringFlag{Name: "pattern", Value: "search", Usage: "message pattern: search (the paper's greedy prune of the full pattern, patterns on fewer processors or layers, then single-message changes, each stage count seeded with the one below; the best is returned), greedy (only the paper's prune) or exact (a MILP over every sub-pattern, solved with Cbc; at most 40 messages)"},
		noTimingsFlag(),
		quietFlag(),
	)
	return &cli.Command{
		Name:      "solve",
		Usage:     "solve the LP of one problem and stage count; prune, certify, verify",
		UsageText: "dlsched solve --topology star|tree|binomial [--order nlf|llf] [--buffers 1|2] [--workers N | -k P --depth H] --startup s --C c --A a --D d|inf --V v [--stages N|min] ...",
		Flags:     flags,
		Action:    solveAction,
	}
}

// lpOptions reads the solver flags (and --no-prune, which solve and
// optimize both have) into solve.Settings and returns the options with
// their solver and its release function.
func lpOptions(c *cli.Context) (solve.Options, func(), error) {
	st := solve.Settings{Solver: c.String("solver"), Algorithm: c.String("algorithm"), Form: c.String("form"),
		Tolerance: c.Float64("tolerance"), MaxMemoryMB: c.Int64("max-memory"), NoStageGeneration: !c.Bool("stage-generation"),
		NoPrune: c.Bool("no-prune"), Context: c.Context, Parallel: c.Int("parallel")}
	opt, done, err := st.Options()
	if err != nil {
		return opt, done, flagErr(err)
	}
	opt.WorkerOrder = c.String("worker-order")
	if c.IsSet("worker-order") && strings.TrimSpace(c.String("procs")) == "" {
		done()
		return opt, nil, usagef("invalid --worker-order %s: it needs --procs (per-processor parameters of a star)", opt.WorkerOrder)
	}
	if _, err := opt.SearchesOrder(&problem.Problem{}); err != nil {
		done()
		return opt, nil, flagErr(err)
	}
	return opt, done, nil
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
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usagef("invalid --%s %s: directory %s does not exist", flag, path, dir)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usagef("invalid --%s %s: it is a directory, want a file name", flag, path)
	}
	// Files are written atomically through a temporary file beside path:
	// the directory must take one (a read-only or virtual directory such
	// as /proc was reported only after the whole run).
	f, err := os.CreateTemp(dir, ".dlsched-check-*")
	if err != nil {
		return usagef("invalid --%s %s: cannot create a file in directory %s (%v)", flag, path, dir, errors.Unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

func solveAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("unexpected argument %q", c.Args().First())
	}
	p, n, format, err := solveInputs(c)
	if err != nil {
		return err
	}
	opt, done, err := solveOptions(c)
	if err != nil {
		return err
	}
	defer done()
	if err := checkSolveSize(c, p, n, opt); err != nil {
		return err
	}
	gc := lowerGC(p, n, opt)
	var res *solve.Result
	if c.IsSet("deadline") {
		res, err = solve.MaxLoad(p, n, deadline(c), opt)
	} else {
		opt.Progress = searchProgress(c, n)
		res, err = solve.Schedule(p, n, opt)
	}
	restoreGC(gc)
	if err != nil {
		return solveErr(err)
	}
	if res.VerifyErr != nil {
		return fmt.Errorf("verify: %w", res.VerifyErr)
	}
	s := res.Schedule
	if c.Bool("no-timings") {
		s.DropTimings()
	}
	if path := c.String("gantt"); path != "" {
		if err := atomicfile.Write(path, func(w io.Writer) error { return plotting.WriteGantt(w, s) }); err != nil {
			return err
		}
	}
	if tr, ok := opt.VerifyTrace.(*trace.Trace); ok {
		if err := writeTrace(c.String("trace"), tr, s.Verification); err != nil {
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

// searchProgress returns a progress bar on stderr over the stage counts
// of the pattern search's chain at n (solve.Options.Progress: the counts
// n−total+1 … n), made at its first report when their number is known;
// nil with --quiet or when stderr is not a terminal. A search of one stage
// count shows none.
func searchProgress(c *cli.Context, n int) func(done, total int) {
	if barsOff(c.Bool("quiet")) {
		return nil
	}
	var bar func(done int)
	return func(done, total int) {
		if bar == nil {
			desc := fmt.Sprintf("pattern search over stage counts %d-%d", n-total+1, n)
			if bar = progress(c, total, 2, desc, "stage counts"); bar == nil {
				bar = func(int) {}
			}
		}
		bar(done)
	}
}

// solveOptions reads the solver flags, --pattern and --no-verify.
func solveOptions(c *cli.Context) (solve.Options, func(), error) {
	opt, done, err := lpOptions(c)
	if err != nil {
		return solve.Options{}, nil, err
	}
	opt.Pattern, opt.Verify = c.String("pattern"), !c.Bool("no-verify")
	if opt.NoPrune && !c.IsSet("pattern") {
		opt.Pattern = "" // the full pattern; --pattern with --no-prune is refused by the library
	}
	if c.String("trace") != "" && opt.Verify {
		opt.VerifyTrace = trace.New("s")
	}
	return opt, done, nil
}

// solveErr turns the library's refusals into bad usage naming the flags.
func solveErr(err error) error {
	var se *solve.ExactSizeError
	if errors.As(err, &se) {
		return usagef("invalid --pattern exact: %v", err)
	}
	return flagErr(err)
}

// deadline returns --deadline (checked by solveInputs).
func deadline(c *cli.Context) float64 {
	v, _ := problem.ParseNumber("deadline", c.String("deadline"), false)
	return v
}

// checkDeadline checks --deadline: a finite time > 0, not with --V or
// --export-model.
func checkDeadline(c *cli.Context) error {
	if !c.IsSet("deadline") {
		return nil
	}
	if c.IsSet("V") {
		return usagef("invalid --deadline: give --V or --deadline, not both")
	}
	if c.IsSet("export-model") {
		return usagef("invalid --export-model: the deadline form's LPs depend on the answer; export with --V")
	}
	v, err := parseNumber("deadline", c.String("deadline"), false)
	if err != nil {
		return err
	}
	if !(v > 0) {
		return usagef("invalid --deadline %s: want a finite time > 0", c.String("deadline"))
	}
	return nil
}

// solveStages reads --stages; with --deadline and finite buffers n_min
// depends on the answer, so the count must be given.
func solveStages(c *cli.Context, p *problem.Problem) (int, error) {
	if s := strings.TrimSpace(c.String("stages")); c.IsSet("deadline") && !math.IsInf(p.D, 1) && (s == "" || s == "min") {
		return 0, usagef("invalid --stages min: with --deadline and a finite --D give the number of stages (n_min depends on the load)")
	}
	return parseStages(c, p)
}

// solveInputs reads the problem, --stages, --deadline and --format and
// checks the output paths, before anything is solved.
func solveInputs(c *cli.Context) (*problem.Problem, int, string, error) {
	if err := checkDeadline(c); err != nil {
		return nil, 0, "", err
	}
	p, err := parseProblem(c)
	if err != nil {
		return nil, 0, "", err
	}
	n, err := solveStages(c, p)
	if err != nil {
		return nil, 0, "", err
	}
	format, err := outputFormat(c)
	if err != nil {
		return nil, 0, "", err
	}
	if err := checkOutPath("gantt", c.String("gantt"), ".svg"); err != nil {
		return nil, 0, "", err
	}
	if err := checkOutPath("export-model", c.String("export-model"), ".mps", ".lp"); err != nil {
		return nil, 0, "", err
	}
	if err := checkTracePath(c); err != nil {
		return nil, 0, "", err
	}
	return p, n, format, nil
}

// checkTracePath checks --trace: a .json file in a directory that takes
// one, and a verification to trace.
func checkTracePath(c *cli.Context) error {
	path := c.String("trace")
	if path == "" {
		return nil
	}
	if c.Bool("no-verify") {
		return usagef("invalid --trace %s: the trace is the verification's replay; drop --no-verify", path)
	}
	return checkOutPath("trace", path, ".json")
}

// writeTrace writes the trace of a verification replay to path
// (atomically), with the verification's makespan.
func writeTrace(path string, tr *trace.Trace, v *schedule.Verification) error {
	if path == "" || tr == nil || v == nil {
		return nil
	}
	tr.Makespan = v.Makespan
	return atomicfile.Write(path, tr.WriteJSON)
}

// checkSolveSize refuses an LP or a verification over the memory limit,
// then writes --export-model.
func checkSolveSize(c *cli.Context, p *problem.Problem, n int, opt solve.Options) error {
	if err := solve.Check(p, n, opt); err != nil {
		var fe *problem.FieldError
		if errors.As(err, &fe) {
			return flagErr(err) // an option the problem cannot have (--form with results)
		}
		var re *replay.SizeError
		if errors.As(err, &re) && re.Traced {
			return sizeUsage(err, "drop --trace")
		}
		if errors.As(err, &re) {
			return sizeUsage(err, "skip verification with --no-verify")
		}
		return sizeUsage(err, "use fewer stages")
	}
	if path := c.String("export-model"); path != "" {
		return exportModel(p, n, opt, path)
	}
	return nil
}

// lowerGC makes the garbage collector run at 25% heap growth instead of
// 100% while a large LP is solved (estimated above largeLPBytes, GOGC
// unset), and returns the previous setting, or -2 for no change. The LP's
// memory is dominated by the model (kept by this process for
// certification) and the solver's copy; Go's default lets the heap double
// on top of them. Measured on the star m = 10, n = 10,000, D = V/n: peak
// 318 MB with the default, 191 MB with 25%, time unchanged (the solve is
// Clp's), against about 280 MB for the clp command-line solver on the same
// model (README, Performance).
func lowerGC(p *problem.Problem, n int, opt solve.Options) int {
	if b, err := solve.ModelBytes(p, n, opt); err == nil && b > largeLPBytes && os.Getenv("GOGC") == "" {
		return debug.SetGCPercent(25)
	}
	return -2
}

// restoreGC drops the model before going on, so that the previous target
// applies to what is left (the schedule), not to the model.
func restoreGC(gc int) {
	if gc != -2 {
		debug.FreeOSMemory()
		debug.SetGCPercent(gc)
	}
}

// exportModel writes the LP of the full n-stage pattern in the chosen form
// (its size was checked by checkSolveSize).
func exportModel(p *problem.Problem, n int, opt solve.Options, path string) error {
	return atomicfile.Write(path, func(w io.Writer) error { return solve.WriteModel(w, p, n, opt, solve.IsLPFile(path)) })
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
