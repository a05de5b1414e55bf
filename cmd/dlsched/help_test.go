package main

import (
	"strings"
	"testing"
)

// Help is shown by `dlsched help`, `dlsched COMMAND help` where there are
// subcommands, --help everywhere, and -h wherever -h is not a parameter
// (issue 27: -h printed "flag: help requested" and exited 2). In solve,
// optimize, sweep and compare -h is the paper's tree height.
func TestHelpEverywhere(t *testing.T) {
	for _, args := range [][]string{
		{"help"}, {"-h"}, {"--help"}, {"help", "farm"}, {"farm", "help"}, {"farm", "-h"},
		{"farm", "pfarm", "-h"}, {"farm", "nepp", "-h"}, {"farm", "day", "--help"}, {"dataflow", "-h"},
		{"verify", "-h"}, {"plot", "-h"}, {"merge", "-h"}, {"solve", "--help"}, {"optimize", "--help"},
		{"sweep", "--help"}, {"compare", "--help"},
	} {
		out, errOut, code := dlsched(t, args...)
		name := "dlsched"
		if len(args) > 1 || args[0] != "help" && !strings.HasPrefix(args[0], "-") {
			name = "dlsched " + strings.Join(filterFlags(args), " ")
		}
		if code != 0 || errOut != "" || !strings.Contains(out, "NAME:") || !strings.Contains(out, name) {
			t.Errorf("%v: exit %d, stderr %q, stdout starts %q; want the help of %q", args, code, errOut, head(out), name)
		}
	}
	// -h stays the tree height where it is one.
	for _, cmd := range []string{"solve", "optimize"} {
		out, errOut, code := dlsched(t, cmd, "-h")
		if code != 2 || out != "" || !strings.Contains(errOut, "-h") {
			t.Errorf("%s -h: exit %d, stdout %q, stderr %q; want exit 2 asking for the height", cmd, code, head(out), errOut)
		}
	}
}

func filterFlags(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && a != "help" {
			out = append(out, a)
		}
	}
	return out
}

func head(s string) string {
	if len(s) > 60 {
		return s[:60]
	}
	return s
}
