package problem

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/topology"
)

// The names of the fields of a problem, as every error of this package
// and of the packages that build problems names them. They are the
// paper's symbols (S, C, A, D, V, m, p, h) and the words of the JSON and
// TOML inputs; the command line maps them to its flags.
const (
	FieldTopology = "topology"
	FieldOrder    = "order"
	FieldBuffers  = "buffers"
	FieldM        = "m"
	FieldP        = "p"
	FieldH        = "h"
	FieldS        = "S"
	FieldC        = "C"
	FieldA        = "A"
	FieldD        = "D"
	FieldV        = "V"
	FieldProcs    = "procs"
	FieldRelay    = "relay"
	FieldStages   = "stages"
	// FieldResultRatio is β, the results per unit of load (stars), and
	// FieldReturn the order of the result messages (fifo or lifo).
	FieldResultRatio = "result_ratio"
	FieldReturn      = "return"
)

const topologyWant = "star, tree or binomial"

// FieldError is an input with an invalid value. Field names it in the
// library's words (FieldS, FieldM, ..., or an option's name such as
// "DMax"); Value is the value as given; Want says what would be valid and
// may refer to other fields as {name} (see Format).
type FieldError struct {
	Field string
	Value string
	Want  string
}

// Error implements error: "invalid V 0: want a finite number > 0".
func (e *FieldError) Error() string { return e.Format(plainName) }

// Format renders the error with every field named by name — the field
// itself and each {field} in Want. The command line passes a function that
// returns its flag syntax ("--V"); Error passes the field unchanged.
func (e *FieldError) Format(name func(field string) string) string {
	return fmt.Sprintf("invalid %s %s: want %s", name(e.Field), e.Value, Expand(e.Want, name))
}

// Named is an error that names input fields: Format renders it with each
// field named by name. FieldError, StagesError and the errors of other
// packages about their inputs (sweep shards, table queries) implement it.
type Named interface {
	error
	Format(name func(field string) string) string
}

func plainName(field string) string { return field }

// Expand replaces each {field} in s by name(field).
func Expand(s string, name func(field string) string) string {
	if !strings.Contains(s, "{") {
		return s
	}
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

// intRange is the valid range of an integer field.
type intRange struct{ lo, hi int }

var intRanges = map[string]intRange{
	FieldM:       {1, 100000},
	FieldP:       {1, 1000},
	FieldH:       {1, 60},
	FieldBuffers: {1, 2},
	FieldStages:  {1, math.MaxInt32},
}

// CheckInt checks the integer field (FieldM, FieldP, FieldH, FieldBuffers
// or FieldStages) against its range: m from 1 to 100000, p from 1 to 1000,
// h from 1 to 60, buffers from 1 to 2, stages >= 1. It returns nil or a
// *FieldError.
func CheckInt(field string, v int) error {
	r, ok := intRanges[field]
	if !ok {
		panic("problem: CheckInt of unknown field " + field)
	}
	if v >= r.lo && v <= r.hi {
		return nil
	}
	want := fmt.Sprintf("an integer from %d to %d", r.lo, r.hi)
	if r.hi == math.MaxInt32 {
		want = fmt.Sprintf("an integer >= %d", r.lo)
	}
	return &FieldError{field, fmt.Sprint(v), want}
}

// CheckFloat checks the number field FieldS (finite, >= 0), FieldC,
// FieldA, FieldV (finite, > 0) or FieldD (> 0, +Inf allowed: unlimited
// buffers). It returns nil or a *FieldError.
func CheckFloat(field string, v float64) error {
	bad := func(want string) error { return &FieldError{field, fmtVal(v), want} }
	switch field {
	case FieldS:
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return bad("a finite number >= 0")
		}
	case FieldC, FieldA, FieldV:
		if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
			return bad("a finite number > 0")
		}
	case FieldD:
		if math.IsNaN(v) || v <= 0 {
			return bad("a number > 0 or inf")
		}
	default:
		panic("problem: CheckFloat of unknown field " + field)
	}
	return nil
}

// checkRelaxed is CheckFloat under the replay's rules (ValidateRelaxed):
// C, A and V may also be 0.
func checkRelaxed(field string, v float64) error {
	switch field {
	case FieldC, FieldA, FieldV:
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return &FieldError{field, fmtVal(v), "a finite number >= 0"}
		}
		return nil
	}
	return CheckFloat(field, v)
}

func fmtVal(v float64) string { return fmt.Sprintf("%g", v) }

// InfAllowed reports whether the number field accepts infinity (only D).
func InfAllowed(field string) bool { return field == FieldD }

// ParseFloat reads the text s of the number field: a finite number, or for
// D also inf (+inf, infinity; any case). NaN, -inf and, except for D, +inf
// are refused with a *FieldError; so is an empty s (Value ""). Ranges are
// checked by CheckFloat, not here.
func ParseFloat(field, s string) (float64, error) {
	return ParseNumber(field, s, InfAllowed(field))
}

// ParseNumber is ParseFloat for any named number, with infinity allowed or
// not: the one reader of "inf" for text inputs (flags, TOML strings).
func ParseNumber(field, s string, allowInf bool) (float64, error) {
	s = strings.TrimSpace(s)
	want := "a finite number"
	if allowInf {
		want = "a finite number or inf"
	}
	if s == "" {
		return 0, &FieldError{field, `""`, want}
	}
	if allowInf {
		switch strings.ToLower(s) {
		case "inf", "+inf", "infinity":
			return math.Inf(1), nil
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || (math.IsInf(v, 0) && !(allowInf && v > 0)) {
		return 0, &FieldError{field, oneLine(s), want}
	}
	return v, nil
}

// ParseInt reads the text s of an integer field.
func ParseInt(field, s string) (int, error) {
	s = strings.TrimSpace(s)
	v, err := strconv.Atoi(s)
	if err == nil {
		return v, nil
	}
	// An integral value in exponent or decimal form (1e9, 1000.0) is an
	// integer too, as long as it is exact and fits.
	if f, ferr := strconv.ParseFloat(s, 64); ferr == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
		return int(f), nil
	}
	if s == "" {
		s = `""`
	}
	return 0, &FieldError{field, oneLine(s), "an integer"}
}

// ParseTopology reads a topology name: star, tree or binomial.
func ParseTopology(s string) (topology.Kind, error) {
	k, err := topology.ParseKind(s)
	if err != nil {
		return 0, &FieldError{FieldTopology, oneLine(s), topologyWant}
	}
	return k, nil
}

// ParseOrder reads a layer activation order: nlf or llf.
func ParseOrder(s string) (topology.Order, error) {
	o, err := topology.ParseOrder(s)
	if err != nil {
		return 0, &FieldError{FieldOrder, oneLine(s), "nlf or llf"}
	}
	return o, nil
}

// ParseReturn reads the order of the result messages: fifo or lifo (""
// is fifo).
func ParseReturn(s string) (ReturnOrder, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "fifo", "":
		return ReturnFIFO, nil
	case "lifo":
		return ReturnLIFO, nil
	}
	return 0, &FieldError{FieldReturn, oneLine(s), "fifo or lifo"}
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
