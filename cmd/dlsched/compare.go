package main

import (
	"io"
	"slices"

	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dlsched/dlsched/compare"
	"github.com/dlsched/dlsched/internal/atomicfile"
	"github.com/dlsched/dlsched/plotting"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:  "compare",
		Usage: "divide the load optimally, or farm it out? every strategy on one platform",
		Description: "Times in seconds; S per message, C and A per unit of load. Example:\n" +
			"  dlsched compare --topology star --m 4 --S 1e-3 --C 1e-6 --A 1e-3 --D 1e4 --V 5e3 --slow 2@0=0.2 --tasks 10,100,1000",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "topology", Value: "star", Usage: "star, chain or kary"},
			&cli.StringFlag{Name: "m", Usage: "workers of a star or chain"},
			&cli.StringFlag{Name: "k", Usage: "arity of a k-ary tree"},
			&cli.StringFlag{Name: "depth", Usage: "worker levels of a k-ary tree below the master"},
			&cli.StringFlag{Name: "S", Usage: "startup time per message (seconds)"},
			&cli.StringFlag{Name: "C", Usage: "transfer time per unit (seconds)"},
			&cli.StringFlag{Name: "A", Usage: "computing time per unit (seconds)"},
			&cli.StringFlag{Name: "D", Value: "inf", Usage: "buffer size of the planned schedules (units), or inf"},
			&cli.StringFlag{Name: "V", Usage: "total load (units)"},
			&cli.StringFlag{Name: "procs", Usage: "a star's per-worker A, comma separated"},
			&cli.StringFlag{Name: "result-per-unit", Value: "0", Usage: "result size per unit of load"},
			&cli.StringFlag{Name: "tasks", Value: "10,100,1000", Usage: "task counts of the farming strategies"},
			&cli.StringFlag{Name: "queue", Value: "4", Usage: "NEPP's queue q (queue, replicate)"},
			&cli.StringSliceFlag{Name: "slow", Usage: "W@T=F: worker W runs at F × its speed from T (unknown to the planner; repeatable)"},
			&cli.StringSliceFlag{Name: "crash", Usage: "W@T: worker W crashes at T (repeatable)"},
			&cli.StringFlag{Name: "strategies", Usage: "comma separated subset of " + strings.Join(compare.Strategies, ",")},
			&cli.StringFlag{Name: "nmax", Value: "50", Usage: "largest number of stages the dls search tries (0: n_min + 200)"},
			&cli.StringFlag{Name: "solver", Value: "clp", Usage: "LP solver: clp or gonum"},
			&cli.StringFlag{Name: "plot", Usage: "draw makespan against the task count (.svg or .png)"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table or json"},
			&cli.StringFlag{Name: "out", Usage: "write the report to this file instead of stdout"},
		},
		Action: compareAction,
	}
}

func compareAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("unexpected argument %q", c.Args().First())
	}
	format := c.String("format")
	if format != "table" && format != "json" {
		return usagef("invalid --format %s: want table or json", format)
	}
	if err := checkOutPath("out", c.String("out")); err != nil {
		return err
	}
	p, o, err := compareInput(c)
	if err != nil {
		return err
	}
	plotPath := c.String("plot")
	var plotFormat string
	if plotPath != "" {
		if plotFormat, err = plotting.Format(plotPath); err != nil {
			return usagef("invalid --plot %s: want a file ending in .svg or .png", plotPath)
		}
		if err := checkOutPath("plot", plotPath); err != nil {
			return err
		}
	}
	s, done, err := solve.NewSolver(c.String("solver"))
	if err != nil {
		return usagef("invalid --solver %s: %v", c.String("solver"), err)
	}
	defer done()
	o.Solver = s
	r, err := compare.Run(c.Context, p, o)
	if err != nil {
		return err
	}
	if plotPath != "" {
		if err := atomicfile.Write(plotPath, func(w io.Writer) error { return plotting.Write(w, plotFormat, r.Chart()) }); err != nil {
			return err
		}
	}
	return writeReport(c.String("out"), format, r.WriteJSON, r.WriteTable)
}

// compareInput reads the platform and the options of compare.
func compareInput(c *cli.Context) (compare.Platform, compare.Options, error) {
	p := compare.Platform{Topology: c.String("topology")}
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
		if p.Procs, err = floatList(c, "procs"); err != nil {
			return p, o, err
		}
	}
	if err := compareFaults(c, &p); err != nil {
		return p, o, err
	}
	if err := p.Validate(); err != nil {
		return p, o, usage(err)
	}
	o, err = compareOptions(c)
	return p, o, err
}

// compareShape reads the size of the platform: --m, or --k and --depth.
func compareShape(c *cli.Context, p *compare.Platform) error {
	var err error
	switch p.Topology {
	case "star", "chain":
		if c.IsSet("k") || c.IsSet("depth") {
			return usagef("invalid --k/--depth: they describe a kary topology, not %s", p.Topology)
		}
		p.M, err = parseInt(c, "m")
	case "kary":
		if c.IsSet("m") {
			return usagef("invalid --m: a kary topology is given by --k and --depth")
		}
		if p.K, err = parseInt(c, "k"); err == nil {
			p.Depth, err = parseInt(c, "depth")
		}
	default:
		return usagef("invalid --topology %q: want star, chain or kary", p.Topology)
	}
	return err
}

// compareFaults reads --slow W@T=F and --crash W@T.
func compareFaults(c *cli.Context, p *compare.Platform) error {
	for _, s := range c.StringSlice("slow") {
		wk, rest, ok1 := strings.Cut(s, "@")
		at, f, ok2 := strings.Cut(rest, "=")
		n, e1 := strconv.Atoi(wk)
		t, e2 := strconv.ParseFloat(at, 64)
		fv, e3 := strconv.ParseFloat(f, 64)
		if !ok1 || !ok2 || e1 != nil || e2 != nil || e3 != nil {
			return usagef("invalid --slow %s: want W@T=F, e.g. 2@0=0.2", s)
		}
		p.Slows = append(p.Slows, compare.Slow{Worker: n, At: t, Factor: fv})
	}
	for _, s := range c.StringSlice("crash") {
		wk, at, ok := strings.Cut(s, "@")
		n, e1 := strconv.Atoi(wk)
		t, e2 := strconv.ParseFloat(at, 64)
		if !ok || e1 != nil || e2 != nil {
			return usagef("invalid --crash %s: want W@T, e.g. 3@0.5", s)
		}
		p.Crashes = append(p.Crashes, compare.Crash{Worker: n, At: t})
	}
	return nil
}

// compareOptions reads --tasks, --queue, --nmax and --strategies.
func compareOptions(c *cli.Context) (compare.Options, error) {
	var o compare.Options
	var err error
	for _, f := range strings.Split(c.String("tasks"), ",") {
		m, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || m < 1 || m > 1_000_000 {
			return o, usagef("invalid --tasks %s: want task counts 1..1000000 separated by commas", c.String("tasks"))
		}
		o.Tasks = append(o.Tasks, m)
	}
	if o.Queue, err = parseInt(c, "queue"); err != nil || o.Queue < 1 {
		return o, usagef("invalid --queue %s: want an integer >= 1", c.String("queue"))
	}
	if o.NMax, err = parseInt(c, "nmax"); err != nil || o.NMax < 0 {
		return o, usagef("invalid --nmax %s: want an integer >= 0", c.String("nmax"))
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
	return o, nil
}
