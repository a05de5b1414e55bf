package table

import (
	"fmt"
	"math"
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

// Chart builds the chart of ps from the records.
func Chart(recs Records, ps PlotSpec) (plotting.Chart, error) {
	cols := map[string]bool{}
	for _, c := range recs.Columns {
		cols[c] = true
	}
	check := func(what, c string) error {
		if !cols[c] {
			return &QueryError{Field: what, Value: c, Msg: "no such column (have " + strings.Join(recs.Columns, ", ") + ")"}
		}
		return nil
	}
	if err := check(FieldX, ps.X); err != nil {
		return plotting.Chart{}, err
	}
	if len(ps.Y) == 0 {
		return plotting.Chart{}, &QueryError{Field: FieldY, Msg: "want a column"}
	}
	for _, y := range ps.Y {
		if err := check(FieldY, y); err != nil {
			return plotting.Chart{}, err
		}
	}
	for _, s := range ps.Series {
		if err := check(FieldSeries, s); err != nil {
			return plotting.Chart{}, err
		}
	}
	for _, f := range ps.Where {
		if err := check(FieldWhere, f.Column); err != nil {
			return plotting.Chart{}, err
		}
	}
	for _, r := range ps.Refs {
		if err := check(FieldRef, r); err != nil {
			return plotting.Chart{}, err
		}
	}
	switch ps.Agg {
	case "", "min", "max", "mean", "first":
	default:
		return plotting.Chart{}, &QueryError{Field: FieldAgg, Value: ps.Agg, Msg: "want min, max, mean or first"}
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
		return plotting.Chart{}, &QueryError{Msg: "no rows match the {where} filters"}
	}
	// Results rows in grid order, whatever order the journal has them in
	// (workers finish in any order): lines, colours and legends do not
	// depend on it.
	sort.SliceStable(sel, func(i, j int) bool {
		a, aok := ParseNumber(sel[i]["index"])
		b, bok := ParseNumber(sel[j]["index"])
		return aok && bok && a < b
	})
	identity := func(r Record, skip string) string {
		var b strings.Builder
		for _, c := range recs.Identity {
			if c != skip && c != ps.X {
				b.WriteString(c + "=" + Canon(r[c]) + "\x00")
			}
		}
		b.WriteString("x=" + Canon(r[ps.X]))
		return b.String()
	}
	var base map[string]Record
	if ps.Minus != nil {
		if err := check(FieldMinus, ps.Minus.Column); err != nil {
			return plotting.Chart{}, err
		}
		if len(ps.Minus.Values) != 1 {
			return plotting.Chart{}, &QueryError{Field: FieldMinus, Value: ps.Minus.String(), Msg: "want one value"}
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
			return plotting.Chart{}, &QueryError{Field: FieldMinus, Value: ps.Minus.String(), Msg: "no row has that value"}
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
			a.num, a.isNum = ParseNumber(sortKey)
			lines[name] = a
			names = append(names, name)
		}
		if _, ok := a.ys[x]; !ok {
			a.xs = append(a.xs, x)
		}
		a.ys[x] = append(a.ys[x], y)
	}
	num := func(r Record, c string) (float64, bool) {
		v, ok := ParseNumber(r[c])
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
		return plotting.Chart{}, &QueryError{Msg: fmt.Sprintf("no row has numbers in both {x} %s and {y} %s", ps.X, strings.Join(ps.Y, ","))}
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
					return plotting.Chart{}, &QueryError{Msg: fmt.Sprintf("series %q has %d rows at %s=%g: add {where} filters, more {series} columns, or {agg} min|max|mean|first", name, len(ys), ps.X, x)}
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
