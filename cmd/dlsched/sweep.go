package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dlsched/dlsched/internal/atomicfile"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/sweep"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
)

// interspersed parses a command declared with SkipFlagParsing so that
// flags may come before or after the positional arguments (`dlsched merge
// A.jsonl B.jsonl --out ALL.jsonl`). It returns a context whose flag
// lookups see the parsed values, the positional arguments, and help=true
// when --help was asked (the help is then printed).
func interspersed(c *cli.Context) (*cli.Context, []string, bool, error) {
	set := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range c.Command.Flags {
		if err := f.Apply(set); err != nil {
			return nil, nil, false, err
		}
	}
	raw := c.Args().Slice()
	var flags, pos []string
	for i := 0; i < len(raw); i++ {
		a := raw[i]
		if a == "--" {
			pos = append(pos, raw[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		if name == "help" {
			cli.HelpPrinter(c.App.Writer, cli.CommandHelpTemplate, c.Command)
			return c, nil, true, nil
		}
		flags = append(flags, a)
		if strings.Contains(name, "=") {
			continue
		}
		f := set.Lookup(name)
		if f == nil {
			return nil, nil, false, usagef("unknown flag %s for %s (see dlsched %s --help)", a, c.Command.Name, c.Command.Name)
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 >= len(raw) {
			return nil, nil, false, usagef("flag %s needs a value", a)
		}
		i++
		flags = append(flags, raw[i])
	}
	if err := set.Parse(flags); err != nil {
		return nil, nil, false, usage(flagError(c.Command.Name, c.Command.Flags, err))
	}
	return cli.NewContext(c.App, set, c), pos, false, nil
}

// multiFlag collects a repeatable string flag without splitting on commas.
type multiFlag struct{ vals []string }

func (m *multiFlag) Set(s string) error { m.vals = append(m.vals, s); return nil }
func (m *multiFlag) String() string {
	if m == nil {
		return ""
	}
	return strings.Join(m.vals, " ")
}

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:  "sweep",
		Usage: "solve every point of a parameter grid (TOML spec); resumable, sharded, parallel",
		UsageText: "dlsched sweep SPEC.toml [--out FILE.jsonl|FILE.csv] [--parallel N] [--shard i/N | --shards N] [--no-verify] [--solver clp|highs|gonum|auto] [--max-stages N]\n\n" +
			"Rows are appended to the JSON-lines results file one whole line at a time; run the same command again to resume.\n" +
			"Without --shard, Slurm array variables (SLURM_ARRAY_TASK_ID, _COUNT, _MIN) or JOB_COMPLETION_INDEX with\n" +
			"--shards/DLSCHED_SHARDS (Kubernetes Indexed Jobs) choose the shard. With --format csv (or --out FILE.csv) the\n" +
			"rows are kept in FILE.jsonl while running and FILE.csv is written, in grid order, when the run completes.",
		SkipFlagParsing: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "results file (default results.jsonl, or results-shard-I-of-N.jsonl for a shard)"},
			&cli.StringFlag{Name: "format", Usage: "jsonl or csv (default: from --out's extension, else jsonl)"},
			&cli.IntFlag{Name: "parallel", Aliases: []string{"workers"}, Usage: "points solved at once, one LP solver each (default GOMAXPROCS); the workers of the platform come from the spec"},
			&cli.StringFlag{Name: "shard", Usage: "solve shard i of N (1-based): the points whose index mod N is i-1"},
			&cli.IntFlag{Name: "shards", Usage: "shard count for JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs); or DLSCHED_SHARDS"},
			&cli.BoolFlag{Name: "no-verify", Usage: "skip the executor's check of every schedule (overrides run.verify)"},
			noTimingsFlag(),
			&cli.StringFlag{Name: "solver", Usage: "LP backend: clp, highs (builds with -tags highs), gonum or auto (overrides run.solver)"},
			&cli.IntFlag{Name: "max-stages", Value: -1, Usage: "record points with more stages as skipped (overrides run.max_stages; 0: no limit)"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress bar and no summary"},
			&cli.BoolFlag{Name: "list", Usage: "print the shard's points (index and key) and exit"},
		},
		Action: sweepAction,
	}
}

// outFormat returns the format from --format or the file's extension.
func outFormat(flagVal, path string) (string, error) {
	switch flagVal {
	case "jsonl", "csv":
		return flagVal, nil
	case "":
		if strings.EqualFold(filepath.Ext(path), ".csv") {
			return "csv", nil
		}
		return "jsonl", nil
	}
	return "", usagef("invalid --format %s: want jsonl or csv", flagVal)
}

func sweepAction(c0 *cli.Context) error {
	c, args, help, err := interspersed(c0)
	if help || err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("sweep takes one argument, the spec file (got %d)", len(args))
	}
	sp, err := sweep.ParseFile(args[0])
	if err != nil {
		return usage(err)
	}
	sh, src, err := sweepShard(c)
	if err != nil {
		return err
	}
	if c.Bool("list") {
		for _, pt := range sp.Points() {
			if sh.Contains(pt.Index) {
				fmt.Printf("%d\t%s\n", pt.Index, pt.Key)
			}
		}
		return nil
	}
	out, journal, format, err := sweepFiles(c, sh)
	if err != nil {
		return err
	}
	opt, err := sweepOptions(c, sp, sh)
	if err != nil {
		return err
	}
	quiet := c.Bool("quiet")
	bar := progressBar(&opt, sh, quiet)
	// SIGINT/SIGTERM cancel c.Context (signals.go); a second signal kills
	// at once, and the results file stays consistent either way.
	sum, err := sweep.Run(c.Context, sp, journal, opt)
	if *bar != nil {
		_ = (*bar).Finish()
	}
	if errors.Is(err, context.Canceled) {
		return cli.Exit(fmt.Sprintf("interrupted: %d of %d points in %s; run the same command again to resume", sum.Done+sum.Solved, sum.Total, journal), 130)
	}
	if err != nil {
		return formatUsage(err)
	}
	if !quiet {
		printSummary(os.Stderr, sh, src, journal, &sum)
	}
	if format == "csv" {
		return writeShardCSV(out, journal, sp, sh)
	}
	return nil
}

// sweepShard reads --shard, or the shard of a cluster job's environment
// (--shards); src says where it came from.
func sweepShard(c *cli.Context) (sweep.Shard, string, error) {
	if s := c.String("shard"); s != "" {
		sh, err := sweep.ParseShard(s)
		return sh, "--shard", flagErr(err)
	}
	if c.Int("shards") < 0 {
		return sweep.Shard{}, "", usagef("invalid --shards %d: want a count >= 1", c.Int("shards"))
	}
	sh, src, err := sweep.ShardFromEnv(os.Getenv, c.Int("shards"))
	if err != nil {
		return sh, src, flagErr(err)
	}
	if src == sweep.SourceShards {
		src = flagName(src)
	}
	return sh, src, nil
}

// sweepFiles returns the output file, the JSON-lines journal the rows go
// to while running (the output itself unless it is CSV) and the format.
func sweepFiles(c *cli.Context, sh sweep.Shard) (out, journal, format string, err error) {
	out = c.String("out")
	if out == "" {
		out = "results.jsonl"
		if !sh.All() {
			out = fmt.Sprintf("results-shard-%d-of-%d.jsonl", sh.Index, sh.Count)
		}
	}
	if format, err = outFormat(c.String("format"), out); err != nil {
		return "", "", "", err
	}
	journal = out
	if format == "csv" {
		if !strings.EqualFold(filepath.Ext(out), ".csv") {
			return "", "", "", usagef("invalid --out %s: with --format csv want a file ending in .csv (rows are kept in the .jsonl beside it)", out)
		}
		journal = strings.TrimSuffix(out, filepath.Ext(out)) + ".jsonl"
	} else if strings.EqualFold(filepath.Ext(out), ".csv") {
		return "", "", "", usagef("invalid --out %s: with --format jsonl want a file not ending in .csv", out)
	}
	if err := checkOutPath("out", out); err != nil {
		return "", "", "", err
	}
	for _, f := range []string{journal, out} {
		if st, err := os.Stat(f); err == nil && !st.Mode().IsRegular() {
			return "", "", "", usagef("invalid --out %s: %s is not a regular file; a sweep resumes from its results file, so it must be one", c.String("out"), f)
		}
	}
	return out, journal, format, nil
}

// sweepOptions reads the flags that override the spec's [run] table.
func sweepOptions(c *cli.Context, sp *sweep.Spec, sh sweep.Shard) (sweep.Options, error) {
	// --workers is the old name of --parallel; sweep's flags are parsed
	// by interspersed, so the value sits under the name given.
	name, typed := "parallel", c.LocalFlagNames()
	if slices.Contains(typed, "workers") {
		if slices.Contains(typed, "parallel") {
			return sweep.Options{}, usagef("invalid --workers with --parallel: --workers is the old name of --parallel; give one")
		}
		name = "workers"
	}
	opt := sweep.Options{Workers: c.Int(name), Shard: sh, Run: sp.Run}
	if opt.Workers < 0 {
		return opt, usagef("invalid --%s %d: want a number >= 1", name, opt.Workers)
	}
	if c.Bool("no-verify") {
		opt.Run.Verify = false
	}
	opt.NoTimings = c.Bool("no-timings")
	if s := c.String("solver"); s != "" {
		if !slices.Contains(solve.SolverNames(), s) {
			return opt, usagef("invalid --solver %s: want %s", s, strings.Join(solve.SolverNames(), ", "))
		}
		opt.Run.Solver = s
	}
	if m := c.Int("max-stages"); m >= 0 {
		opt.Run.MaxStages = m
	} else if m != -1 {
		return opt, usagef("invalid --max-stages %d: want a number >= 0", m)
	}
	return opt, nil
}

// progressBar sets opt's progress callbacks to draw a bar on a terminal
// (unless quiet) and returns where the bar will be.
func progressBar(opt *sweep.Options, sh sweep.Shard, quiet bool) **progressbar.ProgressBar {
	var bar *progressbar.ProgressBar
	if barsOff(quiet) {
		return &bar
	}
	opt.Start = func(total, done int) {
		desc := "sweep"
		if !sh.All() {
			desc = "shard " + sh.String()
		}
		bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("points"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
		_ = bar.Set(done)
	}
	opt.Progress = func(done, total int) { _ = bar.Set(done) }
	return &bar
}

// writeShardCSV writes the shard's rows of the journal to out as CSV, in
// grid order.
func writeShardCSV(out, journal string, sp *sweep.Spec, sh sweep.Shard) error {
	rows, _, err := sweep.Merge([]string{journal}, sp)
	if err != nil {
		return err
	}
	rows = shardRows(rows, sp, sh)
	return atomicfile.Write(out, func(w io.Writer) error { return sweep.WriteCSV(w, rows) })
}

// shardRows keeps the rows of the shard's points.
func shardRows(rows []sweep.Row, sp *sweep.Spec, sh sweep.Shard) []sweep.Row {
	mine := map[string]bool{}
	for _, pt := range sp.Points() {
		if sh.Contains(pt.Index) {
			mine[pt.Key] = true
		}
	}
	var out []sweep.Row
	for _, r := range rows {
		if mine[r.Key] {
			out = append(out, r)
		}
	}
	return out
}

func printSummary(w io.Writer, sh sweep.Shard, src, path string, s *sweep.Summary) {
	var b strings.Builder
	if !sh.All() {
		fmt.Fprintf(&b, "shard %s (from %s): ", sh, src)
	}
	fmt.Fprintf(&b, "%d points", s.Total)
	if s.Done > 0 {
		fmt.Fprintf(&b, ", %d already in the file", s.Done)
	}
	fmt.Fprintf(&b, ", %d solved in %.2fs", s.Solved, s.Wall.Seconds())
	if s.Solved > 0 {
		var parts []string
		for _, st := range []string{sweep.StatusOptimal, sweep.StatusInvalid, sweep.StatusInfeasible, sweep.StatusFailed, sweep.StatusSkipped, sweep.StatusUnsupported} {
			if n := s.Status[st]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, st))
			}
		}
		fmt.Fprintf(&b, " (%s); %d LP solves", strings.Join(parts, ", "), s.LPs)
		if s.Warm > 0 {
			fmt.Fprintf(&b, " (%d points warm-started)", s.Warm)
		}
		fmt.Fprintf(&b, ", %.1f points/s", float64(s.Solved)/s.Wall.Seconds())
	}
	if s.Torn {
		b.WriteString("; a torn last line was cut off")
	}
	if s.Foreign > 0 {
		fmt.Fprintf(&b, "; %d rows of other points kept", s.Foreign)
	}
	fmt.Fprintf(w, "dlsched sweep: %s; results in %s\n", b.String(), path)
}

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "combine results files (shards) into one, in grid order; report missing and duplicate points",
		UsageText: "dlsched merge A.jsonl B.jsonl ... --out ALL.jsonl|ALL.csv [--spec SPEC.toml] [--format jsonl|csv]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "merged file (written atomically)"},
			&cli.StringFlag{Name: "spec", Usage: "the sweep's spec: order rows as in the grid and list missing points"},
			&cli.StringFlag{Name: "format", Usage: "jsonl or csv (default: from --out's extension)"},
		},
		SkipFlagParsing: true,
		Action:          mergeAction,
	}
}

func mergeAction(c0 *cli.Context) error {
	c, args, help, err := interspersed(c0)
	if help || err != nil {
		return err
	}
	if len(args) == 0 {
		return usagef("merge takes one or more results files")
	}
	out := c.String("out")
	if out == "" {
		return usagef("missing --out: the merged file")
	}
	for _, a := range args {
		if filepath.Clean(a) == filepath.Clean(out) {
			return usagef("invalid --out %s: it is also an input", out)
		}
	}
	if err := checkOutPath("out", out); err != nil {
		return err
	}
	format, err := outFormat(c.String("format"), out)
	if err != nil {
		return err
	}
	var sp *sweep.Spec
	if s := c.String("spec"); s != "" {
		if sp, err = sweep.ParseFile(s); err != nil {
			return usage(err)
		}
	}
	for _, a := range args {
		if _, err := os.Stat(a); err != nil {
			return usagef("invalid argument %s: %v", a, err)
		}
	}
	rows, rep, err := sweep.Merge(args, sp)
	if err != nil {
		return formatUsage(err)
	}
	if err := atomicfile.Write(out, func(w io.Writer) error {
		if format == "csv" {
			return sweep.WriteCSV(w, rows)
		}
		return sweep.WriteJSONL(w, rows)
	}); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "dlsched merge: %s; written to %s\n", rep.String(), out)
	if len(rep.Missing) > 0 {
		for i, pt := range rep.Missing {
			if i == 5 {
				fmt.Fprintf(os.Stderr, "  ... and %d more\n", len(rep.Missing)-5)
				break
			}
			fmt.Fprintf(os.Stderr, "  missing #%d: %s\n", pt.Index, pt.Key)
		}
		return cli.Exit(fmt.Sprintf("%d of %d points missing", len(rep.Missing), len(rep.Missing)+rep.Rows-rep.Unknown), 1)
	}
	return nil
}

// formatUsage makes the refusal of a results file by its declared format
// (a row of another kind or major version) bad usage: exit 2, one line.
func formatUsage(err error) error {
	var fe *schema.FormatError
	if errors.As(err, &fe) {
		return usage(err)
	}
	return err
}
