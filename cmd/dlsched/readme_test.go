package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// example is a "$ dlsched ..." block of a document with the output it
// shows.
type example struct {
	file, cmd string
	line      int
	want      []string
}

// examples reads the worked examples of a Markdown file: a line starting
// with "$ dlsched" inside a code block (continued by trailing
// backslashes), followed by its output up to the end of the block.
func examples(t *testing.T, path string) []example {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []example
	var cur *example
	inCmd := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "```"):
			if cur != nil {
				out = append(out, *cur)
				cur = nil
			}
		case strings.HasPrefix(l, "$ dlsched "):
			cur = &example{file: filepath.Base(path), line: n, cmd: strings.TrimSuffix(strings.TrimPrefix(l, "$ dlsched "), "\\")}
			inCmd = strings.HasSuffix(l, "\\")
		case cur != nil && inCmd:
			cur.cmd += " " + strings.TrimSuffix(strings.TrimSpace(l), "\\")
			inCmd = strings.HasSuffix(l, "\\")
		case cur != nil:
			cur.want = append(cur.want, l)
		}
	}
	return out
}

// The worked examples of README.md and docs/ print what the documents
// show (issue 16: several differed from the current binary). Every shown
// line must appear in the output, in order; a line "..." stands for any
// number of lines. Outputs are taken with DLSCHED_NO_TIMINGS=1, as the
// documents show them.
func TestDocumentedExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every documented example")
	}
	files, _ := filepath.Glob("../../docs/*.md")
	files = append([]string{"../../README.md"}, files...)
	total := 0
	for _, path := range files {
		for _, ex := range examples(t, path) {
			total++
			// The examples run from the repository root; here they run in
			// a temporary directory (they write charts), so the paths to
			// the repository's testdata/ are made absolute.
			args := strings.Fields(ex.cmd)
			for i, a := range args {
				if strings.HasPrefix(a, "testdata/") {
					args[i], _ = filepath.Abs(filepath.Join("../..", a))
				}
			}
			cmd := exec.Command(binary, args...)
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "DLSCHED_NO_TIMINGS=1")
			b, err := cmd.Output()
			if err != nil {
				t.Errorf("%s:%d: dlsched %s: %v", ex.file, ex.line, ex.cmd, err)
				continue
			}
			got := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
			k := 0
			skip := false
			for _, w := range ex.want {
				if strings.TrimSpace(w) == "..." {
					skip = true
					continue
				}
				for k < len(got) && got[k] != w && skip {
					k++
				}
				if k >= len(got) || got[k] != w {
					at := "end of output"
					if k < len(got) {
						at = got[k]
					}
					t.Errorf("%s:%d: dlsched %s:\n  shown:   %q\n  printed: %q", ex.file, ex.line, ex.cmd, w, at)
					break
				}
				k++
				skip = false
			}
		}
	}
	if total < 10 {
		t.Errorf("found %d documented examples, want at least 10", total)
	}
}
