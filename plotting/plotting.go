package plotting

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Style selects how a series is drawn.
type Style int

const (
	// LinePoints draws a line through markers (the default).
	LinePoints Style = iota
	// Line draws the line alone.
	Line
	// Points draws the markers alone (measurements beside a model's line).
	Points
)

// Series is one named line.
type Series struct {
	Name  string
	X, Y  []float64
	Style Style
	// Color, if > 0, picks the palette colour (1-based) instead of the
	// series' position, so that a model's line and its measurements can
	// share a colour; glyph and dash still follow the position.
	Color int
	// EndLabel, if set, is written in the series' colour just above the
	// right end of its line (e.g. the value of a reference line); labels
	// that would overlap are stacked, so that lines too close to tell
	// apart are still both named (issue 27: compare's planned makespan,
	// 0.5056, hid under the bound, 0.5).
	EndLabel string
}

// Chart describes a figure.
type Chart struct {
	// Title, XLabel and YLabel; axis labels should carry units, e.g.
	// "makespan (s)".
	Title, XLabel, YLabel string
	LogX, LogY            bool
	Series                []Series
	// Width and Height in centimetres (defaults 18 × 11); PNGs are drawn
	// at 192 dpi.
	Width, Height float64
	// Note is printed under the title (e.g. the parameters held fixed).
	Note string
}

// colors is a palette of well separated hues (Okabe–Ito, colour-blind
// safe, black last), so that no two of the first eight look alike.
var colors = []color.RGBA{
	{0x00, 0x72, 0xb2, 255}, {0xd5, 0x5e, 0x00, 255}, {0x00, 0x9e, 0x73, 255}, {0xcc, 0x79, 0xa7, 255},
	{0x56, 0xb4, 0xe9, 255}, {0xe6, 0x9f, 0x00, 255}, {0x00, 0x00, 0x00, 255}, {0x99, 0x99, 0x99, 255},
}

// glyphs and dashes vary with the series too: series k has colour k mod 8,
// glyph k mod 7 and dash pattern k mod 4, so two series differ in at
// least two of the three for the first 28 series.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.PlusGlyph{}, draw.RingGlyph{}, draw.PyramidGlyph{},
}

var dashes = [][]vg.Length{nil, {vg.Points(5), vg.Points(3)}, {vg.Points(1.5), vg.Points(2)}, {vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}}

// Format returns "svg" or "png" from a file name, or an error.
func Format(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		return "svg", nil
	case ".png":
		return "png", nil
	}
	return "", fmt.Errorf("plot file %s: want a name ending in .svg or .png", path)
}

// tickLabels relabels the major ticks of an axis in one format: plain
// decimals with the fewest digits that tell them apart, or, when the
// values span very large or small magnitudes, all in exponent form — never
// "1000" beside "1e+04".
type tickLabels struct {
	inner plot.Ticker
	// log: on a logarithmic axis with fewer than three labelled decades,
	// 2× and 5× each decade are labelled too, so that no axis shows only
	// one or two numbers.
	log bool
}

// Ticks implements plot.Ticker.
func (t tickLabels) Ticks(min, max float64) []plot.Tick {
	// Ticks outside the range are dropped: gonum pads the data area to
	// fit their labels (plot.LogTicks returns whole decades), which left
	// an empty band above the data.
	var ts []plot.Tick
	slack := 1e-9 * math.Max(math.Abs(min), math.Abs(max))
	for _, x := range t.inner.Ticks(min, max) {
		if x.Value >= min-slack && x.Value <= max+slack {
			ts = append(ts, x)
		}
	}
	labelled := make([]bool, len(ts))
	count := 0
	for i := range ts {
		labelled[i] = ts[i].Label != ""
		if labelled[i] {
			count++
		}
	}
	if t.log && count < 3 {
		// Label 1×, 2× and 5× each decade, or every tick when that still
		// labels fewer than two (a range inside one decade).
		labelMantissas(ts, labelled, 1, 2, 5)
		if n := countTrue(labelled); n < 2 {
			labelMantissas(ts, labelled, 1, 2, 3, 4, 5, 6, 7, 8, 9)
		}
	}
	var major []float64
	for i := range ts {
		if labelled[i] {
			major = append(major, ts[i].Value)
		}
	}
	format := labelFormat(major)
	for i := range ts {
		ts[i].Label = ""
		if labelled[i] {
			ts[i].Label = format(ts[i].Value)
		}
	}
	return ts
}

// labelMantissas marks the ticks whose value is one of the mantissas
// times a power of ten (each value once).
func labelMantissas(ts []plot.Tick, labelled []bool, mantissas ...float64) {
	seen := map[float64]bool{}
	for i := range ts {
		v := ts[i].Value
		m := v / math.Pow(10, math.Floor(math.Log10(v)+1e-9))
		labelled[i] = false
		for _, want := range mantissas {
			labelled[i] = labelled[i] || !seen[v] && math.Abs(m-want) < 1e-6
		}
		seen[v] = seen[v] || labelled[i]
	}
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func labelFormat(vals []float64) func(float64) string {
	big := 0.0
	small := math.Inf(1)
	for _, v := range vals {
		a := math.Abs(v)
		big = math.Max(big, a)
		if a > 0 {
			small = math.Min(small, a)
		}
	}
	if big >= 1e6 || small < 1e-3 {
		return func(v float64) string {
			if v == 0 {
				return "0"
			}
			s := strconv.FormatFloat(v, 'e', 3, 64)
			mant, exp, _ := strings.Cut(s, "e")
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
			e, _ := strconv.Atoi(exp)
			return mant + "e" + strconv.Itoa(e)
		}
	}
	for dec := 0; dec <= 6; dec++ {
		seen := map[string]bool{}
		ok := true
		for _, v := range vals {
			s := strconv.FormatFloat(v, 'f', dec, 64)
			if seen[s] || math.Abs(mustParse(s)-v) > 1e-9*math.Max(1, math.Abs(v)) {
				ok = false
				break
			}
			seen[s] = true
		}
		if ok {
			// Plain decimals, each without trailing zeros: "0.01",
			// "0.1", "1", "10" on a log axis, "0.5", "1", "1.5" on a
			// linear one.
			return func(v float64) string {
				s := strconv.FormatFloat(v, 'f', dec, 64)
				if strings.Contains(s, ".") {
					s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
				}
				if s == "-0" {
					s = "0"
				}
				return s
			}
		}
	}
	return func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
}

func mustParse(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// build makes the plot and a separate legend for c; dropped counts the
// points that could not be drawn (non-finite, or not positive on a log
// axis).
func build(c Chart) (*plot.Plot, plot.Legend, int, error) {
	p := plot.New()
	p.Title.Text = c.Title
	if c.Note != "" {
		p.Title.Text += "\n" + c.Note
	}
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	intX, intY := integral(c.Series)
	p.X.Tick.Marker = tickLabels{inner: niceTicks{integer: intX}}
	p.Y.Tick.Marker = tickLabels{inner: niceTicks{integer: intY}}
	if c.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = tickLabels{inner: logTicks{}, log: true}
	}
	if c.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = tickLabels{inner: logTicks{}, log: true}
	}
	p.Add(plotter.NewGrid())
	leg := plot.NewLegend()
	drawn, dropped := 0, 0
	for i, s := range c.Series {
		pts, segs, nd := points(s, c.LogX, c.LogY)
		dropped += nd
		if len(pts) == 0 {
			continue
		}
		col := seriesColor(i, s)
		var thumbs []plot.Thumbnailer
		if s.Style != Points {
			for _, seg := range segs { // a gap in the data breaks the line
				l, err := plotter.NewLine(seg)
				if err != nil {
					return nil, leg, 0, fmt.Errorf("plotting: series %s: %w", s.Name, err)
				}
				l.Color = col
				l.Width = vg.Points(1.4)
				l.Dashes = dashes[i%len(dashes)]
				p.Add(l)
				if len(thumbs) == 0 {
					thumbs = append(thumbs, l)
				}
			}
		}
		if s.Style != Line {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, leg, 0, fmt.Errorf("plotting: series %s: %w", s.Name, err)
			}
			sc.Color = col
			sc.Shape = glyphs[i%len(glyphs)]
			sc.Radius = vg.Points(2.6)
			p.Add(sc)
			thumbs = append(thumbs, sc)
		}
		if s.Name != "" {
			leg.Add(s.Name, thumbs...)
		}
		drawn++
	}
	if drawn == 0 {
		return nil, leg, 0, fmt.Errorf("plotting: no drawable points")
	}
	if dropped > 0 {
		what := "not finite"
		if c.LogX || c.LogY {
			what = "zero, negative or not finite on a log axis"
		}
		p.Title.Text += fmt.Sprintf("\n(%d points %s are not shown)", dropped, what)
	}
	return p, leg, dropped, nil
}

// integral reports whether every x, and every y, of the series is an
// integer (stages, processors, task counts): such an axis gets no
// fractional ticks.
func integral(ss []Series) (x, y bool) {
	x, y = true, true
	for _, s := range ss {
		for k := range s.X {
			x = x && s.X[k] == math.Trunc(s.X[k])
			y = y && s.Y[k] == math.Trunc(s.Y[k])
		}
	}
	return x, y
}

// seriesColor is the colour of series i.
func seriesColor(i int, s Series) color.RGBA {
	if s.Color > 0 {
		return colors[(s.Color-1)%len(colors)]
	}
	return colors[i%len(colors)]
}

// drawEndLabels writes each series' EndLabel right-aligned just above the
// last point of its line, in its colour, stacking labels that would
// overlap (lowest first) and keeping them inside the data area.
func drawEndLabels(p *plot.Plot, dac draw.Canvas, c Chart) {
	type label struct {
		x, y vg.Length
		text string
		col  color.RGBA
	}
	trX, trY := p.Transforms(&dac)
	var ls []label
	for i, s := range c.Series {
		pts, _, _ := points(s, c.LogX, c.LogY)
		if s.EndLabel == "" || len(pts) == 0 {
			continue
		}
		last := pts[len(pts)-1]
		ls = append(ls, label{trX(last.X), trY(last.Y), s.EndLabel, seriesColor(i, s)})
	}
	sty := p.Legend.TextStyle
	sty.XAlign, sty.YAlign = draw.XRight, draw.YBottom
	sort.SliceStable(ls, func(a, b int) bool { return ls[a].y < ls[b].y })
	ys := make([]vg.Length, len(ls))
	for k := range ls {
		ys[k] = ls[k].y
	}
	ys = stackLabels(ys, sty.Height("0")+vg.Points(1), dac.Max.Y)
	for k, l := range ls {
		sty.Color = l.col
		dac.FillText(sty, vg.Point{X: l.x - vg.Points(3), Y: ys[k]}, l.text)
	}
}

// stackLabels places labels of height h whose lines are at ys (in
// increasing order): each just above its line, or above the label below
// it when they would overlap, and all moved down together when the top
// one would pass top.
func stackLabels(ys []vg.Length, h, top vg.Length) []vg.Length {
	out := make([]vg.Length, len(ys))
	for k, y := range ys {
		out[k] = y + vg.Points(1.5)
		if k > 0 && out[k] < out[k-1]+h {
			out[k] = out[k-1] + h
		}
	}
	if n := len(out); n > 0 && out[n-1]+h > top {
		shift := out[n-1] + h - top
		for k := range out {
			out[k] -= shift
		}
	}
	return out
}

// points returns the drawable points of s sorted by x, the contiguous
// segments between dropped points, and the number dropped.
func points(s Series, logX, logY bool) (plotter.XYs, []plotter.XYs, int) {
	type pt struct {
		x, y float64
		ok   bool
	}
	all := make([]pt, 0, len(s.X))
	for k := range s.X {
		x, y := s.X[k], s.Y[k]
		ok := !(math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0)) &&
			!(logX && x <= 0) && !(logY && y <= 0)
		all = append(all, pt{x, y, ok})
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].x < all[b].x })
	var pts plotter.XYs
	var segs []plotter.XYs
	var cur plotter.XYs
	dropped := 0
	for _, q := range all {
		if !q.ok {
			dropped++
			if len(cur) > 0 {
				segs = append(segs, cur)
				cur = nil
			}
			continue
		}
		pts = append(pts, plotter.XY{X: q.x, Y: q.y})
		cur = append(cur, plotter.XY{X: q.x, Y: q.y})
	}
	if len(cur) > 0 {
		segs = append(segs, cur)
	}
	return pts, segs, dropped
}

// legendWidth is the width the legend needs beside the data: the widest
// entry as the legend's font measures it, its thumbnail and padding.
func legendWidth(c Chart, leg plot.Legend) vg.Length {
	var widest vg.Length
	for _, s := range c.Series {
		if s.Name != "" {
			widest = max(widest, leg.TextStyle.Width(s.Name))
		}
	}
	if widest == 0 {
		return 0
	}
	return leg.ThumbnailWidth + leg.Padding + widest + vg.Points(10)
}

// drawChart draws c in the canvas: the title and note centred over the
// whole width, the legend in a column to the right of the data, where it
// cannot hide a point.
func drawChart(dc draw.Canvas, c Chart) error {
	p, leg, _, err := build(c)
	if err != nil {
		return err
	}
	title := p.Title.Text
	p.Title.Text = ""
	area := dc
	if title != "" {
		style := p.Title.TextStyle
		lines := strings.Split(title, "\n")
		lh := style.Font.Size * 1.25
		style.XAlign, style.YAlign = draw.XCenter, draw.YTop
		mid := (dc.Min.X + dc.Max.X) / 2
		for i, line := range lines {
			st := style
			if i > 0 {
				st.Font.Size = style.Font.Size * 0.85
			}
			dc.FillText(st, vg.Point{X: mid, Y: dc.Max.Y - vg.Length(i)*lh}, line)
		}
		area = draw.Crop(dc, 0, 0, 0, -lh*vg.Length(len(lines))-vg.Points(4))
	}
	lw := legendWidth(c, leg)
	plotArea := area
	if lw > 0 {
		plotArea = draw.Crop(area, 0, -lw, 0, 0)
	}
	// The axis titles are drawn here, centred on the data: gonum places
	// their glyph boxes at the arithmetic mid-range, which on a log axis
	// lies near the end and made it pad the data area by half a title.
	xl, yl := p.X.Label.Text, p.Y.Label.Text
	p.X.Label.Text, p.Y.Label.Text = "", ""
	xsty, ysty := p.X.Label.TextStyle, p.Y.Label.TextStyle
	var left, bottom vg.Length
	if yl != "" {
		left = ysty.Height(yl) + p.Y.Label.Padding + vg.Points(5) // a gap to the widest tick label
	}
	if xl != "" {
		bottom = xsty.Height(xl) + xsty.FontExtents().Descent + p.X.Label.Padding
	}
	inner := draw.Crop(plotArea, left, 0, bottom, 0)
	p.Draw(inner)
	dac := p.DataCanvas(inner)
	drawEndLabels(p, dac, c)
	if xl != "" {
		xsty.XAlign, xsty.YAlign = draw.XCenter, draw.YBottom
		plotArea.FillText(xsty, vg.Point{X: (dac.Min.X + dac.Max.X) / 2, Y: plotArea.Min.Y + xsty.FontExtents().Descent}, xl)
	}
	if yl != "" {
		ysty.Rotation = math.Pi / 2
		ysty.XAlign, ysty.YAlign = draw.XCenter, draw.YTop
		plotArea.FillText(ysty, vg.Point{X: plotArea.Min.X, Y: (dac.Min.Y + dac.Max.Y) / 2}, yl)
	}
	if lw > 0 {
		la := draw.Crop(area, area.Max.X-area.Min.X-lw+vg.Points(6), 0, 0, 0)
		leg.Top = true
		leg.Left = true
		leg.Draw(la)
	}
	return nil
}

func size(c Chart) (vg.Length, vg.Length) {
	wd, ht := c.Width, c.Height
	if wd <= 0 {
		wd = 18
	}
	if ht <= 0 {
		ht = 11
	}
	return vg.Length(wd) * vg.Centimeter, vg.Length(ht) * vg.Centimeter
}

// Write draws the chart in the given format ("svg" or "png") to w. Points
// with non-finite coordinates, or non-positive ones on a log axis, are not
// drawn, break the line, and are counted in a note under the title; each
// series is drawn in increasing x.
func Write(w io.Writer, format string, c Chart) error {
	wd, ht := size(c)
	return render(w, format, wd, ht, func(dc draw.Canvas) error { return drawChart(dc, c) })
}

// WritePanels draws several charts in a grid of cols columns (e.g. the
// makespan, speedup and efficiency of one study), each cell the size of
// its chart.
func WritePanels(w io.Writer, format string, charts []Chart, cols int) error {
	if len(charts) == 0 || cols < 1 {
		return fmt.Errorf("plotting: no panels")
	}
	rows := (len(charts) + cols - 1) / cols
	cw, ch := size(charts[0])
	return render(w, format, cw*vg.Length(cols), ch*vg.Length(rows), func(dc draw.Canvas) error {
		for i, c := range charts {
			r, k := i/cols, i%cols
			cell := draw.Crop(dc, cw*vg.Length(k), -cw*vg.Length(cols-k-1), ch*vg.Length(rows-r-1), -ch*vg.Length(r))
			if err := drawChart(cell, c); err != nil {
				return fmt.Errorf("panel %d: %w", i+1, err)
			}
		}
		return nil
	})
}

func render(w io.Writer, format string, wd, ht vg.Length, drawFn func(draw.Canvas) error) error {
	var buf bytes.Buffer
	switch format {
	case "svg":
		c := vgsvg.New(wd, ht)
		oc := newOutlined(c)
		if err := drawFn(draw.New(oc)); err != nil {
			return err
		}
		if _, err := c.WriteTo(&buf); err != nil {
			return fmt.Errorf("plotting: %w", err)
		}
		doc := shareGlyphs(buf.Bytes(), oc.texts)
		buf.Reset()
		buf.Write(doc)
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(wd, ht), vgimg.UseDPI(192))
		dc := draw.New(c)
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		if err := drawFn(dc); err != nil {
			return err
		}
		if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
			return fmt.Errorf("plotting: %w", err)
		}
	default:
		return fmt.Errorf("plotting: format %q, want svg or png", format)
	}
	_, err := w.Write(buf.Bytes())
	return err
}
