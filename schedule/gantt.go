package schedule

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"sort"
)

// Gantt charts are drawn by hand as plain SVG: gonum/plot draws axes and
// data series well but has no notion of lanes of labelled intervals, which
// is all a Gantt chart is.

type bar struct {
	start, end float64
	stage      int
	label      string
	title      string
}

type lane struct {
	name string
	bars []bar
}

// palette colours bars by stage.
var palette = []string{"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

// lanes lays the schedule out: communication lanes (the originator's port
// for a star, one lane per hop level for trees) and one computing lane per
// processor or layer.
func (s *Schedule) lanes() []lane {
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
				fmt.Sprintf("stage %d to %s, %d→%d: load %.6g per link, %.6g–%.6g", c.Stage, destName(d), h.From, h.To, h.Load, h.Start, h.End)})
		}
		if compute[d] == nil {
			compute[d] = &lane{name: destName(d) + " computes"}
			dests = append(dests, d)
		}
		if c.ComputeEnd > c.ComputeStart {
			compute[d].bars = append(compute[d].bars, bar{c.ComputeStart, c.ComputeEnd, c.Stage, fmt.Sprintf("%d", c.Stage),
				fmt.Sprintf("stage %d on %s: load %.6g, %.6g–%.6g", c.Stage, destName(d), c.Load, c.ComputeStart, c.ComputeEnd)})
		}
	}
	sort.Ints(dests)
	out := comm
	for _, d := range dests {
		out = append(out, *compute[d])
	}
	return out
}

// WriteGantt draws the schedule as an SVG Gantt chart: communication lanes
// on top (for trees one lane per link level, showing the relaying), a
// computing lane per processor (star) or layer (trees), bars coloured by
// stage and labelled with the destination (communication) or stage
// (computation); hovering a bar shows its details.
func (s *Schedule) WriteGantt(w io.Writer) error {
	ls := s.lanes()
	const (
		left, right, top, laneH, barH = 150.0, 30.0, 50.0, 26.0, 18.0
		width                         = 1100.0
	)
	height := top + laneH*float64(len(ls)) + 50
	tmax := s.Cmax
	for _, l := range ls {
		for _, b := range l.bars {
			tmax = math.Max(tmax, b.end)
		}
	}
	if !(tmax > 0) {
		tmax = 1
	}
	x := func(t float64) float64 { return left + (width-left-right)*t/tmax }
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", width, height)
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(bw, `<text x="%.0f" y="20" font-size="14">%s</text>`+"\n", left, html.EscapeString(firstLine(s.Summary())))
	fmt.Fprintf(bw, `<text x="%.0f" y="36">Cmax = %.9g, %d stage(s), %d message(s)</text>`+"\n", left, s.Cmax, s.Stages, len(s.Chunks))
	for i, l := range ls {
		y := top + laneH*float64(i)
		if i%2 == 0 {
			fmt.Fprintf(bw, `<rect x="0" y="%.1f" width="%.0f" height="%.0f" fill="#f4f4f4"/>`+"\n", y, width, laneH)
		}
		fmt.Fprintf(bw, `<text x="6" y="%.1f">%s</text>`+"\n", y+laneH/2+4, html.EscapeString(l.name))
		for _, b := range l.bars {
			x0, x1 := x(b.start), x(b.end)
			wd := math.Max(x1-x0, 0.5)
			col := palette[(b.stage-1+len(palette))%len(palette)]
			fmt.Fprintf(bw, `<rect x="%.2f" y="%.1f" width="%.2f" height="%.0f" fill="%s" stroke="#333" stroke-width="0.3"><title>%s</title></rect>`+"\n",
				x0, y+(laneH-barH)/2, wd, barH, col, html.EscapeString(b.title))
			if wd > 7*float64(len(b.label)) {
				fmt.Fprintf(bw, `<text x="%.2f" y="%.1f" text-anchor="middle" fill="white">%s</text>`+"\n", (x0+x1)/2, y+laneH/2+4, html.EscapeString(b.label))
			}
		}
	}
	// time axis with 10 ticks
	ay := top + laneH*float64(len(ls)) + 8
	fmt.Fprintf(bw, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="black"/>`+"\n", left, ay, width-right, ay)
	for k := 0; k <= 10; k++ {
		t := tmax * float64(k) / 10
		fmt.Fprintf(bw, `<line x1="%.2f" y1="%.1f" x2="%.2f" y2="%.1f" stroke="black"/><text x="%.2f" y="%.1f" text-anchor="middle">%.4g</text>`+"\n",
			x(t), ay, x(t), ay+5, x(t), ay+18, t)
	}
	fmt.Fprintf(bw, `<line x1="%.2f" y1="%.0f" x2="%.2f" y2="%.1f" stroke="red" stroke-dasharray="4 2"/>`+"\n", x(s.Cmax), top, x(s.Cmax), ay)
	fmt.Fprintf(bw, `<text x="%.2f" y="%.1f" fill="red" text-anchor="end">Cmax</text>`+"\n", x(s.Cmax)-3, top-3)
	fmt.Fprintf(bw, "</svg>\n")
	return bw.Flush()
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
