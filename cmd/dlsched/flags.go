package main

import (
	"errors"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/optimize"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
	"github.com/urfave/cli/v2"
)

// isUsage reports errors that mean bad input rather than a failure.
func isUsage(err error) bool {
	var fe *problem.FieldError
	var se *problem.StagesError
	var ze *solve.SizeError
	return errors.As(err, &fe) || errors.As(err, &se) || errors.As(err, &ze)
}

// optionFlags maps the library's names of options to their flags where
// the two differ; problem fields (S, m, ...) are their own flag names.
var optionFlags = map[string]string{
	"NMax": "n-max", optimize.FieldMaxLPSeconds: "max-lp-seconds", "DMin": "D-min", "DMax": "D-max", "Points": "points", "Within": "within", "N": "stages",
	solve.FieldMaxMemoryMB: "max-memory", problem.FieldResultRatio: "result-ratio", solve.FieldWorkerOrder: "worker-order",
}

// flagName is the command line's name of a library field: "--S",
// "--D-max"; environment variables (SLURM_ARRAY_TASK_ID) keep their names.
func flagName(field string) string {
	if f, ok := optionFlags[field]; ok {
		return "--" + f
	}
	if strings.Contains(field, "_") && strings.ToUpper(field) == field {
		return field
	}
	return "--" + field
}

// flagErr turns a library error that names inputs (problem.Named) into
// bad usage naming the flags; other errors pass unchanged.
func flagErr(err error) error {
	var n problem.Named
	if errors.As(err, &n) {
		return usage(errors.New(n.Format(flagName)))
	}
	return err
}

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
		&cli.StringFlag{Name: "workers", Aliases: []string{"m"}, Usage: "number of processors of a star (the paper's m)"},
		&cli.StringFlag{Name: "k", Aliases: []string{"p"}, Usage: "the paper's p: out-degree (arity) of an ordinary tree; of a binomial tree, layer i has p(p+1)^(i-1) processors"},
		&cli.StringFlag{Name: "depth", Aliases: []string{"h"}, Usage: "the paper's height h: layers of processors below the originator (a tree p=2 h=3 has 2+4+8 = 14)"},
		&cli.StringFlag{Name: "startup", Aliases: []string{"S"}, Usage: "startup time per message (seconds; the paper's S)"},
		&cli.StringFlag{Name: "C", Usage: "transfer time per load unit (seconds)"},
		&cli.StringFlag{Name: "A", Usage: "computing time per load unit (seconds)"},
		&cli.StringFlag{Name: "D", Usage: "buffer size (load units), or inf"},
		&cli.StringFlag{Name: "V", Usage: "total load (load units)"},
		&cli.StringFlag{Name: "procs", Usage: "heterogeneous star: per-processor S:C:A, comma separated (overrides --S --C --A)"},
		&cli.StringFlag{Name: "relay", Usage: "tree layers that only relay, comma separated (e.g. 1,2,3)"},
		&cli.StringFlag{Name: "result-ratio", Value: "0", Usage: "star: results per unit of load (β) that every processor sends back to the originator after the distribution (0: none)"},
		&cli.StringFlag{Name: "return", Value: "fifo", Usage: "star: order of the results on the originator's port: fifo (activation order) or lifo (its reverse)"},
	}
}

// parseFloat reads the number flag name, infinity allowed or not; a
// missing flag is named by its canonical name.
func parseFloat(c *cli.Context, name string, allowInf bool) (float64, error) {
	if strings.TrimSpace(c.String(name)) == "" {
		return 0, usagef("missing --%s", canonical(c, name))
	}
	return parseNumber(name, c.String(name), allowInf)
}

// parseField reads the flag of a problem field (only D may be inf).
func parseField(c *cli.Context, name string) (float64, error) {
	return parseFloat(c, name, problem.InfAllowed(name))
}

// parseNumber reads the value s of flag name with problem.ParseNumber.
func parseNumber(name, s string, allowInf bool) (float64, error) {
	if strings.TrimSpace(s) == "" {
		return 0, usagef("missing --%s", name)
	}
	v, err := problem.ParseNumber(name, s, allowInf)
	return v, flagErr(err)
}

// parseInt reads the integer flag name; a missing flag is named by its
// canonical name.
func parseInt(c *cli.Context, name string) (int, error) {
	if strings.TrimSpace(c.String(name)) == "" {
		return 0, usagef("missing --%s", canonical(c, name))
	}
	return parseInteger(name, c.String(name))
}

// parseInteger reads the value s of flag name as an integer.
func parseInteger(name, s string) (int, error) {
	if strings.TrimSpace(s) == "" {
		return 0, usagef("missing --%s", name)
	}
	v, err := problem.ParseInt(name, s)
	return v, flagErr(err)
}

// parseProblem reads the problem flags into a problem built by
// problem.New, the one constructor and validator.
func parseProblem(c *cli.Context) (*problem.Problem, error) {
	kind, err := problem.ParseTopology(c.String("topology"))
	if err != nil {
		return nil, flagErr(err)
	}
	topo := kind.String() // star, tree or binomial: the command line's word
	if err := refuseInapplicable(c, topo); err != nil {
		return nil, err
	}
	in := problem.Input{Topology: topo, Order: c.String("order")}
	if topo == "star" {
		err = parseStar(c, &in)
	} else {
		err = parseTree(c, topo == "tree", &in)
	}
	if err != nil {
		return nil, err
	}
	if in.D, err = parseField(c, "D"); err != nil {
		return nil, err
	}
	if c.IsSet("deadline") {
		in.V = 1 // the deadline form's answer replaces it (solve.MaxLoad)
	} else if in.V, err = parseField(c, "V"); err != nil {
		return nil, err
	}
	if in.ResultRatio, err = parseNumber("result-ratio", c.String("result-ratio"), false); err != nil {
		return nil, err
	}
	in.Return = c.String("return")
	p, err := problem.New(in)
	return p, flagErr(err)
}

// parseStar reads m, and --procs or --S --C --A.
func parseStar(c *cli.Context, in *problem.Input) error {
	var err error
	procs := strings.TrimSpace(c.String("procs"))
	// With --procs, m defaults to the number of processors listed.
	if strings.TrimSpace(c.String("m")) == "" && procs != "" {
		in.M = len(strings.Split(procs, ","))
	} else if in.M, err = parseInt(c, "m"); err != nil {
		return err
	}
	if procs == "" {
		return parseSCA(c, in)
	}
	for i, f := range strings.Split(procs, ",") {
		parts := strings.Split(strings.TrimSpace(f), ":")
		if len(parts) != 3 {
			return usagef("invalid --procs entry %d %q: want S:C:A", i+1, f)
		}
		var q [3]float64
		for k, s := range parts {
			if q[k], err = strconv.ParseFloat(s, 64); err != nil {
				return usagef("invalid --procs entry %d %q: want S:C:A numbers", i+1, f)
			}
		}
		in.Procs = append(in.Procs, schedule.Proc{S: q[0], C: q[1], A: q[2]})
	}
	return nil
}

// parseSCA reads --S, --C and --A.
func parseSCA(c *cli.Context, in *problem.Input) error {
	var err error
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"S", &in.S}, {"C", &in.C}, {"A", &in.A}} {
		if *f.dst, err = parseField(c, f.name); err != nil {
			return err
		}
	}
	return nil
}

// parseTree reads p, h, buffers (ordinary trees: ordinary true), relay
// and S, C, A.
func parseTree(c *cli.Context, ordinary bool, in *problem.Input) error {
	var err error
	if _, err := problem.ParseOrder(c.String("order")); err != nil {
		return flagErr(err)
	}
	if in.P, err = parseInt(c, "p"); err != nil {
		return err
	}
	if in.H, err = parseInt(c, "h"); err != nil {
		return err
	}
	if ordinary {
		if in.Buffers, err = parseInt(c, "buffers"); err != nil {
			return err
		}
		if in.Buffers == 0 {
			return flagErr(problem.CheckInt(problem.FieldBuffers, 0))
		}
	}
	if r := strings.TrimSpace(c.String("relay")); r != "" {
		for _, f := range strings.Split(r, ",") {
			l, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return usagef("invalid --relay %s: want layer numbers separated by commas", r)
			}
			in.Relay = append(in.Relay, l)
		}
	}
	if strings.TrimSpace(c.String("procs")) != "" {
		return usagef("invalid --procs: per-processor parameters need --topology star")
	}
	return parseSCA(c, in)
}

// parseStages reads --stages N|min.
func parseStages(c *cli.Context, p *problem.Problem) (int, error) {
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
	return n, flagErr(p.CheckStages(n))
}

// refuseInapplicable refuses flags that do not apply to the topology
// instead of silently ignoring them; topo is star, tree or binomial.
func refuseInapplicable(c *cli.Context, topo string) error {
	var bad []string
	switch topo {
	case "star":
		bad = []string{"p", "h", "order", "buffers", "relay"}
	case "tree":
		bad = []string{"m", "procs", "return", "worker-order"}
	case "binomial":
		bad = []string{"m", "procs", "buffers", "return", "worker-order"}
	}
	for _, name := range bad {
		if c.IsSet(name) {
			return usagef("invalid --%s: it does not apply to --topology %s", name, topo)
		}
	}
	return nil
}
