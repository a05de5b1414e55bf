package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/plotting"
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

// rowIdentity are the input columns of a results row.
var rowIdentity = []string{"label", "topology", "order", "buffers", "m", "p", "h", "S", "C", "A", "D", "V", "stages_policy"}

// RowRecords turns results rows into records with the CSVHeader columns
// plus "D/V".
func RowRecords(rows []Row) Records {
	out := Records{Identity: rowIdentity, Columns: append(append([]string{}, CSVHeader...), "D/V")}
	for i := range rows {
		rec := Record{}
		for k, cell := range rowCells(&rows[i]) {
			rec[CSVHeader[k]] = cell
		}
		rec["D/V"] = fmtFloat(float64(rows[i].Problem.D) / rows[i].Problem.V)
		out.Rows = append(out.Rows, rec)
	}
	return out
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
			"processor": optI(c.Processor), "layer": optI(c.Layer),
			"load": fmtFloat(c.Load), "start": fmtFloat(c.Start), "arrival": fmtFloat(c.Arrival),
			"compute_start": fmtFloat(c.ComputeStart), "compute_end": fmtFloat(c.ComputeEnd),
		})
	}
	return out
}

// LoadRecords reads a results file (JSON lines; a torn last line is
// ignored) or a schedule written by `dlsched solve --format json` (one
// object with "chunks"), and returns its records.
func LoadRecords(path string) (Records, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Records{}, err
	}
	trim := bytes.TrimSpace(b)
	if bytes.HasPrefix(trim, []byte("{")) {
		var probe struct {
			Chunks json.RawMessage `json:"chunks"`
			Key    string          `json:"key"`
		}
		if dec := json.NewDecoder(bytes.NewReader(trim)); dec.Decode(&probe) == nil && probe.Chunks != nil && probe.Key == "" {
			s, err := schedule.ReadJSON(bytes.NewReader(trim))
			if err != nil {
				return Records{}, fmt.Errorf("%s: %w", path, err)
			}
			return ScheduleRecords(s), nil
		}
	}
	rows, _, _, err := parseRows(path, b)
	if err != nil {
		return Records{}, err
	}
	return RowRecords(rows), nil
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

func parseNum(s string) (float64, bool) {
	switch strings.ToLower(s) {
	case "inf", "+inf", "infinity":
		return math.Inf(1), true
	case "-inf":
		return math.Inf(-1), true
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// Match reports whether the record's cell equals one of the values.
func (f Filter) Match(r Record) bool {
	cell := r[f.Column]
	cn, cok := parseNum(cell)
	for _, v := range f.Values {
		if vn, ok := parseNum(v); ok && cok {
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

// PlotSpec describes a chart drawn from records.
type PlotSpec struct {
	// X and Y name the columns; Y may list several (one line each per
	// series).
	X string
	Y []string
	// Series names the columns whose values split the records into lines
	// (none: one line).
	Series []string
	// Where keeps only the records that match every filter.
	Where []Filter
	// Minus, if set (one value), draws y − y(baseline): the baseline of
	// a record is the record with the same inputs except Minus.Column,
	// which has the value Minus.Values[0]. Baseline records are not drawn;
	// differences within 1e-9 relative (the certified gap) are drawn as 0.
	Minus *Filter
	// Agg combines several records at the same x in one line: "min",
	// "max", "mean" or "first"; "" makes that an error.
	Agg string
	// Refs name columns drawn as reference lines (one line each, e.g.
	// lb_trivial), with the same filters; where rows at one x differ, the
	// least value is drawn (refs are meant for lower bounds).
	Refs []string
	// LogX and LogY use logarithmic axes; Title, XLabel and YLabel
	// override the defaults (the columns' names in words with units,
	// ColumnLabel; the title names the axes and a note under it lists the
	// parameters that are the same in every row drawn).
	LogX, LogY            bool
	Title, XLabel, YLabel string
}

// Chart builds the chart of ps from the records.
func Chart(recs Records, ps PlotSpec) (plotting.Chart, error) {
	cols := map[string]bool{}
	for _, c := range recs.Columns {
		cols[c] = true
	}
	check := func(what, c string) error {
		if !cols[c] {
			return fmt.Errorf("invalid --%s %s: no such column (have %s)", what, c, strings.Join(recs.Columns, ", "))
		}
		return nil
	}
	if err := check("x", ps.X); err != nil {
		return plotting.Chart{}, err
	}
	if len(ps.Y) == 0 {
		return plotting.Chart{}, fmt.Errorf("invalid --y: want a column")
	}
	for _, y := range ps.Y {
		if err := check("y", y); err != nil {
			return plotting.Chart{}, err
		}
	}
	for _, s := range ps.Series {
		if err := check("series", s); err != nil {
			return plotting.Chart{}, err
		}
	}
	for _, f := range ps.Where {
		if err := check("where", f.Column); err != nil {
			return plotting.Chart{}, err
		}
	}
	for _, r := range ps.Refs {
		if err := check("ref", r); err != nil {
			return plotting.Chart{}, err
		}
	}
	switch ps.Agg {
	case "", "min", "max", "mean", "first":
	default:
		return plotting.Chart{}, fmt.Errorf("invalid --agg %s: want min, max, mean or first", ps.Agg)
	}
	var sel []Record
	for _, r := range recs.Rows {
		ok := true
		for _, f := range ps.Where {
			ok = ok && f.Match(r)
		}
		if ok {
			sel = append(sel, r)
		}
	}
	if len(sel) == 0 {
		return plotting.Chart{}, fmt.Errorf("no rows match the --where filters")
	}
	// Results rows in grid order, whatever order the journal has them in
	// (workers finish in any order): lines, colours and legends do not
	// depend on it.
	sort.SliceStable(sel, func(i, j int) bool {
		a, aok := parseNum(sel[i]["index"])
		b, bok := parseNum(sel[j]["index"])
		return aok && bok && a < b
	})
	identity := func(r Record, skip string) string {
		var b strings.Builder
		for _, c := range recs.Identity {
			if c != skip && c != ps.X {
				b.WriteString(c + "=" + canon(r[c]) + "\x00")
			}
		}
		b.WriteString("x=" + canon(r[ps.X]))
		return b.String()
	}
	var base map[string]Record
	if ps.Minus != nil {
		if err := check("minus", ps.Minus.Column); err != nil {
			return plotting.Chart{}, err
		}
		if len(ps.Minus.Values) != 1 {
			return plotting.Chart{}, fmt.Errorf("invalid --minus %s: want one value", ps.Minus)
		}
		base = map[string]Record{}
		var rest []Record
		for _, r := range sel {
			if ps.Minus.Match(r) {
				base[identity(r, ps.Minus.Column)] = r
			} else {
				rest = append(rest, r)
			}
		}
		if len(base) == 0 {
			return plotting.Chart{}, fmt.Errorf("invalid --minus %s: no row has that value", ps.Minus)
		}
		sel = rest
	}
	type acc struct {
		xs    []float64
		ys    map[float64][]float64
		order int
		num   float64
		isNum bool
	}
	lines := map[string]*acc{}
	var names []string
	add := func(name string, sortKey string, x, y float64) {
		a := lines[name]
		if a == nil {
			a = &acc{ys: map[float64][]float64{}, order: len(names)}
			a.num, a.isNum = parseNum(sortKey)
			lines[name] = a
			names = append(names, name)
		}
		if _, ok := a.ys[x]; !ok {
			a.xs = append(a.xs, x)
		}
		a.ys[x] = append(a.ys[x], y)
	}
	num := func(r Record, c string) (float64, bool) {
		v, ok := parseNum(r[c])
		return v, ok && !math.IsNaN(v)
	}
	for _, r := range sel {
		x, ok := num(r, ps.X)
		if !ok {
			continue
		}
		var parts []string
		for _, s := range ps.Series {
			parts = append(parts, legendPart(s, r[s]))
		}
		series := strings.Join(parts, ", ")
		for _, yc := range ps.Y {
			y, ok := num(r, yc)
			if !ok {
				continue
			}
			if base != nil {
				b, ok := base[identity(r, ps.Minus.Column)]
				if !ok {
					continue
				}
				by, ok := num(b, yc)
				if !ok {
					continue
				}
				// Differences within the certified gap (1e-9
				// relative) are round-off: draw them as 0.
				if math.Abs(y-by) <= 1e-9*math.Max(math.Abs(y), math.Abs(by)) {
					y = 0
				} else {
					y -= by
				}
			}
			name := series
			if len(ps.Y) > 1 || name == "" {
				if name == "" {
					name = shortName(yc)
				} else {
					name = shortName(yc) + ": " + name
				}
			}
			sortKey := ""
			if len(ps.Series) == 1 && len(ps.Y) == 1 {
				sortKey = r[ps.Series[0]]
			}
			add(name, sortKey, x, y)
		}
	}
	for _, rc := range ps.Refs {
		for _, r := range sel {
			x, ok1 := num(r, ps.X)
			y, ok2 := num(r, rc)
			if ok1 && ok2 {
				add(shortName(rc), "", x, y)
			}
		}
	}
	if len(names) == 0 {
		return plotting.Chart{}, fmt.Errorf("no row has numbers in both --x %s and --y %s", ps.X, strings.Join(ps.Y, ","))
	}
	isRef := map[string]bool{}
	for _, rc := range ps.Refs {
		isRef[shortName(rc)] = true
	}
	sort.SliceStable(names, func(i, j int) bool {
		a, b := lines[names[i]], lines[names[j]]
		if isRef[names[i]] != isRef[names[j]] {
			return !isRef[names[i]]
		}
		if a.isNum && b.isNum {
			return a.num < b.num
		}
		return a.order < b.order
	})
	ylabels := make([]string, len(ps.Y))
	for i, y := range ps.Y {
		ylabels[i] = ColumnLabel(y)
	}
	ch := plotting.Chart{Title: ps.Title, XLabel: ColumnLabel(ps.X), YLabel: strings.Join(ylabels, ", "), LogX: ps.LogX, LogY: ps.LogY}
	if ps.Minus != nil {
		names := make([]string, len(ps.Y))
		for i, y := range ps.Y {
			names[i] = shortName(y)
			if y == "cmax" {
				names[i] = "Cmax"
			}
		}
		unit := ""
		if l := ch.YLabel; strings.HasSuffix(l, ")") {
			unit = l[strings.LastIndex(l, " ("):]
		}
		ch.YLabel = fmt.Sprintf("%s − %s at %s%s", strings.Join(names, ", "), strings.Join(names, ", "), legendPart(ps.Minus.Column, ps.Minus.Values[0]), unit)
	}
	if ch.Title == "" {
		ch.Title = ch.YLabel + " vs " + ch.XLabel
		for _, l := range []string{" (s)", " (units)", " (s/unit)"} {
			ch.Title = strings.ReplaceAll(ch.Title, l, "")
		}
	}
	skip := map[string]bool{ps.X: true}
	for _, c := range ps.Series {
		skip[c] = true
	}
	if ps.Minus != nil {
		skip[ps.Minus.Column] = true
	}
	ch.Note = fixedNote(sel, recs.Identity, skip)
	if ps.XLabel != "" {
		ch.XLabel = ps.XLabel
	}
	if ps.YLabel != "" {
		ch.YLabel = ps.YLabel
	}
	for _, name := range names {
		a := lines[name]
		s := plotting.Series{Name: name}
		sort.Float64s(a.xs)
		for _, x := range a.xs {
			ys := a.ys[x]
			y := ys[0]
			if len(ys) > 1 {
				same := true
				for _, v := range ys[1:] {
					same = same && v == ys[0]
				}
				switch {
				case same:
				case isRef[name]:
					for _, v := range ys {
						y = math.Min(y, v)
					}
				case ps.Agg == "":
					return plotting.Chart{}, fmt.Errorf("series %q has %d rows at %s=%g: add --where filters, more --series columns, or --agg min|max|mean|first", name, len(ys), ps.X, x)
				case ps.Agg == "min":
					for _, v := range ys {
						y = math.Min(y, v)
					}
				case ps.Agg == "max":
					for _, v := range ys {
						y = math.Max(y, v)
					}
				case ps.Agg == "mean":
					y = 0
					for _, v := range ys {
						y += v
					}
					y /= float64(len(ys))
				}
			}
			s.X = append(s.X, x)
			s.Y = append(s.Y, y)
		}
		ch.Series = append(ch.Series, s)
	}
	return ch, nil
}

// canon writes numbers canonically so that identities match across
// spellings.
func canon(s string) string {
	if f, ok := parseNum(s); ok {
		return fmtFloat(f)
	}
	return s
}
