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
			"  dlsched farm day --granularity --workers 32 --bandwidth 1.51MiB --setup-time 3e-6 --plot gran.svg",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "layout", Value: "line", Usage: "line or tree (full ternary tree)"},
			&cli.StringFlag{Name: "harness", Value: "D", Usage: "A, B or D (slots J P R Q: A = 1 0 1 0, B and D = 1 1 1 1)"},
			&cli.StringFlag{Name: "workers", Usage: "number of workers w (a tree: 3, 12, 39, ...)"},
			&cli.StringFlag{Name: "message-bytes", Usage: "job message size m (bytes)"},
			&cli.StringFlag{Name: "result-bytes", Usage: "result message size (default: the job message size)"},
			&cli.StringFlag{Name: "job-time", Usage: "nominal job time j (seconds); job k takes j·len_k/100"},
			&cli.StringFlag{Name: "delay-loop", Usage: "delay-loop form: job k takes floor(len_k·d/100)·10 µs"},
			&cli.StringFlag{Name: "bandwidth", Usage: "link bandwidth B: bytes/s, or 1.51MiB, 1.177MB"},
			&cli.StringFlag{Name: "setup-bytes", Usage: "set-up cost s in bytes"},
			&cli.StringFlag{Name: "setup-time", Usage: "set-up time in seconds (s = B·time)"},
			&cli.StringFlag{Name: "bidirectional-factor", Value: "0.727", Usage: "rate of a link direction while the other direction is busy"},
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
		},
		Action: dayAction,
	}
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
	r, err := day.Run(c.Context, cfg, c.Bool("no-sim"))
	var in *day.InputError
	if errors.As(err, &in) {
		return usage(err)
	}
	if err != nil {
		return err
	}
	return writeReport(c.String("out"), format, r.WriteJSON, r.WriteTable)
}

func dayGranularity(c *cli.Context, cfg *day.Config, format string) error {
	total, err := parseFloat(c, "total-work", false)
	if err != nil {
		return err
	}
	bps, err := parseFloat(c, "bytes-per-second", false)
	if err != nil {
		return err
	}
	times := day.DefaultGranularityTimes()
	if c.IsSet("job-times") {
		if times, err = floatList(c, "job-times"); err != nil {
			return err
		}
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
	r, err := day.Granularity(c.Context, *cfg, total, bps, times)
	var in *day.InputError
	if errors.As(err, &in) {
		return usage(err)
	}
	if err != nil {
		return err
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

// dayConfig reads the flags; with granularity the job time and message
// size come from the study.
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
	if cfg.Bandwidth, err = day.ParseBandwidth(c.String("bandwidth")); err != nil {
		if strings.TrimSpace(c.String("bandwidth")) == "" {
			return nil, usagef("missing --bandwidth")
		}
		return nil, usagef("invalid --bandwidth %s: want bytes/s, or a number with MiB or MB", c.String("bandwidth"))
	}
	switch {
	case c.IsSet("setup-bytes") && c.IsSet("setup-time"):
		return nil, usagef("invalid --setup-time: give --setup-bytes or --setup-time, not both")
	case c.IsSet("setup-time"):
		cfg.SetupTime, err = parseFloat(c, "setup-time", false)
	default:
		cfg.SetupBytes, err = parseFloat(c, "setup-bytes", false)
	}
	if err != nil {
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
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"bidirectional-factor", &cfg.BidirectionalFactor}, {"farmer-cost", &cfg.FarmerCost}, {"cpu-per-message", &cfg.CPUPerMessage}} {
		if *f.dst, err = parseFloat(c, f.name, false); err != nil {
			return nil, err
		}
	}
	if !gran {
		if err := cfg.Validate(); err != nil {
			return nil, usage(err)
		}
	}
	return cfg, nil
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

func dayJob(c *cli.Context, cfg *day.Config) error {
	var err error
	if cfg.MessageBytes, err = parseFloat(c, "message-bytes", false); err != nil {
		return err
	}
	if c.IsSet("result-bytes") {
		if cfg.ResultBytes, err = parseFloat(c, "result-bytes", false); err != nil {
			return err
		}
	}
	switch {
	case c.IsSet("job-time") && c.IsSet("delay-loop"):
		return usagef("invalid --delay-loop: give --job-time or --delay-loop, not both")
	case c.IsSet("delay-loop"):
		cfg.DelayLoop, err = parseInt(c, "delay-loop")
	default:
		cfg.JobTime, err = parseFloat(c, "job-time", false)
	}
	return err
}
