package plotting

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schedule/scheduletest"
)

var inf = math.Inf(1)

// twoWorkers is the FIFO example as solved (docs/heterogeneous.md), as in schedule's tests:
// two identical workers, β = 0.5, the results back by 115/7.
func twoWorkers() *schedule.Schedule {
	return &schedule.Schedule{Status: "optimal", Cmax: 115.0 / 7, Stages: 1,
		Problem: schedule.Problem{Topology: "star", M: 2, Procs: []schedule.Proc{{C: 1, A: 1}, {C: 1, A: 1}}, D: schedule.Float(math.Inf(1)), V: 10,
			Stages: 1, ResultRatio: 0.5, Return: "fifo"},
		Chunks: []schedule.Chunk{
			{Stage: 1, Processor: 1, Load: 40.0 / 7, Arrival: 40.0 / 7, ComputeStart: 40.0 / 7, ComputeEnd: 80.0 / 7,
				Hops: []schedule.Hop{{From: 0, To: 1, Load: 40.0 / 7, End: 40.0 / 7}}},
			{Stage: 1, Processor: 2, Load: 30.0 / 7, Start: 40.0 / 7, Arrival: 10, ComputeStart: 10, ComputeEnd: 100.0 / 7,
				Hops: []schedule.Hop{{From: 0, To: 2, Load: 30.0 / 7, Start: 40.0 / 7, End: 10}}},
		},
		Returns:           []schedule.Return{{Processor: 1, Load: 20.0 / 7, Start: 80.0 / 7, End: 100.0 / 7}, {Processor: 2, Load: 15.0 / 7, Start: 100.0 / 7, End: 115.0 / 7}},
		WorkerOrder:       []int{1, 2},
		WorkerOrderMethod: "given",
	}
}

// The Gantt chart draws the result messages on the originator's port
// lane, which then says it is one port both ways, with a legend entry.
func TestGanttResults(t *testing.T) {
	var svg bytes.Buffer
	if err := WriteGantt(&svg, twoWorkers()); err != nil {
		t.Fatal(err)
	}
	out := svg.String()
	for _, want := range []string{">P0 port<", "results of P1: 2.85714, 11.4286–14.2857", "results of P2", resultColor, "results (label: r + processor)"} {
		if !strings.Contains(out, want) {
			t.Errorf("Gantt chart lacks %q", want)
		}
	}
}

// svgDoc is the part of the Gantt SVG the tests look at.
type svgDoc struct {
	XMLName xml.Name  `xml:"svg"`
	Width   string    `xml:"width,attr"`
	Height  string    `xml:"height,attr"`
	Rects   []svgRect `xml:"rect"`
	Texts   []svgText `xml:"text"`
	Lines   []svgLine `xml:"line"`
}

type svgRect struct {
	X, Width float64 `xml:"-"` // parsed from XS and WS
	Fill     string  `xml:"fill,attr"`
	Title    string  `xml:"title"`
	XS       string  `xml:"x,attr"`
	WS       string  `xml:"width,attr"`
}

type svgText struct {
	X    string `xml:"x,attr"`
	Y    string `xml:"y,attr"`
	Fill string `xml:"fill,attr"`
	Text string `xml:",chardata"`
}

type svgLine struct {
	X1     string `xml:"x1,attr"`
	X2     string `xml:"x2,attr"`
	Stroke string `xml:"stroke,attr"`
}

// parseSVG checks that b is one well-formed XML element in the SVG
// namespace and decodes it.
func parseSVG(t *testing.T, b []byte) svgDoc {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, b)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if e.Name.Space != "http://www.w3.org/2000/svg" || e.Name.Local != "svg" {
					t.Fatalf("root element %v", e.Name)
				}
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 || depth != 0 {
		t.Fatalf("SVG has %d root elements, final depth %d", roots, depth)
	}
	var doc svgDoc
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("xml.Unmarshal: %v", err)
	}
	for i := range doc.Rects {
		r := &doc.Rects[i]
		if r.XS != "" {
			r.X, _ = strconv.ParseFloat(r.XS, 64)
		}
		if r.WS != "" && !strings.HasSuffix(r.WS, "%") {
			r.Width, _ = strconv.ParseFloat(r.WS, 64)
		}
	}
	return doc
}

func TestWriteGantt(t *testing.T) {
	// Layout constants of WriteGantt: the chart spans x = 150 (t = 0) to
	// x = 1100 − 30 = 1070 (t = the first round tick at or after Cmax);
	// each lane is 26 high below a 56-pixel header, with 94 pixels for
	// the axis, its title and the legend.
	const left, right = 150.0, 1070.0
	escaped := scheduletest.Tree()
	escaped.Problem.Order = `n<l&"f'`
	empty := &schedule.Schedule{Status: "infeasible", Problem: schedule.Problem{Topology: "star", M: 3}}
	zeroMsg := scheduletest.Star()
	zeroMsg.Problem.M = 3
	zeroMsg.Chunks = append(zeroMsg.Chunks, schedule.Chunk{Stage: 1, Processor: 3, Load: 0,
		Start: 0.5, Arrival: 0.6, Hops: []schedule.Hop{{From: 0, To: 1, Start: 0.5, End: 0.6}},
		ComputeStart: 0.6, ComputeEnd: 0.6})

	tests := []struct {
		name  string
		s     *schedule.Schedule
		lanes []string
		bars  int // rects with a <title>: one per hop and per non-empty computation
	}{
		{"star", scheduletest.Star(), []string{"P0 sends", "P1 computes", "P2 computes"}, 4},
		{"star with an empty message", zeroMsg, []string{"P0 sends", "P1 computes", "P2 computes", "P3 computes"}, 5},
		{"tree: one lane per link level", scheduletest.Tree(), []string{"links 0→1", "links 1→2", "layer 1 computes", "layer 2 computes"}, 5},
		{"binomial: one scatter lane", scheduletest.Binomial(), []string{"scatter steps", "layer 1 computes", "layer 2 computes"}, 5},
		{"markup in the problem is escaped", escaped, []string{"links 0→1", "links 1→2", "layer 1 computes", "layer 2 computes"}, 5},
		{"no chunks", empty, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteGantt(&b, tc.s); err != nil {
				t.Fatalf("WriteGantt: %v", err)
			}
			doc := parseSVG(t, b.Bytes())
			if doc.Width != "1100" {
				t.Errorf("width %q, want 1100", doc.Width)
			}
			if want := fmt.Sprintf("%d", 56+26*len(tc.lanes)+94); doc.Height != want {
				t.Errorf("height %q, want %s for %d lanes", doc.Height, want, len(tc.lanes))
			}
			var lanes []string
			for _, x := range doc.Texts {
				if x.X == "6" && x.Text != "colour = stage" {
					lanes = append(lanes, x.Text)
				}
			}
			if !reflect.DeepEqual(lanes, tc.lanes) {
				t.Errorf("lanes %q, want %q", lanes, tc.lanes)
			}
			// The title is the summary's first line, unescaped by the parser.
			first, _, _ := strings.Cut(tc.s.Summary(), "\n")
			if len(doc.Texts) < 2 || doc.Texts[0].Text != first {
				t.Errorf("title %q, want %q", doc.Texts[0].Text, first)
			}
			if want := fmt.Sprintf("Cmax = %.9g s, %d stage(s), %d message(s)", tc.s.Cmax, tc.s.Stages, len(tc.s.Chunks)); !strings.HasPrefix(doc.Texts[1].Text, want) {
				t.Errorf("subtitle %q, want %q", doc.Texts[1].Text, want)
			}
			// The axis ends at a round tick at or after Cmax: read the
			// scale off the major tick labels (label text = time).
			var ticks [][2]float64 // time, x
			for _, x := range doc.Texts {
				v, err := strconv.ParseFloat(x.Text, 64)
				if err != nil || x.Fill != "" {
					continue
				}
				px, _ := strconv.ParseFloat(x.X, 64)
				ticks = append(ticks, [2]float64{v, px})
				// Round: at most two significant digits.
				if r := strconv.FormatFloat(v, 'g', 2, 64); r != strconv.FormatFloat(v, 'g', -1, 64) {
					t.Errorf("tick label %q is not round", x.Text)
				}
			}
			if len(ticks) < 2 || ticks[0] != [2]float64{0, left} {
				t.Fatalf("tick labels %v, want at least two starting with 0 at x = %g", ticks, left)
			}
			last := ticks[len(ticks)-1]
			tmax := last[0] * (right - left) / (last[1] - left)
			if c := tc.s.Cmax; c > 0 && (tmax < c || tmax > 2*c) {
				t.Errorf("axis ends at %g, want a round value in [Cmax, 2 Cmax] = [%g, %g]", tmax, c, 2*c)
			}
			title, legend := false, false
			for _, x := range doc.Texts {
				title = title || x.Text == "time (s)"
				legend = legend || x.Text == "colour = stage"
			}
			if !title || !legend {
				t.Errorf("axis title %v, legend %v", title, legend)
			}
			bars := 0
			for _, r := range doc.Rects {
				if r.Title == "" {
					continue
				}
				bars++
				if !strings.HasPrefix(r.Title, "stage 1 ") {
					t.Errorf("bar title %q", r.Title)
				}
				if r.X < left-0.01 || r.X+r.Width > right+0.51 {
					t.Errorf("bar %q spans x %g..%g, outside the time axis %g..%g", r.Title, r.X, r.X+r.Width, left, right)
				}
			}
			if bars != tc.bars {
				t.Errorf("%d bars, want %d", bars, tc.bars)
			}
			// Each computation bar starts at x(ComputeStart).
			for _, c := range tc.s.Chunks {
				if c.ComputeEnd <= c.ComputeStart {
					continue
				}
				want := left + (right-left)*c.ComputeStart/tmax
				found := false
				for _, r := range doc.Rects {
					if strings.Contains(r.Title, fmt.Sprintf("load %.6g, ", c.Load)) && math.Abs(r.X-want) <= 0.01 {
						found = true
					}
				}
				if !found {
					t.Errorf("no computation bar for stage %d dest %d at x = %.2f", c.Stage, c.Dest(), want)
				}
			}
			// The Cmax marker: a red dashed line at x(Cmax) and its label.
			xc := left + (right-left)*tc.s.Cmax/tmax
			marker := false
			for _, l := range doc.Lines {
				x1, _ := strconv.ParseFloat(l.X1, 64)
				if l.Stroke == "#c00" && math.Abs(x1-xc) < 0.02 && l.X1 == l.X2 {
					marker = true
				}
			}
			if !marker {
				t.Errorf("no red Cmax line at x = %.2f", xc)
			}
			label := false
			for _, x := range doc.Texts {
				if x.Fill == "#c00" && x.Text == "Cmax" {
					label = true
				}
			}
			if !label {
				t.Errorf("no Cmax label")
			}
		})
	}
}

// Stage colours never repeat: twelve stages get twelve fill colours, and
// the legend is a colour scale from stage 1 to stage 12 below the axis
// (issue 16: colours repeated every ten stages and there was no legend).
func TestGanttStageColours(t *testing.T) {
	s := scheduletest.Star()
	base := s.Chunks[0]
	s.Chunks = nil
	for k := 1; k <= 12; k++ {
		c := base
		c.Stage = k
		c.ComputeStart, c.ComputeEnd = float64(k), float64(k)+0.5
		c.Hops = nil
		s.Chunks = append(s.Chunks, c)
	}
	s.Cmax, s.Stages = 12.5, 12
	var b bytes.Buffer
	if err := WriteGantt(&b, s); err != nil {
		t.Fatal(err)
	}
	doc := parseSVG(t, b.Bytes())
	fills := map[string]bool{}
	for _, r := range doc.Rects {
		if r.Title != "" {
			fills[r.Fill] = true
		}
	}
	if len(fills) != 12 {
		t.Errorf("%d distinct colours for 12 stages", len(fills))
	}
	ends := 0
	for _, x := range doc.Texts {
		if x.Text == "stage 1" || x.Text == "stage 12" {
			ends++
		}
	}
	if ends != 2 {
		t.Errorf("legend lacks the stage 1 .. stage 12 scale")
	}
}
