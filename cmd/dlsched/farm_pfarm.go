package main

import (
	"errors"
	"maps"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dlsched/dlsched/executor/farm/pfarm"
	"github.com/dlsched/dlsched/platform"
)

func pfarmCommand() *cli.Command {
	return &cli.Command{
		Name:  "pfarm",
		Usage: "the Pfarm processor farm (paper 000): analytic model beside a simulation",
		Description: "Farms M tasks from a host over a chain, a complete k-ary tree or a BFS tree of a mesh.\n" +
			"Times in seconds, sizes in bytes. Example:\n" +
			"  dlsched farm pfarm --topology kary -k 2 --depth 3 --Te 0.01 --tasks 100000\n" +
			"A k-ary tree of depth d has d levels of processors below the host, whose one link reaches the root\n" +
			"processor, itself a worker: -k 2 --depth 3 is 1+2+4 = 7 workers. --tasks N is the task count (-M N too);\n" +
			"the task times are --task-times (a --tasks value that is not a number is read as --task-times).\n" +
			"--format json writes a dlsched.pfarm/1 document (schema/pfarm.schema.json). --trace FILE.json\n" +
			"writes the simulation as a Chrome trace (a process per processor and the host, a track per\n" +
			"CPU and link direction): open it in ui.perfetto.dev (Open trace file) or chrome://tracing (Load).",
		Flags: append(append([]cli.Flag{
			&cli.StringFlag{Name: "topology", Usage: "chain, kary or mesh"},
			&cli.StringFlag{Name: "workers", Aliases: []string{"N"}, Usage: "processors of a chain (the paper's N)"},
			&cli.StringFlag{Name: "k", Usage: "arity of a complete k-ary tree"},
			&cli.StringFlag{Name: "depth", Usage: "levels of processors of a k-ary tree below the host (level i = 0..depth-1 has k^i; -k 2 --depth 3: 7)"},
			&cli.StringFlag{Name: "rows", Usage: "rows of a mesh"},
			&cli.StringFlag{Name: "cols", Usage: "columns of a mesh"},
			&cli.StringFlag{Name: "root", Value: "0,0", Usage: "root of the mesh's BFS tree: row,col counted from 0"},
			&cli.StringFlag{Name: "bfs", Value: "first", Usage: "which BFS tree of the mesh: first, last or random"},
			&cli.StringFlag{Name: "seed", Value: "1", Usage: "seed of random task times and of --bfs random"},
			&cli.StringFlag{Name: "Te", Usage: "task execution time T_e (seconds); the mean of --task-times when given"},
			&cli.StringFlag{Name: "beta-e", Value: "482e-6", Usage: "overhead of a task executed locally (seconds)"},
			&cli.StringFlag{Name: "beta-f", Value: "453e-6", Usage: "CPU overhead of a task forwarded (seconds)"},
			&cli.StringFlag{Name: "tau", Value: strconv.FormatFloat(pfarm.DefaultTau, 'g', -1, 64), Usage: "link transfer time per byte (seconds)"},
			&cli.StringFlag{Name: "startup", Value: "0", Usage: "link startup time per message (seconds)"},
			&cli.StringFlag{Name: "Dt", Value: "4", Usage: "task message size (bytes)"},
			&cli.StringFlag{Name: "Dr", Value: "4", Usage: "result message size (bytes)"},
			&cli.StringFlag{Name: "tasks", Usage: "number of tasks M (a value that is not a number is read as --task-times, as before)"},
			&cli.StringFlag{Name: "M", Usage: "the paper's M: the same as --tasks N"},
			&cli.StringFlag{Name: "task-times", Value: "const", Usage: "task times: const, uniform:a,b or bimodal:t1,n1,t2,n2,order"},
			&cli.BoolFlag{Name: "no-sim", Usage: "the analytic model only"},
			&cli.BoolFlag{Name: "find-opt", Usage: "also prune a saturated tree (FindOptTree)"},
		}, outputFlags("")...), limitFlags()...),
		Action: pfarmAction,
	}
}

func pfarmAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("unexpected argument %q", c.Args().First())
	}
	cfg, opt, err := pfarmConfig(c)
	if err != nil {
		return err
	}
	out, err := readOutputs(c)
	if err != nil {
		return err
	}
	if out.trace != "" && opt.NoSim {
		return usagef("invalid --trace %s: --no-sim simulates nothing to trace", out.trace)
	}
	tr := out.recorder("s")
	if tr != nil {
		opt.Trace = tr
	}
	cost, err := pfarm.Estimate(cfg, opt)
	if err != nil {
		return pfarmErr(c, err)
	}
	if cost.Events >= pfarmProgressEvents {
		if bar := progress(c, cfg.Params.M, 0, "simulating", "results"); bar != nil {
			opt.Progress = func(done, _ int) { bar(done) }
		}
	}
	r, err := pfarm.Run(c.Context, cfg, opt)
	if err != nil {
		return pfarmErr(c, err)
	}
	if tr != nil {
		tr.Makespan = r.Simulated.Makespan
	}
	return out.write(r, nil, 0, tr)
}

// pfarmProgressEvents is the estimated number of kernel events from which
// a run shows a progress bar: a few seconds at the 4 million events a
// second BenchmarkPfarm63 measures.
const pfarmProgressEvents = 10_000_000

// pfarmFlags maps the fields pfarm's errors name to the flags.
var pfarmFlags = fieldFlags{
	"Topology.Kind": "topology", "Topology.N": "N", "Topology.K": "k", "Topology.Depth": "depth",
	"Topology.Rows": "rows", "Topology.Cols": "cols", "Topology.Root": "root", "Topology.BFS": "bfs",
	"Params.M": "M", "Params.Te": "Te", "Params.BetaE": "beta-e", "Params.BetaF": "beta-f", "Params.Tau": "tau",
	"Params.Startup": "startup", "Params.Dt": "Dt", "Params.Dr": "Dr", "Params.Tasks": "task-times",
	"Limits.MaxBytes": "max-memory", "Limits.MaxEvents": "max-events", "RunOptions.Trace": "trace", "RunOptions.NoSim": "no-sim",
}

// pfarmErr turns pfarm's input errors into bad usage naming the flags the
// user gave (--tasks or -M for the count, --task-times or the old --tasks
// for the task times); a failed simulation passes unchanged (exit 1).
func pfarmErr(c *cli.Context, err error) error {
	names := pfarmFlags
	if count, times, ferr := pfarmTaskFlags(c); ferr == nil {
		names = maps.Clone(pfarmFlags)
		names["Params.M"], names["Params.Tasks"] = count, times
	}
	var lim *platform.LimitError
	if errors.As(err, &lim) && lim.Field == "Limits.MaxEvents" {
		return usagef("%s; --no-sim gives the model alone", lim.Format(names.flag))
	}
	return names.usage(err)
}

// pfarmConfig reads the farm into a Config and the limits and --no-sim
// into the run's options.
func pfarmConfig(c *cli.Context) (pfarm.Config, platform.RunOptions, error) {
	var cfg pfarm.Config
	var opt platform.RunOptions
	var err error
	if opt.MaxBytes, opt.MaxEvents, err = limits(c); err != nil {
		return cfg, opt, err
	}
	if cfg.Params.Seed, err = strconv.ParseUint(strings.TrimSpace(c.String("seed")), 10, 64); err != nil {
		return cfg, opt, usagef("invalid --seed %s: want a non-negative integer", c.String("seed"))
	}
	if err := pfarmTopology(c, &cfg); err != nil {
		return cfg, opt, err
	}
	if err := pfarmParams(c, &cfg.Params); err != nil {
		return cfg, opt, err
	}
	opt.NoSim, cfg.FindOpt = c.Bool("no-sim"), c.Bool("find-opt")
	return cfg, opt, nil
}

// pfarmTopology reads the farm tree into cfg.Topology.
func pfarmTopology(c *cli.Context, cfg *pfarm.Config) error {
	spec := &cfg.Topology
	spec.Kind = c.String("topology")
	var err error
	switch spec.Kind {
	case "chain":
		spec.N, err = parseInt(c, "N")
	case "kary":
		if spec.K, err = parseInt(c, "k"); err == nil {
			spec.Depth, err = parseInt(c, "depth")
		}
	case "mesh":
		err = pfarmMesh(c, cfg)
	default:
		return usagef("invalid --topology %q: want chain, kary or mesh", spec.Kind)
	}
	if err != nil {
		return err
	}
	if spec.Kind == "mesh" && spec.BFS == "random" {
		spec.Seed = cfg.Params.Seed
	}
	return onlyFor(c, spec.Kind, map[string]string{"N": "chain", "k": "kary", "depth": "kary", "rows": "mesh", "cols": "mesh"})
}

// pfarmMesh reads the mesh, the root and the BFS tree into cfg.Topology.
func pfarmMesh(c *cli.Context, cfg *pfarm.Config) error {
	spec := &cfg.Topology
	var err error
	if spec.Rows, err = parseInt(c, "rows"); err != nil {
		return err
	}
	if spec.Cols, err = parseInt(c, "cols"); err != nil {
		return err
	}
	r, col, ok := strings.Cut(c.String("root"), ",")
	if spec.Row, err = strconv.Atoi(strings.TrimSpace(r)); !ok || err != nil {
		return usagef("invalid --root %s: want row,col", c.String("root"))
	}
	if spec.Col, err = strconv.Atoi(strings.TrimSpace(col)); err != nil {
		return usagef("invalid --root %s: want row,col", c.String("root"))
	}
	spec.BFS = c.String("bfs")
	return nil
}

// pfarmTaskFlags returns the flags that give the task count (--tasks N or
// -M) and the task times (--task-times, or --tasks with a value that is
// not a number: the old meaning of --tasks). A count or a distribution
// given twice is bad usage.
func pfarmTaskFlags(c *cli.Context) (count, times string, err error) {
	count, times = "M", "task-times"
	if c.IsSet("tasks") {
		v := strings.TrimSpace(c.String("tasks"))
		if _, perr := strconv.ParseFloat(v, 64); perr == nil {
			count = "tasks"
		} else {
			times = "tasks"
		}
	}
	switch {
	case count == "tasks" && c.IsSet("M"):
		return "", "", usagef("invalid -M %s with --tasks %s: both give the number of tasks; give one", c.String("M"), c.String("tasks"))
	case times == "tasks" && c.IsSet("task-times"):
		return "", "", usagef("invalid --tasks %s with --task-times %s: both give the task times; give --task-times alone (and the task count as --tasks N)",
			c.String("tasks"), c.String("task-times"))
	case count == "M" && !c.IsSet("M"):
		return "", "", usagef("missing --tasks: want the number of tasks (--tasks N or -M N)")
	}
	return count, times, nil
}

// pfarmParams reads M, the task times, the overheads and the links.
func pfarmParams(c *cli.Context, p *pfarm.Params) error {
	countFlag, timesFlag, err := pfarmTaskFlags(c)
	if err != nil {
		return err
	}
	if p.M, err = parseInt(c, countFlag); err != nil {
		return err
	}
	tasks := strings.TrimSpace(c.String(timesFlag))
	if c.IsSet("Te") || tasks == "const" {
		if p.Te, err = parseFloat(c, "Te", false); err != nil {
			return err
		}
	}
	if tasks != "const" {
		if p.Tasks, err = pfarm.ParseTasks(tasks, p.Te); err != nil {
			return pfarmErr(c, err)
		}
	}
	for _, fl := range []struct {
		name string
		dst  *float64
	}{{"beta-e", &p.BetaE}, {"beta-f", &p.BetaF}, {"tau", &p.Tau}, {"startup", &p.Startup}, {"Dt", &p.Dt}, {"Dr", &p.Dr}} {
		if *fl.dst, err = parseFloat(c, fl.name, false); err != nil {
			return err
		}
	}
	return nil
}

// onlyFor refuses flags that do not apply to the chosen topology.
func onlyFor(c *cli.Context, kind string, flags map[string]string) error {
	for _, name := range []string{"N", "k", "depth", "rows", "cols", "root", "bfs"} {
		want, ok := flags[name]
		if name == "root" || name == "bfs" {
			want, ok = "mesh", true
		}
		if ok && c.IsSet(name) && want != kind {
			return usagef("invalid --%s: it applies to --topology %s, not %s", name, want, kind)
		}
	}
	return nil
}
