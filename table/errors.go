package table

import (
	"strings"

	"github.com/dlsched/dlsched/problem"
)

// The option names of a chart query in errors (fields of PlotSpec).
const (
	FieldX      = "x"
	FieldY      = "y"
	FieldSeries = "series"
	FieldWhere  = "where"
	FieldMinus  = "minus"
	FieldAgg    = "agg"
	FieldRef    = "ref"
)

// QueryError is a chart query that cannot be answered. Field names the
// option at fault (FieldX, ...; "" when the message names several) and
// Value its value; Msg says why and may refer to options as {x}, {where},
// ... (see Format).
type QueryError struct {
	Field, Value, Msg string
}

// Error implements error: "invalid x W: no such column (have ...)".
func (e *QueryError) Error() string { return e.Format(func(f string) string { return f }) }

// Format renders the error with the options named by name (the command
// line passes its flag syntax).
func (e *QueryError) Format(name func(field string) string) string {
	msg := problem.Expand(e.Msg, name)
	if e.Field == "" {
		return msg
	}
	var b strings.Builder
	b.WriteString("invalid " + name(e.Field))
	if e.Value != "" {
		b.WriteString(" " + e.Value)
	}
	b.WriteString(": " + msg)
	return b.String()
}
