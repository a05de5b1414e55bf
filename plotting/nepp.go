package plotting

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/executor/farm/nepp"
)

// NeppScan draws a NEPP scan (nepp.Scan) as the report's figures, three
// panels: makespan (Figs. 4.1, 4.2), speedup (4.3) and corrected
// efficiency (4.5) against p, the model as lines and the simulation as
// markers of the same colour (runs that did not complete are left out).
func NeppScan(r *nepp.ScanReport) []Chart {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	note := fmt.Sprintf("one node at speed %s, J = %d, q = %d, w = %s", g(r.SlowNode), r.Base.Jobs, r.Base.Queue, g(r.Base.Work))
	metrics := []struct {
		title, ylabel string
		model, sim    func(*nepp.ScanRow) float64
	}{
		{"Execution time (Figs. 4.1, 4.2)", "makespan (s)", func(x *nepp.ScanRow) float64 { return x.Predicted.Makespan },
			func(x *nepp.ScanRow) float64 { return x.Simulated.Makespan }},
		{"Speedup (Fig. 4.3)", "speedup (T_seq / makespan)", func(x *nepp.ScanRow) float64 { return x.Predicted.Speedup },
			func(x *nepp.ScanRow) float64 { return x.Simulated.Speedup }},
		{"Corrected efficiency (Fig. 4.5)", "corrected efficiency E_c", func(x *nepp.ScanRow) float64 { return x.Predicted.CorrectedEfficiency },
			func(x *nepp.ScanRow) float64 { return x.Simulated.CorrectedEfficiency }},
	}
	var charts []Chart
	for _, m := range metrics {
		c := Chart{Title: m.title, Note: note, XLabel: "nodes p", YLabel: m.ylabel}
		for k, alg := range []string{"sd", "md", "ft"} {
			c.Series = append(c.Series, neppSeries(r, alg, k+1, m.model, m.sim)...)
		}
		charts = append(charts, c)
	}
	return charts
}

// neppSeries is one algorithm's model line and, if any run completed, its
// simulation markers, in colour color.
func neppSeries(r *nepp.ScanReport, alg string, color int, model, sim func(*nepp.ScanRow) float64) []Series {
	m := Series{Name: strings.ToUpper(alg) + " model", Style: Line, Color: color}
	s := Series{Name: strings.ToUpper(alg) + " simulated", Style: Points, Color: color}
	for i := range r.Rows {
		x := &r.Rows[i]
		if x.Algorithm != alg {
			continue
		}
		m.X = append(m.X, float64(x.P))
		m.Y = append(m.Y, model(x))
		if x.Simulated != nil && x.Simulated.Completed {
			s.X = append(s.X, float64(x.P))
			s.Y = append(s.Y, sim(x))
		}
	}
	if len(s.X) == 0 {
		return []Series{m}
	}
	return []Series{m, s}
}
