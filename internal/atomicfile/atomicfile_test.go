package atomicfile_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
