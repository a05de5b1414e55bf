package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/trace"
)

// probe runs the binary like dlsched and also returns the peak resident
// memory of the run in MB (the kernel's ru_maxrss of the child). Linux
// keeps the high-water mark across exec, and Go starts children with
// vfork (the parent's memory): the figure is at least the test process's
// own peak, so tests that hold large outputs write them to files.
func probe(t *testing.T, args ...string) (stdout, stderr string, code int, peakMB float64) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peakMB = float64(ru.Maxrss) / 1024
	}
	return out.String(), errb.String(), code, peakMB
}

// refused asserts the contract for bad usage: exit 2, nothing on stdout,
// one line on stderr containing want, and a peak memory under 100 MB
// (refused before anything large was allocated).
func refused(t *testing.T, want string, args ...string) {
	t.Helper()
	stdout, stderr, code, peak := probe(t, args...)
	if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
		t.Errorf("dlsched %s: exit %d, stdout %q, stderr %q; want exit 2 and one line containing %q",
			strings.Join(args, " "), code, stdout, stderr, want)
	}
	if peak > 100 {
		t.Errorf("dlsched %s: peak memory %.0f MB before refusing, want under 100 MB", strings.Join(args, " "), peak)
	}
}

// traceFile reads the trace a command wrote to path, checks it against
// schema/trace.schema.json and parses it; it returns the document and the
// file's bytes.
func traceFile(t *testing.T, path string) (*trace.Document, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.Document(raw, schema.Trace); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	d, err := trace.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d, raw
}
