package day

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/plotting"
)

// InputError reports bad input, as opposed to a failed simulation.
type InputError struct{ Err error }

// Error returns the underlying message.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

// Report is the model beside the simulation, as printed by `dlsched farm
// day`.
type Report struct {
	Model      string      `json:"model"`
	Parameters Parameters  `json:"parameters"`
	Predicted  *Prediction `json:"predicted"`
	Simulated  *Result     `json:"simulated,omitempty"`
}

// Parameters echoes the inputs (seconds, bytes, bytes/s).
type Parameters struct {
	Layout              string  `json:"layout"`
	Harness             string  `json:"harness"`
	Slots               [4]int  `json:"slots_J_P_R_Q"`
	Workers             int     `json:"workers"`
	MessageBytes        float64 `json:"message_bytes"`
	ResultBytes         float64 `json:"result_bytes"`
	JobTime             float64 `json:"job_time"`
	MeanJobTime         float64 `json:"mean_job_time"`
	DelayLoop           int     `json:"delay_loop,omitempty"`
	Jobs                int     `json:"jobs"`
	Bandwidth           float64 `json:"bandwidth"`
	SetupBytes          float64 `json:"setup_bytes"`
	BidirectionalFactor float64 `json:"bidirectional_factor"`
	FarmerCost          float64 `json:"farmer_cost"`
	CPUPerMessage       float64 `json:"cpu_per_message"`
	Priority            string  `json:"priority"`
}

func params(c *Config) Parameters {
	pri := "local"
	if c.DistantFirst {
		pri = "distant"
	}
	h := c.Harness
	return Parameters{Layout: c.Layout.String(), Harness: h.Name, Slots: [4]int{h.J, h.P, h.R, h.Q},
		Workers: c.Workers, MessageBytes: c.MessageBytes, ResultBytes: c.resultBytes(), JobTime: c.JobTime,
		MeanJobTime: c.meanJobTime(), DelayLoop: c.DelayLoop, Jobs: c.jobs(), Bandwidth: c.Bandwidth,
		SetupBytes: c.setupBytes(), BidirectionalFactor: c.bidir(), FarmerCost: c.FarmerCost,
		CPUPerMessage: c.CPUPerMessage, Priority: pri}
}

// Run evaluates the model and, unless noSim, simulates.
func Run(ctx context.Context, c *Config, noSim bool) (*Report, error) {
	if err := c.Validate(); err != nil {
		return nil, &InputError{err}
	}
	r := &Report{Model: "day", Parameters: params(c), Predicted: Predict(c)}
	if !noSim {
		var err error
		if r.Simulated, err = Simulate(ctx, c); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// WriteJSON writes the report as indented JSON; an infinite fill time is
// written as null.
func (r *Report) WriteJSON(w io.Writer) error {
	type alias Report
	out := struct {
		*alias
		Predicted map[string]any `json:"predicted"`
	}{alias: (*alias)(r), Predicted: predictedMap(r.Predicted)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func predictedMap(p *Prediction) map[string]any {
	b, _ := json.Marshal(struct {
		*Prediction
		FillTime *float64 `json:"fill_time"`
	}{p, finiteOrNil(p.FillTime)})
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

func finiteOrNil(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

func g(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// WriteTable writes the model and the simulation.
func (r *Report) WriteTable(w io.Writer) error {
	p, pr := r.Parameters, r.Predicted
	fmt.Fprintf(w, "Day's farm: %s of %d workers, harness %s (J P R Q = %d %d %d %d), %s priority; jobs %s s nominal (mean %s), %d jobs, m = %s bytes, B = %s bytes/s, s = %s bytes\n",
		p.Layout, p.Workers, p.Harness, p.Slots[0], p.Slots[1], p.Slots[2], p.Slots[3], p.Priority,
		g(p.JobTime), g(p.MeanJobTime), p.Jobs, g(p.MessageBytes), g(p.Bandwidth), g(p.SetupBytes))
	cb := "communication bound"
	if pr.ComputeBound {
		cb = "compute bound"
	}
	fill := "never (not compute bound)"
	if !math.IsInf(pr.FillTime, 0) {
		fill = g(pr.FillTime) + " s"
	}
	fmt.Fprintf(w, "model: message time %s s, link efficiency %s; supply %s jobs/s, demand %s jobs/s: %s; w_max %s; efficiency ceiling %s; fill time %s; mean distance %s hops\n",
		g(pr.MessageTime), g(pr.LinkEfficiency), g(pr.Supply), g(pr.Demand), cb, g(pr.WMax), g(pr.EfficiencyCeiling), fill, g(pr.MeanDistance))
	if s := r.Simulated; s != nil {
		fmt.Fprintf(w, "simulated: efficiency %s, makespan %s s, %d messages, %d kernel events\n", g(s.Efficiency), g(s.Makespan), s.Messages, s.Events)
		fmt.Fprintf(w, "jobs per worker: %s\n", intsString(s.JobsPerWorker))
		starts := make([]string, len(s.FirstJobStart))
		for i, x := range s.FirstJobStart {
			starts[i] = "never"
			if x != nil {
				starts[i] = g(*x)
			}
		}
		fmt.Fprintf(w, "first job start (s): %s\n", strings.Join(starts, " "))
	}
	return nil
}

func intsString(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

// GranularityRow is one job size of the granularity study.
type GranularityRow struct {
	JobTime      float64 `json:"job_time"`
	MessageBytes float64 `json:"message_bytes"`
	Jobs         int     `json:"jobs"`
	Makespan     float64 `json:"makespan"`
	Efficiency   float64 `json:"efficiency"`
	Ceiling      float64 `json:"efficiency_ceiling"`
}

// GranularityReport is Section 4.10's study: a fixed amount of work cut
// into equal jobs, messages proportional to the job time. DLS gives the
// same platform in dlsched solve's terms (see Granularity).
type GranularityReport struct {
	Model         string           `json:"model"`
	Parameters    Parameters       `json:"parameters"`
	TotalWork     float64          `json:"total_work"`
	BytesPerSec   float64          `json:"bytes_per_second_of_work"`
	DLS           map[string]any   `json:"dls_platform"`
	Rows          []GranularityRow `json:"rows"`
	BestJobTime   float64          `json:"best_job_time"`
	BestMakespan  float64          `json:"best_makespan"`
	BestEfficency float64          `json:"best_efficiency"`
}

// DefaultGranularityTimes are the thesis's job times (Table 3): 1024·2^k
// iterations of a 10 µs loop, k = 0..7, 0.01024 to 1.31072 s.
func DefaultGranularityTimes() []float64 {
	out := make([]float64, 8)
	for k := range out {
		out[k] = 0.01024 * math.Exp2(float64(k))
	}
	return out
}

// Granularity runs base for every job time j in times: message size
// bytesPerSec·j, jobs so that the nominal work adds up to totalWork
// (total/(w·j) jobs per worker, rounded to a whole cycle of the job list),
// with the thesis's job-length variation. In dlsched solve's terms the same
// platform is S = s/B seconds per message, C = 1/B seconds per byte,
// A = 1/bytesPerSec seconds of work per byte, V = totalWork·bytesPerSec
// bytes: farming in equal chunks of j·bytesPerSec bytes.
func Granularity(ctx context.Context, base Config, totalWork, bytesPerSec float64, times []float64) (*GranularityReport, error) {
	if !(totalWork > 0) || !(bytesPerSec > 0) || len(times) == 0 {
		return nil, &InputError{fmt.Errorf("day: granularity: total work %g, bytes per second %g, %d job times: want positive values and at least one time", totalWork, bytesPerSec, len(times))}
	}
	r := &GranularityReport{Model: "day", TotalWork: totalWork, BytesPerSec: bytesPerSec, BestMakespan: math.Inf(1)}
	for _, j := range times {
		c := base
		c.JobTime, c.DelayLoop = j, 0
		c.MessageBytes, c.ResultBytes = bytesPerSec*j, 0
		per := int(math.Round(totalWork / (float64(c.Workers) * j)))
		if per < 1 {
			return nil, &InputError{fmt.Errorf("day: granularity: job time %g s leaves less than one job per worker", j)}
		}
		c.JobsPerWorker = per
		if err := c.Validate(); err != nil {
			return nil, &InputError{err}
		}
		r.Parameters = params(&c)
		sim, err := Simulate(ctx, &c)
		if err != nil {
			return nil, err
		}
		pr := Predict(&c)
		row := GranularityRow{JobTime: j, MessageBytes: c.MessageBytes, Jobs: c.jobs(), Makespan: sim.Makespan,
			Efficiency: sim.Efficiency, Ceiling: pr.EfficiencyCeiling}
		r.Rows = append(r.Rows, row)
		if row.Makespan < r.BestMakespan {
			r.BestJobTime, r.BestMakespan, r.BestEfficency = j, row.Makespan, row.Efficiency
		}
	}
	s := base.setupBytes()
	r.DLS = map[string]any{"S": s / base.Bandwidth, "C": 1 / base.Bandwidth, "A": 1 / bytesPerSec, "V": totalWork * bytesPerSec,
		"note": "units are bytes; a job of j seconds is a chunk of j·bytes_per_second bytes"}
	return r, nil
}

// WriteJSON writes the study as indented JSON.
func (r *GranularityReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable writes one line per job size.
func (r *GranularityReport) WriteTable(w io.Writer) error {
	p := r.Parameters
	fmt.Fprintf(w, "Granularity (Section 4.10): %s of %d workers, harness %s, %s s of nominal work, %s bytes of message per second of work, B = %s bytes/s, s = %s bytes\n",
		p.Layout, p.Workers, p.Harness, g(r.TotalWork), g(r.BytesPerSec), g(p.Bandwidth), g(p.SetupBytes))
	fmt.Fprintf(w, "as a divisible load (dlsched solve): S = %s s, C = %s s/byte, A = %s s/byte, V = %s bytes\n",
		g(r.DLS["S"].(float64)), g(r.DLS["C"].(float64)), g(r.DLS["A"].(float64)), g(r.DLS["V"].(float64)))
	fmt.Fprintln(w, "   job time (s)  message (bytes)      jobs  makespan (s)  efficiency  ceiling")
	for _, x := range r.Rows {
		fmt.Fprintf(w, "%15s %16s %9d %13s %11s %8s\n", g(x.JobTime), g(x.MessageBytes), x.Jobs, g(x.Makespan), g(x.Efficiency), g(x.Ceiling))
	}
	fmt.Fprintf(w, "best: %s s jobs, makespan %s s, efficiency %s\n", g(r.BestJobTime), g(r.BestMakespan), g(r.BestEfficency))
	return nil
}

// Charts returns makespan and efficiency against the job time (log axis).
func (r *GranularityReport) Charts() []plotting.Chart {
	p := r.Parameters
	note := fmt.Sprintf("%s of %d workers, harness %s, %s s of work", p.Layout, p.Workers, p.Harness, g(r.TotalWork))
	mk := plotting.Series{Name: "simulated makespan"}
	ef := plotting.Series{Name: "simulated efficiency"}
	ce := plotting.Series{Name: "model ceiling", Style: plotting.Line}
	for _, x := range r.Rows {
		mk.X, mk.Y = append(mk.X, x.JobTime), append(mk.Y, x.Makespan)
		ef.X, ef.Y = append(ef.X, x.JobTime), append(ef.Y, x.Efficiency)
		ce.X, ce.Y = append(ce.X, x.JobTime), append(ce.Y, x.Ceiling)
	}
	return []plotting.Chart{
		{Title: "Makespan against job size (Section 4.10)", Note: note, XLabel: "job time j (s)", YLabel: "makespan (s)", LogX: true, Series: []plotting.Series{mk}},
		{Title: "Efficiency against job size", Note: note, XLabel: "job time j (s)", YLabel: "efficiency", LogX: true, Series: []plotting.Series{ef, ce}},
	}
}

// Fit is the result of FitCPUPerMessage.
type Fit struct {
	// CPUPerMessage is the fitted cycle-stealing cost y (seconds per
	// message on each worker).
	CPUPerMessage float64 `json:"cpu_per_message"`
	// Fitted are the simulated efficiencies at the fitted points, and
	// Predicted the simulated efficiency at the held-out point.
	Fitted    []float64 `json:"fitted"`
	Predicted float64   `json:"predicted"`
}

// FitCPUPerMessage fits the per-message CPU cost y ∈ [0, maxY] so that the
// simulated efficiencies at the job times fitJ match fitEff (least
// squares, golden-section search), and simulates the held-out job time.
// It is a fit, not a prediction: one free parameter, two points.
func FitCPUPerMessage(ctx context.Context, base Config, fitJ, fitEff []float64, holdJ, maxY float64) (*Fit, error) {
	eff := func(y, j float64) (float64, error) {
		c := base
		c.CPUPerMessage, c.JobTime = y, j
		r, err := Simulate(ctx, &c)
		if err != nil {
			return 0, err
		}
		return r.Efficiency, nil
	}
	loss := func(y float64) (float64, error) {
		sum := 0.0
		for i, j := range fitJ {
			e, err := eff(y, j)
			if err != nil {
				return 0, err
			}
			sum += (e - fitEff[i]) * (e - fitEff[i])
		}
		return sum, nil
	}
	a, b := 0.0, maxY
	phi := (math.Sqrt(5) - 1) / 2
	for it := 0; it < 30; it++ {
		c, d := b-phi*(b-a), a+phi*(b-a)
		lc, err := loss(c)
		if err != nil {
			return nil, err
		}
		ld, err := loss(d)
		if err != nil {
			return nil, err
		}
		if lc <= ld {
			b = d
		} else {
			a = c
		}
	}
	y := (a + b) / 2
	f := &Fit{CPUPerMessage: y}
	for _, j := range fitJ {
		e, err := eff(y, j)
		if err != nil {
			return nil, err
		}
		f.Fitted = append(f.Fitted, e)
	}
	var err error
	f.Predicted, err = eff(y, holdJ)
	return f, err
}
