package table

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/dlsched/dlsched/plotting"
)

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

// Chart builds the chart of ps from the records: it checks the query,
// selects the records, pairs them with their baselines (Minus), gathers
// the lines and combines the values at each x (Agg, Refs).
func Chart(recs Records, ps PlotSpec) (plotting.Chart, error) {
	if len(recs.Rows) == 0 {
		return plotting.Chart{}, &QueryError{Msg: "the results have no rows: nothing to draw"}
	}
	if err := checkQuery(recs, ps); err != nil {
		return plotting.Chart{}, err
	}
	q := &query{recs: recs, ps: ps, lines: map[string]*line{}}
	if err := q.selectRows(); err != nil {
		return plotting.Chart{}, err
	}
	if err := q.baselines(); err != nil {
		return plotting.Chart{}, err
	}
	q.gather()
	if len(q.names) == 0 {
		return plotting.Chart{}, &QueryError{Msg: fmt.Sprintf("no row has numbers in both {x} %s and {y} %s", ps.X, strings.Join(ps.Y, ","))}
	}
	q.sortLines()
	ch := q.labels()
	for _, name := range q.names {
		s, err := q.series(name)
		if err != nil {
			return plotting.Chart{}, err
		}
		ch.Series = append(ch.Series, s)
	}
	return ch, nil
}

// checkColumn refuses a column the records lack, naming the option.
func checkColumn(recs Records, what, c string) error {
	if slices.Contains(recs.Columns, c) {
		return nil
	}
	return &QueryError{Field: what, Value: c, Msg: "no such column (have " + strings.Join(recs.Columns, ", ") + ")"}
}

// checkQuery refuses a query naming a column the records lack or an
// unknown aggregation (the Minus column is checked with the baselines).
func checkQuery(recs Records, ps PlotSpec) error {
	check := func(what, c string) error { return checkColumn(recs, what, c) }
	if err := check(FieldX, ps.X); err != nil {
		return err
	}
	if len(ps.Y) == 0 {
		return &QueryError{Field: FieldY, Msg: "want a column"}
	}
	for _, group := range []struct {
		field string
		cols  []string
	}{{FieldY, ps.Y}, {FieldSeries, ps.Series}, {FieldWhere, filterColumns(ps.Where)}, {FieldRef, ps.Refs}} {
		for _, c := range group.cols {
			if err := check(group.field, c); err != nil {
				return err
			}
		}
	}
	switch ps.Agg {
	case "", "min", "max", "mean", "first":
	default:
		return &QueryError{Field: FieldAgg, Value: ps.Agg, Msg: "want min, max, mean or first"}
	}
	return nil
}

func filterColumns(fs []Filter) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Column
	}
	return out
}

// line gathers the points of one line of a chart.
type line struct {
	xs    []float64
	ys    map[float64][]float64
	order int
	num   float64
	isNum bool
}

// query is a chart query being answered.
type query struct {
	recs  Records
	ps    PlotSpec
	sel   []Record
	base  map[string]Record
	lines map[string]*line
	names []string
	isRef map[string]bool
}

// selectRows keeps the records that match every filter, in grid order.
func (q *query) selectRows() error {
	for _, r := range q.recs.Rows {
		ok := true
		for _, f := range q.ps.Where {
			ok = ok && f.Match(r)
		}
		if ok {
			q.sel = append(q.sel, r)
		}
	}
	if len(q.sel) == 0 {
		return &QueryError{Msg: "no rows match the {where} filters"}
	}
	// Results rows in grid order, whatever order the journal has them in
	// (workers finish in any order): lines, colours and legends do not
	// depend on it.
	sort.SliceStable(q.sel, func(i, j int) bool {
		a, aok := ParseNumber(q.sel[i]["index"])
		b, bok := ParseNumber(q.sel[j]["index"])
		return aok && bok && a < b
	})
	return nil
}

// identity is the key of a record's inputs other than skip and x, with
// its x.
func (q *query) identity(r Record, skip string) string {
	var b strings.Builder
	for _, c := range q.recs.Identity {
		if c != skip && c != q.ps.X {
			b.WriteString(c + "=" + Canon(r[c]) + "\x00")
		}
	}
	b.WriteString("x=" + Canon(r[q.ps.X]))
	return b.String()
}

// baselines sets aside the records of the Minus value as baselines.
func (q *query) baselines() error {
	m := q.ps.Minus
	if m == nil {
		return nil
	}
	if err := checkColumn(q.recs, FieldMinus, m.Column); err != nil {
		return err
	}
	if len(m.Values) != 1 {
		return &QueryError{Field: FieldMinus, Value: m.String(), Msg: "want one value"}
	}
	q.base = map[string]Record{}
	var rest []Record
	for _, r := range q.sel {
		if m.Match(r) {
			q.base[q.identity(r, m.Column)] = r
		} else {
			rest = append(rest, r)
		}
	}
	if len(q.base) == 0 {
		return &QueryError{Field: FieldMinus, Value: m.String(), Msg: "no row has that value"}
	}
	q.sel = rest
	return nil
}

// add puts the point (x, y) on the named line.
func (q *query) add(name string, sortKey string, x, y float64) {
	a := q.lines[name]
	if a == nil {
		a = &line{ys: map[float64][]float64{}, order: len(q.names)}
		a.num, a.isNum = ParseNumber(sortKey)
		q.lines[name] = a
		q.names = append(q.names, name)
	}
	if _, ok := a.ys[x]; !ok {
		a.xs = append(a.xs, x)
	}
	a.ys[x] = append(a.ys[x], y)
}

// num reads a cell as a number (NaN is none).
func num(r Record, c string) (float64, bool) {
	v, ok := ParseNumber(r[c])
	return v, ok && !math.IsNaN(v)
}

// gather puts every selected record on its lines, and the reference
// columns on theirs.
func (q *query) gather() {
	ps := q.ps
	for _, r := range q.sel {
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
			y, ok := q.yValue(r, yc)
			if !ok {
				continue
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
			q.add(name, sortKey, x, y)
		}
	}
	for _, rc := range ps.Refs {
		for _, r := range q.sel {
			x, ok1 := num(r, ps.X)
			y, ok2 := num(r, rc)
			if ok1 && ok2 {
				q.add(shortName(rc), "", x, y)
			}
		}
	}
}

// yValue is the record's y in column yc, minus its baseline's with Minus.
func (q *query) yValue(r Record, yc string) (float64, bool) {
	y, ok := num(r, yc)
	if !ok || q.base == nil {
		return y, ok
	}
	b, ok := q.base[q.identity(r, q.ps.Minus.Column)]
	if !ok {
		return 0, false
	}
	by, ok := num(b, yc)
	if !ok {
		return 0, false
	}
	// Differences within the certified gap (1e-9 relative) are
	// round-off: draw them as 0.
	if math.Abs(y-by) <= 1e-9*math.Max(math.Abs(y), math.Abs(by)) {
		return 0, true
	}
	return y - by, true
}

// sortLines orders the lines: data before references, numeric series by
// value, the others as they came.
func (q *query) sortLines() {
	q.isRef = map[string]bool{}
	for _, rc := range q.ps.Refs {
		q.isRef[shortName(rc)] = true
	}
	sort.SliceStable(q.names, func(i, j int) bool {
		a, b := q.lines[q.names[i]], q.lines[q.names[j]]
		if q.isRef[q.names[i]] != q.isRef[q.names[j]] {
			return !q.isRef[q.names[i]]
		}
		if a.isNum && b.isNum {
			return a.num < b.num
		}
		return a.order < b.order
	})
}

// labels returns the chart without series: axis titles in words with
// units, the title, and the note of the parameters fixed in every row.
func (q *query) labels() plotting.Chart {
	ps := q.ps
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
	ch.Note = fixedNote(q.sel, q.recs.Identity, skip)
	if ps.XLabel != "" {
		ch.XLabel = ps.XLabel
	}
	if ps.YLabel != "" {
		ch.YLabel = ps.YLabel
	}
	return ch
}

// series returns the named line with one y per x: equal values once,
// references at their least, data by Agg (an error without Agg).
func (q *query) series(name string) (plotting.Series, error) {
	a := q.lines[name]
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
			case q.isRef[name]:
				for _, v := range ys {
					y = math.Min(y, v)
				}
			case q.ps.Agg == "":
				return s, &QueryError{Msg: fmt.Sprintf("series %q has %d rows at %s=%g: add {where} filters, more {series} columns, or {agg} min|max|mean|first", name, len(ys), q.ps.X, x)}
			case q.ps.Agg == "min":
				for _, v := range ys {
					y = math.Min(y, v)
				}
			case q.ps.Agg == "max":
				for _, v := range ys {
					y = math.Max(y, v)
				}
			case q.ps.Agg == "mean":
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
	return s, nil
}
