package nepp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/dlsched/dlsched/plotting"
)

// ScanRow is one algorithm at one p: the model and the simulation.
type ScanRow struct {
	P         int         `json:"p"`
	Algorithm string      `json:"algorithm"`
	Predicted *Prediction `json:"predicted"`
	Simulated *Result     `json:"simulated,omitempty"`
}

// ScanReport is the study of the report's Figures 4.1–4.5: makespan,
// speedup, efficiency and corrected efficiency against p for SD, MD and
// FT, one node always the slow one.
type ScanReport struct {
	Model    string    `json:"model"`
	SlowNode float64   `json:"slow_speed"`
	From     int       `json:"from"`
	To       int       `json:"to"`
	Base     Config    `json:"-"`
	Rows     []ScanRow `json:"rows"`
}

// Scan evaluates the three algorithms for p = from..to on the report's
// cluster: node 1 runs at speed slow, the others at 1 (Section 4.3: "the
// slow processor is always one of the nodes"). base gives the queue, the
// jobs, the work and the message costs; its speeds and faults are ignored.
func Scan(ctx context.Context, base Config, from, to int, slow float64, noSim bool) (*ScanReport, error) {
	if from < 1 || to < from || to > MaxNodes {
		return nil, &InputError{fmt.Errorf("nepp: scan p %d..%d, want 1 <= from <= to <= %d", from, to, MaxNodes)}
	}
	if !(slow > 0) {
		return nil, &InputError{fmt.Errorf("nepp: slow speed %g, want > 0", slow)}
	}
	r := &ScanReport{Model: "nepp", SlowNode: slow, From: from, To: to, Base: base}
	for p := from; p <= to; p++ {
		for _, alg := range []Algorithm{Simple, Multiple, FaultTolerant} {
			cfg := base
			cfg.Algorithm = alg
			cfg.Speeds = make([]float64, p)
			cfg.Speeds[0] = slow
			for i := 1; i < p; i++ {
				cfg.Speeds[i] = 1
			}
			cfg.Shares, cfg.Crashes, cfg.Slows = nil, nil, nil
			pr, err := Predict(&cfg)
			if err != nil {
				return nil, &InputError{err}
			}
			row := ScanRow{P: p, Algorithm: alg.String(), Predicted: pr}
			if !noSim {
				if row.Simulated, err = Simulate(ctx, &cfg); err != nil {
					return nil, err
				}
			}
			r.Rows = append(r.Rows, row)
		}
	}
	return r, nil
}

// WriteJSON writes the scan as indented JSON.
func (r *ScanReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable writes one line per p and algorithm.
func (r *ScanReport) WriteTable(w io.Writer) error {
	b := r.Base
	fmt.Fprintf(w, "NEPP scan, p = %d..%d, node 1 at speed %s, others at 1: J=%d, q=%d, work %s, messages %s + %s/byte\n",
		r.From, r.To, g(r.SlowNode), b.Jobs, b.Queue, g(b.Work), g(b.Setup), g(b.PerByte))
	fmt.Fprintln(w, "   p alg  makespan model  simulated  speedup model  simulated  E_c model  simulated")
	for _, x := range r.Rows {
		sm, ss, se := "-", "-", "-"
		if s := x.Simulated; s != nil {
			sm, ss, se = g(s.Makespan), g(s.Speedup), g(s.CorrectedEfficiency)
			if !s.Completed {
				sm = "incomplete"
			}
		}
		fmt.Fprintf(w, "%4d %-3s %15s %10s %14s %10s %10s %10s\n", x.P, x.Algorithm,
			g(x.Predicted.Makespan), sm, g(x.Predicted.Speedup), ss, g(x.Predicted.CorrectedEfficiency), se)
	}
	return nil
}

// Charts returns the report's figures as three panels: makespan (Figs.
// 4.1, 4.2), speedup (4.3) and corrected efficiency (4.5) against p, the
// model as lines and the simulation as markers of the same colour.
func (r *ScanReport) Charts() []plotting.Chart {
	note := fmt.Sprintf("one node at speed %s, J = %d, q = %d, w = %s", g(r.SlowNode), r.Base.Jobs, r.Base.Queue, g(r.Base.Work))
	type metric struct {
		title, ylabel string
		model, sim    func(*ScanRow) float64
	}
	metrics := []metric{
		{"Execution time (Figs. 4.1, 4.2)", "makespan (s)", func(x *ScanRow) float64 { return x.Predicted.Makespan },
			func(x *ScanRow) float64 { return x.Simulated.Makespan }},
		{"Speedup (Fig. 4.3)", "speedup (T_seq / makespan)", func(x *ScanRow) float64 { return x.Predicted.Speedup },
			func(x *ScanRow) float64 { return x.Simulated.Speedup }},
		{"Corrected efficiency (Fig. 4.5)", "corrected efficiency E_c", func(x *ScanRow) float64 { return x.Predicted.CorrectedEfficiency },
			func(x *ScanRow) float64 { return x.Simulated.CorrectedEfficiency }},
	}
	var charts []plotting.Chart
	for _, m := range metrics {
		c := plotting.Chart{Title: m.title, Note: note, XLabel: "nodes p", YLabel: m.ylabel}
		for k, alg := range []string{"sd", "md", "ft"} {
			model := plotting.Series{Name: strings.ToUpper(alg) + " model", Style: plotting.Line, Color: k + 1}
			sim := plotting.Series{Name: strings.ToUpper(alg) + " simulated", Style: plotting.Points, Color: k + 1}
			for i := range r.Rows {
				x := &r.Rows[i]
				if x.Algorithm != alg {
					continue
				}
				model.X = append(model.X, float64(x.P))
				model.Y = append(model.Y, m.model(x))
				if x.Simulated != nil && x.Simulated.Completed {
					sim.X = append(sim.X, float64(x.P))
					sim.Y = append(sim.Y, m.sim(x))
				}
			}
			c.Series = append(c.Series, model)
			if len(sim.X) > 0 {
				c.Series = append(c.Series, sim)
			}
		}
		charts = append(charts, c)
	}
	return charts
}
