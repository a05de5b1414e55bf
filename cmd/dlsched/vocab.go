package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// vocabularyHelp is the table of the flag names every command shares,
// shown by `dlsched help` (README.md, "One vocabulary", has it in full).
// Every older name is an alias and keeps working.
const vocabularyHelp = `One vocabulary: one name per concept in every command; the older names (in parentheses) keep working.
  --workers N       count of workers: solve, optimize, compare (-m, the paper's m), farm pfarm chain (-N),
                    farm day, dataflow (--pes), farm nepp (N nodes of speed 1, or --speeds)
  -k K --depth D    tree arity and levels of workers below the master or host; solve and optimize: -p, -h.
                    -k 2 --depth 3 is 14 workers in solve, optimize and compare (the master is the root and
                    does not compute) and 7 in farm pfarm (the host's one link reaches the root, a worker)
  --startup s       message startup in seconds: solve, optimize, compare (-S), farm pfarm, farm nepp (--setup),
                    farm day (--setup-time; --setup-bytes is the same cost in bytes)
  --tasks N         number of tasks: farm pfarm (-M), farm nepp (--jobs); compare: a list of counts.
                    farm pfarm's task times are --task-times (a --tasks value that is not a number is read so)
  --parallel N      sweep: points solved at once (--workers); the platform's workers come from the spec;
                    solve, optimize: LPs the pattern search solves at once (one per CPU; same schedule for any N)`

// twoForms rewrites urfave/cli's "Cannot use two forms of the same flag:
// m workers" (a flag given under two of its names, e.g. --workers and -m)
// into the house style of usage errors; other errors pass unchanged.
func twoForms(err error) error {
	const prefix = "Cannot use two forms of the same flag: "
	rest, ok := strings.CutPrefix(err.Error(), prefix)
	names := strings.Fields(rest)
	if !ok || len(names) != 2 {
		return err
	}
	return fmt.Errorf("invalid %s with %s: they are one flag under two names; give one", dashes(names[0]), dashes(names[1]))
}

// dashes writes a flag name as on the command line: -m, --workers.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// canonical returns the flag name under which a missing flag is asked
// for: the canonical name of README.md's "One vocabulary" and the older
// names it replaces ("workers (or --m)"), or name itself.
func canonical(c *cli.Context, name string) string {
	if c.Command == nil || c.IsSet(name) {
		return name // given empty: asTyped names it as typed
	}
	for _, f := range c.Command.Flags {
		if names := f.Names(); slices.Contains(names, name) {
			if len(names) == 1 {
				return name
			}
			return names[0] + " (or --" + strings.Join(names[1:], ", --") + ")"
		}
	}
	return name
}

// flagInMessage is a flag as messages write it: --name.
var flagInMessage = regexp.MustCompile(`--[A-Za-z][A-Za-z0-9-]*`)

// asTyped rewrites the flags msg names under another of their names to
// the name the user typed: the libraries' messages name a flag by one
// name (--m, --pes, --jobs), and `--workers 0` should be answered with
// "invalid --workers 0", `-m 0` with "invalid --m 0". A name the user
// also typed is left alone (both names of one flag given is its own
// error).
func asTyped(app *cli.App, args []string, msg string) string {
	flags := commandFlags(app, args)
	typed := map[string]bool{}
	for _, a := range args[min(1, len(args)):] {
		if a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' {
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			typed[name] = true
		}
	}
	rename := map[string]string{}
	for _, f := range flags {
		names := f.Names()
		for _, n := range names {
			if !typed[n] {
				continue
			}
			for _, o := range names {
				if !typed[o] {
					rename[o] = n
				}
			}
		}
	}
	if len(rename) == 0 {
		return msg
	}
	return flagInMessage.ReplaceAllStringFunc(msg, func(f string) string {
		if n, ok := rename[f[2:]]; ok {
			return "--" + n
		}
		return f
	})
}

// commandFlags returns the flags of the (sub)command args run: the first
// words that name commands descend, as helpArgs does.
func commandFlags(app *cli.App, args []string) []cli.Flag {
	cmds, flags := app.Commands, []cli.Flag(app.Flags)
	for _, a := range args[min(1, len(args)):] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		next := commandNamed(cmds, a)
		if next == nil {
			return flags
		}
		cmds, flags = next.Subcommands, next.Flags
	}
	return flags
}

// helpTopic turns `dlsched help farm pfarm` (and `dlsched farm help
// pfarm`, `h` for help) into `dlsched farm pfarm --help`: urfave/cli's
// help command takes one topic and answers an unknown one with exit
// status 3, where the contract says 2 (an unknown command is then
// reported as such, one line).
func helpTopic(app *cli.App, args []string) []string {
	cmds := app.Commands
	for i := 1; i < len(args) && cmds != nil; i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			continue
		}
		if (a == "help" || a == "h") && i+1 < len(args) {
			out := append(append([]string(nil), args[:i]...), args[i+1:]...)
			return append(out, "--help")
		}
		next := commandNamed(cmds, a)
		if next == nil || len(next.Subcommands) == 0 {
			return args
		}
		cmds = next.Subcommands
	}
	return args
}

// commandNamed returns the command of cmds that has the name a, or nil.
func commandNamed(cmds []*cli.Command, a string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(a) {
			return c
		}
	}
	return nil
}
