package day

import (
	"fmt"
	"strings"
)

// FieldError is bad input to the package: Field names it in the package's
// words ("Config.Workers", "Study.JobTimes"), Value is what was given and
// Want what would be valid; a {Field} in Want names another input.
type FieldError struct {
	Field, Value, Want string
}

// Error returns "day: invalid Config.Workers 0: want 1..100000".
func (e *FieldError) Error() string { return "day: " + e.Format(plain) }

// Format renders the error with every input named by name (the command
// line passes its flag names).
func (e *FieldError) Format(name func(field string) string) string {
	return fmt.Sprintf("invalid %s %s: want %s", name(e.Field), e.Value, expand(e.Want, name))
}

// LimitError refuses a run estimated to need more than a limit before
// anything in proportion to it is allocated: Field is the input that makes
// the run large, Limit the limit's field (Config.MaxEvents or
// Config.MaxBytes), Estimate and Max in Unit (events or MB).
type LimitError struct {
	Field, Value  string
	Limit         string
	Estimate, Max int64
	Unit          string
}

// Error returns the refusal in the package's words.
func (e *LimitError) Error() string { return "day: " + e.Format(plain) }

// Format renders the refusal with the inputs named by name.
func (e *LimitError) Format(name func(field string) string) string {
	return fmt.Sprintf("invalid %s %s: the run is estimated at %d %s, above %s = %d; raise %s or make the farm smaller",
		name(e.Field), e.Value, e.Estimate, e.Unit, name(e.Limit), e.Max, name(e.Limit))
}

func plain(field string) string { return field }

// expand replaces each {field} in s by name(field).
func expand(s string, name func(string) string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		j := strings.IndexByte(s[i+1:], '}')
		if i < 0 || j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(name(s[i+1 : i+1+j]))
		s = s[i+2+j:]
	}
}

// bad returns a *FieldError.
func bad(field string, value any, want string) error {
	return &FieldError{Field: field, Value: fmt.Sprint(value), Want: want}
}
