package schedule_test

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
)

func TestWriteCSV(t *testing.T) {
	tests := []struct {
		name string
		s    *schedule.Schedule
		// want lists the expected rows; nil means "check numerically
		// against the chunks instead".
		want [][]string
	}{
		// treeSchedule's hand-computed times (see its comment).
		{"tree", treeSchedule(), [][]string{
			{"1", "", "1", "2", "0", "2", "2", "4"},
			{"1", "", "2", "1", "2", "5.5", "5.5", "6.5"},
		}},
		{"binomial", binomialSchedule(), [][]string{
			{"1", "", "2", "1", "0", "3.5", "3.5", "4.5"},
			{"1", "", "1", "2", "3.5", "5.5", "5.5", "7.5"},
		}},
		{"star, non-representable loads", starSchedule(), nil},
		{"no chunks", &schedule.Schedule{Problem: schedule.Problem{Topology: "star"}}, [][]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.s.WriteCSV(&b); err != nil {
				t.Fatalf("WriteCSV: %v", err)
			}
			recs, err := csv.NewReader(&b).ReadAll()
			if err != nil {
				t.Fatalf("output is not CSV: %v", err)
			}
			wantHeader := []string{"stage", "processor", "layer", "load", "start", "arrival", "compute_start", "compute_end"}
			if len(recs) == 0 || !reflect.DeepEqual(recs[0], wantHeader) {
				t.Fatalf("header %v, want %v", recs, wantHeader)
			}
			if !reflect.DeepEqual(schedule.CSVHeader, wantHeader) {
				t.Errorf("CSVHeader = %v", schedule.CSVHeader)
			}
			rows := recs[1:]
			if len(rows) != len(tc.s.Chunks) {
				t.Fatalf("%d rows for %d chunks", len(rows), len(tc.s.Chunks))
			}
			if tc.want != nil && !reflect.DeepEqual(rows, tc.want) {
				t.Errorf("rows %v, want %v", rows, tc.want)
			}
			// Full precision: every number parses back to the same float64.
			for q, c := range tc.s.Chunks {
				r := rows[q]
				if r[0] != strconv.Itoa(c.Stage) {
					t.Errorf("row %d stage %q, want %d", q, r[0], c.Stage)
				}
				if c.Processor > 0 && r[1] != strconv.Itoa(c.Processor) || c.Processor == 0 && r[1] != "" {
					t.Errorf("row %d processor %q for chunk processor %d", q, r[1], c.Processor)
				}
				if c.Layer > 0 && r[2] != strconv.Itoa(c.Layer) || c.Layer == 0 && r[2] != "" {
					t.Errorf("row %d layer %q for chunk layer %d", q, r[2], c.Layer)
				}
				for k, want := range []float64{c.Load, c.Start, c.Arrival, c.ComputeStart, c.ComputeEnd} {
					got, err := strconv.ParseFloat(r[3+k], 64)
					if err != nil || got != want {
						t.Errorf("row %d column %s = %q, want exactly %v", q, wantHeader[3+k], r[3+k], want)
					}
				}
			}
		})
	}
}

func TestSummaryAndTable(t *testing.T) {
	hetero := starSchedule()
	hetero.Problem.Procs = []schedule.Proc{{S: 0.1, C: 0.01, A: 0.1}, {S: 0.1, C: 0.01, A: 0.1}}
	relay := treeSchedule()
	relay.Problem.Relay = []int{1}
	relay.Pruning = &schedule.Removed{Messages: [][2]int{{1, 1}}, Destinations: []int{1}, Rounds: 1, CmaxBefore: 7, CmaxAfter: 6.5}
	relay.Solve = &schedule.SolveInfo{Solver: "gonum", Form: "paper", Variables: 9, Constraints: 8, Nonzeros: 21,
		Attempts: []schedule.Attempt{{}, {}, {}}, Certified: false, Note: "certified gap 0.1 exceeds the tolerance 1e-09", Seconds: 0.5}
	relay.Verification = &schedule.Verification{OK: true, Makespan: 6.5, EarliestMakespan: 6.25, Events: 17, Processors: 6}
	unpruned := treeSchedule()
	unpruned.Pruning = &schedule.Removed{Rounds: 0, CmaxBefore: 6.5, CmaxAfter: 6.5}

	tests := []struct {
		name    string
		s       *schedule.Schedule
		want    []string
		notWant []string
		// rows are the expected fields of the table's chunk lines.
		rows [][]string
	}{
		{"star", starSchedule(), []string{
			"star m=2  S=0.1 C=0.01 A=0.1 D=inf V=30\n",
			"status optimal  Cmax 1.88095238095  lower bound 1.88095238095  gap 0\n", // Cmax ≈ 1.88095 by hand
			"stages: built 1, carrying load 1 (n_min 1), messages 2\n",
		}, []string{"heterogeneous", "pruned", "LP (", "verified", "violation"},
			[][]string{
				{"1", "1", "16.1905", "0", "0.261905", "0.261905", "1.88095"},
				{"1", "2", "13.8095", "0.261905", "0.5", "0.5", "1.88095"},
			}},
		{"heterogeneous star, everything reported", fullSchedule(), []string{
			"star m=2 (heterogeneous)  S:C:A 0.1:0.01:0.1 0.2:0.02:0.3333333333333333  D=inf V=30\n",
			"gap 1e-13\n",
			"stages: built 3, carrying load 1 (n_min 1), messages 2\n",
			"pruned in 2 round(s): 4 empty message(s) removed, stages [2 3]; Cmax 1.9 -> 1.88095238095\n",
			"LP (compact form, clp): 14 variables, 13 constraints, 40 nonzeros; 2 attempt(s), 0.012s\n",
			"executor found 1 violation(s):\n  buffer at 0.25: message of 12 > D\n",
		}, []string{"NOT certified", "verified by", "processors ["}, nil},
		{"heterogeneous flag", hetero, []string{"star m=2 (heterogeneous)  S:C:A 0.1:0.01:0.1 0.1:0.01:0.1  D=inf"}, []string{"S=0"}, nil},
		{"tree", treeSchedule(), []string{
			"tree p=2 h=2 nlf 2-buffer  S=1 C=0.5 A=1 D=4 V=8\n",
			"status optimal  Cmax 6.5  lower bound 6.5  gap 0\n",
		}, []string{"relay-only", "pruned"},
			[][]string{
				{"1", "1", "2", "0", "2", "2", "4"},
				{"1", "2", "1", "2", "5.5", "5.5", "6.5"},
			}},
		{"tree, zero prune rounds", unpruned, nil, []string{"pruned"}, nil},
		{"relay tree, uncertified, verified", relay, []string{
			"tree p=2 h=2 nlf 2-buffer relay-only layers [1]  S=1",
			"pruned in 1 round(s): 1 empty message(s) removed, layers [1]; Cmax 7 -> 6.5\n",
			"LP (paper form, gonum): 9 variables, 8 constraints, 21 nonzeros; 3 attempt(s), 0.500s; NOT certified: certified gap 0.1 exceeds the tolerance 1e-09\n",
			"verified by the executor: 6 processors, 17 events, makespan 6.5 (earliest 6.25)\n",
		}, []string{"violation"}, nil},
		{"binomial", binomialSchedule(), []string{
			"binomial p=2 h=2 llf  S=1 C=0.5 A=1 D=10 V=10\n",
			"messages 2\n",
		}, []string{"buffer"},
			[][]string{
				{"1", "2", "1", "0", "3.5", "3.5", "4.5"},
				{"1", "1", "2", "3.5", "5.5", "5.5", "7.5"},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sum := tc.s.Summary()
			for _, w := range tc.want {
				if !strings.Contains(sum, w) {
					t.Errorf("summary lacks %q:\n%s", w, sum)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(sum, w) {
					t.Errorf("summary should not contain %q:\n%s", w, sum)
				}
			}
			if !strings.HasSuffix(sum, "\n") {
				t.Errorf("summary does not end with a newline")
			}
			var b bytes.Buffer
			if err := tc.s.WriteTable(&b); err != nil {
				t.Fatalf("WriteTable: %v", err)
			}
			out := b.String()
			if !strings.HasPrefix(out, sum) {
				t.Fatalf("table does not start with the summary:\n%s", out)
			}
			lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(out, sum), "\n"), "\n")
			if len(lines) != 1+len(tc.s.Chunks) {
				t.Fatalf("table has %d lines after the summary, want a header and %d chunks:\n%s", len(lines), len(tc.s.Chunks), out)
			}
			dest := "proc"
			if tc.s.Problem.Topology != "star" {
				dest = "layer"
			}
			if got, want := strings.Fields(lines[0]), []string{"stage", dest, "load", "start", "arrival", "compute", "start", "compute", "end"}; !reflect.DeepEqual(got, want) {
				t.Errorf("table header %q, want fields %v", lines[0], want)
			}
			for q, l := range lines[1:] {
				f := strings.Fields(l)
				if len(f) != 7 {
					t.Errorf("row %q has %d fields, want 7", l, len(f))
				}
				if tc.rows != nil && !reflect.DeepEqual(f, tc.rows[q]) {
					t.Errorf("row %d = %v, want %v", q, f, tc.rows[q])
				}
			}
		})
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
	escaped := treeSchedule()
	escaped.Problem.Order = `n<l&"f'`
	empty := &schedule.Schedule{Status: "infeasible", Problem: schedule.Problem{Topology: "star", M: 3}}
	zeroMsg := starSchedule()
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
		{"star", starSchedule(), []string{"P0 sends", "P1 computes", "P2 computes"}, 4},
		{"star with an empty message", zeroMsg, []string{"P0 sends", "P1 computes", "P2 computes", "P3 computes"}, 5},
		{"tree: one lane per link level", treeSchedule(), []string{"links 0→1", "links 1→2", "layer 1 computes", "layer 2 computes"}, 5},
		{"binomial: one scatter lane", binomialSchedule(), []string{"scatter steps", "layer 1 computes", "layer 2 computes"}, 5},
		{"markup in the problem is escaped", escaped, []string{"links 0→1", "links 1→2", "layer 1 computes", "layer 2 computes"}, 5},
		{"no chunks", empty, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.s.WriteGantt(&b); err != nil {
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
	s := starSchedule()
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
	if err := s.WriteGantt(&b); err != nil {
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
