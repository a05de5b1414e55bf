package main

import (
	"errors"

	"math"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/pipeline"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
	"github.com/urfave/cli/v2"
)

// isUsage reports errors that mean bad input rather than a failure.
func isUsage(err error) bool {
	var fe *formulations.FieldError
	var se *pipeline.StagesError
	var ze *pipeline.SizeError
	return errors.As(err, &fe) || errors.As(err, &se) || errors.As(err, &ze)
}

// minMemoryMB and maxMemoryMB bound --max-memory: below 16 MB not even a
// small LP fits, above 1 TB is a typo.
const minMemoryMB, maxMemoryMB = 16, 1 << 20

// sizeUsage turns a memory refusal of the library into a usage error that
// names the flag and what else would help.
func sizeUsage(err error, alternative string) error {
	return usagef("%v: raise --max-memory or %s", err, alternative)
}

// noTimingsFlag drops wall-clock times from the output, the only bytes
// that differ between two runs of the same input.
func noTimingsFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-timings", EnvVars: []string{"DLSCHED_NO_TIMINGS"},
		Usage: "leave wall-clock times out of the output, so that the same input gives the same bytes"}
}

// problemFlags are the flags that describe a problem (solve, optimize).
func problemFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "topology", Value: "star", Usage: "star, tree or binomial"},
		&cli.StringFlag{Name: "order", Value: "nlf", Usage: "layer activation order of trees: nlf or llf"},
		&cli.StringFlag{Name: "buffers", Value: "1", Usage: "buffers per relay node of an ordinary tree: 1 or 2"},
		&cli.StringFlag{Name: "m", Usage: "number of processors of a star"},
		&cli.StringFlag{Name: "p", Usage: "out-degree of a tree"},
		&cli.StringFlag{Name: "h", Usage: "height (computing layers) of a tree"},
		&cli.StringFlag{Name: "S", Usage: "startup time per message (seconds)"},
		&cli.StringFlag{Name: "C", Usage: "transfer time per load unit (seconds)"},
		&cli.StringFlag{Name: "A", Usage: "computing time per load unit (seconds)"},
		&cli.StringFlag{Name: "D", Usage: "buffer size (load units), or inf"},
		&cli.StringFlag{Name: "V", Usage: "total load (load units)"},
		&cli.StringFlag{Name: "procs", Usage: "heterogeneous star: per-processor S:C:A, comma separated (overrides --S --C --A)"},
		&cli.StringFlag{Name: "relay", Usage: "tree layers that only relay, comma separated (e.g. 1,2,3)"},
	}
}

func parseFloat(c *cli.Context, name string, allowInf bool) (float64, error) {
	return parseNumber(name, c.String(name), allowInf)
}

// parseNumber reads the value s of flag name: a finite number, or with
// allowInf also inf (+Inf); NaN and -inf are refused.
func parseNumber(name, s string, allowInf bool) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, usagef("missing --%s", name)
	}
	if allowInf {
		switch strings.ToLower(s) {
		case "inf", "+inf", "infinity":
			return math.Inf(1), nil
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	want := "a finite number"
	if allowInf {
		want = "a finite number or inf"
	}
	if err != nil || math.IsNaN(v) || (math.IsInf(v, 0) && !(allowInf && v > 0)) {
		return 0, usagef("invalid --%s %s: want %s", name, oneLine(s), want)
	}
	return v, nil
}

func parseInt(c *cli.Context, name string) (int, error) {
	return parseInteger(name, c.String(name))
}

// parseInteger reads the value s of flag name as an integer.
func parseInteger(name, s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, usagef("missing --%s", name)
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, usagef("invalid --%s %s: want an integer", name, oneLine(s))
	}
	return v, nil
}

// parseProblem reads the problem flags into a validated Problem.
func parseProblem(c *cli.Context) (*formulations.Problem, error) {
	kind, err := topology.ParseKind(c.String("topology"))
	if err != nil {
		return nil, usagef("invalid --topology %s: want star, tree or binomial", c.String("topology"))
	}
	p := &formulations.Problem{Kind: kind, Buffers: 1}
	if err := refuseInapplicable(c, kind); err != nil {
		return nil, err
	}
	switch kind {
	case topology.Star:
		// With --procs, m defaults to the number of processors listed.
		if strings.TrimSpace(c.String("m")) == "" && strings.TrimSpace(c.String("procs")) != "" {
			p.M = len(strings.Split(strings.TrimSpace(c.String("procs")), ","))
		} else if p.M, err = parseInt(c, "m"); err != nil {
			return nil, err
		}
	default:
		if p.Order, err = topology.ParseOrder(c.String("order")); err != nil {
			return nil, usagef("invalid --order %s: want nlf or llf", c.String("order"))
		}
		if p.P, err = parseInt(c, "p"); err != nil {
			return nil, err
		}
		if p.H, err = parseInt(c, "h"); err != nil {
			return nil, err
		}
		if kind == topology.Tree {
			if p.Buffers, err = parseInt(c, "buffers"); err != nil {
				return nil, err
			}
		}
		if r := strings.TrimSpace(c.String("relay")); r != "" {
			for _, f := range strings.Split(r, ",") {
				l, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil {
					return nil, usagef("invalid --relay %s: want layer numbers separated by commas", r)
				}
				p.Relay = append(p.Relay, l)
			}
		}
	}
	if procs := strings.TrimSpace(c.String("procs")); procs != "" {
		if kind != topology.Star {
			return nil, usagef("invalid --procs: per-processor parameters need --topology star")
		}
		for i, f := range strings.Split(procs, ",") {
			parts := strings.Split(strings.TrimSpace(f), ":")
			if len(parts) != 3 {
				return nil, usagef("invalid --procs entry %d %q: want S:C:A", i+1, f)
			}
			var q [3]float64
			for k, s := range parts {
				if q[k], err = strconv.ParseFloat(s, 64); err != nil {
					return nil, usagef("invalid --procs entry %d %q: want S:C:A numbers", i+1, f)
				}
			}
			p.Procs = append(p.Procs, schedule.Proc{S: q[0], C: q[1], A: q[2]})
		}
	} else {
		if p.S, err = parseFloat(c, "S", false); err != nil {
			return nil, err
		}
		if p.C, err = parseFloat(c, "C", false); err != nil {
			return nil, err
		}
		if p.A, err = parseFloat(c, "A", false); err != nil {
			return nil, err
		}
	}
	if p.D, err = parseFloat(c, "D", true); err != nil {
		return nil, err
	}
	if p.V, err = parseFloat(c, "V", false); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, usage(err)
	}
	return p, nil
}

// parseStages reads --stages N|min.
func parseStages(c *cli.Context, p *formulations.Problem) (int, error) {
	s := strings.TrimSpace(c.String("stages"))
	if s == "" || s == "min" {
		n := p.NMin()
		if n > 1e7 {
			return 0, usagef("invalid --D %g: n_min=%d stages are needed, more than 10^7", p.D, n)
		}
		return n, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, usagef("invalid --stages %s: want an integer >= 1 or min", s)
	}
	if nmin := p.NMin(); n < nmin {
		return 0, usage(&pipeline.StagesError{N: n, NMin: nmin})
	}
	return n, nil
}

// refuseInapplicable refuses flags that do not apply to the topology
// instead of silently ignoring them.
func refuseInapplicable(c *cli.Context, kind topology.Kind) error {
	var bad []string
	switch kind {
	case topology.Star:
		bad = []string{"p", "h", "order", "buffers", "relay"}
	case topology.Tree:
		bad = []string{"m", "procs"}
	case topology.Binomial:
		bad = []string{"m", "procs", "buffers"}
	}
	for _, name := range bad {
		if c.IsSet(name) {
			return usagef("invalid --%s: it does not apply to --topology %s", name, kind)
		}
	}
	return nil
}
