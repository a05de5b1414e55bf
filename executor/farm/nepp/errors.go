package nepp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The library's names of the inputs, as errors give them (FieldError,
// LimitError). A command line maps each to its own syntax (Format).
const (
	FieldAlgorithm    = "Config.Algorithm"
	FieldSpeeds       = "Config.Speeds"
	FieldShares       = "Config.Shares"
	FieldQueue        = "Config.Queue"
	FieldQMin         = "Config.QMin"
	FieldJobs         = "Config.Jobs"
	FieldWork         = "Config.Work"
	FieldUseful       = "Config.Useful"
	FieldHostOverhead = "Config.HostOverhead"
	FieldWorkDist     = "Config.WorkDist"
	FieldSetup        = "Config.Setup"
	FieldPerByte      = "Config.PerByte"
	FieldJobBytes     = "Config.JobBytes"
	FieldResultBytes  = "Config.ResultBytes"
	FieldCrashes      = "Config.Crashes"
	FieldSlows        = "Config.Slows"
	// FieldScanP is Scan's range of p (from, to), FieldSlowSpeed its
	// slow node's speed.
	FieldScanP     = "Scan.P"
	FieldSlowSpeed = "Scan.Slow"
	// FieldMaxEvents and FieldMaxBytes are the fields of Limits.
	FieldMaxEvents = "Limits.MaxEvents"
	FieldMaxBytes  = "Limits.MaxBytes"
)

// FieldError is an input with an invalid value. Field names it in the
// library's words (FieldQueue, ...); Value is the value as given (for an
// entry of a list, with its 1-based position: "-1 (node 2)"); Want says
// what would be valid and may refer to other fields as {name}.
type FieldError struct {
	Field, Value, Want string
}

// Error implements error: "nepp: invalid Config.Queue 0: want 1..10000000".
func (e *FieldError) Error() string { return "nepp: " + e.Format(plainName) }

// Format renders the error with every field named by name: the field
// itself and each {field} in Want. A command line passes a function
// returning its flag ("--queue").
func (e *FieldError) Format(name func(field string) string) string {
	return fmt.Sprintf("invalid %s %s: want %s", name(e.Field), e.Value, expand(e.Want, name))
}

// LimitError refuses a run or a scan whose estimated cost exceeds a limit
// (Limits), before anything in proportion to it is allocated. What names
// the run ("ft on 100000 nodes with 100 jobs"), Need the estimate (an
// upper bound if Bound) and Limit the limit, both in Unit ("simulation
// events" or "MB of memory"); Field is FieldMaxEvents or FieldMaxBytes;
// Fewer names what the caller could reduce instead, as {field}s.
type LimitError struct {
	What        string
	Need, Limit float64
	Unit        string
	Bound       bool
	Field       string
	Fewer       string
}

// Error implements error.
func (e *LimitError) Error() string { return "nepp: " + e.Format(plainName) }

// Format renders the error with every field named by name.
func (e *LimitError) Format(name func(field string) string) string {
	need := "needs about"
	if e.Bound {
		need = "may need up to"
	}
	return fmt.Sprintf("%s %s %s %s, more than %s %s: raise it or use fewer %s",
		expand(e.What, name), need, about(e.Need), e.Unit, name(e.Field), strconv.FormatFloat(e.Limit, 'f', -1, 64), expand(e.Fewer, name))
}

// about writes an estimate: whole below a million, else 3 digits.
func about(x float64) string {
	if x < 1e6 {
		return strconv.FormatFloat(math.Ceil(x), 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

func plainName(field string) string { return field }

// expand replaces each {field} in s by name(field).
func expand(s string, name func(string) string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(name(s[i+1 : i+j]))
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}
