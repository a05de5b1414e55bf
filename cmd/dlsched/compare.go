package main

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dlsched/dlsched/compare"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/plotting"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
)

func compareCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "topology", Value: "star", Usage: "star, chain or kary"},
		&cli.StringFlag{Name: "workers", Aliases: []string{"m"}, Usage: "workers of a star or chain (the paper's m)"},
		&cli.StringFlag{Name: "k", Usage: "arity of a k-ary tree"},
		&cli.StringFlag{Name: "depth", Usage: "worker levels of a k-ary tree below the master, which does not compute (-k 2 --depth 3: 2+4+8 = 14 workers)"},
		&cli.StringFlag{Name: "startup", Aliases: []string{"S"}, Usage: "startup time per message (seconds; the paper's S)"},
		&cli.StringFlag{Name: "C", Usage: "transfer time per unit (seconds)"},
		&cli.StringFlag{Name: "A", Usage: "computing time per unit (seconds)"},
		&cli.StringFlag{Name: "D", Value: "inf", Usage: "buffer size of the planned schedules (units), or inf"},
		&cli.StringFlag{Name: "V", Usage: "total load (units)"},
		&cli.StringFlag{Name: "procs", Usage: "a star's per-worker A, comma separated"},
		&cli.StringFlag{Name: "result-per-unit", Value: "0", Usage: "result size per unit of load"},
		&cli.StringFlag{Name: "tasks", Value: "10,100,1000", Usage: "task counts of the farming strategies, comma separated"},
		&cli.StringFlag{Name: "queue", Value: "4", Usage: "NEPP's queue q (queue, replicate)"},
		&cli.StringSliceFlag{Name: "slow", Usage: "W@T=F: worker W runs at F × its speed from T (unknown to the planner; repeatable)"},
		&cli.StringSliceFlag{Name: "crash", Usage: "W@T: worker W crashes at T (repeatable)"},
		&cli.StringFlag{Name: "strategies", Usage: "comma separated subset of " + strings.Join(compare.Strategies, ",")},
		&cli.StringFlag{Name: "nmax", Value: "50", Usage: "largest number of stages the dls search tries (0: n_min + 200)"},
		&cli.StringFlag{Name: "max-lp-seconds", Value: strconv.Itoa(compare.DefaultMaxLPSeconds), Usage: "refuse a run whose searches over n (dls, dls-known) are estimated to take more seconds of LP solving in all"},
		&cli.StringFlag{Name: "solver", Value: "clp", Usage: "LP solver: clp, highs (builds with -tags highs), gonum or auto"},
		&cli.StringFlag{Name: "plot", Usage: "draw makespan against the task count (.svg or .png)"},
		&cli.StringFlag{Name: "format", Value: "table", Usage: "table or json"},
		&cli.StringFlag{Name: "out", Usage: "write the report to this file instead of stdout"},
		&cli.StringFlag{Name: "trace", Usage: "write every row's run as a Chrome trace (.json; Perfetto, chrome://tracing): one process per row"},
	}
	return &cli.Command{
		Name:  "compare",
		Usage: "divide the load optimally, or farm it out? every strategy on one platform",
		Description: "Times in seconds; S per message, C and A per unit of load. Example:\n" +
			"  dlsched compare --topology star --m 4 --S 1e-3 --C 1e-6 --A 1e-3 --D 1e4 --V 5e3 --slow 2@0=0.2 --tasks 10,100,1000\n" +
			"Exit status 1 when no strategy completed (every one skipped or lost work to a crash).\n" +
			"--format json writes a dlsched.compare/1 document (schema/compare.schema.json). --trace FILE.json writes\n" +
			"every row's run as a Chrome trace, one process per row (\"dls\", \"demand (M = 100)\"): a farm's simulation\n" +
			"with its model's processes as tracks, a planned schedule's replay on the real platform as its transfers and\n" +
			"computations; open it in ui.perfetto.dev (Open trace file) or chrome://tracing (Load).",
		Flags:  append(flags, limitFlags()...),
		Action: compareAction,
	}
}

// compareFlags maps the compare library's field names to its flags where
// the two differ.
var compareFlags = map[string]string{
	compare.FieldResultPerUnit: "result-per-unit", compare.FieldSlows: "slow", compare.FieldCrashes: "crash",
	compare.FieldTasks: "tasks", compare.FieldQueue: "queue", compare.FieldStrategies: "strategies",
	compare.FieldNMax: "nmax", compare.FieldMaxBytes: "max-memory", compare.FieldMaxEvents: "max-events",
	compare.FieldMaxLPSeconds: "max-lp-seconds", compare.FieldTrace: "trace",
}

// compareFlag is the flag of a compare field: "--nmax", "--S".
func compareFlag(field string) string {
	if f, ok := compareFlags[field]; ok {
		return "--" + f
	}
	return flagName(field)
}

// compareErr turns a library error that names inputs (compare's
// *platform.FieldError and *SizeError, the LP side's problem errors: the
// same method set) into bad usage naming compare's flags; other errors
// pass unchanged.
func compareErr(err error) error {
	var n platform.Named
	if errors.As(err, &n) {
		return usage(errors.New(n.Format(compareFlag)))
	}
	return err
}

func compareAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("unexpected argument %q", c.Args().First())
	}
	out, err := readOutputs(c)
	if err != nil {
		return err
	}
	p, o, err := compareInput(c)
	if err != nil {
		return err
	}
	tr := out.recorder("s")
	if tr != nil {
		o.Trace = tr
	}
	if err := compare.Check(&p, o); err != nil {
		return compareErr(err)
	}
	s, done, err := solve.NewSolver(c.String("solver"))
	if err != nil {
		return usagef("invalid --solver %s: %v", c.String("solver"), err)
	}
	defer done()
	o.Solver = s
	// A bar (one step per strategy run) when the run is estimated to
	// take more than a few seconds.
	if compare.Seconds(&p, o) > 3 {
		o.Progress = progress(c, o.Runs(), 1, "compare", "strategy runs")
	}
	r, err := compare.Run(c.Context, p, o)
	if err != nil {
		return compareErr(err)
	}
	if tr != nil {
		tr.Makespan = bestMakespan(r)
	}
	charts := func() []plotting.Chart { return []plotting.Chart{r.Chart()} }
	if err := out.write(r, charts, 1, tr); err != nil {
		return err
	}
	if err := r.Err(); err != nil {
		return cli.Exit(err.Error(), 1)
	}
	return nil
}

// bestMakespan is the least makespan of the completed rows (0: none),
// the trace's makespan.
func bestMakespan(r *compare.Report) float64 {
	best := 0.0
	for _, x := range r.Rows {
		if x.Completed && !x.Skipped && (best == 0 || *x.Makespan < best) {
			best = *x.Makespan
		}
	}
	return best
}

// compareInput reads the platform and the options of compare.
func compareInput(c *cli.Context) (platform.Platform, compare.Options, error) {
	p := platform.Platform{Topology: platform.Topology{Kind: platform.Kind(c.String("topology"))}}
	var o compare.Options
	if err := compareShape(c, &p); err != nil {
		return p, o, err
	}
	var err error
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"S", &p.S}, {"C", &p.C}, {"A", &p.A}, {"V", &p.V}, {"result-per-unit", &p.ResultPerUnit}} {
		if *f.dst, err = parseFloat(c, f.name, false); err != nil {
			return p, o, err
		}
	}
	d, err := parseFloat(c, "D", true)
	if err != nil {
		return p, o, err
	}
	p.D = schedule.Float(d)
	if c.IsSet("procs") {
		if p.PerWorkerA, err = floatList(c, "procs"); err != nil {
			return p, o, err
		}
	}
	if err := compareFaults(c, &p); err != nil {
		return p, o, err
	}
	if err := compare.Validate(&p); err != nil {
		return p, o, compareErr(err)
	}
	o, err = compareOptions(c)
	return p, o, err
}

// compareShape reads the size of the platform: --m, or --k and --depth.
func compareShape(c *cli.Context, p *platform.Platform) error {
	var err error
	switch p.Kind {
	case platform.Star, platform.Chain:
		if c.IsSet("k") || c.IsSet("depth") {
			return usagef("invalid --k/--depth: they describe a kary topology, not %s", p.Kind)
		}
		p.M, err = parseInt(c, "m")
	case platform.KAry:
		if c.IsSet("m") {
			return usagef("invalid --m: a kary topology is given by --k and --depth")
		}
		if p.K, err = parseInt(c, "k"); err == nil {
			p.Depth, err = parseInt(c, "depth")
		}
	default:
		return usagef("invalid --topology %q: want star, chain or kary", p.Kind)
	}
	return err
}

// compareFaults reads --slow W@T=F and --crash W@T.
func compareFaults(c *cli.Context, p *platform.Platform) error {
	for _, s := range c.StringSlice("slow") {
		wk, rest, ok1 := strings.Cut(s, "@")
		at, f, ok2 := strings.Cut(rest, "=")
		n, e1 := strconv.Atoi(wk)
		t, e2 := strconv.ParseFloat(at, 64)
		fv, e3 := strconv.ParseFloat(f, 64)
		if !ok1 || !ok2 || e1 != nil || e2 != nil || e3 != nil {
			return usagef("invalid --slow %s: want W@T=F, e.g. 2@0=0.2", s)
		}
		p.Slows = append(p.Slows, platform.Slow{Worker: n, At: t, Factor: fv})
	}
	for _, s := range c.StringSlice("crash") {
		wk, at, ok := strings.Cut(s, "@")
		n, e1 := strconv.Atoi(wk)
		t, e2 := strconv.ParseFloat(at, 64)
		if !ok || e1 != nil || e2 != nil {
			return usagef("invalid --crash %s: want W@T, e.g. 3@0.5", s)
		}
		p.Crashes = append(p.Crashes, platform.Crash{Worker: n, At: t})
	}
	return nil
}

// compareOptions reads --tasks, --queue, --nmax, --strategies and the
// limits.
func compareOptions(c *cli.Context) (compare.Options, error) {
	var o compare.Options
	var err error
	for _, f := range strings.Split(c.String("tasks"), ",") {
		m, err := problem.ParseInt("tasks", strings.TrimSpace(f))
		if err != nil || m < 1 || m > compare.MaxTasks {
			return o, usagef("invalid --tasks %s: want task counts 1..%d separated by commas", c.String("tasks"), compare.MaxTasks)
		}
		o.Tasks = append(o.Tasks, m)
	}
	if o.Queue, err = parseInt(c, "queue"); err != nil || o.Queue < 1 {
		return o, usagef("invalid --queue %s: want an integer >= 1", c.String("queue"))
	}
	if o.NMax, err = parseInt(c, "nmax"); err != nil || o.NMax < 0 {
		return o, usagef("invalid --nmax %s: want an integer >= 0 (0: n_min + 200)", c.String("nmax"))
	}
	if s := strings.TrimSpace(c.String("strategies")); s != "" {
		for _, f := range strings.Split(s, ",") {
			f = strings.TrimSpace(f)
			if !slices.Contains(compare.Strategies, f) {
				return o, usagef("invalid --strategies %s: %q is not one of %s", s, f, strings.Join(compare.Strategies, ","))
			}
			o.Strategies = append(o.Strategies, f)
		}
	}
	return o, compareLimits(c, &o)
}

// compareLimits reads --max-memory, --max-events and --max-lp-seconds.
func compareLimits(c *cli.Context, o *compare.Options) error {
	var err error
	if o.MaxBytes, o.MaxEvents, err = limits(c); err != nil {
		return err
	}
	s := c.String("max-lp-seconds")
	v, perr := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if perr != nil || !(v > 0) || v > 1e7 {
		return usagef("invalid --max-lp-seconds %s: want a number of seconds > 0 (at most 1e7)", s)
	}
	o.MaxLPSeconds = v
	return nil
}
