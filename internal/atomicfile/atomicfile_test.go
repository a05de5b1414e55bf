package atomicfile_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/dlsched/dlsched/internal/atomicfile"
)

// names lists the entries of dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

func TestWrite(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB, several writes' worth
	tests := []struct {
		name     string
		existing *string // content already at the target, nil for none
		content  string
	}{
		{"new file", nil, "stage,processor\n1,1\n"},
		{"empty content", nil, ""},
		{"large content", nil, big},
		{"replaces an existing file", ptr("old content that is longer than the new\n"), "new\n"},
		{"replaces an empty file", ptr(""), "x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.csv")
			if tc.existing != nil {
				if err := os.WriteFile(path, []byte(*tc.existing), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := atomicfile.Write(path, writeString(tc.content)); err != nil {
				t.Fatalf("Write: %v", err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.content {
				t.Errorf("file holds %d bytes, want %d", len(got), len(tc.content))
			}
			if got := names(t, dir); !slices.Equal(got, []string{"out.csv"}) {
				t.Errorf("directory holds %v, want only out.csv (no temporary file)", got)
			}
			// A new file is created with mode 0644 (Write chmods the
			// temporary file, whose CreateTemp mode is 0600), whatever the
			// umask.
			if tc.existing == nil {
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != 0o644 {
					t.Errorf("mode %v, want 0644", fi.Mode().Perm())
				}
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestWriteFailureKeepsTarget(t *testing.T) {
	errFill := errors.New("fill failed")
	tests := []struct {
		name string
		fill func(io.Writer) error
	}{
		{"fails at once", func(io.Writer) error { return errFill }},
		{"fails after a partial write", func(w io.Writer) error {
			if _, err := io.WriteString(w, "partial new conte"); err != nil {
				return err
			}
			return errFill
		}},
	}
	for _, tc := range tests {
		for _, existing := range []bool{true, false} {
			name := tc.name + "/no target"
			if existing {
				name = tc.name + "/existing target"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "schedule.json")
				const old = "{\"status\": \"optimal\"}\n"
				want := []string{}
				if existing {
					if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
						t.Fatal(err)
					}
					want = []string{"schedule.json"}
				}
				err := atomicfile.Write(path, tc.fill)
				if err == nil {
					t.Fatal("Write succeeded although fill failed")
				}
				if !errors.Is(err, errFill) {
					t.Errorf("error %v does not wrap the fill error", err)
				}
				if !strings.Contains(err.Error(), path) {
					t.Errorf("error %q does not name %s", err, path)
				}
				if got := names(t, dir); !slices.Equal(got, want) {
					t.Errorf("directory holds %v, want %v (temporary file left behind?)", got, want)
				}
				if existing {
					b, err := os.ReadFile(path)
					if err != nil || string(b) != old {
						t.Errorf("target changed to %q (%v), want %q", b, err, old)
					}
					fi, err := os.Stat(path)
					if err != nil || fi.Mode().Perm() != 0o600 {
						t.Errorf("target's mode changed: %v, %v", fi.Mode().Perm(), err)
					}
				}
			})
		}
	}
}

func TestWriteErrors(t *testing.T) {
	t.Run("missing directory", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "no", "such", "dir", "out.svg")
		called := false
		err := atomicfile.Write(path, func(io.Writer) error { called = true; return nil })
		if err == nil {
			t.Fatal("Write into a missing directory succeeded")
		}
		if !strings.Contains(err.Error(), path) {
			t.Errorf("error %q does not name %s", err, path)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("error %v is not fs.ErrNotExist", err)
		}
		if called {
			t.Errorf("fill was called although no file could be created")
		}
		if got := names(t, dir); len(got) != 0 {
			t.Errorf("directory holds %v, want nothing", got)
		}
	})
	t.Run("target is a directory", func(t *testing.T) {
		// The rename fails: the temporary file must still be removed and
		// the directory left alone.
		dir := t.TempDir()
		path := filepath.Join(dir, "out")
		if err := os.Mkdir(path, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(path, "keep"), []byte("k"), 0o644); err != nil {
			t.Fatal(err)
		}
		err := atomicfile.Write(path, writeString("data"))
		if err == nil {
			t.Fatal("Write over a non-empty directory succeeded")
		}
		if !strings.Contains(err.Error(), path) {
			t.Errorf("error %q does not name %s", err, path)
		}
		if got := names(t, dir); !slices.Equal(got, []string{"out"}) {
			t.Errorf("directory holds %v, want only out (temporary file left behind?)", got)
		}
		if b, err := os.ReadFile(filepath.Join(path, "keep")); err != nil || string(b) != "k" {
			t.Errorf("directory content changed: %q, %v", b, err)
		}
	})
}

// A symlink is followed: the target gets the new content and the link
// stays a link (issue 16: replacing the link left its target stale). A
// dangling link creates its target.
func TestWriteFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.csv")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink("real.csv", link); err != nil {
		t.Fatal(err)
	}
	chain := filepath.Join(dir, "chain.csv")
	if err := os.Symlink(link, chain); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(chain, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target holds %q, want new", b)
	}
	for _, l := range []string{link, chain} {
		if st, err := os.Lstat(l); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symlink", l)
		}
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Fatalf("target mode %v, want 0600 kept", st.Mode().Perm())
	}
	dangling := filepath.Join(dir, "dangling.csv")
	if err := os.Symlink("sub/../made.csv", dangling); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if err := atomicfile.Write(dangling, writeString("made")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "made.csv")); string(b) != "made" {
		t.Fatalf("dangling link's target holds %q", b)
	}
	loop := filepath.Join(dir, "loop")
	os.Symlink("loop", loop)
	if err := atomicfile.Write(loop, writeString("x")); err == nil {
		t.Fatal("a symlink loop was accepted")
	}
}

// Devices and named pipes are written in place, never replaced by a
// regular file (issue 16: --out /dev/null replaced the device).
func TestWriteDevicesAndPipes(t *testing.T) {
	if err := atomicfile.Write(os.DevNull, writeString("discarded")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a character device: %v", os.DevNull, st.Mode())
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo) // blocks until the writer opens it
		got <- string(b)
	}()
	if err := atomicfile.Write(fifo, writeString("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Fatalf("reader got %q", s)
	}
	if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}
	if err := atomicfile.Write(dir, writeString("x")); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("a directory target: %v", err)
	}
	for _, p := range []string{"-", "/dev/stdout"} {
		if !atomicfile.IsStdout(p) {
			t.Errorf("IsStdout(%q) = false", p)
		}
	}
}
