package main

import (
	"io"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/internal/atomicfile"
	"github.com/dlsched/dlsched/optimize"
	"github.com/dlsched/dlsched/plotting"
	"github.com/dlsched/dlsched/problem"
	"github.com/urfave/cli/v2"
)

func optimizeCommand() *cli.Command {
	flags := append(problemFlags(), solverFlags()...)
	flags = append(flags, noTimingsFlag(), quietFlag(),
		&cli.StringFlag{Name: "over", Usage: "what to optimise: n (stages), D (buffer size), n,D (the surface of Fig. 9) or relay (compute/relay split of a tree, with the LB strategy and classic NLF/LLF)"},
		&cli.IntFlag{Name: "n-max", DefaultText: "n_min+200", Usage: "guard: evaluate no n above this"},
		&cli.StringFlag{Name: "max-lp-seconds", Value: strconv.Itoa(optimize.DefaultMaxLPSeconds),
			Usage: "refuse a search over n (--over n, n,D) estimated to take more seconds of LP solving (the estimate errs high by about 2)"},
		&cli.IntFlag{Name: "through", DefaultText: "none", Usage: "--over n,D: extend every line up to this n past its stopping point, for drawing"},
		&cli.StringFlag{Name: "D-min", Usage: "smallest buffer size searched (--over D, n,D)"},
		&cli.StringFlag{Name: "D-max", Usage: "largest buffer size searched (--over D, n,D)"},
		&cli.IntFlag{Name: "points", DefaultText: "9 for --over D, 7 for n,D", Usage: "log grid points of D"},
		&cli.IntFlag{Name: "refine", Value: optimize.DefaultRefine, Usage: "evaluations of each refinement of D (0 for none)"},
		&cli.Float64Flag{Name: "within", Value: 0.01, Usage: "report the smallest D whose Cmax is within this fraction of the best (--over D)"},
		&cli.StringFlag{Name: "stages", DefaultText: "best for --over D, min for relay", Usage: "n for each D or split: N, min (n_min) or best"},
		&cli.IntFlag{Name: "exhaustive", Value: optimize.DefaultExhaustive, Usage: "try every subset of computing layers when h is at most this (--over relay)"},
		&cli.BoolFlag{Name: "no-prune", Usage: "optimise the LP optimum of the full n-stage pattern (the paper's model) instead of the pruned schedule"},
		&cli.BoolFlag{Name: "no-warm", Usage: "solve every point from scratch (warm starts are used only with --no-prune)"},
		&cli.StringFlag{Name: "preset", Usage: "fill unset problem flags with a paper setting: fig9a, fig9b (star, Fig. 9) or fig11 (binomial p=2 h=10 LLF, V=1e7 D=1e4)"},
		&cli.StringFlag{Name: "format", Value: "table", Usage: "output: table, json or csv"},
		&cli.StringFlag{Name: "out", Usage: "write the output to FILE (atomically) instead of stdout"},
		&cli.StringFlag{Name: "plot", Usage: "write a chart of the curve to FILE.svg or FILE.png"},
	)
	return &cli.Command{
		Name:  "optimize",
		Usage: "best stage count n and buffer size D; Section 5 D* heuristics; LB strategy and relay-only layers",
		UsageText: "dlsched optimize <problem flags as solve> --over n|D|n,D|relay [--n-max N] [--max-lp-seconds S] [--D-min x --D-max y --points k] " +
			"[--stages N|min|best] [--no-prune] [--preset fig9a|fig9b|fig11] [--format table|json|csv] [--out FILE] [--plot FILE.svg]",
		Flags:  flags,
		Action: optimizeAction,
	}
}

func optimizeAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("unexpected argument %q", c.Args().First())
	}
	over, err := checkOver(c)
	if err != nil {
		return err
	}
	if err := applyPreset(c, over); err != nil {
		return err
	}
	p, err := parseProblem(c)
	if err != nil {
		return err
	}
	format, err := outputFormat(c)
	if err != nil {
		return err
	}
	if err := checkSearchFlags(c, over); err != nil {
		return err
	}
	opt, done, err := lpOptions(c)
	if err != nil {
		return err
	}
	defer done()
	base := optimize.Options{Solve: opt, NMax: c.Int("n-max"), NoWarm: c.Bool("no-warm"), NoTimings: c.Bool("no-timings")}
	if over == "n" || over == "n,D" {
		base.MaxLPSeconds, _ = strconv.ParseFloat(strings.TrimSpace(c.String("max-lp-seconds")), 64)
	}
	rep, err := runSearch(c, over, p, base)
	if err != nil {
		return err
	}
	if path := c.String("plot"); path != "" {
		pf, _ := plotting.Format(path)
		ch := rep.Chart()
		if err := atomicfile.Write(path, func(w io.Writer) error { return plotting.Write(w, pf, ch) }); err != nil {
			return err
		}
	}
	return emit(c.String("out"), format, rep)
}

// checkOver reads --over and refuses the flags the search sets itself.
func checkOver(c *cli.Context) (string, error) {
	over := strings.TrimSpace(c.String("over"))
	switch over {
	case "n", "D", "n,D", "relay":
	case "":
		return "", usagef("missing --over: want n, D, n,D or relay")
	default:
		return "", usagef("invalid --over %s: want n, D, n,D or relay", over)
	}
	if (over == "D" || over == "n,D") && c.IsSet("D") {
		return "", usagef("invalid --D with --over %s: the search sets D; give --D-min and --D-max", over)
	}
	if over == "relay" && c.IsSet("relay") {
		return "", usagef("invalid --relay with --over relay: the search chooses the relay-only layers")
	}
	return over, nil
}

// applyPreset fills the problem flags the user did not set from --preset
// (optimize.Preset); the searches over D set D themselves.
func applyPreset(c *cli.Context, over string) error {
	if name := c.String("preset"); name != "" {
		set, err := optimize.Preset(name)
		if err != nil {
			return flagErr(err)
		}
		for _, kv := range set {
			if !c.IsSet(kv[0]) {
				if err := c.Set(kv[0], kv[1]); err != nil {
					return err
				}
			}
		}
	}
	if over == "D" || over == "n,D" {
		return c.Set("D", "inf")
	}
	return nil
}

// checkSearchFlags refuses search flags that are out of range or do not
// apply to the search, before anything is solved.
func checkSearchFlags(c *cli.Context, over string) error {
	if err := checkOutPath("plot", c.String("plot"), ".svg", ".png"); err != nil {
		return err
	}
	switch {
	case c.Int("n-max") < 0:
		return usagef("invalid --n-max %d: want an integer >= 1", c.Int("n-max"))
	case c.IsSet("through") && over != "n,D":
		return usagef("invalid --through with --over %s: --through applies to --over n,D", over)
	case c.IsSet("stages") && over != "D" && over != "relay":
		return usagef("invalid --stages with --over %s: --stages applies to --over D and relay", over)
	case c.Int("refine") < 0:
		return usagef("invalid --refine %d: want an integer >= 0", c.Int("refine"))
	case c.IsSet("max-lp-seconds") && over != "n" && over != "n,D":
		return usagef("invalid --max-lp-seconds with --over %s: it applies to --over n and n,D", over)
	}
	s := c.String("max-lp-seconds")
	if v, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil || !(v > 0) || v > 1e7 {
		return usagef("invalid --max-lp-seconds %s: want a number of seconds > 0 (at most 1e7)", s)
	}
	return nil
}

// runSearch runs the search of --over and returns its report.
func runSearch(c *cli.Context, over string, p *problem.Problem, base optimize.Options) (optimize.Report, error) {
	switch over {
	case "n":
		// A bar over the stage counts up to the guard (the stopping rule
		// may end the search sooner): n_min + 200 LPs take seconds to
		// minutes, a raised --n-max longer.
		nmin, nmax := p.NMin(), base.NMax
		if nmax <= 0 {
			nmax = nmin + optimize.DefaultSpan
		}
		if bar := progress(c, nmax-nmin+1, 20, "optimize over n", "stages"); bar != nil {
			base.Progress = func(pt optimize.Point) { bar(pt.Stages - nmin + 1) }
		}
		r, err := optimize.OverN(p, base)
		if err != nil {
			return nil, searchErr(err)
		}
		return optimize.NReport{P: p, R: r}, nil
	case "D":
		return searchD(c, p, base)
	case "n,D":
		return searchND(c, p, base)
	}
	return searchRelay(c, p, base)
}

// searchD runs --over D.
func searchD(c *cli.Context, p *problem.Problem, base optimize.Options) (optimize.Report, error) {
	dmin, dmax, err := dRange(c, false)
	if err != nil {
		return nil, err
	}
	rule, n, err := stageRule(c, optimize.StagesBest)
	if err != nil {
		return nil, err
	}
	refine := c.Int("refine")
	if refine == 0 {
		refine = -1
	}
	r, err := optimize.OverD(p, optimize.DOptions{Options: base, DMin: dmin, DMax: dmax, Points: c.Int("points"),
		Refine: refine, Stages: rule, N: n, Within: c.Float64("within")})
	if err != nil {
		return nil, searchErr(err)
	}
	return optimize.DReport{P: p, R: r}, nil
}

// searchND runs --over n,D on the grid of optimize.SurfaceDs.
func searchND(c *cli.Context, p *problem.Problem, base optimize.Options) (optimize.Report, error) {
	preset := c.String("preset")
	dmin, dmax, err := dRange(c, strings.HasPrefix(preset, "fig9"))
	if err != nil {
		return nil, err
	}
	ds, err := optimize.SurfaceDs(p.V, dmin, dmax, c.Int("points"), preset)
	if err != nil {
		return nil, flagErr(err)
	}
	if c.Int("through") < 0 {
		return nil, usagef("invalid --through %d: want an integer >= 1", c.Int("through"))
	}
	r, err := optimize.OverND(p, ds, base, c.Int("through"))
	if err != nil {
		return nil, searchErr(err)
	}
	return optimize.SurfaceReport{P: p, R: r}, nil
}

// searchRelay runs --over relay.
func searchRelay(c *cli.Context, p *problem.Problem, base optimize.Options) (optimize.Report, error) {
	if p.Kind.String() == "star" {
		return nil, usagef("invalid --topology star with --over relay: want tree or binomial")
	}
	rule, n, err := stageRule(c, optimize.StagesMin)
	if err != nil {
		return nil, err
	}
	if c.Int("exhaustive") < 0 {
		return nil, usagef("invalid --exhaustive %d: want an integer >= 0", c.Int("exhaustive"))
	}
	ex := c.Int("exhaustive")
	if ex == 0 {
		ex = -1
	}
	r, err := optimize.RelaySplit(p, optimize.SplitOptions{Options: base, Stages: rule, N: n, Exhaustive: ex})
	if err != nil {
		return nil, searchErr(err)
	}
	return optimize.SplitReport{P: p, R: r}, nil
}

// searchErr marks the searches' option errors as bad usage, naming the
// flags.
func searchErr(err error) error {
	if fe := flagErr(err); fe != err {
		return fe
	}
	if isUsage(err) {
		return usage(err)
	}
	return err
}

// stageRule reads --stages N|min|best.
func stageRule(c *cli.Context, def optimize.StageRule) (optimize.StageRule, int, error) {
	s := strings.TrimSpace(c.String("stages"))
	switch s {
	case "":
		return def, 0, nil
	case "min":
		return optimize.StagesMin, 0, nil
	case "best":
		return optimize.StagesBest, 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, 0, usagef("invalid --stages %s: want an integer >= 1, min or best", s)
	}
	return optimize.StagesFixed, n, nil
}

// dRange reads --D-min and --D-max (required unless optional).
func dRange(c *cli.Context, optional bool) (float64, float64, error) {
	if optional && !c.IsSet("D-min") && !c.IsSet("D-max") {
		return 0, 0, nil
	}
	dmin, err := parseFloat(c, "D-min", false)
	if err != nil {
		return 0, 0, err
	}
	dmax, err := parseFloat(c, "D-max", false)
	if err != nil {
		return 0, 0, err
	}
	if !(dmin > 0) {
		return 0, 0, usagef("invalid --D-min %g: want a number > 0", dmin)
	}
	if !(dmax > dmin) {
		return 0, 0, usagef("invalid --D-max %g: want a number > --D-min %g", dmax, dmin)
	}
	return dmin, dmax, nil
}
