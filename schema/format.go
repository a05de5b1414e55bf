package schema

import (
	"embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Files holds the schemas, one per kind: <kind>.schema.json.
//
//go:embed *.schema.json
var Files embed.FS

// The kinds of document and their current major versions.
const (
	Schedule  = "dlsched.schedule/1"  // dlsched solve --format json
	Verify    = "dlsched.verify/1"    // dlsched verify --format json
	Optimize  = "dlsched.optimize/1"  // dlsched optimize --format json
	SweepRow  = "dlsched.sweep-row/1" // one line of a sweep's JSONL results
	Pfarm     = "dlsched.pfarm/1"     // dlsched farm pfarm --format json
	Nepp      = "dlsched.nepp/1"      // dlsched farm nepp --format json
	NeppScan  = "dlsched.nepp-scan/1" // dlsched farm nepp --scan-p ... --format json
	Day       = "dlsched.day/1"       // dlsched farm day --format json
	DayStudy  = "dlsched.day-study/1" // dlsched farm day --granularity --format json
	Dataflow  = "dlsched.dataflow/1"  // dlsched dataflow --format json
	FlowStudy = "dlsched.dataflow-study/1"
	Compare   = "dlsched.compare/1" // dlsched compare --format json
	Trace     = "dlsched.trace/1"   // --trace FILE.json (in otherData)
)

// Parse splits a format string "dlsched.<kind>/<major>" into its kind
// ("schedule") and major version.
func Parse(format string) (kind string, major int, err error) {
	rest, ok := strings.CutPrefix(format, "dlsched.")
	k, m, ok2 := strings.Cut(rest, "/")
	major, err = strconv.Atoi(m)
	if !ok || !ok2 || k == "" || err != nil || major < 1 {
		return "", 0, fmt.Errorf("format %q: want dlsched.<kind>/<major>", format)
	}
	return k, major, nil
}

// Check reads the "format" of a JSON document and refuses one of another
// kind or major version than want ("dlsched.schedule/1"), or a format that
// is not a string, with a *FormatError. A document with no format is
// accepted as the current version (dlsched wrote none before formats were
// declared); one that is not a JSON object is left to the reader.
func Check(doc []byte, want string) error {
	var head struct {
		Format json.RawMessage `json:"format"`
	}
	if err := json.Unmarshal(doc, &head); err != nil || head.Format == nil {
		return nil // not JSON, or no declared format: the reader decides
	}
	var got string
	if err := json.Unmarshal(head.Format, &got); err != nil || string(head.Format) == "null" {
		return &FormatError{string(head.Format), want, "is not a string"}
	}
	return CheckFormat(got, want)
}

// FormatError is the refusal of a document by its declared format: Got
// is the format found, Want the one the reader reads. Readers turn it into
// a one-line usage error (errors.As).
type FormatError struct {
	Got, Want string
	why       string
}

// Error says what was found and what is wanted, in one line.
func (e *FormatError) Error() string {
	return fmt.Sprintf("format %q %s; want %s", e.Got, e.why, e.Want)
}

// CheckFormat compares a declared format with the one a reader wants and
// returns a *FormatError when they differ in kind or major version.
func CheckFormat(got, want string) error {
	wk, wm, err := Parse(want)
	if err != nil {
		return err
	}
	gk, gm, err := Parse(got)
	switch {
	case err != nil:
		return &FormatError{got, want, "is not of the form dlsched.<kind>/<major>"}
	case gk != wk:
		return &FormatError{got, want, "is a document of kind " + gk}
	case gm != wm:
		return &FormatError{got, want, fmt.Sprintf("is major version %d of %s, which this dlsched does not read", gm, wk)}
	}
	return nil
}

// Name returns the schema file of a format: "schedule.schema.json".
func Name(format string) (string, error) {
	k, _, err := Parse(format)
	if err != nil {
		return "", err
	}
	return k + ".schema.json", nil
}
