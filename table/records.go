package table

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/schedule"
)

// Record is one plottable row: column name → cell text (numbers as
// written by WriteCSV, "inf" for infinity, "" for none).
type Record map[string]string

// Records is a table of records with the columns that identify a record's
// inputs (used to pair a row with its baseline, see PlotSpec.Minus).
type Records struct {
	Rows []Record
	// Identity lists the input columns.
	Identity []string
	// Columns lists every column, in a sensible order for messages.
	Columns []string
}

// ScheduleRecords turns a schedule's chunks into records with columns
// stage, dest, processor, layer, load, start, arrival, compute_start,
// compute_end.
func ScheduleRecords(s *schedule.Schedule) Records {
	out := Records{Identity: []string{"stage", "dest"},
		Columns: []string{"stage", "dest", "processor", "layer", "load", "start", "arrival", "compute_start", "compute_end"}}
	for _, c := range s.Chunks {
		out.Rows = append(out.Rows, Record{
			"stage": strconv.Itoa(c.Stage), "dest": strconv.Itoa(c.Dest()),
			"processor": FormatInt(c.Processor), "layer": FormatInt(c.Layer),
			"load": FormatFloat(c.Load), "start": FormatFloat(c.Start), "arrival": FormatFloat(c.Arrival),
			"compute_start": FormatFloat(c.ComputeStart), "compute_end": FormatFloat(c.ComputeEnd),
		})
	}
	return out
}

// Filter is a COLUMN=VALUE[,VALUE...] condition. Numbers compare by
// value (D=1e2 matches 100, D=inf matches infinity), text exactly.
type Filter struct {
	Column string
	Values []string
}

// ParseFilter parses "column=value[,value...]".
func ParseFilter(s string) (Filter, error) {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" || strings.TrimSpace(v) == "" {
		return Filter{}, fmt.Errorf("%q: want column=value[,value...]", s)
	}
	f := Filter{Column: k}
	for _, x := range strings.Split(v, ",") {
		f.Values = append(f.Values, strings.TrimSpace(x))
	}
	return f, nil
}

// Match reports whether the record's cell equals one of the values.
func (f Filter) Match(r Record) bool {
	cell := r[f.Column]
	cn, cok := ParseNumber(cell)
	for _, v := range f.Values {
		if vn, ok := ParseNumber(v); ok && cok {
			if vn == cn || (vn != 0 && math.Abs(vn-cn) <= 1e-12*math.Abs(vn)) {
				return true
			}
		} else if strings.EqualFold(v, cell) {
			return true
		}
	}
	return false
}

// String returns "column=v1,v2".
func (f Filter) String() string { return f.Column + "=" + strings.Join(f.Values, ",") }
