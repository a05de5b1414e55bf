// Command dlsched computes optimal divisible-load schedules for systems with
// limited communication buffers (Drozdowski & Wolniewicz 2004), verifies
// them on a virtual-time executor, optimises the stage count and buffer
// size, and sweeps parameter grids. See README.md for the commands.
//
// The command is thin: it parses flags, calls the library and prints.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"
)

// usageError marks an error caused by bad input: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usage(err error) error { return usageError{err} }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func newApp() *cli.App {
	// --h is the tree height, so help keeps only its long name.
	cli.HelpFlag = &cli.BoolFlag{Name: "help", Usage: "show help"}
	return &cli.App{
		Name:  "dlsched",
		Usage: "optimal divisible-load schedules with limited communication buffers",
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
		HideHelpCommand: true,
		OnUsageError: func(c *cli.Context, err error, isSubcommand bool) error {
			return usage(err)
		},
		ExitErrHandler: func(*cli.Context, error) {},
	}
}

func main() {
	os.Exit(run(os.Args))
}

// run executes the CLI and returns the exit status: 0 success, 1 failure,
// 2 bad usage. Errors are printed as one line on stderr.
func run(args []string) int {
	err := newApp().Run(args)
	if err == nil {
		return 0
	}
	var ex cli.ExitCoder
	if errors.As(err, &ex) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(os.Stderr, "dlsched: "+msg)
		}
		return ex.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "dlsched: "+oneLine(err.Error()))
	var ue usageError
	if errors.As(err, &ue) || isUsage(err) {
		return 2
	}
	return 1
}

func oneLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
