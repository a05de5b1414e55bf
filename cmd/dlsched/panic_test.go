package main

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// A panic in a command is a bug, and the user sees one line and exit 1,
// never a stack dump (issue 16: a crash exited 2 with a stack trace).
func TestPanicBecomesOneLine(t *testing.T) {
	saved := appFor
	defer func() { appFor = saved }()
	appFor = func() *cli.App {
		app := newApp()
		app.Commands = append(app.Commands, &cli.Command{Name: "boom", Action: func(*cli.Context) error {
			var m map[string]int
			m["x"]++ // assignment to a nil map: a runtime panic
			return nil
		}})
		return app
	}
	r, w, _ := os.Pipe()
	stderr := os.Stderr
	os.Stderr = w
	code := run([]string{"dlsched", "boom"})
	os.Stderr = stderr
	w.Close()
	b, _ := io.ReadAll(r)
	msg := string(b)
	if code != 1 || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "dlsched: internal error: assignment to entry in nil map") ||
		strings.Contains(msg, "goroutine") {
		t.Errorf("exit %d, stderr %q", code, msg)
	}
}
