package plotting

import (
	"bytes"
	pngpkg "image/png"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

func TestWriteSVGAndPNG(t *testing.T) {
	c := Chart{Title: "t", XLabel: "V", YLabel: "Cmax", LogX: true, Series: []Series{
		{Name: "D=1e2", X: []float64{1, 10, 100, -1, math.NaN()}, Y: []float64{1, 2, 3, 4, 5}},
		{Name: "D=inf", X: []float64{100, 1, 10}, Y: []float64{3, 1, 2}},
	}}
	var svg bytes.Buffer
	if err := Write(&svg, "svg", c); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(svg.String(), "<?xml") || !strings.Contains(svg.String(), "<desc>") || !strings.Contains(svg.String(), "D=1e2") {
		t.Errorf("SVG lacks header or the legend in its description: %.200s", svg.String())
	}
	var png bytes.Buffer
	if err := Write(&png, "png", c); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG")) {
		t.Errorf("not a PNG")
	}
	// 18 × 11 cm at 192 dpi: twice the resolution of the 605 × 378 PNGs
	// of old, so that 10-point text is 27 pixels high.
	if cfg, err := pngpkg.DecodeConfig(bytes.NewReader(png.Bytes())); err != nil || cfg.Width < 1300 || cfg.Height < 800 {
		t.Errorf("PNG %d × %d (%v), want at least 1300 × 800", cfg.Width, cfg.Height, err)
	}
	// Same chart, same bytes.
	var again bytes.Buffer
	Write(&again, "svg", c)
	if again.String() != svg.String() {
		t.Errorf("SVG output is not deterministic")
	}
	if err := Write(&again, "svg", Chart{Series: []Series{{X: []float64{-1}, Y: []float64{1}}}, LogX: true}); err == nil {
		t.Errorf("a chart with no drawable point must fail")
	}
	if _, err := Format("a.pdf"); err == nil {
		t.Errorf("pdf accepted")
	}
}

// Tick labels: only ticks inside the axis range, plain decimals without
// trailing zeros on a log axis of 0.01..300, exponent form for 1..1e8,
// never both on one axis (issue 16: "10000.00" beside "0.01", and labels
// outside the range that made gonum pad the data area).
func TestTickLabels(t *testing.T) {
	for _, tc := range []struct {
		ticks    tickLabels
		min, max float64
		want     string
	}{
		{tickLabels{inner: plotLogTicks(), log: true}, 0.009, 355, "0.01 0.1 1 10 100"},
		{tickLabels{inner: plotLogTicks(), log: true}, 1, 1e8, "1e0 1e1 1e2 1e3 1e4 1e5 1e6 1e7 1e8"},
		{tickLabels{inner: plotLogTicks(), log: true}, 1500, 3e5, "2000 5000 10000 20000 50000 100000 200000"},
		{tickLabels{inner: plotDefaultTicks()}, 0, 1.5, "0 0.5 1 1.5"},
	} {
		var got []string
		for _, tk := range tc.ticks.Ticks(tc.min, tc.max) {
			if tk.Value < tc.min || tk.Value > tc.max {
				t.Errorf("tick %g outside [%g, %g]", tk.Value, tc.min, tc.max)
			}
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.min, tc.max, strings.Join(got, " "), tc.want)
		}
	}
}

// The legend column is as wide as its widest entry measured in the
// legend's font, so no entry is cut off at the right edge.
func TestLegendWidthFitsEntries(t *testing.T) {
	c := Chart{Series: []Series{{Name: "D = 1e+06, h = 10", X: []float64{1}, Y: []float64{1}}, {Name: "one-layer strategy", X: []float64{1}, Y: []float64{2}}}}
	_, leg, _, err := build(c)
	if err != nil {
		t.Fatal(err)
	}
	w := legendWidth(c, leg)
	for _, s := range c.Series {
		if need := leg.ThumbnailWidth + leg.TextStyle.Width(s.Name); w < need {
			t.Errorf("legend width %v < %v needed by %q", w, need, s.Name)
		}
	}
}

func plotLogTicks() plot.Ticker     { return plot.LogTicks{Prec: -1} }
func plotDefaultTicks() plot.Ticker { return plot.DefaultTicks{} }
