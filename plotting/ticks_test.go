package plotting

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgsvg"
)

func labels(ts []plot.Tick) string {
	var out []string
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return strings.Join(out, " ")
}

// Issue 27 item 8: round ticks. Linear axes are labelled at multiples of
// 1, 2 or 5 times a power of ten (gonum labelled the dataflow study's
// execution times 500, 2500, 4500, 6500 and its PEs 3, 9, 15); an axis
// of integers gets no fractional ticks (stages 32 to 34 were labelled
// 32.5, 33.5); log axes label 2× and 5× each decade on short ranges and
// have ticks below the first whole decade (Day's granularity plot, job
// times 0.01024 to 1.31 s, showed nothing under 0.1).
func TestRoundTicks(t *testing.T) {
	for _, tc := range []struct {
		ticks    plot.Ticker
		min, max float64
		want     string
	}{
		{tickLabels{inner: niceTicks{}}, 405, 6900, "1000 2000 3000 4000 5000 6000"},
		{tickLabels{inner: niceTicks{integer: true}}, 1, 16, "5 10 15"},
		{tickLabels{inner: niceTicks{}}, 0, 1.5, "0 0.5 1 1.5"},
		{tickLabels{inner: niceTicks{integer: true}}, 32, 34, "32 33 34"},
		{tickLabels{inner: niceTicks{}}, 131.2, 138.6, "132 134 136 138"},
		{tickLabels{inner: niceTicks{}}, 0.9445, 1, "0.95 0.96 0.97 0.98 0.99 1"},
		{tickLabels{inner: logTicks{}, log: true}, 0.01024, 1.31072, "0.02 0.05 0.1 0.2 0.5 1"},
		{tickLabels{inner: logTicks{}, log: true}, 0.5, 10.0075, "0.5 1 2 5 10"},
		{tickLabels{inner: logTicks{}, log: true}, 0.52, 0.61, "0.52 0.54 0.56 0.58 0.6"}, // inside a decade: linear positions
		{tickLabels{inner: logTicks{}, log: true}, 0.009, 355, "0.01 0.1 1 10 100"},
		{tickLabels{inner: logTicks{}, log: true}, 1, 1e8, "1e0 1e1 1e2 1e3 1e4 1e5 1e6 1e7 1e8"},
	} {
		ts := tc.ticks.Ticks(tc.min, tc.max)
		for _, tk := range ts {
			if tk.Value < tc.min*(1-1e-9) || tk.Value > tc.max*(1+1e-9) {
				t.Errorf("[%g, %g]: tick %g outside", tc.min, tc.max, tk.Value)
			}
		}
		if got := labels(ts); got != tc.want {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.min, tc.max, got, tc.want)
		}
	}
}

var translate = regexp.MustCompile(`translate\(([-0-9.e]+), ([-0-9.e]+)\)`)

// Issue 27 item 8: SVG text is drawn as glyph outlines, placed exactly as
// the layout measured it: the k-th glyph starts at the width gonum
// measures for the first k runes (kerning included), so a viewer without
// Liberation Serif draws what the layout reserved room for ("AV" is
// kerned by -1.55 pt). Glyphs drawn
// more than once are defined once.
func TestOutlinedText(t *testing.T) {
	c := vgsvg.New(200, 50)
	oc := newOutlined(c)
	face := font.DefaultCache.Lookup(plot.DefaultFont, 12)
	const str = "AVAV Wave 0.5056"
	oc.FillString(face, vg.Point{X: 10, Y: 20}, str)
	var buf bytes.Buffer
	c.WriteTo(&buf)
	doc := string(shareGlyphs(buf.Bytes(), oc.texts))
	if strings.Contains(doc, "<text") || strings.Contains(doc, "font-family") {
		t.Errorf("the SVG still names a font: %.300s", doc)
	}
	if !strings.Contains(doc, "<desc>"+str+"</desc>") || !strings.Contains(doc, "<use xlink:href=\"#g") {
		t.Errorf("no description or no shared glyph: %.600s", doc)
	}
	var xs []float64
	for _, m := range translate.FindAllStringSubmatch(doc, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		if m[2] == "20" { // the glyphs' translations, not the canvas's own
			xs = append(xs, x)
		}
	}
	var want []float64
	runes := []rune(str)
	for k := range runes {
		if runes[k] != ' ' { // a space has no outline
			// the width of the first k+1 runes, less the advance of the
			// last: the kerning of the pair before it is in
			want = append(want, 10+(face.Width(string(runes[:k+1]))-face.Width(string(runes[k]))).Points())
		}
	}
	if len(xs) != len(want) {
		t.Fatalf("%d glyphs placed, want %d", len(xs), len(want))
	}
	for k := range xs {
		if d := xs[k] - want[k]; d > 0.01 || d < -0.01 {
			t.Errorf("glyph %d at x = %g, measured %g", k, xs[k], want[k])
		}
	}
}

// End labels that would overlap are stacked: two reference lines 1%
// apart (compare's plan at 0.5056 s above the bound at 0.5 s, 0.3 pt
// apart on the page) get labels one label height apart, the lower one
// just above its line; a label that would leave the data area moves the
// stack down. Both are drawn (named in the SVG's description).
func TestEndLabelsStack(t *testing.T) {
	got := stackLabels([]vg.Length{100, 100.3, 150}, 12, 300)
	if want := []vg.Length{101.5, 113.5, 151.5}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("stacked at %v, want %v", got, want)
	}
	if got := stackLabels([]vg.Length{290, 291}, 12, 300); got[1]+12 != 300 || got[1]-got[0] != 12 {
		t.Errorf("at the top: %v", got)
	}
	ch := Chart{Series: []Series{
		{Name: "bound", X: []float64{1, 10}, Y: []float64{0.5, 0.5}, Style: Line, EndLabel: "bound 0.5"},
		{Name: "dls", X: []float64{1, 10}, Y: []float64{0.5056, 0.5056}, Style: Line, EndLabel: "dls 0.5056"},
		{Name: "farm", X: []float64{1, 10}, Y: []float64{2, 0.6}},
	}}
	var svg bytes.Buffer
	if err := Write(&svg, "svg", ch); err != nil {
		t.Fatal(err)
	}
	if doc := svg.String(); !strings.Contains(doc, "bound 0.5") || !strings.Contains(doc, "dls 0.5056") {
		t.Errorf("labels missing from %.300s", doc)
	}
}
