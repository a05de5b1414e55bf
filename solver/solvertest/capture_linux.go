//go:build linux

package solvertest

import (
	"os"
	"syscall"
	"testing"
)

// CaptureFDs runs f with file descriptors 1 and 2 redirected to a file and
// returns what was written to them; flush, called before and after, empties
// the C library's stdio buffers (a backend's cgo fflush), so what C code
// printed is included.
func CaptureFDs(t testing.TB, flush func(), f func()) string {
	t.Helper()
	tmp, err := os.CreateTemp(t.TempDir(), "fd12")
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Close()
	flush()
	saved1, err := syscall.Dup(1)
	if err != nil {
		t.Fatal(err)
	}
	saved2, err := syscall.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			flush()
			syscall.Dup3(saved1, 1, 0)
			syscall.Dup3(saved2, 2, 0)
			syscall.Close(saved1)
			syscall.Close(saved2)
		}()
		if err := syscall.Dup3(int(tmp.Fd()), 1, 0); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Dup3(int(tmp.Fd()), 2, 0); err != nil {
			t.Fatal(err)
		}
		f()
	}()
	b, err := os.ReadFile(tmp.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
