package day

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/platform"
)

// Format and StudyFormat are the declared formats of the JSON documents
// a Report and a GranularityReport write, described by
// schema/day.schema.json and schema/day-study.schema.json (package schema
// names them schema.Day and schema.DayStudy).
const (
	Format      = "dlsched.day/1"
	StudyFormat = "dlsched.day-study/1"
)

// Report is the model beside the simulation, as printed by `dlsched farm
// day`.
type Report struct {
	// Format is the document's declared format (Format), written first.
	Format     string      `json:"format"`
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

// Run evaluates the model and, unless opt.NoSim, simulates the farm
// (opt.Progress is called with the results arrived of Config.Jobs; the
// run is recorded into opt.Trace when set). Bad input is a
// *platform.FieldError and a run beyond opt.Limits a
// *platform.LimitError, both returned before anything is allocated.
func Run(ctx context.Context, cfg Config, opt platform.RunOptions) (*Report, error) {
	c := &cfg
	if err := c.Check(opt); err != nil {
		return nil, err
	}
	r := &Report{Format: Format, Model: "day", Parameters: params(c), Predicted: Predict(c)}
	if !opt.NoSim {
		var err error
		if r.Simulated, err = simulate(ctx, c, opt); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// WriteJSON writes the report as indented JSON, "format" (Format) first
// (schema/day.schema.json); a quantity of the model that is infinite (the
// fill time of a farm that is not compute bound; the supply of links that
// take no time) is written as null.
func (r *Report) WriteJSON(w io.Writer) error {
	type alias Report
	a := alias(*r)
	a.Format = Format
	out := struct {
		*alias
		Predicted map[string]any `json:"predicted"`
	}{alias: &a, Predicted: finiteFields(r.Predicted)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// finiteFields maps the JSON names of a struct's fields to their values,
// non-finite numbers to nil.
func finiteFields(v any) map[string]any {
	rv := reflect.ValueOf(v).Elem()
	m := map[string]any{}
	for i := 0; i < rv.NumField(); i++ {
		name, _, _ := strings.Cut(rv.Type().Field(i).Tag.Get("json"), ",")
		x := rv.Field(i).Interface()
		if f, ok := x.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
			x = nil
		}
		m[name] = x
	}
	return m
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
	fmt.Fprintf(w, "model: message time %s s (job %s s, result %s s), link efficiency %s; supply %s jobs/s (%s from the farmer, limited by %s), demand %s jobs/s: %s; w_max %s; efficiency ceiling %s; fill time %s; mean distance %s hops\n",
		g(pr.MessageTime), g(pr.JobMessageTime), g(pr.ResultMessageTime), g(pr.LinkEfficiency), g(pr.Supply), links(pr.FarmerLinks), pr.SupplyLimit,
		g(pr.Demand), cb, g(pr.WMax), g(pr.EfficiencyCeiling), fill, g(pr.MeanDistance))
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

func links(n int) string {
	if n == 1 {
		return "1 link"
	}
	return strconv.Itoa(n) + " links"
}

func intsString(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}
