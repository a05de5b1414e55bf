package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/trace"
	"github.com/urfave/cli/v2"
)

// defaultMaxViolations is how many violations verify lists: a schedule
// with a million of them printed 297 MB.
const defaultMaxViolations = 20

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "replay a schedule (JSON from solve) on the executor and report violations",
		UsageText: "dlsched verify [--max-violations N] [--format table|json] [--trace FILE.json] SCHEDULE.json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "max-violations", Value: strconv.Itoa(defaultMaxViolations),
				Usage: "list at most this many violations, the earliest first (0: all); the total is always given"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "output: table or json (dlsched.verify/1)"},
			&cli.StringFlag{Name: "trace", Usage: "write the replay (its timed run) as a Chrome trace to FILE.json (Perfetto, chrome://tracing)"},
		},
		Action: verifyAction,
	}
}

func verifyAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("verify takes one argument, the schedule JSON file")
	}
	limit, err := parseInteger("max-violations", c.String("max-violations"))
	if err != nil || limit < 0 {
		return usagef("invalid --max-violations %s: want an integer >= 0 (0: all)", c.String("max-violations"))
	}
	format := c.String("format")
	if format != "table" && format != "json" {
		return usagef("invalid --format %s: want table or json", format)
	}
	if err := checkOutPath("trace", c.String("trace"), ".json"); err != nil {
		return err
	}
	path := c.Args().First()
	s, err := readSchedule(path)
	if err != nil {
		return err
	}
	opt := replay.Options{Context: c.Context}
	var tr *trace.Trace
	if c.String("trace") != "" {
		tr = trace.New("s")
		opt.Recorder = tr
	}
	v, err := replay.VerifyInput(s, opt)
	if err != nil {
		if c.Context.Err() != nil {
			return err
		}
		// The schedule could not be replayed at all: malformed or too
		// large, which is bad input.
		return usagef("%s: %v", path, err)
	}
	if err := writeTrace(c.String("trace"), tr, v); err != nil {
		return err
	}
	if format == "json" {
		if err := replay.NewReport(s, v, limit).WriteJSON(os.Stdout); err != nil || v.OK {
			return err
		}
		return cli.Exit("", 1)
	}
	if v.OK {
		fmt.Printf("ok: %d chunks on %d processors, makespan %.12g (stated Cmax %.12g, earliest %.12g), %d events\n",
			len(s.Chunks), v.Processors, v.Makespan, s.Cmax, v.EarliestMakespan, v.Events)
		return nil
	}
	if err := writeViolations(os.Stdout, v.Violations, limit); err != nil {
		return err
	}
	return cli.Exit("", 1)
}

// readSchedule reads a schedule file by its declared format (one of
// another kind or major version is bad usage, as is a malformed one).
func readSchedule(path string) (*schedule.Schedule, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usage(err)
	}
	if err := schema.Check(b, schema.Schedule); err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	s, err := schedule.ReadJSON(bytes.NewReader(b))
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return s, nil
}

// writeViolations lists the violations (in time order, as the replay
// gives them), at most limit of them when limit > 0, and says how many
// there are in all.
func writeViolations(w io.Writer, vs []schedule.Violation, limit int) error {
	shown := len(vs)
	head := fmt.Sprintf("FAILED: %d violation(s)", len(vs))
	if limit > 0 && shown > limit {
		shown = limit
		head += fmt.Sprintf(", the first %d by time", limit)
	}
	var b strings.Builder
	b.WriteString(head + "\n")
	for _, x := range vs[:shown] {
		fmt.Fprintf(&b, "%s at %.12g: %s\n", x.Kind, x.Time, x.Message)
	}
	if shown < len(vs) {
		fmt.Fprintf(&b, "... and %d more (--max-violations 0 lists them all)\n", len(vs)-shown)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
