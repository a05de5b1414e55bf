package nepp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/platform"
)

// The formats of the documents the package writes (schema/nepp.schema.json
// and schema/nepp-scan.schema.json describe them): a run's Report and a
// ScanReport.
const (
	FormatRun  = "dlsched.nepp/1"
	FormatScan = "dlsched.nepp-scan/1"
)

// Report is the model beside the simulation, as printed by `dlsched farm
// nepp` (JSON field names are part of the CLI contract; Format comes
// first).
type Report struct {
	Format     string      `json:"format"`
	Model      string      `json:"model"`
	Algorithm  string      `json:"algorithm"`
	Parameters Parameters  `json:"parameters"`
	Predicted  *Prediction `json:"predicted"`
	Simulated  *Result     `json:"simulated,omitempty"`
}

// Parameters echoes the inputs.
type Parameters struct {
	Speeds       []float64 `json:"speeds"`
	Shares       []float64 `json:"shares,omitempty"`
	P            int       `json:"p"`
	Queue        int       `json:"queue"`
	QMin         int       `json:"qmin"`
	Jobs         int       `json:"jobs"`
	Work         float64   `json:"work"`
	Useful       float64   `json:"useful"`
	HostOverhead float64   `json:"host_overhead"`
	WorkDist     string    `json:"work_dist"`
	Setup        float64   `json:"setup"`
	PerByte      float64   `json:"per_byte"`
	JobBytes     float64   `json:"job_bytes"`
	ResultBytes  float64   `json:"result_bytes"`
	Crashes      []Crash   `json:"crashes,omitempty"`
	Slows        []Slow    `json:"slows,omitempty"`
	Seed         uint64    `json:"seed"`
}

// Predict evaluates the report's model for cfg (faults are not in it).
func Predict(cfg *Config) (*Prediction, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	q, _ := cfg.queue()
	return Model(cfg.Algorithm, cfg.speeds(), q, cfg.Jobs, cfg.Work, cfg.useful(), cfg.HostOverhead)
}

// Run evaluates the report's model for cfg and, unless opt.NoSim,
// simulates the run on the kernel (with opt's progress and trace). Bad
// input is a *platform.FieldError, a simulation estimated beyond
// opt.Limits a *platform.LimitError (zero limits: none), both returned
// before anything in proportion to the run is allocated; a trace with
// NoSim is refused, there being nothing to trace.
func Run(ctx context.Context, cfg Config, opt platform.RunOptions) (*Report, error) {
	pr, err := Predict(&cfg)
	if err != nil {
		return nil, err
	}
	if opt.NoSim && opt.Trace != nil {
		return nil, platform.Bad(pkg, FieldTrace, "(a recorder)", "none with {"+FieldNoSim+"}: the model alone simulates nothing")
	}
	r := &Report{Format: FormatRun, Model: "nepp", Algorithm: cfg.Algorithm.String(), Predicted: pr, Parameters: parameters(&cfg)}
	if !opt.NoSim {
		if r.Simulated, err = simulate(ctx, &cfg, opt); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// parameters echoes cfg as the report prints it.
func parameters(cfg *Config) Parameters {
	q, qmin := cfg.queue()
	dist := cfg.WorkDist
	if dist == "" {
		dist = "const"
	}
	return Parameters{Speeds: cfg.Speeds, Shares: cfg.Shares, P: len(cfg.Speeds), Queue: q, QMin: qmin, Jobs: cfg.Jobs,
		Work: cfg.Work, Useful: cfg.useful(), HostOverhead: cfg.HostOverhead, WorkDist: dist,
		Setup: cfg.Setup, PerByte: cfg.PerByte, JobBytes: cfg.JobBytes, ResultBytes: cfg.ResultBytes,
		Crashes: cfg.Crashes, Slows: cfg.Slows, Seed: cfg.Seed}
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func g(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// WriteTable writes the model beside the simulation.
func (r *Report) WriteTable(w io.Writer) error {
	p := r.Parameters
	fmt.Fprintf(w, "NEPP %s on p=%d nodes (speeds %s): J=%d jobs of work %s (useful %s, %s), queue %d (refill below %d), host %s per result, messages %s + %s/byte, seed %d\n",
		strings.ToUpper(r.Algorithm), p.P, floats(p.Speeds), p.Jobs, g(p.Work), g(p.Useful), p.WorkDist, p.Queue, p.QMin,
		g(p.HostOverhead), g(p.Setup), g(p.PerByte), p.Seed)
	for _, x := range p.Crashes {
		fmt.Fprintf(w, "fault: node %d crashes at %s\n", x.Node, g(x.At))
	}
	for _, x := range p.Slows {
		fmt.Fprintf(w, "fault: node %d runs at %s× its nominal speed from %s\n", x.Node, g(x.Factor), g(x.At))
	}
	pr, s := r.Predicted, r.Simulated
	row := func(label, a, b string) {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %-24s %14s %14s", label, a, b), " "))
	}
	sim := func(x float64) string {
		if s == nil {
			return "-"
		}
		return g(x)
	}
	row("", "predicted", "simulated")
	var ms, wk, sp, ef, ec float64
	if s != nil {
		ms, wk, sp, ef, ec = s.Makespan, s.Work, s.Speedup, s.Efficiency, s.CorrectedEfficiency
	}
	row("makespan (s)", g(pr.Makespan), sim(ms))
	row("work (units)", g(pr.Work), sim(wk))
	row("speedup", g(pr.Speedup), sim(sp))
	row("efficiency", g(pr.Efficiency), sim(ef))
	row("corrected efficiency", g(pr.CorrectedEfficiency), sim(ec))
	row("overhead A(J) (units)", g(pr.Overhead), "")
	for _, x := range pr.Warnings {
		fmt.Fprintf(w, "warning: %s\n", x)
	}
	if s != nil {
		fmt.Fprintf(w, "completed %v: %d results, %d redundant discarded, %d messages, %d kernel events\n",
			s.Completed, s.Results, s.RedundantDiscarded, s.Messages, s.Events)
		fmt.Fprintf(w, "results per node: %s\n", intsString(s.JobsPerNode))
		if !s.Completed {
			fmt.Fprintf(w, "failure: %s\nmissing jobs: %s\n", s.Failure, intsString(s.MissingJobs))
		}
	}
	return nil
}

func floats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = g(x)
	}
	return strings.Join(s, ",")
}

func intsString(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}
