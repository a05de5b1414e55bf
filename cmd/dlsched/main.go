// Command dlsched computes optimal divisible-load schedules for systems with
// limited communication buffers (Drozdowski & Wolniewicz 2004), verifies
// them on a virtual-time executor, optimises the stage count and buffer
// size, and sweeps parameter grids. See README.md for the commands.
//
// The command is thin: it parses flags, calls the library and prints.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// usageError marks an error caused by bad input: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usage(err error) error { return usageError{twoForms(err)} }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func newApp() *cli.App {
	// --h is the tree height, so help keeps only its long name.
	cli.HelpFlag = &cli.BoolFlag{Name: "help", Usage: "show help"}
	app := &cli.App{
		Name:        "dlsched",
		Usage:       "optimal divisible-load schedules with limited communication buffers, farms and dataflow machines",
		Description: vocabularyHelp,
		Commands: []*cli.Command{
			solveCommand(),
			verifyCommand(),
			optimizeCommand(),
			sweepCommand(),
			mergeCommand(),
			plotCommand(),
			farmCommand(),
			dataflowCommand(),
			compareCommand(),
		},
		OnUsageError: func(c *cli.Context, err error, isSubcommand bool) error {
			return usage(err)
		},
		ExitErrHandler: func(*cli.Context, error) {},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("unknown command %q: want one of %s", c.Args().First(), commandNames(c.App.Commands))
			}
			return cli.ShowAppHelp(c)
		},
	}
	// A usage error in any command is one line on stderr and exit 2, never
	// the help on stdout; an unknown subcommand is a usage error too.
	var walk func(cs []*cli.Command, parent string)
	walk = func(cs []*cli.Command, parent string) {
		for _, c := range cs {
			name := strings.TrimSpace(parent + " " + c.Name)
			c.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return usage(flagError(name, c.Flags, err)) }
			if len(c.Subcommands) > 0 {
				subs := c.Subcommands
				c.Action = func(ctx *cli.Context) error {
					if ctx.NArg() > 0 {
						return usagef("unknown %s command %q: want one of %s", ctx.Command.Name, ctx.Args().First(), commandNames(subs))
					}
					return cli.ShowSubcommandHelp(ctx)
				}
				walk(subs, name)
			}
		}
	}
	walk(app.Commands, "")
	return app
}

// flagError says the flag package's "flag provided but not defined: -x",
// "flag needs an argument: -x" and "invalid value "v" for flag -x: parse
// error" in the command's words, with the long form of the flag the user
// typed, what its value must be, and where to find the valid ones.
func flagError(command string, flags []cli.Flag, err error) error {
	msg := err.Error()
	dashed := func(name string) string {
		name = strings.TrimLeft(name, "-")
		if len(name) == 1 {
			return "-" + name
		}
		return "--" + name
	}
	for _, c := range []struct{ prefix, say string }{
		{"flag provided but not defined: -", "unknown flag %s for %s (see dlsched %s --help)"},
		{"flag needs an argument: -", "flag %s of %s needs a value (see dlsched %s --help)"},
	} {
		if name, ok := strings.CutPrefix(msg, c.prefix); ok {
			return fmt.Errorf(c.say, dashed(name), command, command)
		}
	}
	var value, name string
	if n, _ := fmt.Sscanf(strings.TrimSuffix(msg, ": parse error"), "invalid value %q for flag %s", &value, &name); n == 2 {
		want := "a number"
		for _, f := range flags {
			if _, ok := f.(*cli.IntFlag); ok && slices.Contains(f.Names(), strings.TrimLeft(name, "-")) {
				want = "a whole number in digits (1000000000, not 1e9)"
			}
		}
		return fmt.Errorf("invalid %s %s: want %s (see dlsched %s --help)", dashed(name), value, want, command)
	}
	return err
}

func commandNames(cs []*cli.Command) string {
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}

// appFor builds the application run executes (tests replace it to check
// what run does with a panic).
var appFor = newApp

func main() {
	os.Exit(run(os.Args))
}

// run executes the CLI and returns the exit status: 0 success, 1 failure,
// 2 bad usage, 130/143 after SIGINT/SIGTERM. Errors are printed as one line
// on stderr; a panic (a bug) is reported as one line too, never as a stack
// dump.
func run(args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "dlsched: internal error: %v (please report it)\n", oneLine(fmt.Sprint(r)))
			code = 1
		}
	}()
	ctx, stop := signalContext()
	defer stop()
	app := appFor()
	err := app.RunContext(ctx, helpArgs(app, helpTopic(app, args)))
	if err != nil {
		clearBars()
	}
	if sig := caughtSignal(ctx); sig != 0 {
		switch {
		case errors.Is(err, context.Canceled):
			fmt.Fprintln(os.Stderr, "dlsched: stopped by "+signalName(sig))
		case err != nil:
			fmt.Fprintln(os.Stderr, "dlsched: "+oneLine(err.Error()))
		}
		return sig
	}
	if err == nil {
		return 0
	}
	var ex cli.ExitCoder
	if errors.As(err, &ex) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(os.Stderr, "dlsched: "+oneLine(msg))
		}
		return ex.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "dlsched: "+asTyped(app, args, oneLine(err.Error())))
	var ue usageError
	if errors.As(err, &ue) || isUsage(err) {
		return 2
	}
	return 1
}

// helpArgs turns -h into --help wherever -h is not a parameter: the help
// flag keeps only its long name because -h is the paper's tree height in
// solve, optimize, sweep and compare; elsewhere (dlsched -h, dlsched farm
// pfarm -h, dlsched dataflow -h ...) -h asks for help as users expect.
func helpArgs(app *cli.App, args []string) []string {
	cmds, flags := app.Commands, []cli.Flag(app.Flags)
	out := append([]string(nil), args...)
	for i := 1; i < len(out); i++ {
		a := out[i]
		if a == "-h" && !hasFlag(flags, "h") {
			out[i] = "--help"
			continue
		}
		if strings.HasPrefix(a, "-") || cmds == nil {
			continue
		}
		// The first word that names a command descends into it; after
		// a command without subcommands the rest are its arguments.
		next := commandNamed(cmds, a)
		if next == nil {
			cmds = nil
			continue
		}
		cmds, flags = next.Subcommands, next.Flags
		if len(cmds) == 0 {
			cmds = nil
		}
	}
	return out
}

func hasFlag(flags []cli.Flag, name string) bool {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

func oneLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
