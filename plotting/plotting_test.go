package plotting

import (
	"bytes"
	"math"
	"strings"
	"testing"
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
	if !strings.HasPrefix(svg.String(), "<?xml") || !strings.Contains(svg.String(), "D=1e2") {
		t.Errorf("SVG lacks header or legend: %.200s", svg.String())
	}
	var png bytes.Buffer
	if err := Write(&png, "png", c); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG")) {
		t.Errorf("not a PNG")
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
