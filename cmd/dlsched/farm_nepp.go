package main

import (
	"errors"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dlsched/dlsched/executor/farm/nepp"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/plotting"
	"github.com/dlsched/dlsched/problem"
)

// neppLong is the estimated number of kernel events from which a run or a
// scan shows a progress bar (about two seconds).
const neppLong = 2e6

func neppCommand() *cli.Command {
	return &cli.Command{
		Name:  "nepp",
		Usage: "NEPP job allocation (paper 001): Simple, Multiple and Fault-Tolerant Distribution with slow and crashing nodes",
		Description: "A host farms J jobs (--tasks) to p nodes (--workers p of speed 1, or --speeds); times in seconds, work in units a node of speed 1 does in a second.\n" +
			"Nodes, crashes and slowdowns are counted from 1. A run is refused before it starts when its estimated\n" +
			"kernel events (an upper bound; this model runs 1.5 to 4 million a second) or memory exceed --max-events or --max-memory.\n" +
			"--format json writes a dlsched.nepp/1 document (a scan: dlsched.nepp-scan/1; schema/*.schema.json).\n" +
			"--trace FILE.json writes a run (not a scan, not --no-sim) in the Chrome Trace Event Format: the host and each node\n" +
			"a process, their CPU and port/link tracks, a span per job and message, crashes and speed changes as instants;\n" +
			"open it in ui.perfetto.dev (Open trace file) or chrome://tracing (Load).\n" +
			"Examples:\n" +
			"  dlsched farm nepp --algorithm ft --speeds 1,1,1,0.2 --queue 6 --tasks 100 --work 1 --crash 2@10 --trace nepp.json\n" +
			"  dlsched farm nepp --scan-p 2..20 --slow-speed 0.2 --queue 6 --tasks 100 --work 1 --plot nepp.svg",
		Flags:  append(append(neppModelFlags(), outputFlags("with --scan-p: draw makespan, speedup and corrected efficiency (.svg or .png)")...), limitFlags()...),
		Action: neppAction,
	}
}

// neppModelFlags are the flags of the model, its faults and its scan.
func neppModelFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "algorithm", Usage: "sd, md or ft"},
		&cli.StringFlag{Name: "workers", Usage: "number of nodes p, each of speed 1 (or give --speeds; both: they must agree)"},
		&cli.StringFlag{Name: "speeds", Usage: "hardware speeds c_i of nodes 1..p, comma separated"},
		&cli.StringFlag{Name: "shares", Usage: "CPU shares alpha_i in (0,1] of nodes 1..p (default all 1)"},
		&cli.StringFlag{Name: "queue", Value: "6", Usage: "queue size q (md, ft; sd is q = 1 and accepts only 1)"},
		&cli.StringFlag{Name: "qmin", Value: "1", Usage: "refill a queue holding fewer than qmin jobs (md, ft; sd accepts only 1)"},
		&cli.StringFlag{Name: "tasks", Aliases: []string{"jobs"}, Usage: "number of jobs J"},
		&cli.StringFlag{Name: "work", Usage: "mean total work w = f + a of a job"},
		&cli.StringFlag{Name: "useful", Usage: "mean useful work f of a job, 0 < f <= w (default: w)"},
		&cli.StringFlag{Name: "host-overhead", Value: "0", Usage: "host work w_h per result received"},
		&cli.StringFlag{Name: "startup", Aliases: []string{"setup"}, Value: "3.9e-3", Usage: "message setup (startup) time (seconds)"},
		&cli.StringFlag{Name: "per-byte", Value: "0.5e-6", Usage: "message time per byte (seconds)"},
		&cli.StringFlag{Name: "job-bytes", Value: "48", Usage: "bytes per job in an assignment message"},
		&cli.StringFlag{Name: "result-bytes", Value: "48", Usage: "bytes of a result message"},
		&cli.StringFlag{Name: "work-dist", Value: "const", Usage: "job work: const, exp (mean work) or uniform (0..2·work)"},
		&cli.StringSliceFlag{Name: "crash", Usage: "NODE@TIME: node crashes at TIME (repeatable)"},
		&cli.StringSliceFlag{Name: "slow", Usage: "NODE@TIME=FACTOR: from TIME the node runs at FACTOR × its nominal speed alpha_i·c_i " +
			"(not × its current speed: a later --slow of the node replaces an earlier, FACTOR 1 restores it; repeatable)"},
		&cli.StringFlag{Name: "seed", Value: "1", Usage: "seed of random job work"},
		&cli.BoolFlag{Name: "no-sim", Usage: "the report's model only"},
		&cli.StringFlag{Name: "scan-p", Usage: "FROM..TO: the report's Figures 4.1-4.5 over p (node 1 slow)"},
		&cli.StringFlag{Name: "slow-speed", Value: "0.2", Usage: "speed of the slow node in --scan-p"},
	}
}

// neppFields are the flags of the library's fields.
var neppFields = fieldFlags{
	nepp.FieldAlgorithm: "algorithm", nepp.FieldSpeeds: "speeds", nepp.FieldShares: "shares", nepp.FieldQueue: "queue",
	nepp.FieldQMin: "qmin", nepp.FieldJobs: "jobs", nepp.FieldWork: "work", nepp.FieldUseful: "useful",
	nepp.FieldHostOverhead: "host-overhead", nepp.FieldWorkDist: "work-dist", nepp.FieldSetup: "setup",
	nepp.FieldPerByte: "per-byte", nepp.FieldJobBytes: "job-bytes", nepp.FieldResultBytes: "result-bytes",
	nepp.FieldCrashes: "crash", nepp.FieldSlows: "slow", nepp.FieldScanP: "scan-p", nepp.FieldSlowSpeed: "slow-speed",
	nepp.FieldMaxEvents: "max-events", nepp.FieldMaxBytes: "max-memory", nepp.FieldNoSim: "no-sim", nepp.FieldTrace: "trace",
}

func neppAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("unexpected argument %q", c.Args().First())
	}
	o, err := readOutputs(c)
	if err != nil {
		return err
	}
	scan := c.String("scan-p") != ""
	cfg, opt, err := neppConfig(c, scan)
	if err != nil {
		return err
	}
	if scan {
		return neppScan(c, cfg, opt, o)
	}
	for _, name := range []string{"plot", "slow-speed"} {
		if c.IsSet(name) {
			return usagef("invalid --%s: it needs --scan-p", name)
		}
	}
	if o.trace != "" && opt.NoSim {
		return usagef("invalid --trace %s: --no-sim simulates nothing to trace", o.trace)
	}
	return neppRun(c, cfg, opt, o)
}

// neppRun runs the model and the simulation and writes the report and the
// trace; a run that did not complete is exit status 1 (its failure line
// on stderr).
func neppRun(c *cli.Context, cfg nepp.Config, opt platform.RunOptions, o outputs) error {
	tr := o.recorder("s")
	if tr != nil {
		opt.Trace = tr
	}
	if !opt.NoSim && cfg.Estimate(opt).Events >= neppLong {
		if bar := progress(c, cfg.Jobs, 0, "simulating", "results"); bar != nil {
			opt.Progress = func(results, _ int) { bar(results) }
		}
	}
	r, err := nepp.Run(c.Context, cfg, opt)
	if err != nil {
		return neppFields.usage(err)
	}
	if tr != nil {
		tr.Makespan = r.Simulated.Makespan
	}
	if err := o.write(r, nil, 0, tr); err != nil {
		return err
	}
	if s := r.Simulated; s != nil && !s.Completed {
		return errors.New(s.Failure) // exit 1; the line goes to stderr
	}
	return nil
}

// neppScan runs the scan of the report's figures and writes its report
// and charts.
func neppScan(c *cli.Context, cfg nepp.Config, opt platform.RunOptions, o outputs) error {
	if o.trace != "" {
		return usagef("invalid --trace %s: a scan is many runs; trace one run with --algorithm and --speeds", o.trace)
	}
	sp, err := neppScanSpec(c)
	if err != nil {
		return err
	}
	if sp.From >= 1 && sp.From <= sp.To && sp.To <= nepp.MaxNodes && sp.Estimate(cfg, opt).Events >= neppLong {
		if bar := progress(c, sp.To-sp.From+1, 0, "scanning", "p"); bar != nil {
			opt.Progress = func(done, _ int) { bar(done) }
		}
	}
	r, err := nepp.Scan(c.Context, cfg, sp, opt)
	if err != nil {
		return neppFields.usage(err)
	}
	return o.write(r, func() []plotting.Chart { return plotting.NeppScan(r) }, 1, nil)
}

// neppScanSpec reads --scan-p FROM..TO and --slow-speed.
func neppScanSpec(c *cli.Context) (nepp.ScanSpec, error) {
	s := c.String("scan-p")
	from, to, ok := strings.Cut(s, "..")
	a, err1 := problem.ParseInt("scan-p", from)
	b, err2 := problem.ParseInt("scan-p", to)
	if !ok || err1 != nil || err2 != nil {
		return nepp.ScanSpec{}, usagef("invalid --scan-p %s: want FROM..TO, e.g. 2..20", s)
	}
	slow, err := parseFloat(c, "slow-speed", false)
	if err != nil {
		return nepp.ScanSpec{}, err
	}
	return nepp.ScanSpec{From: a, To: b, Slow: slow}, nil
}

// neppConfig reads the flags into the model's configuration and the run
// options (limits, --no-sim); with scan the speeds come from the scan.
func neppConfig(c *cli.Context, scan bool) (nepp.Config, platform.RunOptions, error) {
	cfg := nepp.Config{WorkDist: c.String("work-dist")}
	opt := platform.RunOptions{NoSim: c.Bool("no-sim")}
	var err error
	if scan {
		for _, name := range []string{"algorithm", "workers", "speeds", "shares", "crash", "slow"} {
			if c.IsSet(name) {
				return cfg, opt, usagef("invalid --%s: --scan-p sets the algorithms and speeds itself and has no faults", name)
			}
		}
	} else if err = neppNodes(c, &cfg); err != nil {
		return cfg, opt, err
	}
	if err = neppNumbers(c, &cfg); err != nil {
		return cfg, opt, err
	}
	if cfg.Seed, err = strconv.ParseUint(strings.TrimSpace(c.String("seed")), 10, 64); err != nil {
		return cfg, opt, usagef("invalid --seed %s: want an integer from 0 to %d", c.String("seed"), uint64(1<<64-1))
	}
	if err := neppFaults(c, &cfg); err != nil {
		return cfg, opt, err
	}
	if opt.MaxBytes, opt.MaxEvents, err = limits(c); err != nil {
		return cfg, opt, err
	}
	if !scan {
		if err := cfg.Validate(); err != nil {
			return cfg, opt, neppFields.usage(err)
		}
	}
	return cfg, opt, nil
}

// neppNodes reads --algorithm, --workers or --speeds, and --shares.
func neppNodes(c *cli.Context, cfg *nepp.Config) error {
	var err error
	if cfg.Algorithm, err = nepp.ParseAlgorithm(c.String("algorithm")); err != nil {
		return neppFields.usage(err)
	}
	if cfg.Speeds, err = neppSpeeds(c); err != nil {
		return err
	}
	if c.IsSet("shares") {
		cfg.Shares, err = floatList(c, "shares")
	}
	return err
}

// neppNumbers reads the queue, the jobs, their work and the message costs.
// Simple Distribution is q = q_min = 1: --queue and --qmin accept 1 only.
func neppNumbers(c *cli.Context, cfg *nepp.Config) error {
	var err error
	for _, f := range []struct {
		name string
		dst  *int
	}{{"queue", &cfg.Queue}, {"qmin", &cfg.QMin}, {"jobs", &cfg.Jobs}} {
		if *f.dst, err = parseInt(c, f.name); err != nil {
			return err
		}
	}
	if cfg.Algorithm == nepp.Simple && c.String("scan-p") == "" {
		for _, f := range []struct {
			name string
			v    int
		}{{"queue", cfg.Queue}, {"qmin", cfg.QMin}} {
			if c.IsSet(f.name) && f.v != 1 {
				return usagef("invalid --%s %s: Simple Distribution sends one job per request (q = q_min = 1); want 1, or --algorithm md or ft for a queue",
					f.name, c.String(f.name))
			}
		}
		cfg.Queue, cfg.QMin = 1, 1
	}
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"work", &cfg.Work}, {"host-overhead", &cfg.HostOverhead}, {"setup", &cfg.Setup},
		{"per-byte", &cfg.PerByte}, {"job-bytes", &cfg.JobBytes}, {"result-bytes", &cfg.ResultBytes}} {
		if *f.dst, err = parseFloat(c, f.name, false); err != nil {
			return err
		}
	}
	if c.IsSet("useful") {
		if cfg.Useful, err = parseFloat(c, "useful", false); err != nil {
			return err
		}
		if cfg.Useful == 0 {
			return usagef("invalid --useful %s: want useful work f with 0 < f <= --work (leave --useful out for f = w)", c.String("useful"))
		}
	}
	return nil
}

// neppFaults reads --crash NODE@TIME and --slow NODE@TIME=FACTOR.
func neppFaults(c *cli.Context, cfg *nepp.Config) error {
	for _, s := range c.StringSlice("crash") {
		node, at, ok := strings.Cut(s, "@")
		n, err1 := strconv.Atoi(strings.TrimSpace(node))
		t, err2 := strconv.ParseFloat(strings.TrimSpace(at), 64)
		if !ok || err1 != nil || err2 != nil {
			return usagef("invalid --crash %s: want NODE@TIME, e.g. 2@10.5", s)
		}
		cfg.Crashes = append(cfg.Crashes, nepp.Crash{Node: n, At: t})
	}
	for _, s := range c.StringSlice("slow") {
		node, rest, ok1 := strings.Cut(s, "@")
		at, factor, ok2 := strings.Cut(rest, "=")
		n, err1 := strconv.Atoi(strings.TrimSpace(node))
		t, err2 := strconv.ParseFloat(strings.TrimSpace(at), 64)
		f, err3 := strconv.ParseFloat(strings.TrimSpace(factor), 64)
		if !ok1 || !ok2 || err1 != nil || err2 != nil || err3 != nil {
			return usagef("invalid --slow %s: want NODE@TIME=FACTOR, e.g. 3@0=0.2", s)
		}
		cfg.Slows = append(cfg.Slows, nepp.Slow{Node: n, At: t, Factor: f})
	}
	return nil
}

// neppSpeeds reads the nodes' speeds: --speeds, or --workers p nodes of
// speed 1 (checked against nepp.MaxNodes before the list is made); with
// both, p must be the length of the list.
func neppSpeeds(c *cli.Context) ([]float64, error) {
	if !c.IsSet("workers") {
		if !c.IsSet("speeds") {
			return nil, usagef("missing --workers or --speeds: want the number of nodes (speed 1 each) or their speeds")
		}
		return floatList(c, "speeds")
	}
	p, err := parseInt(c, "workers")
	if err != nil {
		return nil, err
	}
	if p < 1 || p > nepp.MaxNodes {
		return nil, usagef("invalid --workers %s: want a number of nodes from 1 to %d", c.String("workers"), nepp.MaxNodes)
	}
	if c.IsSet("speeds") {
		speeds, err := floatList(c, "speeds")
		if err == nil && len(speeds) != p {
			err = usagef("invalid --workers %d: --speeds lists %d nodes; give one of them, or make them agree", p, len(speeds))
		}
		return speeds, err
	}
	speeds := make([]float64, p)
	for i := range speeds {
		speeds[i] = 1
	}
	return speeds, nil
}

// floatList reads a comma-separated list of numbers.
func floatList(c *cli.Context, name string) ([]float64, error) {
	s := strings.TrimSpace(c.String(name))
	if s == "" {
		return nil, usagef("missing --%s", name)
	}
	var out []float64
	for i, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, usagef("invalid --%s: entry %d %q is not a number", name, i+1, oneLine(f))
		}
		out = append(out, v)
	}
	return out, nil
}
