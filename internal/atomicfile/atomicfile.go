// Package atomicfile writes output files so that nothing is lost: a regular
// file is replaced atomically (the content goes to a temporary file in the
// target's directory, which is synced and renamed over the target only
// when complete, so a reader never sees a partial file and a failed or
// interrupted write leaves the old content); a symlink is followed to the
// real file, which is replaced, the link kept; a device, named pipe or
// socket (/dev/null, a FIFO a reader waits on) and "-" or /dev/stdout are
// written directly.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// pending holds the temporary files being written, for RemovePending.
var pending sync.Map

// RemovePending deletes the temporary files of writes in progress; a
// program that must exit at once (a second Ctrl-C, a watchdog) calls it
// so that no partial output is left behind.
func RemovePending() {
	pending.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		pending.Delete(k)
		return true
	})
}

// Write writes the content fill produces to path (see the package
// comment): atomically for a regular or new file, through a symlink to its
// target, directly to a device, pipe, socket or standard output. On any
// error a regular target is left untouched and the temporary file removed.
func Write(path string, fill func(w io.Writer) error) error {
	if IsStdout(path) {
		if err := fill(os.Stdout); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return nil
	}
	real, err := resolve(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if st, err := os.Stat(real); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return fmt.Errorf("write %s: is a directory", path)
		}
		return writeDirect(path, real, fill)
	}
	return replace(real, fill)
}

// IsStdout reports whether path names standard output ("-", /dev/stdout,
// /dev/fd/1, /proc/self/fd/1), which Write writes to directly: opening it
// anew would truncate a file the shell redirected it to.
func IsStdout(path string) bool {
	switch path {
	case "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return true
	}
	return false
}

// resolve follows symlinks, also a dangling one (whose target Write
// creates), up to 40 levels as the kernel does.
func resolve(path string) (string, error) {
	for i := 0; i < 40; i++ {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("too many levels of symbolic links")
}

// writeDirect writes to a device, pipe or socket in place.
func writeDirect(path, real string, fill func(w io.Writer) error) error {
	f, err := os.OpenFile(real, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := fill(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// replace writes a regular file atomically.
func replace(path string, fill func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	pending.Store(tmp, struct{}{})
	defer pending.Delete(tmp)
	done := false
	defer func() {
		if !done { // an error, or a panic in fill
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = fill(f); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		mode = st.Mode().Perm() // replacing a file keeps its permissions
	}
	if err = os.Chmod(tmp, mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	done = true
	return nil
}
