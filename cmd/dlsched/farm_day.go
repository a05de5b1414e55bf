package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dlsched/dlsched/executor/farm/day"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/plotting"
)

func dayCommand() *cli.Command {
	return &cli.Command{
		Name:  "day",
		Usage: "Day's farm harnesses on lines and ternary trees (paper 002): supply/demand model beside a simulation",
		Description: "Times in seconds, sizes in bytes, bandwidth in bytes/s or with MiB/MB. Examples:\n" +
			"  dlsched farm day --layout line --harness D --workers 8 --message-bytes 4096 --job-time 0.0625 --bandwidth 1.177MiB --setup-bytes 12.9\n" +
			"  dlsched farm day --granularity --workers 32 --bandwidth 1.51MiB --startup 3e-6 --max-events 5e8 --plot gran.svg\n" +
			"--format json writes a dlsched.day/1 document (dlsched.day-study/1 with --granularity); --trace FILE.json writes\n" +
			"the simulated run (not with --no-sim or --granularity) as a Chrome trace: open it in ui.perfetto.dev (Open trace file)\n" +
			"or chrome://tracing (Load); one process per farmer, worker and harvester, one track per CPU and link direction.",
		Flags: append(append([]cli.Flag{
			&cli.StringFlag{Name: "layout", Value: "line", Usage: "line or tree (full ternary tree)"},
			&cli.StringFlag{Name: "harness", Value: "D", Usage: "A, B or D (slots J P R Q: A = 1 0 1 0, B and D = 1 1 1 1)"},
			&cli.StringFlag{Name: "workers", Usage: "number of workers w (a tree: 3, 12, 39, ...)"},
			&cli.StringFlag{Name: "message-bytes", Usage: "job message size m (bytes)"},
			&cli.StringFlag{Name: "result-bytes", Usage: "result message size (default: the job message size; 0: the set-up alone)"},
			&cli.StringFlag{Name: "job-time", Usage: "nominal job time j (seconds); job k takes j·len_k/100"},
			&cli.StringFlag{Name: "delay-loop", Usage: "delay-loop form: job k takes floor(len_k·d/100)·10 µs"},
			&cli.StringFlag{Name: "bandwidth", Usage: "link bandwidth B: bytes/s, or 1.51MiB, 1.177MB"},
			&cli.StringFlag{Name: "setup-bytes", Usage: "set-up cost s in bytes (or --startup in seconds)"},
			&cli.StringFlag{Name: "startup", Aliases: []string{"setup-time"}, Usage: "set-up (startup) time per message in seconds (s = B·time)"},
			&cli.StringFlag{Name: "bidirectional-factor", Value: "0.727", Usage: "rate of a tree link's direction, as a share of B, while the other direction is busy: (0, 1]"},
			&cli.StringFlag{Name: "farmer-cost", Value: "0", Usage: "farmer CPU time per job (seconds)"},
			&cli.StringFlag{Name: "cpu-per-message", Value: "0", Usage: "worker CPU time lost per message sent or received (seconds)"},
			&cli.StringFlag{Name: "priority", Value: "local", Usage: "local (local worker first) or distant"},
			&cli.BoolFlag{Name: "no-sim", Usage: "the model only"},
			&cli.BoolFlag{Name: "granularity", Usage: "Section 4.10: a fixed amount of work cut into equal jobs of several sizes"},
			&cli.StringFlag{Name: "total-work", Value: "4194.304", Usage: "with --granularity: nominal work in seconds (the thesis: 32 workers × 100 × 1.31 s)"},
			&cli.StringFlag{Name: "bytes-per-second", Value: "3125", Usage: "with --granularity: message bytes per second of job time (the thesis: 32 bytes per 10.24 ms)"},
			&cli.StringFlag{Name: "job-times", Usage: "with --granularity: job times, comma separated (default 0.01024·2^k, k = 0..7)"},
		}, outputFlags("with --granularity: draw makespan and efficiency against the job time (.svg or .png)")...), limitFlags()...),
		Action: dayAction,
	}
}

// dayFields maps the day package's names of its inputs to their flags.
var dayFields = fieldFlags{
	"Config.Layout": "layout", "Config.Harness": "harness", "Config.Workers": "workers",
	"Config.MessageBytes": "message-bytes", "Config.ResultBytes": "result-bytes", "Config.JobTime": "job-time",
	"Config.DelayLoop": "delay-loop", "Config.Bandwidth": "bandwidth", "Config.SetupBytes": "setup-bytes",
	"Config.SetupTime": "setup-time", "Config.BidirectionalFactor": "bidirectional-factor",
	"Config.FarmerCost": "farmer-cost", "Config.CPUPerMessage": "cpu-per-message",
	"Limits.MaxEvents": "max-events", "Limits.MaxBytes": "max-memory",
	"RunOptions.NoSim": "no-sim", "RunOptions.Trace": "trace",
	"Study.TotalWork": "total-work", "Study.BytesPerSecond": "bytes-per-second", "Study.JobTimes": "job-times",
}

func dayAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("unexpected argument %q", c.Args().First())
	}
	gran := c.Bool("granularity")
	if !gran {
		for _, name := range []string{"plot", "job-times", "total-work", "bytes-per-second"} {
			if c.IsSet(name) {
				return usagef("invalid --%s: it needs --granularity", name)
			}
		}
	}
	out, err := readOutputs(c)
	if err != nil {
		return err
	}
	cfg, opt, err := dayConfig(c, gran)
	if err != nil {
		return err
	}
	if gran {
		return dayGranularity(c, cfg, opt, out)
	}
	return dayRun(c, cfg, opt, out)
}

// dayRun evaluates the model and simulates the farm unless --no-sim.
func dayRun(c *cli.Context, cfg *day.Config, opt platform.RunOptions, out outputs) error {
	if opt.NoSim && out.trace != "" {
		return usagef("invalid --trace: --no-sim simulates nothing to trace")
	}
	if err := dayFields.usage(cfg.Check(opt)); err != nil {
		return err
	}
	if !opt.NoSim {
		opt.Progress = dayProgress(c, cfg.Jobs(), cfg.Estimate().Events)
	}
	tr := out.recorder("s")
	if tr != nil {
		opt.Trace = tr
	}
	r, err := day.Run(c.Context, *cfg, opt)
	if err != nil {
		return dayFields.usage(err)
	}
	if tr != nil {
		tr.Makespan = r.Simulated.Makespan
	}
	return out.write(r, nil, 1, tr)
}

// dayProgress is a progress bar over the results of a run estimated to
// take at least five million events (a few seconds), or nil.
func dayProgress(c *cli.Context, results int, events int64) func(done, total int) {
	if events < 5_000_000 {
		return nil
	}
	bar := progress(c, results, 0, "farm day", "results")
	if bar == nil {
		return nil
	}
	return func(done, _ int) { bar(done) }
}

// dayGranularity runs the study of Section 4.10: it simulates every job
// size, so --no-sim and --trace (one trace is one run) are refused.
func dayGranularity(c *cli.Context, cfg *day.Config, opt platform.RunOptions, out outputs) error {
	switch {
	case opt.NoSim:
		return usagef("invalid --no-sim: the granularity study simulates every job size")
	case out.trace != "":
		return usagef("invalid --trace: --granularity runs one farm per job size; trace a single run without --granularity")
	}
	study, err := dayStudy(c)
	if err != nil {
		return err
	}
	if jobs, events := study.Size(*cfg); jobs > 0 {
		opt.Progress = dayProgress(c, jobs, events)
	}
	r, err := day.Granularity(c.Context, *cfg, study, opt)
	if err != nil {
		return dayFields.usage(err)
	}
	return out.write(r, func() []plotting.Chart { return plotting.DayGranularity(r) }, 1, nil)
}

// dayStudy reads the granularity study's flags.
func dayStudy(c *cli.Context) (day.Study, error) {
	var s day.Study
	var err error
	if s.TotalWork, err = parseFloat(c, "total-work", false); err != nil {
		return s, err
	}
	if s.BytesPerSecond, err = parseFloat(c, "bytes-per-second", false); err != nil {
		return s, err
	}
	s.JobTimes = day.DefaultGranularityTimes()
	if c.IsSet("job-times") {
		s.JobTimes, err = floatList(c, "job-times")
	}
	return s, err
}

// dayConfig reads the flags into a configuration and the run options
// (the limits, --no-sim); with granularity the job time and message size
// come from the study. The configuration is checked by the library.
func dayConfig(c *cli.Context, gran bool) (*day.Config, platform.RunOptions, error) {
	cfg := &day.Config{}
	opt := platform.RunOptions{NoSim: c.Bool("no-sim")}
	var err error
	if cfg.Layout, err = dayLayout(c); err != nil {
		return nil, opt, err
	}
	if cfg.Harness, err = day.ParseHarness(c.String("harness")); err != nil {
		return nil, opt, usagef("invalid --harness %q: want A, B or D", c.String("harness"))
	}
	if cfg.DistantFirst, err = dayPriority(c); err != nil {
		return nil, opt, err
	}
	if cfg.Workers, err = parseInt(c, "workers"); err != nil {
		return nil, opt, err
	}
	if err := dayLink(c, cfg); err != nil {
		return nil, opt, err
	}
	if gran {
		for _, name := range []string{"message-bytes", "result-bytes", "job-time", "delay-loop"} {
			if c.IsSet(name) {
				return nil, opt, usagef("invalid --%s: --granularity sets job sizes itself", name)
			}
		}
	} else if err := dayJob(c, cfg); err != nil {
		return nil, opt, err
	}
	if err := dayCosts(c, cfg); err != nil {
		return nil, opt, err
	}
	opt.MaxBytes, opt.MaxEvents, err = limits(c)
	return cfg, opt, err
}

// dayLink reads the bandwidth and the set-up.
func dayLink(c *cli.Context, cfg *day.Config) error {
	var err error
	if cfg.Bandwidth, err = day.ParseBandwidth(c.String("bandwidth")); err != nil {
		if strings.TrimSpace(c.String("bandwidth")) == "" {
			return usagef("missing --bandwidth")
		}
		return usagef("invalid --bandwidth %s: want bytes/s, or a number with MiB or MB", c.String("bandwidth"))
	}
	switch {
	case c.IsSet("setup-bytes") && c.IsSet("setup-time"):
		return usagef("invalid --startup with --setup-bytes: give the set-up cost once, in bytes (--setup-bytes) or in seconds (--startup)")
	case c.IsSet("setup-time"):
		cfg.SetupTime, err = parseFloat(c, "setup-time", false)
	case !c.IsSet("setup-bytes"):
		return usagef("missing --setup-bytes or --startup: the set-up cost of a message, in bytes or in seconds")
	default:
		cfg.SetupBytes, err = parseFloat(c, "setup-bytes", false)
	}
	return err
}

// dayCosts reads the bidirectional factor and the CPU costs. A
// bidirectional factor of 0 is refused: a direction would stop while the
// other is busy, and a tree's links would stall for ever (the library
// reads 0 as its default, the thesis's 0.727; the flag's default says so).
func dayCosts(c *cli.Context, cfg *day.Config) error {
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"bidirectional-factor", &cfg.BidirectionalFactor}, {"farmer-cost", &cfg.FarmerCost}, {"cpu-per-message", &cfg.CPUPerMessage}} {
		var err error
		if *f.dst, err = parseFloat(c, f.name, false); err != nil {
			return err
		}
	}
	if f := cfg.BidirectionalFactor; !(f > 0 && f <= 1) {
		return usagef("invalid --bidirectional-factor %s: want a share of B in (0, 1] (0 would stop a link direction whenever the other is busy)", c.String("bidirectional-factor"))
	}
	return nil
}

// dayLayout reads --layout line|tree.
func dayLayout(c *cli.Context) (day.Layout, error) {
	switch c.String("layout") {
	case "line":
		return day.Line, nil
	case "tree":
		return day.Tree, nil
	}
	return day.Line, usagef("invalid --layout %q: want line or tree", c.String("layout"))
}

// dayPriority reads --priority local|distant.
func dayPriority(c *cli.Context) (distant bool, err error) {
	switch c.String("priority") {
	case "local":
		return false, nil
	case "distant":
		return true, nil
	}
	return false, usagef("invalid --priority %q: want local or distant", c.String("priority"))
}

// dayJob reads the job and result sizes and the job time; an explicit
// --result-bytes 0 is a result message of its set-up alone.
func dayJob(c *cli.Context, cfg *day.Config) error {
	var err error
	if cfg.MessageBytes, err = parseFloat(c, "message-bytes", false); err != nil {
		return err
	}
	if c.IsSet("result-bytes") {
		if cfg.ResultBytes, err = parseFloat(c, "result-bytes", false); err != nil {
			return err
		}
		cfg.ExplicitResult = true
	}
	switch {
	case c.IsSet("job-time") && c.IsSet("delay-loop"):
		return usagef("invalid --delay-loop: give --job-time or --delay-loop, not both")
	case c.IsSet("delay-loop"):
		if cfg.DelayLoop, err = parseInt(c, "delay-loop"); err == nil && cfg.DelayLoop < 1 {
			return usagef("invalid --delay-loop %s: want a number of iterations >= 1", c.String("delay-loop"))
		}
	default:
		cfg.JobTime, err = parseFloat(c, "job-time", false)
	}
	return err
}
