package optimize

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dlsched/dlsched/closedform"
	"github.com/dlsched/dlsched/plotting"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/topology"
)

// Report is a search result ready for output: a table for people, JSON and
// CSV for programs, and a chart. The JSON of every search starts with
// "format": "dlsched.optimize/1" (schema.Optimize; its field "over" says
// which search, schema/optimize.schema.json describes each). Every format is deterministic (same
// result, same bytes); timings appear only in the table.
type Report interface {
	WriteTable(w io.Writer) error
	WriteJSON(w io.Writer) error
	WriteCSV(w io.Writer) error
	Chart() plotting.Chart
}

// describe returns the one-line description of a problem.
func describe(p *problem.Problem) string {
	var b bytes.Buffer
	switch p.Kind {
	case topology.Star:
		fmt.Fprintf(&b, "star m=%d", p.M)
		if len(p.Procs) > 0 {
			b.WriteString(" (heterogeneous)")
		}
	case topology.Tree:
		fmt.Fprintf(&b, "tree p=%d h=%d %s %d-buffer", p.P, p.H, p.Order, p.Buffers)
	default:
		fmt.Fprintf(&b, "binomial p=%d h=%d %s", p.P, p.H, p.Order)
	}
	if len(p.Relay) > 0 {
		fmt.Fprintf(&b, " relay-only layers %v", p.Relay)
	}
	fmt.Fprintf(&b, "  S=%s C=%s A=%s D=%s V=%s", g(p.S), g(p.C), g(p.A), schedule.Float(p.D), g(p.V))
	return b.String()
}

// describeChart is describe for a chart's note, in its units, without D
// when D is an axis (a note saying D=inf under a curve over D misled).
func describeChart(p *problem.Problem, withD bool) string {
	q := *p
	s := describe(&q)
	if !withD {
		s = strings.Replace(s, " D="+schedule.Float(p.D).String(), "", 1)
	}
	return s + "  (S s per message, C and A s per unit, V units)"
}

func g(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// problemJSON is the problem as recorded in outputs (the schedule's field
// names, without a stage count).
func problemJSON(p *problem.Problem) map[string]any {
	b, _ := json.Marshal(p.ScheduleProblem(0))
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	delete(m, "stages")
	return m
}

type dstarJSON struct {
	D       schedule.Float `json:"D,omitempty"`
	Exists  bool           `json:"exists"`
	Formula string         `json:"formula"`
	Why     string         `json:"why,omitempty"`
}

func dstarOf(d closedform.DStar) dstarJSON {
	return dstarJSON{D: schedule.Float(d.D), Exists: d.Exists, Formula: d.Formula, Why: d.Why}
}

// DStarLine returns the Section 5 heuristic as a sentence.
func DStarLine(d closedform.DStar) string {
	if !d.Exists {
		return fmt.Sprintf("Section 5 heuristic D* >= %s: no D* exists (%s)", d.Formula, d.Why)
	}
	return fmt.Sprintf("Section 5 heuristic D* >= %s = %.6g", d.Formula, d.D)
}

type statsJSON struct {
	Warm      int `json:"warm"`
	Cold      int `json:"cold"`
	Fallbacks int `json:"fallbacks"`
}

func statsOf(s Stats) statsJSON { return statsJSON{s.Warm, s.Cold, s.Fallbacks} }

func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// PointHeader is the CSV header of curves.
var PointHeader = []string{"stages", "D", "cmax", "cmax_full", "lower_bound", "bound", "stages_used", "n_min"}

func pointRow(pt Point) []string {
	return []string{strconv.Itoa(pt.Stages), pt.D.String(), pt.Cmax.String(), pt.CmaxFull.String(),
		pt.LowerBound.String(), pt.Bound.String(), strconv.Itoa(pt.StagesUsed), strconv.Itoa(pt.NMin)}
}

func writeCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func curveName(pruned bool) string {
	if pruned {
		return "pruned"
	}
	return "full"
}

// NReport presents an OverN result.
type NReport struct {
	P *problem.Problem
	R *NResult
}

// Coverage returns the sentence that states what the search covered.
func (r *NResult) Coverage() string {
	b := r.Bound
	switch {
	case r.Covered:
		return fmt.Sprintf("covered: every n in [%d, %d] evaluated; for n >= %d, L(n) = %.6g*n + %.6g > best %.10g, so no full n-stage pattern beyond n=%d can beat it",
			r.NMin, r.Last, r.RuleN, b.Slope, b.Intercept, float64(r.Best.Cmax), r.Last)
	case r.RuleN > 0:
		return fmt.Sprintf("NOT covered: evaluated n in [%d, %d]; the rule L(n) > best needs n >= %d (raise the guard n_max); %s",
			r.NMin, r.Last, r.RuleN, r.Note)
	}
	return fmt.Sprintf("NOT covered: evaluated n in [%d, %d]; %s", r.NMin, r.Last, r.Note)
}

// WriteTable implements Report.
func (x NReport) WriteTable(w io.Writer) error {
	r := x.R
	var b bytes.Buffer
	fmt.Fprintf(&b, "optimize over n: %s\n", describe(x.P))
	fmt.Fprintf(&b, "curve: %s Cmax (n_min %d); %d LPs warm, %d cold", curveName(r.Pruned), r.NMin, r.Stats.Warm, r.Stats.Cold)
	if r.Stats.Fallbacks > 0 {
		fmt.Fprintf(&b, " (%d warm attempts redone cold)", r.Stats.Fallbacks)
	}
	b.WriteString(r.Stats.timing() + "\n")
	fmt.Fprintf(&b, "best: n = %d, Cmax = %.10g (stages carrying load %d)\n", r.Best.Stages, float64(r.Best.Cmax), r.Best.StagesUsed)
	b.WriteString(r.Final.line())
	fmt.Fprintf(&b, "%s\n", r.Coverage())
	fmt.Fprintf(&b, "%s\n", DStarLine(closedform.DStarFor(x.P)))
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "n\tCmax\tCmax full\tlower bound\tL(n)\tused\t\n")
	for _, pt := range r.Curve {
		mark := ""
		if pt.Stages == r.Best.Stages {
			mark = " <- best"
		}
		fmt.Fprintf(tw, "%d\t%.10g\t%.10g\t%.10g\t%.6g\t%d\t%s\n", pt.Stages, float64(pt.Cmax), float64(pt.CmaxFull),
			float64(pt.LowerBound), float64(pt.Bound), pt.StagesUsed, mark)
	}
	return tw.Flush()
}

// WriteJSON implements Report.
func (x NReport) WriteJSON(w io.Writer) error {
	r := x.R
	return writeJSON(w, struct {
		Format   string         `json:"format"`
		Over     string         `json:"over"`
		Problem  map[string]any `json:"problem"`
		Curve    string         `json:"curve_kind"`
		Best     Point          `json:"best"`
		Points   []Point        `json:"curve"`
		NMin     int            `json:"n_min"`
		Last     int            `json:"last"`
		Covered  bool           `json:"covered"`
		RuleN    int            `json:"rule_n"`
		Coverage string         `json:"coverage"`
		Bound    Bound          `json:"bound"`
		DStar    dstarJSON      `json:"dstar"`
		Note     string         `json:"note,omitempty"`
		Solves   statsJSON      `json:"solves"`
		Final    *Final         `json:"schedule,omitempty"`
	}{schema.Optimize, "n", problemJSON(x.P), curveName(r.Pruned), r.Best, r.Curve, r.NMin, r.Last, r.Covered, r.RuleN, r.Coverage(),
		r.Bound, dstarOf(closedform.DStarFor(x.P)), r.Note, statsOf(r.Stats), r.Final})
}

// WriteCSV implements Report: one row per point.
func (x NReport) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(x.R.Curve))
	for i, pt := range x.R.Curve {
		rows[i] = pointRow(pt)
	}
	return writeCSV(w, PointHeader, rows)
}

// Chart implements Report: Cmax over n, the full-pattern curve when it
// differs, and the bound L(n).
func (x NReport) Chart() plotting.Chart {
	r := x.R
	var ns, c, full, l []float64
	differs := false
	for _, pt := range r.Curve {
		ns = append(ns, float64(pt.Stages))
		c = append(c, float64(pt.Cmax))
		full = append(full, float64(pt.CmaxFull))
		l = append(l, float64(pt.Bound))
		differs = differs || pt.CmaxFull != pt.Cmax
	}
	ch := plotting.Chart{Title: "Cmax over the number of stages n", Note: describeChart(x.P, true), XLabel: "stages n", YLabel: "Cmax (s)",
		Series: []plotting.Series{{Name: "Cmax (" + curveName(r.Pruned) + ")", X: ns, Y: c}}}
	if differs {
		ch.Series = append(ch.Series, plotting.Series{Name: "Cmax (full pattern)", X: ns, Y: full})
	}
	ch.Series = append(ch.Series, plotting.Series{Name: "L(n) lower bound", X: ns, Y: l})
	return ch
}

// DReport presents an OverD result.
type DReport struct {
	P *problem.Problem
	R *DResult
}

// WriteTable implements Report.
func (x DReport) WriteTable(w io.Writer) error {
	r := x.R
	var b bytes.Buffer
	fmt.Fprintf(&b, "optimize over D: %s\n", describe(x.P))
	fmt.Fprintf(&b, "stages per D: %s; %d grid points + %d refinement; %d LPs warm, %d cold%s\n",
		r.Stages, r.Grid, len(r.Curve)-r.Grid, r.Stats.Warm, r.Stats.Cold, r.Stats.timing())
	fmt.Fprintf(&b, "best: D = %.6g, n = %d, Cmax = %.10g\n", float64(r.Best.D), r.Best.Stages, float64(r.Best.Cmax))
	b.WriteString(r.Final.line())
	fmt.Fprintf(&b, "smallest D within %g of the best: D = %.6g, n = %d, Cmax = %.10g\n", r.Within, float64(r.Smallest.D), r.Smallest.Stages, float64(r.Smallest.Cmax))
	fmt.Fprintf(&b, "unlimited buffers (D = inf): n = %d, Cmax = %.10g\n", r.Unlimited.Stages, float64(r.Unlimited.Cmax))
	fmt.Fprintf(&b, "%s\n", DStarLine(r.DStar))
	if a := r.AtDStar; r.DStar.Exists && a != nil {
		if math.IsInf(float64(a.Cmax), 1) {
			fmt.Fprintf(&b, "at D = D*: infeasible with n = %d (n_min = %d)\n", a.Stages, a.NMin)
		} else {
			fmt.Fprintf(&b, "at D = D*: n = %d, Cmax = %.10g (%+.3g%% vs the best)\n", a.Stages, float64(a.Cmax),
				100*(float64(a.Cmax)/float64(r.Best.Cmax)-1))
		}
	}
	if r.Note != "" {
		fmt.Fprintf(&b, "note: %s\n", r.Note)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "D\tn\tn_min\tCmax\tlower bound\t\n")
	for _, pt := range r.Curve {
		mark := ""
		switch pt.D {
		case r.Best.D:
			mark = " <- best"
		case r.Smallest.D:
			mark = " <- smallest within"
		}
		fmt.Fprintf(tw, "%.6g\t%d\t%d\t%.10g\t%.10g\t%s\n", float64(pt.D), pt.Stages, pt.NMin, float64(pt.Cmax), float64(pt.LowerBound), mark)
	}
	return tw.Flush()
}

// WriteJSON implements Report.
func (x DReport) WriteJSON(w io.Writer) error {
	r := x.R
	return writeJSON(w, struct {
		Format    string         `json:"format"`
		Over      string         `json:"over"`
		Problem   map[string]any `json:"problem"`
		Stages    string         `json:"stages_rule"`
		Best      Point          `json:"best"`
		Smallest  Point          `json:"smallest_within"`
		Within    float64        `json:"within"`
		Unlimited Point          `json:"unlimited"`
		AtDStar   *Point         `json:"at_dstar,omitempty"`
		Points    []Point        `json:"curve"`
		Grid      int            `json:"grid_points"`
		DStar     dstarJSON      `json:"dstar"`
		Note      string         `json:"note,omitempty"`
		Solves    statsJSON      `json:"solves"`
		Final     *Final         `json:"schedule,omitempty"`
	}{schema.Optimize, "D", problemJSON(x.P), r.Stages.String(), r.Best, r.Smallest, r.Within, r.Unlimited, r.AtDStar, r.Curve, r.Grid,
		dstarOf(r.DStar), r.Note, statsOf(r.Stats), r.Final})
}

// WriteCSV implements Report: one row per point in increasing D.
func (x DReport) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(x.R.Curve))
	for i, pt := range x.R.Curve {
		rows[i] = pointRow(pt)
	}
	return writeCSV(w, PointHeader, rows)
}

// Chart implements Report: Cmax over D (log axis), with the unlimited
// buffer as a reference line.
func (x DReport) Chart() plotting.Chart {
	r := x.R
	var ds, c []float64
	for _, pt := range r.Curve {
		ds = append(ds, float64(pt.D))
		c = append(c, float64(pt.Cmax))
	}
	ch := plotting.Chart{Title: "Cmax over the buffer size D (n: " + r.Stages.String() + ")", Note: describeChart(x.P, false),
		XLabel: "buffer size D (units)", YLabel: "Cmax (s)", LogX: true,
		Series: []plotting.Series{{Name: "Cmax", X: ds, Y: c}}}
	if u := float64(r.Unlimited.Cmax); !math.IsInf(u, 0) && len(ds) > 0 {
		ch.Series = append(ch.Series, plotting.Series{Name: "unlimited buffers (D = inf)", X: []float64{ds[0], ds[len(ds)-1]}, Y: []float64{u, u},
			Style: plotting.Line, EndLabel: "D = inf: " + strconv.FormatFloat(u, 'g', 6, 64)})
	}
	return ch
}

// SurfaceReport presents an OverND result.
type SurfaceReport struct {
	P *problem.Problem
	R *SurfaceResult
}

func fracLabel(d, v float64) string {
	return fmt.Sprintf("D=%.4g (V*%.4g)", d, d/v)
}

// WriteTable implements Report: one column per D, one row per n.
func (x SurfaceReport) WriteTable(w io.Writer) error {
	r := x.R
	var b bytes.Buffer
	q := *x.P
	q.D = math.Inf(1)
	fmt.Fprintf(&b, "optimize over n and D: %s\n", describe(&q))
	fmt.Fprintf(&b, "%d buffer sizes, n up to %d; %d LPs warm, %d cold%s\n", len(r.Lines), r.Through, r.Stats.Warm, r.Stats.Cold, r.Stats.timing())
	fmt.Fprintf(&b, "best: D = %.6g, n = %d, Cmax = %.10g\n", float64(r.Best.D), r.Best.Stages, float64(r.Best.Cmax))
	b.WriteString(r.Final.line())
	for _, l := range r.Lines {
		fmt.Fprintf(&b, "  %s: best n = %d, Cmax = %.10g; %s\n", fracLabel(l.D, x.P.V), l.Best.Stages, float64(l.Best.Cmax), l.Coverage())
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "n")
	for _, l := range r.Lines {
		fmt.Fprintf(tw, "\tD=%.4g", l.D)
	}
	fmt.Fprintf(tw, "\t\n")
	minN, maxN := math.MaxInt, 0
	vals := make([]map[int]float64, len(r.Lines))
	for i, l := range r.Lines {
		vals[i] = map[int]float64{}
		for _, pt := range l.Curve {
			vals[i][pt.Stages] = float64(pt.Cmax)
			minN, maxN = min(minN, pt.Stages), max(maxN, pt.Stages)
		}
	}
	for n := minN; n <= maxN; n++ {
		fmt.Fprintf(tw, "%d", n)
		for i := range r.Lines {
			if v, ok := vals[i][n]; ok {
				fmt.Fprintf(tw, "\t%.8g", v)
			} else {
				fmt.Fprintf(tw, "\t-")
			}
		}
		fmt.Fprintf(tw, "\t\n")
	}
	return tw.Flush()
}

// WriteJSON implements Report: every point of every line in "curve".
func (x SurfaceReport) WriteJSON(w io.Writer) error {
	r := x.R
	type lineJSON struct {
		D        schedule.Float `json:"D"`
		Best     Point          `json:"best"`
		Covered  bool           `json:"covered"`
		Last     int            `json:"last"`
		RuleN    int            `json:"rule_n"`
		Coverage string         `json:"coverage"`
	}
	var pts []Point
	var lines []lineJSON
	for _, l := range r.Lines {
		pts = append(pts, l.Curve...)
		lines = append(lines, lineJSON{schedule.Float(l.D), l.Best, l.Covered, l.Last, l.RuleN, l.Coverage()})
	}
	q := *x.P
	q.D = math.Inf(1)
	pj := problemJSON(&q)
	delete(pj, "D")
	return writeJSON(w, struct {
		Format  string         `json:"format"`
		Over    string         `json:"over"`
		Problem map[string]any `json:"problem"`
		Best    Point          `json:"best"`
		Points  []Point        `json:"curve"`
		Lines   []lineJSON     `json:"lines"`
		Through int            `json:"through"`
		Solves  statsJSON      `json:"solves"`
		Final   *Final         `json:"schedule,omitempty"`
	}{schema.Optimize, "n,D", pj, r.Best, pts, lines, r.Through, statsOf(r.Stats), r.Final})
}

// WriteCSV implements Report: one row per (n, D).
func (x SurfaceReport) WriteCSV(w io.Writer) error {
	var rows [][]string
	for _, l := range x.R.Lines {
		for _, pt := range l.Curve {
			rows = append(rows, pointRow(pt))
		}
	}
	return writeCSV(w, PointHeader, rows)
}

// Chart implements Report: one line per D over n (the paper's Fig. 9 as
// curves).
func (x SurfaceReport) Chart() plotting.Chart {
	ch := plotting.Chart{Title: "Cmax over n, one line per buffer size D", Note: describeChart(x.P, false), XLabel: "stages n", YLabel: "Cmax (s)"}
	lo, hi := math.Inf(1), 0.0
	for _, l := range x.R.Lines {
		var ns, c []float64
		for _, pt := range l.Curve {
			ns = append(ns, float64(pt.Stages))
			c = append(c, float64(pt.Cmax))
			lo, hi = math.Min(lo, float64(pt.Stages)), math.Max(hi, float64(pt.Stages))
		}
		ch.Series = append(ch.Series, plotting.Series{Name: fracLabel(l.D, x.P.V), X: ns, Y: c})
	}
	ch.LogX = hi > 20*lo // n from 1 to hundreds: the small n are not squeezed into a corner
	return ch
}

// SplitReport presents a RelaySplit result.
type SplitReport struct {
	P *problem.Problem
	R *SplitResult
}

// WriteTable implements Report.
func (x SplitReport) WriteTable(w io.Writer) error {
	r := x.R
	var b bytes.Buffer
	q := *x.P
	q.Relay = nil
	fmt.Fprintf(&b, "compute/relay split: %s\n", describe(&q))
	fmt.Fprintf(&b, "stages per split: %s; %d LPs warm, %d cold%s\n", r.Stages, r.Stats.Warm, r.Stats.Cold, r.Stats.timing())
	fmt.Fprintf(&b, "best: %s, n = %d, Cmax = %.10g\n", r.Best.Name(), r.Best.Stages, float64(r.Best.Cmax))
	for _, c := range r.Classic {
		fmt.Fprintf(&b, "classic %s: n = %d, Cmax = %.10g (best split is %.4gx faster)\n", c.Order, c.Stages, float64(c.Cmax), float64(c.Cmax)/float64(r.Best.Cmax))
	}
	if r.Note != "" {
		fmt.Fprintf(&b, "note: %s\n", r.Note)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "computing layers\tn\tn_min\tCmax\ttrivial bound\t\n")
	for _, c := range append(append([]Split(nil), r.Classic...), r.Candidates...) {
		if c.Skipped != "" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t%.6g\t skipped: %s\n", c.Name(), c.Trivial, c.Skipped)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.10g\t%.6g\t\n", c.Name(), c.Stages, c.NMin, float64(c.Cmax), c.Trivial)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.LB) == 0 {
		return nil
	}
	fmt.Fprintf(w, "LB strategy (Section 4.2, closed form; one layer computes, equal chunks): the paper picks layer %d, the best equal-chunk schedule is on layer %d\n",
		r.LB[r.LBPick].Layer, r.LB[r.LBTrue].Layer)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "layer\tprocessors\tn*\tn_min\tn\tpaper Cmax(n)\tequal chunks\tbest n\tbest equal chunks\t\n")
	for _, l := range r.LB {
		cb := ""
		if l.ComputeBound {
			cb = " compute-bound: paper formula below the real makespan"
		}
		fmt.Fprintf(tw, "%d\t%g\t%.4g\t%d\t%d\t%.8g\t%.8g\t%d\t%.8g\t%s\n", l.Layer, l.Processors, float64(l.NStar), l.NMin, l.Stages,
			l.Paper, l.EqualChunks, l.BestStages, l.BestEqualChunks, cb)
	}
	return tw.Flush()
}

// WriteJSON implements Report.
func (x SplitReport) WriteJSON(w io.Writer) error {
	r := x.R
	q := *x.P
	q.Relay = nil
	v := struct {
		Format     string               `json:"format"`
		Over       string               `json:"over"`
		Problem    map[string]any       `json:"problem"`
		Stages     string               `json:"stages_rule"`
		Best       Split                `json:"best"`
		Classic    []Split              `json:"classic"`
		Candidates []Split              `json:"candidates"`
		LB         []closedform.LBLayer `json:"lb,omitempty"`
		LBPick     *int                 `json:"lb_paper_pick,omitempty"`
		LBTrue     *int                 `json:"lb_best_layer,omitempty"`
		Note       string               `json:"note,omitempty"`
		Solves     statsJSON            `json:"solves"`
	}{Format: schema.Optimize, Over: "relay", Problem: problemJSON(&q), Stages: r.Stages.String(), Best: r.Best, Classic: r.Classic,
		Candidates: r.Candidates, LB: r.LB, Note: r.Note, Solves: statsOf(r.Stats)}
	if len(r.LB) > 0 {
		a, b := r.LB[r.LBPick].Layer, r.LB[r.LBTrue].Layer
		v.LBPick, v.LBTrue = &a, &b
	}
	return writeJSON(w, v)
}

// SplitHeader is the CSV header of RelaySplit.
var SplitHeader = []string{"kind", "compute", "order", "stages", "n_min", "cmax", "trivial_bound", "skipped"}

// WriteCSV implements Report: the classic algorithms, then the candidates.
func (x SplitReport) WriteCSV(w io.Writer) error {
	var rows [][]string
	add := func(kind string, s Split) {
		rows = append(rows, []string{kind, ints(s.Compute), s.Order, strconv.Itoa(s.Stages), strconv.Itoa(s.NMin),
			s.Cmax.String(), g(s.Trivial), s.Skipped})
	}
	for _, s := range x.R.Classic {
		add("classic", s)
	}
	for _, s := range x.R.Candidates {
		add("split", s)
	}
	return writeCSV(w, SplitHeader, rows)
}

// Chart implements Report: Cmax by computing layer for the single-layer
// splits (relay LP and, for binomial trees, the LB closed forms), with the
// classic algorithms as horizontal lines; logarithmic Cmax.
func (x SplitReport) Chart() plotting.Chart {
	r := x.R
	ch := plotting.Chart{Title: "Single computing layer against the classic algorithms", Note: describeChart(x.P, true),
		XLabel: "computing layer i", YLabel: "Cmax (s)", LogY: true}
	var xs, ys []float64
	for _, c := range r.Candidates {
		if len(c.Compute) == 1 && c.Skipped == "" {
			xs = append(xs, float64(c.Compute[0]))
			ys = append(ys, float64(c.Cmax))
		}
	}
	ch.Series = append(ch.Series, plotting.Series{Name: "relay-only LP", X: xs, Y: ys})
	if len(r.LB) > 0 {
		var lx, lp, le []float64
		for _, l := range r.LB {
			lx = append(lx, float64(l.Layer))
			lp = append(lp, l.Paper)
			le = append(le, l.EqualChunks)
		}
		ch.Series = append(ch.Series, plotting.Series{Name: "LB paper formula", X: lx, Y: lp},
			plotting.Series{Name: "LB equal chunks (true makespan)", X: lx, Y: le})
	}
	for _, c := range r.Classic {
		v := float64(c.Cmax)
		ch.Series = append(ch.Series, plotting.Series{Name: "classic " + c.Order, X: []float64{1, float64(x.P.H)}, Y: []float64{v, v},
			Style: plotting.Line, EndLabel: c.Order + " " + strconv.FormatFloat(v, 'g', 5, 64)})
	}
	return ch
}

// timing is "; 1.23s", or "" when the time was dropped (NoTimings).
func (s Stats) timing() string {
	if s.Seconds <= 0 {
		return ""
	}
	return fmt.Sprintf("; %.2fs", s.Seconds)
}

// line is the table's sentence on the final schedule ("" for nil).
func (f *Final) line() string {
	if f == nil {
		return ""
	}
	how := "?"
	if f.Pattern != nil {
		how = f.Pattern.Method
	}
	line := fmt.Sprintf("schedule (solve at n = %d, D = %.6g, pattern %s): Cmax = %.10g; LP gap %.3g (this pattern); pattern gap %.3g (to %.6g, a bound on every pattern)\n",
		f.Stages, float64(f.D), how, float64(f.Cmax), float64(f.Gap), float64(f.PatternGap), float64(f.PatternLowerBound))
	if f.WorkerOrderMethod != "" {
		line += fmt.Sprintf("worker order of the schedule: %v (%s", f.WorkerOrder, f.WorkerOrderMethod)
		if s := f.Schedule; s != nil && s.WorkerOrderGap != nil {
			line += fmt.Sprintf("; gap %.3g to the bound over every order", *s.WorkerOrderGap)
		}
		line += ")\n"
	}
	return line
}
