package day

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/dlsched/dlsched/platform"
)

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
	// Format is the document's declared format (StudyFormat), written
	// first.
	Format         string           `json:"format"`
	Model          string           `json:"model"`
	Parameters     Parameters       `json:"parameters"`
	TotalWork      float64          `json:"total_work"`
	BytesPerSec    float64          `json:"bytes_per_second_of_work"`
	DLS            map[string]any   `json:"dls_platform"`
	Rows           []GranularityRow `json:"rows"`
	BestJobTime    float64          `json:"best_job_time"`
	BestMakespan   float64          `json:"best_makespan"`
	BestEfficiency float64          `json:"best_efficiency"`
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

// Study is Section 4.10's granularity study: TotalWork seconds of nominal
// work cut into equal jobs of each of JobTimes seconds, with messages of
// BytesPerSecond bytes per second of job time.
type Study struct {
	TotalWork, BytesPerSecond float64
	JobTimes                  []float64
}

// MaxStudyTimes bounds Study.JobTimes.
const MaxStudyTimes = 1000

// validate checks the study's own inputs.
func (s *Study) validate() error {
	switch {
	case !finiteAtLeast(s.TotalWork, 0) || s.TotalWork == 0:
		return bad("Study.TotalWork", gs(s.TotalWork), "a finite time > 0 s")
	case !finiteAtLeast(s.BytesPerSecond, 0) || s.BytesPerSecond == 0:
		return bad("Study.BytesPerSecond", gs(s.BytesPerSecond), "a finite size > 0 bytes")
	case len(s.JobTimes) == 0 || len(s.JobTimes) > MaxStudyTimes:
		return bad("Study.JobTimes", fmt.Sprintf("(%d times)", len(s.JobTimes)), fmt.Sprintf("1 to %d job times", MaxStudyTimes))
	}
	for _, j := range s.JobTimes {
		if !finiteAtLeast(j, 0) || j == 0 || math.IsInf(s.BytesPerSecond*j, 0) {
			return bad("Study.JobTimes", gs(j), "finite times > 0 s")
		}
	}
	return nil
}

// configs returns the run of each job time j: message size
// BytesPerSecond·j, TotalWork/(w·j) jobs per worker (rounded), with the
// thesis's job-length variation; each is valid, and together they are
// within the limits l (the events of all runs, the memory of one).
func (s *Study) configs(base Config, l platform.Limits) ([]Config, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	if err := base.validateShape(); err != nil {
		return nil, err
	}
	var out []Config
	var events int64
	for _, j := range s.JobTimes {
		c := base
		c.JobTime, c.DelayLoop = j, 0
		c.MessageBytes, c.ResultBytes, c.ExplicitResult = s.BytesPerSecond*j, 0, false
		per := math.Round(s.TotalWork / (float64(c.Workers) * j))
		switch {
		case per < 1:
			return nil, bad("Study.JobTimes", gs(j), fmt.Sprintf("at most {Study.TotalWork}/{Config.Workers} = %s s (at least one job per worker)", gs(s.TotalWork/float64(c.Workers))))
		case per*float64(c.Workers) > MaxJobs:
			return nil, bad("Study.TotalWork", gs(s.TotalWork), fmt.Sprintf("at most %d jobs: in jobs of %s s ({Study.JobTimes}) it makes %s", MaxJobs, gs(j), gs(per*float64(c.Workers))))
		}
		c.JobsPerWorker = int(per)
		if err := c.Validate(); err != nil {
			return nil, err
		}
		events = min(events+c.Estimate().Events, math.MaxInt64/2)
		out = append(out, c)
	}
	e := base.Estimate()
	e.Events = events
	what := fmt.Sprintf("the granularity study's %d runs", len(out))
	return out, base.checkLimits(e, l, what, "jobs (less {Study.TotalWork} or longer {Study.JobTimes})")
}

// Granularity runs base for every job time of the study (see
// Study.configs). In dlsched solve's terms the same platform is S = s/B
// seconds per message, C = 1/B seconds per byte, A = 1/BytesPerSecond
// seconds of work per byte, V = TotalWork·BytesPerSecond bytes: farming
// in equal chunks of j·BytesPerSecond bytes. opt.Limits bound all the
// runs together; opt.Progress counts the results of all of them. The
// study simulates every job size and writes no trace (one trace is one
// run), so opt.NoSim and opt.Trace are refused. Bad input is a
// *platform.FieldError or a *platform.LimitError, returned before any run.
func Granularity(ctx context.Context, base Config, s Study, opt platform.RunOptions) (*GranularityReport, error) {
	if err := checkStudyOptions(opt); err != nil {
		return nil, err
	}
	cfgs, err := s.configs(base, opt.Limits)
	if err != nil {
		return nil, err
	}
	total := 0
	for i := range cfgs {
		total += cfgs[i].jobs()
	}
	r := &GranularityReport{Format: StudyFormat, Model: "day", TotalWork: s.TotalWork, BytesPerSec: s.BytesPerSecond, BestMakespan: math.Inf(1)}
	done := 0
	for i := range cfgs {
		c := &cfgs[i]
		var one platform.RunOptions
		if opt.Progress != nil {
			before := done
			one.Progress = func(n, _ int) { opt.Progress(before+n, total) }
		}
		r.Parameters = params(c)
		sim, err := simulate(ctx, c, one)
		if err != nil {
			return nil, err
		}
		done += c.jobs()
		r.add(c, sim)
	}
	st := base.setupBytes()
	r.DLS = map[string]any{"S": st / base.Bandwidth, "C": 1 / base.Bandwidth, "A": 1 / s.BytesPerSecond, "V": s.TotalWork * s.BytesPerSecond,
		"note": "units are bytes; a job of j seconds is a chunk of j·bytes_per_second bytes"}
	return r, nil
}

// checkStudyOptions refuses what a study cannot do: model only, a trace.
func checkStudyOptions(opt platform.RunOptions) error {
	if err := checkOptions(opt); err != nil {
		return err
	}
	switch {
	case opt.NoSim:
		return bad("RunOptions.NoSim", true, "false: the study simulates every job size")
	case opt.Trace != nil:
		return bad("RunOptions.Trace", "(a recorder)", "none: the study runs one farm per job size; trace a single run")
	}
	return nil
}

// add appends the row of one job size and keeps the best.
func (r *GranularityReport) add(c *Config, sim *Result) {
	row := GranularityRow{JobTime: c.JobTime, MessageBytes: c.MessageBytes, Jobs: c.jobs(), Makespan: sim.Makespan,
		Efficiency: sim.Efficiency, Ceiling: Predict(c).EfficiencyCeiling}
	r.Rows = append(r.Rows, row)
	if row.Makespan < r.BestMakespan {
		r.BestJobTime, r.BestMakespan, r.BestEfficiency = c.JobTime, row.Makespan, row.Efficiency
	}
}

// Size is the number of jobs and the estimated events of all the study's
// runs (for a progress report); zero if the study is invalid.
func (s *Study) Size(base Config) (jobs int, events int64) {
	cfgs, err := s.configs(base, platform.Limits{})
	if err != nil {
		return 0, 0
	}
	for i := range cfgs {
		jobs += cfgs[i].jobs()
		events += cfgs[i].Estimate().Events
	}
	return jobs, events
}

// WriteJSON writes the study as indented JSON, "format" (StudyFormat)
// first (schema/day-study.schema.json).
func (r *GranularityReport) WriteJSON(w io.Writer) error {
	out := *r
	out.Format = StudyFormat
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
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
	fmt.Fprintf(w, "best: %s s jobs, makespan %s s, efficiency %s\n", g(r.BestJobTime), g(r.BestMakespan), g(r.BestEfficiency))
	return nil
}
