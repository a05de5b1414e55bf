package main

import (
	"errors"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/dlsched/dlsched/internal/atomicfile"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/plotting"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/trace"
)

// The skeleton the model commands share (farm pfarm, nepp and day,
// dataflow, compare): the output flags, every output path checked before
// any work, the library's input errors rendered with the command's flags,
// and the report, its charts and its trace written at the end.

// reporter is what a model run hands back: its report in both formats.
type reporter interface {
	WriteJSON(w io.Writer) error
	WriteTable(w io.Writer) error
}

// outputFlags are --format, --out and --trace, and --plot where the
// command draws charts (plotUsage says when).
func outputFlags(plotUsage string) []cli.Flag {
	fl := []cli.Flag{
		&cli.StringFlag{Name: "format", Value: "table", Usage: "table or json"},
		&cli.StringFlag{Name: "out", Usage: "write the report to this file instead of stdout"},
		&cli.StringFlag{Name: "trace", Usage: "write the simulation as a Chrome trace (.json; Perfetto, chrome://tracing)"},
	}
	if plotUsage != "" {
		fl = append(fl, &cli.StringFlag{Name: "plot", Usage: plotUsage})
	}
	return fl
}

// outputs are the command's output settings, read and checked before any
// work: a wrong directory or extension is bad usage at once, not after a
// long run.
type outputs struct {
	format, out      string
	plot, plotFormat string
	trace            string
}

// readOutputs reads and checks the output flags of outputFlags.
func readOutputs(c *cli.Context) (outputs, error) {
	o := outputs{format: c.String("format"), out: c.String("out"), trace: c.String("trace")}
	if o.format != "table" && o.format != "json" {
		return o, usagef("invalid --format %s: want table or json", o.format)
	}
	if err := checkOutPath("out", o.out); err != nil {
		return o, err
	}
	if err := checkOutPath("trace", o.trace, ".json"); err != nil {
		return o, err
	}
	if c.IsSet("plot") {
		o.plot = c.String("plot")
		var err error
		if o.plotFormat, err = plotting.Format(o.plot); err != nil {
			return o, usagef("invalid --plot %s: want a file ending in .svg or .png", o.plot)
		}
		if err := checkOutPath("plot", o.plot); err != nil {
			return o, err
		}
	}
	return o, nil
}

// recorder returns a trace to record the run into when --trace is set
// (unit is the model's time unit), or nil.
func (o outputs) recorder(unit string) *trace.Trace {
	if o.trace == "" {
		return nil
	}
	return trace.New(unit)
}

// write writes the report (to --out or stdout), the charts (to --plot, in
// cols columns) and the trace (to --trace), each file atomically.
func (o outputs) write(r reporter, charts func() []plotting.Chart, cols int, tr *trace.Trace) error {
	if o.plot != "" && charts != nil {
		if err := atomicfile.Write(o.plot, func(w io.Writer) error {
			return plotting.WritePanels(w, o.plotFormat, charts(), cols)
		}); err != nil {
			return err
		}
	}
	if o.trace != "" && tr != nil {
		if err := atomicfile.Write(o.trace, tr.WriteJSON); err != nil {
			return err
		}
	}
	return writeReport(o.out, o.format, r.WriteJSON, r.WriteTable)
}

// writeReport writes a table/json report to path (atomically) or stdout.
func writeReport(path, format string, asJSON, asTable func(io.Writer) error) error {
	write := asTable
	if format == "json" {
		write = asJSON
	}
	if path != "" {
		return atomicfile.Write(path, write)
	}
	return write(os.Stdout)
}

// fieldFlags maps the fields a library's input errors name to the
// command's flags (without the dashes).
type fieldFlags map[string]string

// flag returns the flag of a field ("--workers"), or the field itself.
func (m fieldFlags) flag(field string) string {
	if f, ok := m[field]; ok {
		return "--" + f
	}
	return field
}

// usage turns a library's input error (platform.Named or problem.Named:
// a field with a bad value, a run over a limit) into bad usage naming the
// command's flags; other errors (a failed run) pass unchanged.
func (m fieldFlags) usage(err error) error {
	var pn platform.Named
	if errors.As(err, &pn) {
		return usage(errors.New(pn.Format(m.flag)))
	}
	var qn problem.Named
	if errors.As(err, &qn) {
		return usage(errors.New(qn.Format(m.flag)))
	}
	return err
}
