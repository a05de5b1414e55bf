package main

import (
	"io"
	"strings"

	"github.com/dlsched/dlsched/internal/atomicfile"
	"github.com/dlsched/dlsched/plotting"
	"github.com/dlsched/dlsched/sweep"
	"github.com/dlsched/dlsched/table"
	"github.com/urfave/cli/v2"
)

func plotCommand() *cli.Command {
	return &cli.Command{
		Name:  "plot",
		Usage: "draw columns of a results file (or the chunks of a schedule JSON) as lines, to SVG or PNG",
		UsageText: "dlsched plot RESULTS.jsonl --x V --y cmax [--series D] [--where col=value ...] [--minus col=value] [--ref lb_trivial] [--logx --logy] --out FIG.svg|FIG.png\n\n" +
			"Columns of results: those of `dlsched merge --format csv` (V, D, cmax, lower_bound, stages, n_min, lb_trivial,\n" +
			"lb_layer, seconds, ...) and D/V. A schedule JSON from `dlsched solve --format json` gives one record per chunk:\n" +
			"stage, dest, processor, layer, load, start, arrival, compute_start, compute_end.",
		SkipFlagParsing: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "x", Usage: "column on the x axis"},
			&cli.StringFlag{Name: "y", Value: "cmax", Usage: "column(s) on the y axis, comma separated"},
			&cli.StringFlag{Name: "series", Usage: "column(s) whose values make the lines, comma separated"},
			&cli.GenericFlag{Name: "where", Value: &multiFlag{}, Usage: "keep rows with col=value[,value...] (repeatable; numbers compare by value)"},
			&cli.StringFlag{Name: "minus", Usage: "draw y − y of the row with col=value and otherwise the same inputs (e.g. D=100)"},
			&cli.GenericFlag{Name: "ref", Value: &multiFlag{}, Usage: "column drawn as a reference line, e.g. lb_trivial (repeatable)"},
			&cli.StringFlag{Name: "agg", Usage: "combine rows at the same x in a line: min, max, mean or first"},
			&cli.BoolFlag{Name: "logx", Usage: "logarithmic x axis"},
			&cli.BoolFlag{Name: "logy", Usage: "logarithmic y axis"},
			&cli.StringFlag{Name: "title", Usage: "chart title (default: the axes, with the parameters common to every row drawn in a note)"},
			&cli.StringFlag{Name: "xlabel", Usage: "x axis title (default: the column in words, with its unit)"},
			&cli.StringFlag{Name: "ylabel", Usage: "y axis title (default: the column(s) in words, with the unit)"},
			&cli.StringFlag{Name: "out", Usage: "FIG.svg or FIG.png"},
		},
		Action: plotAction,
	}
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func plotAction(c0 *cli.Context) error {
	c, args, help, err := interspersed(c0)
	if help || err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("plot takes one argument, the results file (got %d)", len(args))
	}
	out := c.String("out")
	if out == "" {
		return usagef("missing --out: FIG.svg or FIG.png")
	}
	format, err := plotting.Format(out)
	if err != nil {
		return usagef("invalid --out %s: want a file ending in .svg or .png", out)
	}
	if err := checkOutPath("out", out); err != nil {
		return err
	}
	if c.String("x") == "" {
		return usagef("missing --x: the column on the x axis, e.g. V")
	}
	ps := table.PlotSpec{
		X: c.String("x"), Y: splitList(c.String("y")), Series: splitList(c.String("series")),
		Agg: c.String("agg"), LogX: c.Bool("logx"), LogY: c.Bool("logy"), Title: c.String("title"),
		XLabel: c.String("xlabel"), YLabel: c.String("ylabel"),
	}
	for _, w := range c.Generic("where").(*multiFlag).vals {
		f, err := table.ParseFilter(w)
		if err != nil {
			return usagef("invalid --where %s", err)
		}
		ps.Where = append(ps.Where, f)
	}
	if m := c.String("minus"); m != "" {
		f, err := table.ParseFilter(m)
		if err != nil {
			return usagef("invalid --minus %s", err)
		}
		ps.Minus = &f
	}
	ps.Refs = c.Generic("ref").(*multiFlag).vals
	recs, err := sweep.LoadRecords(args[0])
	if err != nil {
		return usagef("invalid argument %v", err)
	}
	if len(recs.Rows) == 0 {
		return usagef("%s has no rows: nothing to draw (want results of sweep or merge, or a schedule JSON of solve)", args[0])
	}
	ch, err := table.Chart(recs, ps)
	if err != nil {
		return usage(flagErr(err))
	}
	return atomicfile.Write(out, func(w io.Writer) error { return plotting.Write(w, format, ch) })
}
