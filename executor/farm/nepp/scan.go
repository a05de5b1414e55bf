package nepp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/dlsched/dlsched/platform"
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
	Format   string    `json:"format"`
	Model    string    `json:"model"`
	SlowNode float64   `json:"slow_speed"`
	From     int       `json:"from"`
	To       int       `json:"to"`
	Base     Config    `json:"-"`
	Rows     []ScanRow `json:"rows"`
}

// ScanSpec is the range of a scan: p = From..To, node 1 at speed Slow and
// the others at 1.
type ScanSpec struct {
	From, To int
	Slow     float64
}

// bytesPerRow is the memory a scan keeps per row (the prediction, its
// warnings and the simulation's summary: 600 bytes measured over 300,000
// rows) and bytesPerRowNode per row and node (the simulation's results and
// busy time per node).
const (
	bytesPerRow     = 1 << 10
	bytesPerRowNode = 64
)

// check validates the spec, base (with the scan's speeds) and the options.
func (sp ScanSpec) check(base Config, opt platform.RunOptions) error {
	if sp.From < 1 || sp.To < sp.From || sp.To > MaxNodes {
		return platform.Bad(pkg, FieldScanP, fmt.Sprintf("%d..%d", sp.From, sp.To), fmt.Sprintf("FROM..TO with 1 <= FROM <= TO <= %d", MaxNodes))
	}
	if !(sp.Slow > 0) || !finite(sp.Slow) {
		return platform.Bad(pkg, FieldSlowSpeed, g(sp.Slow), "a finite speed > 0")
	}
	if opt.Trace != nil {
		return platform.Bad(pkg, FieldTrace, "(a recorder)", fmt.Sprintf("none: a scan is %d runs; trace one run", 3*(sp.To-sp.From+1)))
	}
	for _, alg := range []Algorithm{Simple, Multiple, FaultTolerant} {
		cfg := sp.config(base, alg)
		if err := cfg.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// config is base with algorithm alg on node 1 alone, at the slow speed,
// without faults; row adds the other nodes.
func (sp ScanSpec) config(base Config, alg Algorithm) Config {
	cfg := base
	cfg.Algorithm = alg
	cfg.Speeds = []float64{sp.Slow}
	cfg.Shares, cfg.Crashes, cfg.Slows = nil, nil, nil
	return cfg
}

// Estimate is the cost of the scan with opt: the events of every run
// (none with opt.NoSim) and the memory of the largest run plus the rows
// kept.
func (sp ScanSpec) Estimate(base Config, opt platform.RunOptions) Cost {
	var total Cost
	for p := sp.From; p <= sp.To; p++ {
		for _, alg := range []Algorithm{Simple, Multiple, FaultTolerant} {
			cfg := sp.config(base, alg)
			c := cfg.estimate(p, false)
			row := float64(bytesPerRow)
			if !opt.NoSim {
				total.Events += c.Events
				total.Bytes = math.Max(total.Bytes, c.Bytes)
				row += bytesPerRowNode * float64(p)
			}
			total.Bytes += row
		}
	}
	if opt.NoSim {
		total.Bytes += bytesBase
	}
	return total
}

// Scan evaluates the three algorithms for p = From..To on the report's
// cluster: node 1 runs at speed Slow, the others at 1 (Section 4.3: "the
// slow processor is always one of the nodes"). base gives the queue, the
// jobs, the work and the message costs; its algorithm, speeds and faults
// are ignored. opt.NoSim evaluates the model alone; opt.Progress is called
// after each p with the number of p done and the total; a scan is refused
// beyond opt.Limits (*platform.LimitError) before any of it runs, and
// with opt.Trace (a scan is many runs: trace one with Run).
func Scan(ctx context.Context, base Config, sp ScanSpec, opt platform.RunOptions) (*ScanReport, error) {
	if err := sp.check(base, opt); err != nil {
		return nil, err
	}
	what := fmt.Sprintf("the scan over p = %d..%d with %s", sp.From, sp.To, count(base.Jobs, "job"))
	if err := checkLimits(opt.Limits, sp.Estimate(base, opt), what, fmt.Sprintf("p ({%s}) or jobs ({%s})", FieldScanP, FieldJobs)); err != nil {
		return nil, err
	}
	r := &ScanReport{Format: FormatScan, Model: "nepp", SlowNode: sp.Slow, From: sp.From, To: sp.To, Base: base}
	for p := sp.From; p <= sp.To; p++ {
		for _, alg := range []Algorithm{Simple, Multiple, FaultTolerant} {
			row, err := sp.row(ctx, base, alg, p, opt)
			if err != nil {
				return nil, err
			}
			r.Rows = append(r.Rows, row)
		}
		if opt.Progress != nil {
			opt.Progress(p-sp.From+1, sp.To-sp.From+1)
		}
	}
	return r, nil
}

// row is one algorithm at one p: the model from the total and the
// slowest speed, and unless opt.NoSim the simulation.
func (sp ScanSpec) row(ctx context.Context, base Config, alg Algorithm, p int, opt platform.RunOptions) (ScanRow, error) {
	cfg := sp.config(base, alg)
	q, _ := cfg.queue()
	pr, err := model(alg, p, sp.Slow+float64(p-1), math.Min(sp.Slow, 1), q, cfg.Jobs, cfg.Work, cfg.useful(), cfg.HostOverhead)
	if err != nil {
		return ScanRow{}, err
	}
	row := ScanRow{P: p, Algorithm: alg.String(), Predicted: pr}
	if opt.NoSim {
		return row, nil
	}
	cfg.Speeds = make([]float64, p)
	cfg.Speeds[0] = sp.Slow
	for i := 1; i < p; i++ {
		cfg.Speeds[i] = 1
	}
	row.Simulated, err = simulate(ctx, &cfg, platform.RunOptions{Limits: opt.Limits})
	return row, err
}

// WriteJSON writes the scan as indented JSON, a row at a time (the text of
// a large scan is never held in memory whole).
func (r *ScanReport) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	head, err := json.MarshalIndent(struct {
		Format   string  `json:"format"`
		Model    string  `json:"model"`
		SlowNode float64 `json:"slow_speed"`
		From     int     `json:"from"`
		To       int     `json:"to"`
	}{r.Format, r.Model, r.SlowNode, r.From, r.To}, "", "  ")
	if err != nil {
		return err
	}
	bw.Write(head[:len(head)-2]) // without "\n}"
	bw.WriteString(",\n  \"rows\": [\n")
	for i := range r.Rows {
		row, err := json.MarshalIndent(&r.Rows[i], "    ", "  ")
		if err != nil {
			return err
		}
		bw.WriteString("    ")
		bw.Write(row)
		if i < len(r.Rows)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("  ]\n}\n")
	return bw.Flush()
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
