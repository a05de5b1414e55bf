package main

import (
	"errors"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dlsched/dlsched/executor/farm/day"
	"github.com/dlsched/dlsched/internal/atomicfile"
	"github.com/dlsched/dlsched/plotting"
)

func dayCommand() *cli.Command {
	return &cli.Command{
		Name:  "day",
		Usage: "Day's farm harnesses on lines and ternary trees (paper 002): supply/demand model beside a simulation",
		Description: "Times in seconds, sizes in bytes, bandwidth in bytes/s or with MiB/MB. Examples:\n" +
			"  dlsched farm day --layout line --harness D --workers 8 --message-bytes 4096 --job-time 0.0625 --bandwidth 1.177MiB --setup-bytes 12.9\n" +
			"  dlsched farm day --granularity --workers 32 --bandwidth 1.51MiB --setup-time 3e-6 --max-events 5e8 --plot gran.svg",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "layout", Value: "line", Usage: "line or tree (full ternary tree)"},
			&cli.StringFlag{Name: "harness", Value: "D", Usage: "A, B or D (slots J P R Q: A = 1 0 1 0, B and D = 1 1 1 1)"},
			&cli.StringFlag{Name: "workers", Usage: "number of workers w (a tree: 3, 12, 39, ...)"},
			&cli.StringFlag{Name: "message-bytes", Usage: "job message size m (bytes)"},
			&cli.StringFlag{Name: "result-bytes", Usage: "result message size (default: the job message size; 0: the set-up alone)"},
			&cli.StringFlag{Name: "job-time", Usage: "nominal job time j (seconds); job k takes j·len_k/100"},
			&cli.StringFlag{Name: "delay-loop", Usage: "delay-loop form: job k takes floor(len_k·d/100)·10 µs"},
			&cli.StringFlag{Name: "bandwidth", Usage: "link bandwidth B: bytes/s, or 1.51MiB, 1.177MB"},
			&cli.StringFlag{Name: "setup-bytes", Usage: "set-up cost s in bytes"},
			&cli.StringFlag{Name: "setup-time", Usage: "set-up time in seconds (s = B·time)"},
			&cli.StringFlag{Name: "bidirectional-factor", Value: "0.727", Usage: "rate of a tree link's direction, as a share of B, while the other direction is busy: (0, 1]"},
			&cli.StringFlag{Name: "farmer-cost", Value: "0", Usage: "farmer CPU time per job (seconds)"},
			&cli.StringFlag{Name: "cpu-per-message", Value: "0", Usage: "worker CPU time lost per message sent or received (seconds)"},
			&cli.StringFlag{Name: "priority", Value: "local", Usage: "local (local worker first) or distant"},
			&cli.BoolFlag{Name: "no-sim", Usage: "the model only"},
			&cli.BoolFlag{Name: "granularity", Usage: "Section 4.10: a fixed amount of work cut into equal jobs of several sizes"},
			&cli.StringFlag{Name: "total-work", Value: "4194.304", Usage: "with --granularity: nominal work in seconds (the thesis: 32 workers × 100 × 1.31 s)"},
			&cli.StringFlag{Name: "bytes-per-second", Value: "3125", Usage: "with --granularity: message bytes per second of job time (the thesis: 32 bytes per 10.24 ms)"},
			&cli.StringFlag{Name: "job-times", Usage: "with --granularity: job times, comma separated (default 0.01024·2^k, k = 0..7)"},
			&cli.StringFlag{Name: "plot", Usage: "with --granularity: draw makespan and efficiency against the job time (.svg or .png)"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table or json"},
			&cli.StringFlag{Name: "out", Usage: "write the report to this file instead of stdout"},
		}, limitFlags()...),
		Action: dayAction,
	}
}

// dayFlags maps the day package's names of its inputs to their flags.
var dayFlags = map[string]string{
	"Config.Layout": "layout", "Config.Harness": "harness", "Config.Workers": "workers",
	"Config.MessageBytes": "message-bytes", "Config.ResultBytes": "result-bytes", "Config.JobTime": "job-time",
	"Config.DelayLoop": "delay-loop", "Config.Bandwidth": "bandwidth", "Config.SetupBytes": "setup-bytes",
	"Config.SetupTime": "setup-time", "Config.BidirectionalFactor": "bidirectional-factor",
	"Config.FarmerCost": "farmer-cost", "Config.CPUPerMessage": "cpu-per-message",
	"Config.MaxEvents": "max-events", "Config.MaxBytes": "max-memory",
	"Study.TotalWork": "total-work", "Study.BytesPerSecond": "bytes-per-second", "Study.JobTimes": "job-times",
}

// dayFlag is the flag of one of the day package's inputs.
func dayFlag(field string) string {
	if f, ok := dayFlags[field]; ok {
		return "--" + f
	}
	return field
}

// dayErr turns the day package's bad-input errors into bad usage naming
// the flags; other errors pass unchanged.
func dayErr(err error) error {
	var fe *day.FieldError
	var le *day.LimitError
	switch {
	case errors.As(err, &fe):
		return usage(errors.New(fe.Format(dayFlag)))
	case errors.As(err, &le):
		return usage(errors.New(le.Format(dayFlag)))
	}
	return err
}

func dayAction(c *cli.Context) error {
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
	gran := c.Bool("granularity")
	cfg, err := dayConfig(c, gran)
	if err != nil {
		return err
	}
	if gran {
		return dayGranularity(c, cfg, format)
	}
	for _, name := range []string{"plot", "job-times", "total-work", "bytes-per-second"} {
		if c.IsSet(name) {
			return usagef("invalid --%s: it needs --granularity", name)
		}
	}
	if err := dayErr(cfg.Validate()); err != nil {
		return err
	}
	noSim := c.Bool("no-sim")
	if !noSim {
		if err := dayErr(cfg.CheckLimits()); err != nil {
			return err
		}
		cfg.Progress = dayProgress(c, cfg.Jobs(), cfg.Estimate().Events)
	}
	r, err := day.Run(c.Context, cfg, noSim)
	if err != nil {
		return dayErr(err)
	}
	return writeReport(c.String("out"), format, r.WriteJSON, r.WriteTable)
}

// dayProgress is a progress bar over the results of a run estimated to
// take at least five million events (a few seconds), or nil.
func dayProgress(c *cli.Context, results int, events int64) func(int) {
	if events < 5_000_000 {
		return nil
	}
	return progress(c, results, 0, "farm day", "results")
}

func dayGranularity(c *cli.Context, cfg *day.Config, format string) error {
	study, err := dayStudy(c)
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
	if jobs, events := study.Size(*cfg); jobs > 0 {
		cfg.Progress = dayProgress(c, jobs, events)
	}
	r, err := day.Granularity(c.Context, *cfg, study)
	if err != nil {
		return dayErr(err)
	}
	if plotPath != "" {
		if err := atomicfile.Write(plotPath, func(w io.Writer) error {
			return plotting.WritePanels(w, plotFormat, r.Charts(), 1)
		}); err != nil {
			return err
		}
	}
	return writeReport(c.String("out"), format, r.WriteJSON, r.WriteTable)
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

// dayConfig reads the flags; with granularity the job time and message
// size come from the study. The limits are read here; the configuration
// is validated by the caller.
func dayConfig(c *cli.Context, gran bool) (*day.Config, error) {
	cfg := &day.Config{}
	var err error
	if cfg.Layout, err = dayLayout(c); err != nil {
		return nil, err
	}
	if cfg.Harness, err = day.ParseHarness(c.String("harness")); err != nil {
		return nil, usagef("invalid --harness %q: want A, B or D", c.String("harness"))
	}
	if cfg.DistantFirst, err = dayPriority(c); err != nil {
		return nil, err
	}
	if cfg.Workers, err = parseInt(c, "workers"); err != nil {
		return nil, err
	}
	if err := dayLink(c, cfg); err != nil {
		return nil, err
	}
	if gran {
		for _, name := range []string{"message-bytes", "result-bytes", "job-time", "delay-loop"} {
			if c.IsSet(name) {
				return nil, usagef("invalid --%s: --granularity sets job sizes itself", name)
			}
		}
	} else if err := dayJob(c, cfg); err != nil {
		return nil, err
	}
	if err := dayCosts(c, cfg); err != nil {
		return nil, err
	}
	cfg.MaxBytes, cfg.MaxEvents, err = limits(c)
	return cfg, err
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
		return usagef("invalid --setup-time: give --setup-bytes or --setup-time, not both")
	case c.IsSet("setup-time"):
		cfg.SetupTime, err = parseFloat(c, "setup-time", false)
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
