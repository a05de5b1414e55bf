package platform

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FieldError is an input with an invalid value. Field names it in the
// library's words ("Config.Workers", "Platform.Topology.K"); Value is the
// value as given (for an entry of a list, with its 1-based position:
// "-1 (worker 2)"); Want says what would be valid and may name other
// inputs as {Field}. Pkg prefixes Error's text ("day", "nepp").
type FieldError struct {
	Pkg, Field, Value, Want string
}

// Error returns "day: invalid Config.Workers 0: want 1..100000".
func (e *FieldError) Error() string { return prefix(e.Pkg) + e.Format(Plain) }

// Format renders the error with every input named by name (a command line
// passes a function that returns its flag: "--workers").
func (e *FieldError) Format(name func(field string) string) string {
	return fmt.Sprintf("invalid %s %s: want %s", name(e.Field), e.Value, Expand(e.Want, name))
}

// Bad returns a *FieldError of package pkg.
func Bad(pkg, field string, value any, want string) error {
	return &FieldError{Pkg: pkg, Field: field, Value: fmt.Sprint(value), Want: want}
}

// LimitError refuses a run estimated to need more than a limit allows,
// before anything in proportion to the estimate is allocated. What names
// the run ("a chain of 100000 processors"), Need is the estimate (an upper
// bound when Bound) and Limit the limit, both in Unit ("MB of memory",
// "simulation events"); Field is the limit's input ("Limits.MaxBytes");
// Fewer names what else the caller could reduce, as {Field}s.
type LimitError struct {
	Pkg         string
	What        string
	Need, Limit float64
	Unit        string
	Bound       bool
	Field       string
	Fewer       string
}

// Error returns the refusal in the library's words.
func (e *LimitError) Error() string { return prefix(e.Pkg) + e.Format(Plain) }

// Format renders the refusal with every input named by name.
func (e *LimitError) Format(name func(field string) string) string {
	need := "needs about"
	if e.Bound {
		need = "may need up to"
	}
	s := fmt.Sprintf("%s %s %.4g %s, more than %s %s: raise it", e.What, need, e.Need, e.Unit, name(e.Field), limit(e.Limit))
	if e.Fewer != "" {
		s += " or use fewer " + Expand(e.Fewer, name)
	}
	return s
}

// limit writes a limit as its flag takes it: a whole number in full
// ("50000000", not "5e+07"), anything else in four digits.
func limit(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// Named is what a command line needs of an input error: its text with
// the inputs named its way. *FieldError and *LimitError implement it.
type Named interface {
	error
	Format(name func(field string) string) string
}

// Plain names a field by itself.
func Plain(field string) string { return field }

func prefix(pkg string) string {
	if pkg == "" {
		return "platform: "
	}
	return pkg + ": "
}

// Expand replaces each {field} in s by name(field).
func Expand(s string, name func(string) string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(name(s[i+1 : i+1+j]))
		s = s[i+2+j:]
	}
	b.WriteString(s)
	return b.String()
}
