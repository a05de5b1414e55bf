package table

import (
	"math"
	"strings"
)

// columnLabels names the columns of results and schedule records for axis
// titles and legends, with their units (times in seconds, loads and buffer
// sizes in load units).
var columnLabels = map[string]string{
	"V":                   "load V (units)",
	"D":                   "buffer size D (units)",
	"D/V":                 "buffer size relative to the load, D/V",
	"S":                   "startup time S (s)",
	"C":                   "transfer time C (s/unit)",
	"A":                   "computing time A (s/unit)",
	"m":                   "processors m",
	"p":                   "out-degree p",
	"h":                   "height h",
	"buffers":             "buffers per node",
	"cmax":                "makespan Cmax (s)",
	"lower_bound":         "certified lower bound (s)",
	"gap":                 "certified relative gap",
	"stages":              "stages carrying load",
	"stages_built":        "stages n",
	"n_min":               "fewest stages n_min",
	"lb_trivial":          "trivial bound S + VA/P (s)",
	"lb_layer":            "one-layer strategy (s)",
	"lps":                 "LP solves",
	"iterations":          "simplex iterations",
	"seconds":             "wall time (s)",
	"solve_seconds":       "solve time (s)",
	"verify_seconds":      "verification time (s)",
	"makespan":            "executor makespan (s)",
	"pattern_gap":         "gap to the bound over every pattern",
	"pattern_lower_bound": "bound over every pattern (s)",
	"stage":               "stage",
	"dest":                "destination",
	"processor":           "processor",
	"layer":               "layer",
	"load":                "load per processor (units)",
	"start":               "send start (s)",
	"arrival":             "arrival (s)",
	"compute_start":       "computation start (s)",
	"compute_end":         "computation end (s)",
}

// ColumnLabel returns the axis title of a column: its name in words with
// its unit, or the column name itself when the dictionary lacks it.
func ColumnLabel(col string) string {
	if l, ok := columnLabels[col]; ok {
		return l
	}
	return col
}

// shortName is a column's symbol in legends and notes ("D", "m"), or its
// label without the unit.
func shortName(col string) string {
	switch col {
	case "V", "D", "S", "C", "A", "m", "p", "h", "D/V":
		return col
	}
	l := ColumnLabel(col)
	if i := strings.LastIndex(l, " ("); i > 0 {
		return l[:i]
	}
	return l
}

// legendValue writes a cell for a legend or a note: "∞" for infinity,
// names of topologies and orders as words.
func legendValue(col, cell string) string {
	switch col {
	case "order":
		return strings.ToUpper(cell)
	case "topology":
		if cell == "tree" {
			return "ordinary tree"
		}
		return cell
	case "buffers":
		if cell == "1" {
			return "1 buffer"
		}
		return cell + " buffers"
	}
	if f, ok := ParseNumber(cell); ok && math.IsInf(f, 1) {
		return "∞"
	}
	return Canon(cell)
}

// legendPart is "D = 100", or the bare value for columns that name
// themselves (label, topology, order, buffers).
func legendPart(col, cell string) string {
	switch col {
	case "label", "topology", "order", "buffers":
		return legendValue(col, cell)
	}
	return shortName(col) + " = " + legendValue(col, cell)
}

// fixedNote lists the input columns that have one value in every record
// and are neither on the x axis nor split into series: the parameters a
// reader needs to know ("binomial, LLF, p = 2, h = 10, S = 0.001 s, ...").
func fixedNote(recs []Record, identity []string, skip map[string]bool) string {
	units := map[string]string{"S": " s", "C": " s/unit", "A": " s/unit"}
	var parts []string
	for _, c := range identity {
		if skip[c] || c == "stages_policy" || c == "label" {
			continue
		}
		vals := map[string]bool{}
		for _, r := range recs {
			vals[Canon(r[c])] = true
		}
		if len(vals) != 1 {
			continue
		}
		var v string
		for k := range vals {
			v = k
		}
		if v == "" {
			continue
		}
		p := legendPart(c, v)
		if u := units[c]; u != "" {
			p += u
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}
