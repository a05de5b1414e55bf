package sweep

import (
	"fmt"
	"io"
	"os"
)

// Journal is a results file opened for appending rows. Each row is
// written with a single write call on a file opened with O_APPEND, so a
// process killed at any moment leaves whole lines, plus at most one last
// line cut short if the kill (or a full disk) interrupts that call;
// OpenJournal cuts such a line off before appending.
type Journal struct {
	path string
	f    *os.File
	// Rows are the rows already in the file when it was opened.
	Rows []Row
	// Torn reports that a last line without its newline was cut off.
	Torn bool
}

// OpenJournal opens (creating if needed) the results file at path, reads
// its rows, truncates a torn last line, and takes an exclusive lock (where
// the platform has one) so that two sweeps cannot append to the same
// file. A complete line that is not a row is an error: the file is left
// alone. The results file must be a regular file (symbolic links are
// followed): a run resumes from it and appends to it, which a device, a
// pipe or a terminal cannot support (reading /dev/zero never ends, reading
// /dev/stdout blocks).
func OpenJournal(path string) (*Journal, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("results file %s is %s, not a regular file: a sweep resumes from its results file and needs a regular one", path, modeName(st.Mode()))
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("results file %s is not a regular file", path)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rows, good, torn, err := parseRows(path, b)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w (the file is left as it is; remove or fix that line)", err)
	}
	if torn {
		if err := f.Truncate(int64(good)); err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: cutting off a torn last line: %w", path, err)
		}
	}
	return &Journal{path: path, f: f, Rows: rows, Torn: torn}, nil
}

// Append writes one row as one line in a single write call.
func (j *Journal) Append(r *Row) error {
	b, err := marshalLine(r)
	if err != nil {
		return fmt.Errorf("%s: encoding row %s: %w", j.path, r.Key, err)
	}
	n, err := j.f.Write(b)
	if err == nil && n != len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return fmt.Errorf("%s: %w", j.path, err)
	}
	return nil
}

// Close syncs and closes the file.
func (j *Journal) Close() error {
	err := j.f.Sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// modeName describes a file type for messages.
func modeName(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
