package table

import (
	"strings"
	"testing"
)

func rec(kv ...string) Record {
	r := Record{}
	for i := 0; i+1 < len(kv); i += 2 {
		r[kv[i]] = kv[i+1]
	}
	return r
}

// TestChartMinusAggRef: --minus pairs each row with the baseline row of
// the same inputs, --agg combines rows at one x, refs take the least value.
func TestChartMinusAggRef(t *testing.T) {
	recs := Records{Identity: []string{"D", "V", "n"}, Columns: []string{"D", "V", "n", "cmax", "lb"}}
	for _, r := range []Record{
		rec("D", "100", "V", "10", "n", "1", "cmax", "5", "lb", "1"),
		rec("D", "1e2", "V", "20", "n", "1", "cmax", "7", "lb", "2"),
		rec("D", "1000", "V", "10", "n", "1", "cmax", "6", "lb", "1"),
		rec("D", "1000", "V", "20", "n", "1", "cmax", "7.000000000001", "lb", "3"),
		rec("D", "1000", "V", "20", "n", "2", "cmax", "9", "lb", "3"),
	} {
		recs.Rows = append(recs.Rows, r)
	}
	m, _ := ParseFilter("D=100")
	ch, err := Chart(recs, PlotSpec{X: "V", Y: []string{"cmax"}, Series: []string{"D"}, Minus: &m, Where: []Filter{{Column: "n", Values: []string{"1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	// D=1000 minus D=100 (written 100 and 1e2): 6−5 = 1 at V=10; at V=20
	// the difference 1e-12 is within 1e-9 relative, so 0.
	if len(ch.Series) != 1 || ch.Series[0].Name != "D = 1000" || len(ch.Series[0].Y) != 2 || ch.Series[0].Y[0] != 1 || ch.Series[0].Y[1] != 0 {
		t.Errorf("minus: %+v", ch.Series)
	}
	// Axis titles in words with units, the parameters held fixed in a
	// note (issue 16: raw column names, no units, no parameters).
	if ch.XLabel != "load V (units)" || ch.YLabel != "Cmax − Cmax at D = 100 (s)" || ch.Note != "n = 1" {
		t.Errorf("labels: x %q, y %q, note %q", ch.XLabel, ch.YLabel, ch.Note)
	}
	if _, err := Chart(recs, PlotSpec{X: "V", Y: []string{"cmax"}, Series: []string{"D"}}); err == nil || !strings.Contains(err.Error(), "or agg min") {
		t.Errorf("duplicate x without --agg: %v", err)
	}
	ch, err = Chart(recs, PlotSpec{X: "V", Y: []string{"cmax"}, Series: []string{"D"}, Agg: "min", Refs: []string{"lb"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Series) != 3 || ch.Series[1].Y[1] != 7.000000000001 || ch.Series[2].Name != "lb" || ch.Series[2].Y[1] != 2 {
		t.Errorf("agg/ref: %+v", ch.Series)
	}
	if _, err := Chart(recs, PlotSpec{X: "W", Y: []string{"cmax"}}); err == nil || !strings.Contains(err.Error(), "invalid x W") {
		t.Errorf("unknown column: %v", err)
	}
}

// Issue 27 item 6: plotting an empty results file blamed --where filters
// nobody gave; the error now says there are no rows. Filters that match
// nothing are still named.
func TestChartEmpty(t *testing.T) {
	_, err := Chart(Records{}, PlotSpec{X: "V", Y: []string{"cmax"}})
	if err == nil || err.Error() != "the results have no rows: nothing to draw" {
		t.Errorf("empty records: %v", err)
	}
	recs := Records{Identity: []string{"V"}, Columns: []string{"V", "cmax"}, Rows: []Record{rec("V", "1", "cmax", "2")}}
	_, err = Chart(recs, PlotSpec{X: "V", Y: []string{"cmax"}, Where: []Filter{{Column: "V", Values: []string{"3"}}}})
	if err == nil || err.Error() != "no rows match the where filters" {
		t.Errorf("filters matching nothing: %v", err)
	}
}
