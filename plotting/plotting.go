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
)

// Series is one named line.
type Series struct {
	Name string
	X, Y []float64
}

// Chart describes a figure.
type Chart struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool
	Series                []Series
	// Width and Height in centimetres (defaults 16 × 10).
	Width, Height float64
}

var colors = []color.RGBA{
	{0x4e, 0x79, 0xa7, 255}, {0xf2, 0x8e, 0x2b, 255}, {0x59, 0xa1, 0x4f, 255}, {0xe1, 0x57, 0x59, 255},
	{0x76, 0xb7, 0xb2, 255}, {0xed, 0xc9, 0x48, 255}, {0xb0, 0x7a, 0xa1, 255}, {0xff, 0x9d, 0xa7, 255},
	{0x9c, 0x75, 0x5f, 255}, {0x33, 0x33, 0x33, 255},
}

// shortTicks relabels the ticks of a log axis with at most 4 significant
// digits: LogTicks computes powers of ten by repeated multiplication and
// would print 1e-05 as 1.0000000000000004e-05.
type shortTicks struct{ t plot.Ticker }

// Ticks implements plot.Ticker.
func (s shortTicks) Ticks(min, max float64) []plot.Tick {
	ts := s.t.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 4, 64)
		}
	}
	return ts
}

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

// Write draws the chart in the given format ("svg" or "png") to w. Points
// with non-finite coordinates, or non-positive ones on a log axis, are
// skipped; each series is drawn in increasing x.
func Write(w io.Writer, format string, c Chart) error {
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	if c.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = shortTicks{plot.LogTicks{Prec: -1}}
	}
	if c.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = shortTicks{plot.LogTicks{Prec: -1}}
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	drawn := 0
	for i, s := range c.Series {
		var pts plotter.XYs
		for k := range s.X {
			x, y := s.X[k], s.Y[k]
			if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
				continue
			}
			if (c.LogX && x <= 0) || (c.LogY && y <= 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: x, Y: y})
		}
		if len(pts) == 0 {
			continue
		}
		sort.SliceStable(pts, func(a, b int) bool { return pts[a].X < pts[b].X })
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("plotting: series %s: %w", s.Name, err)
		}
		col := colors[i%len(colors)]
		line.Color = col
		line.Width = vg.Points(1.2)
		points.Color = col
		points.Shape = draw.CircleGlyph{}
		points.Radius = vg.Points(1.8)
		p.Add(line, points)
		if s.Name != "" {
			p.Legend.Add(s.Name, line, points)
		}
		drawn++
	}
	if drawn == 0 {
		return fmt.Errorf("plotting: no drawable points")
	}
	wd, ht := c.Width, c.Height
	if wd <= 0 {
		wd = 16
	}
	if ht <= 0 {
		ht = 10
	}
	wt, err := p.WriterTo(vg.Length(wd)*vg.Centimeter, vg.Length(ht)*vg.Centimeter, format)
	if err != nil {
		return fmt.Errorf("plotting: %w", err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return fmt.Errorf("plotting: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}
