package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/plotting"
)

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func g(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

func f3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// opt formats a value that may be absent ("-").
func opt(x *float64, f func(float64) string) string {
	if x == nil {
		return "-"
	}
	return f(*x)
}

// Describe renders the platform in one line.
func Describe(p *platform.Platform) string {
	shape := fmt.Sprintf("star of %d workers", p.M)
	switch p.Kind {
	case platform.Chain:
		shape = fmt.Sprintf("chain of %d workers below the master", p.M)
	case platform.KAry:
		shape = fmt.Sprintf("%d-ary tree of %d worker levels (%d workers) below the master", p.K, p.Depth, p.Workers())
	}
	s := fmt.Sprintf("%s; S=%s C=%s A=%s D=%s V=%s", shape, g(p.S), g(p.C), g(p.A), g(float64(p.D)), g(p.V))
	if p.ResultPerUnit > 0 {
		s += ", results " + g(p.ResultPerUnit) + " per unit"
	}
	for _, x := range p.Slows {
		s += fmt.Sprintf("; worker %d at %s× speed from t=%s", x.Worker, g(x.Factor), g(x.At))
	}
	for _, x := range p.Crashes {
		s += fmt.Sprintf("; worker %d crashes at t=%s", x.Worker, g(x.At))
	}
	return s
}

// WriteTable writes one line per strategy and task count.
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "compare on a %s\n", Describe(&r.Platform))
	fmt.Fprintf(w, "lower bound %s (%s)\n", g(r.LowerBound), r.LowerBoundMethod)
	fmt.Fprintf(w, "%-10s %6s %12s %7s %9s %12s %6s %8s %9s  %s\n", "strategy", "tasks", "makespan", "ratio", "messages", "units moved", "util", "verified", "completed", "note")
	for _, x := range r.Rows {
		tasks := "-"
		if x.Tasks > 0 {
			tasks = strconv.Itoa(x.Tasks)
		}
		if x.Skipped {
			fmt.Fprintf(w, "%-10s %6s %12s %7s %9s %12s %6s %8s %9s  skipped: %s\n", x.Strategy, tasks, "-", "-", "-", "-", "-", "-", "-", x.Note)
			continue
		}
		fmt.Fprintf(w, "%-10s %6s %12s %7s %9d %12s %6s %8v %9v  %s\n", x.Strategy, tasks, opt(x.Makespan, g), opt(x.Ratio, f3),
			x.Messages, g(x.Units), opt(x.Utilisation, f3), x.Verified, x.Completed, x.Note)
	}
	best := r.Best
	if best == "" {
		best = "none: no strategy completed"
	}
	fmt.Fprintf(w, "best: %s\n", best)
	return nil
}

// Chart draws makespan against the task count (log axis) for the farming
// strategies, the planned schedules and the lower bound as horizontal
// lines labelled with their values at the right end (the bound drawn
// first, in grey, so that a plan within 1% of it stays visible and
// named); the makespan axis is logarithmic when the makespans span more
// than a factor of 4. Rows that did not complete are not drawn.
func (r *Report) Chart() plotting.Chart {
	c := plotting.Chart{Title: "Planning against farming", Note: Describe(&r.Platform),
		XLabel: "tasks M (the load cut into M equal tasks)", YLabel: "makespan (s)", LogX: true}
	xmin, xmax := r.taskRange()
	lo, hi := r.LowerBound, r.LowerBound
	c.Series = append(c.Series, plotting.Series{Name: "lower bound", X: []float64{xmin, xmax}, Y: []float64{r.LowerBound, r.LowerBound},
		Style: plotting.Line, Color: 8, EndLabel: "bound " + g(r.LowerBound)})
	for _, s := range Strategies {
		ser := plotting.Series{Name: s}
		for _, x := range r.Rows {
			if x.Strategy != s || !x.Completed || x.Skipped || (s == "dls-known" && x.Note == sameAsDls) {
				continue
			}
			lo, hi = math.Min(lo, *x.Makespan), math.Max(hi, *x.Makespan)
			if x.Tasks == 0 {
				ser.X, ser.Y = []float64{xmin, xmax}, []float64{*x.Makespan, *x.Makespan}
				ser.Style, ser.Name, ser.EndLabel = plotting.Line, s+" (planned)", s+" "+g(*x.Makespan)
			} else {
				ser.X, ser.Y = append(ser.X, float64(x.Tasks)), append(ser.Y, *x.Makespan)
			}
		}
		if len(ser.X) > 0 {
			c.Series = append(c.Series, ser)
		}
	}
	c.LogY = hi > 4*lo
	return c
}

// taskRange is the range of the task counts drawn (1..10 without farms).
func (r *Report) taskRange() (float64, float64) {
	var xmin, xmax float64
	for _, x := range r.Rows {
		if t := float64(x.Tasks); x.Tasks > 0 {
			if xmin == 0 || t < xmin {
				xmin = t
			}
			xmax = math.Max(xmax, t)
		}
	}
	if xmin == 0 {
		xmin, xmax = 1, 10
	}
	if xmax == xmin {
		xmax = xmin * 10
	}
	return xmin, xmax
}
