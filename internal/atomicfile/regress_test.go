package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Replacing a file keeps its permissions; a panic in fill leaves no
// temporary file behind.
func TestKeepsModeAndCleansUpAfterPanic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	func() {
		defer func() { recover() }()
		Write(path, func(io.Writer) error { panic("boom") })
	}()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d entries after a panicking fill, want only the target", len(entries))
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("target changed to %q", b)
	}
}
