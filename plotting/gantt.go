package plotting

import (
	"bufio"
	"fmt"
	"html"
	"image/color"
	"io"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"

	"github.com/dlsched/dlsched/schedule"
)

// Gantt charts are drawn by hand as plain SVG: gonum/plot draws axes and
// data series well but has no notion of lanes of labelled intervals, which
// is all a Gantt chart is.

type bar struct {
	start, end float64
	stage      int
	label      string
	title      string
	result     bool // a result message (drawn in resultColor)
}

// resultColor fills the bars of result messages, which belong to no stage.
const resultColor = "#9e9e9e"

type lane struct {
	name string
	bars []bar
}

// okabeIto are the Okabe–Ito colours (distinguishable with colour-blind
// vision), used for up to eight stages; more stages take shades of a
// sequential colour map so that no two stages share a colour.
var okabeIto = []string{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000"}

// stageColors returns a colour per stage 1..n (index 0 unused).
func stageColors(n int) []color.Color {
	out := make([]color.Color, n+1)
	if n <= len(okabeIto) {
		for i := 1; i <= n; i++ {
			out[i] = hexColor(okabeIto[i-1])
		}
		return out
	}
	// Dark blue to yellow, with luminance rising evenly (Moreland's
	// method): stages far apart differ most.
	cm, err := moreland.NewLuminance([]color.Color{hexColor("#3b0f70"), hexColor("#2c728e"), hexColor("#28ae80"), hexColor("#fde725")})
	if err != nil {
		panic(err) // the control colours are constant and valid
	}
	cm.SetMin(1)
	cm.SetMax(float64(n))
	for i := 1; i <= n; i++ {
		c, err := cm.At(float64(i))
		if err != nil {
			c = color.Black
		}
		out[i] = c
	}
	return out
}

func hexColor(s string) color.Color {
	var r, g, b uint8
	fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b)
	return color.RGBA{r, g, b, 255}
}

func svgColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// textOn returns black or white, whichever reads better on c.
func textOn(c color.Color) string {
	r, g, b, _ := c.RGBA()
	if 0.2126*float64(r)+0.7152*float64(g)+0.0722*float64(b) > 0.55*65535 {
		return "black"
	}
	return "white"
}

// ganttLanes lays the schedule out: communication lanes (the originator's port
// for a star, one lane per hop level for trees) and one computing lane per
// processor or layer.
func ganttLanes(s *schedule.Schedule) []lane {
	var comm []lane
	commIdx := map[string]int{}
	get := func(name string) *lane {
		i, ok := commIdx[name]
		if !ok {
			i = len(comm)
			commIdx[name] = i
			comm = append(comm, lane{name: name})
		}
		return &comm[i]
	}
	star := s.Problem.Topology == "star"
	destName := func(d int) string {
		if star {
			return fmt.Sprintf("P%d", d)
		}
		return fmt.Sprintf("layer %d", d)
	}
	compute := map[int]*lane{}
	var dests []int
	for _, c := range s.Chunks {
		d := c.Dest()
		for _, h := range c.Hops {
			var name string
			switch {
			case star:
				name = "P0 sends"
			case s.Problem.Topology == "binomial":
				name = "scatter steps"
			default:
				name = fmt.Sprintf("links %d→%d", h.From, h.To)
			}
			label := fmt.Sprintf("%d", d)
			get(name).bars = append(get(name).bars, bar{h.Start, h.End, c.Stage, label,
				fmt.Sprintf("stage %d to %s, %d→%d: load %.6g per link, %.6g–%.6g", c.Stage, destName(d), h.From, h.To, h.Load, h.Start, h.End), false})
		}
		if compute[d] == nil {
			compute[d] = &lane{name: destName(d) + " computes"}
			dests = append(dests, d)
		}
		if c.ComputeEnd > c.ComputeStart {
			compute[d].bars = append(compute[d].bars, bar{c.ComputeStart, c.ComputeEnd, c.Stage, fmt.Sprintf("%d", c.Stage),
				fmt.Sprintf("stage %d on %s: load %.6g, %.6g–%.6g", c.Stage, destName(d), c.Load, c.ComputeStart, c.ComputeEnd), false})
		}
	}
	sort.Ints(dests)
	if len(s.Returns) > 0 && len(comm) > 0 {
		// One port sends the load and receives the results.
		comm[0].name = "P0 port"
		for _, r := range s.Returns {
			comm[0].bars = append(comm[0].bars, bar{r.Start, r.End, 0, fmt.Sprintf("r%d", r.Processor),
				fmt.Sprintf("results of %s: %.6g, %.6g–%.6g", destName(r.Processor), r.Load, r.Start, r.End), true})
		}
	}
	out := comm
	for _, d := range dests {
		out = append(out, *compute[d])
	}
	return out
}

// WriteGantt draws schedule s as an SVG Gantt chart: communication lanes
// on top (for trees one lane per link level, showing the relaying), a
// computing lane per processor (star) or layer (trees), bars coloured by
// stage and labelled with the destination (communication) or stage
// (computation); hovering a bar shows its details. The time axis is in
// seconds with round ticks; a legend below it gives the stage colours
// (one swatch per stage up to eight, else a colour scale from the first
// to the last stage) and never covers a bar.
func WriteGantt(w io.Writer, s *schedule.Schedule) error {
	gc := newGantt(s)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", ganttWidth, gc.height)
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(bw, `<text x="%.0f" y="20" font-size="14">%s</text>`+"\n", ganttLeft, html.EscapeString(firstLine(s.Summary())))
	fmt.Fprintf(bw, `<text x="%.0f" y="38">Cmax = %.9g s, %d stage(s), %d message(s); bars: transfers (label: destination) and computations (label: stage)</text>`+"\n",
		ganttLeft, s.Cmax, s.Stages, len(s.Chunks))
	gc.writeLanes(bw)
	gc.writeAxis(bw, s.Cmax)
	gc.writeLegend(bw)
	if len(s.Returns) > 0 {
		fmt.Fprintf(bw, `<rect x="%.0f" y="%.1f" width="14" height="14" fill="%s" stroke="#333" stroke-width="0.3"/><text x="%.0f" y="%.1f">results (label: r + processor)</text>`+"\n",
			ganttWidth-ganttRight-200, gc.legendY+2, resultColor, ganttWidth-ganttRight-182, gc.legendY+13)
	}
	fmt.Fprintf(bw, "</svg>\n")
	return bw.Flush()
}

// The Gantt chart's geometry (pixels).
const (
	ganttLeft, ganttRight, ganttTop, ganttLaneH, ganttBarH = 150.0, 30.0, 56.0, 26.0, 18.0
	ganttWidth                                             = 1100.0
)

// gantt is a Gantt chart laid out: its lanes, stage colours, time range
// and ticks, and the heights of the axis and the legend.
type gantt struct {
	ls                     []lane
	maxStage               int
	cols                   []color.Color
	tmax                   float64
	ticks                  []plot.Tick
	axisY, legendY, height float64
}

// newGantt lays the chart of s out. The time axis ends at the first tick
// mark (major or minor) at or after the last bar or Cmax, a round value
// close to it.
func newGantt(s *schedule.Schedule) *gantt {
	gc := &gantt{ls: ganttLanes(s), maxStage: 1}
	for _, c := range s.Chunks {
		gc.maxStage = max(gc.maxStage, c.Stage)
	}
	gc.cols = stageColors(gc.maxStage)
	gc.axisY = ganttTop + ganttLaneH*float64(len(gc.ls)) + 8
	gc.legendY = gc.axisY + 52
	gc.height = gc.legendY + 34
	tmax := s.Cmax
	for _, l := range gc.ls {
		for _, b := range l.bars {
			tmax = math.Max(tmax, b.end)
		}
	}
	if !(tmax > 0) || math.IsInf(tmax, 0) {
		tmax = 1
	}
	ticks := plot.DefaultTicks{}.Ticks(0, tmax)
	if step := minTickStep(ticks); step > 0 {
		if end := math.Ceil(tmax/step*(1-1e-12)) * step; end > tmax {
			tmax = end
			ticks = plot.DefaultTicks{}.Ticks(0, tmax)
		}
	}
	gc.tmax, gc.ticks = tmax, ticks
	return gc
}

// x is the horizontal position of time t.
func (gc *gantt) x(t float64) float64 {
	return ganttLeft + (ganttWidth-ganttLeft-ganttRight)*t/gc.tmax
}

// writeLanes draws the lanes, shaded alternately, with their bars.
func (gc *gantt) writeLanes(bw *bufio.Writer) {
	for i, l := range gc.ls {
		y := ganttTop + ganttLaneH*float64(i)
		if i%2 == 0 {
			fmt.Fprintf(bw, `<rect x="0" y="%.1f" width="%.0f" height="%.0f" fill="#f4f4f4"/>`+"\n", y, ganttWidth, ganttLaneH)
		}
		fmt.Fprintf(bw, `<text x="6" y="%.1f">%s</text>`+"\n", y+ganttLaneH/2+4, html.EscapeString(l.name))
		for _, b := range l.bars {
			x0, x1 := gc.x(b.start), gc.x(b.end)
			wd := math.Max(x1-x0, 0.5)
			col := gc.cols[min(max(b.stage, 1), gc.maxStage)]
			if b.result {
				col = hexColor(resultColor)
			}
			fmt.Fprintf(bw, `<rect x="%.2f" y="%.1f" width="%.2f" height="%.0f" fill="%s" stroke="#333" stroke-width="0.3"><title>%s</title></rect>`+"\n",
				x0, y+(ganttLaneH-ganttBarH)/2, wd, ganttBarH, svgColor(col), html.EscapeString(b.title))
			if wd > 7*float64(len(b.label)) {
				fmt.Fprintf(bw, `<text x="%.2f" y="%.1f" text-anchor="middle" fill="%s">%s</text>`+"\n", (x0+x1)/2, y+ganttLaneH/2+4, textOn(col), html.EscapeString(b.label))
			}
		}
	}
}

// writeAxis draws the time axis — round ticks, major labelled and minor
// short — its title, and the dashed line at cmax.
func (gc *gantt) writeAxis(bw *bufio.Writer, cmax float64) {
	axisY := gc.axisY
	fmt.Fprintf(bw, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="black"/>`+"\n", ganttLeft, axisY, ganttWidth-ganttRight, axisY)
	for _, tk := range gc.ticks {
		if tk.Value > gc.tmax*(1+1e-12) {
			continue
		}
		if tk.Label == "" {
			fmt.Fprintf(bw, `<line x1="%.2f" y1="%.1f" x2="%.2f" y2="%.1f" stroke="black"/>`+"\n", gc.x(tk.Value), axisY, gc.x(tk.Value), axisY+3)
			continue
		}
		fmt.Fprintf(bw, `<line x1="%.2f" y1="%.1f" x2="%.2f" y2="%.1f" stroke="black"/><text x="%.2f" y="%.1f" text-anchor="middle">%s</text>`+"\n",
			gc.x(tk.Value), axisY, gc.x(tk.Value), axisY+6, gc.x(tk.Value), axisY+19, html.EscapeString(tk.Label))
	}
	fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="12">time (s)</text>`+"\n", (ganttLeft+ganttWidth-ganttRight)/2, axisY+36)
	fmt.Fprintf(bw, `<line x1="%.2f" y1="%.0f" x2="%.2f" y2="%.1f" stroke="#c00" stroke-dasharray="4 2"/>`+"\n", gc.x(cmax), ganttTop, gc.x(cmax), axisY)
	fmt.Fprintf(bw, `<text x="%.2f" y="%.1f" fill="#c00" text-anchor="end">Cmax</text>`+"\n", gc.x(cmax)-3, ganttTop-3)
}

// writeLegend draws the stage colours below the axis title: one swatch
// per stage up to eight, else a colour scale from the first stage to the
// last.
func (gc *gantt) writeLegend(bw *bufio.Writer) {
	legendY, maxStage := gc.legendY, gc.maxStage
	fmt.Fprintf(bw, `<text x="6" y="%.1f">colour = stage</text>`+"\n", legendY+13)
	if maxStage <= len(okabeIto) {
		for i := 1; i <= maxStage; i++ {
			lx := ganttLeft + float64(i-1)*80
			fmt.Fprintf(bw, `<rect x="%.0f" y="%.1f" width="14" height="14" fill="%s" stroke="#333" stroke-width="0.3"/><text x="%.0f" y="%.1f">stage %d</text>`+"\n",
				lx, legendY+2, svgColor(gc.cols[i]), lx+18, legendY+13, i)
		}
		return
	}
	const barW = 300.0
	for i := 1; i <= maxStage; i++ {
		x0 := ganttLeft + barW*float64(i-1)/float64(maxStage)
		fmt.Fprintf(bw, `<rect x="%.2f" y="%.1f" width="%.2f" height="14" fill="%s"/>`+"\n", x0, legendY+2, barW/float64(maxStage)+0.3, svgColor(gc.cols[i]))
	}
	fmt.Fprintf(bw, `<text x="%.0f" y="%.1f" text-anchor="end">stage 1</text><text x="%.0f" y="%.1f">stage %d</text>`+"\n",
		ganttLeft-4, legendY+13, ganttLeft+barW+4, legendY+13, maxStage)
}

// minTickStep returns the least spacing of consecutive tick marks.
func minTickStep(ticks []plot.Tick) float64 {
	vals := make([]float64, len(ticks))
	for i, tk := range ticks {
		vals[i] = tk.Value
	}
	sort.Float64s(vals)
	step := 0.0
	for i := 1; i < len(vals); i++ {
		if d := vals[i] - vals[i-1]; d > 1e-12*math.Abs(vals[i]) && (step == 0 || d < step) {
			step = d
		}
	}
	return step
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
