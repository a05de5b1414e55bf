package schedule

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Format is the declared format of the documents WriteJSON writes, first
// field "format" (schema/schedule.schema.json; package schema calls it
// schema.Schedule, and a test checks that the two agree: this package
// stays below problem, which imports only topology and schedule).
const Format = "dlsched.schedule/1"

// WriteJSON writes the schedule as indented JSON (the CLI contract's field
// names), its first field "format": Format. The output is deterministic:
// same schedule, same bytes.
func (s *Schedule) WriteJSON(w io.Writer) error {
	type plain Schedule
	b, err := json.MarshalIndent(struct {
		Format string `json:"format"`
		*plain
	}{Format, (*plain)(s)}, "", "  ")
	if err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// ReadJSON decodes a schedule written by WriteJSON. A document that
// declares another format than Format is refused before anything else is
// read (readers call schema.Check first, whose error says whether the
// kind or the major version differs); one without a format (written
// before formats were declared) is read as version 1. Unknown fields are
// an error, so a typo in a hand-edited file does not pass silently.
func ReadJSON(r io.Reader) (*Schedule, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	var head struct {
		Format *string `json:"format"`
	}
	if json.Unmarshal(b, &head) == nil && head.Format != nil && *head.Format != Format {
		return nil, fmt.Errorf("schedule: format %q; want %s", *head.Format, Format)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var s Schedule
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("schedule: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("schedule: unexpected data after the schedule")
	}
	return &s, nil
}

func g(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// CSVHeader is the header row of WriteCSV.
var CSVHeader = []string{"stage", "processor", "layer", "load", "start", "arrival", "compute_start", "compute_end"}

// WriteCSV writes one row per chunk, in send order, with full precision.
func (s *Schedule) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, c := range s.Chunks {
		proc, layer := "", ""
		if c.Processor > 0 {
			proc = strconv.Itoa(c.Processor)
		}
		if c.Layer > 0 {
			layer = strconv.Itoa(c.Layer)
		}
		if err := cw.Write([]string{strconv.Itoa(c.Stage), proc, layer, g(c.Load), g(c.Start), g(c.Arrival), g(c.ComputeStart), g(c.ComputeEnd)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Summary returns the one-paragraph header of the table format.
func (s *Schedule) Summary() string {
	var b bytes.Buffer
	p := &s.Problem
	switch p.Topology {
	case "star":
		fmt.Fprintf(&b, "star m=%d", p.M)
		if len(p.Procs) > 0 {
			b.WriteString(" (heterogeneous)")
		}
	case "tree":
		fmt.Fprintf(&b, "tree p=%d h=%d %s %d-buffer", p.P, p.H, p.Order, p.Buffers)
	default:
		fmt.Fprintf(&b, "%s p=%d h=%d %s", p.Topology, p.P, p.H, p.Order)
	}
	if len(p.Relay) > 0 {
		fmt.Fprintf(&b, " relay-only layers %v", p.Relay)
	}
	if len(p.Procs) > 0 {
		b.WriteString("  S:C:A")
		for i, q := range p.Procs {
			if i == 8 && len(p.Procs) > 9 {
				fmt.Fprintf(&b, " ... (%d more)", len(p.Procs)-i)
				break
			}
			fmt.Fprintf(&b, " %s:%s:%s", g(q.S), g(q.C), g(q.A))
		}
		fmt.Fprintf(&b, "  D=%s V=%s", Float(p.D).String(), g(p.V))
	} else {
		fmt.Fprintf(&b, "  S=%s C=%s A=%s D=%s V=%s", g(p.S), g(p.C), g(p.A), Float(p.D).String(), g(p.V))
	}
	if p.ResultRatio > 0 {
		fmt.Fprintf(&b, "  results β=%s %s", g(p.ResultRatio), p.returnOrder())
	}
	b.WriteByte('\n')
	if s.Deadline > 0 {
		fmt.Fprintf(&b, "deadline %.12g: max load %.12g (the largest load that finishes by the deadline)\n", s.Deadline, s.MaxLoad)
	}
	fmt.Fprintf(&b, "status %s  Cmax %.12g  lower bound %.12g  gap %.3g\n", s.Status, s.Cmax, s.LowerBound, s.Gap)
	fmt.Fprintf(&b, "stages: built %d, carrying load %d (n_min %d), messages %d\n", p.Stages, s.Stages, s.NMin, len(s.Chunks))
	s.summaryOrder(&b)
	s.summaryPattern(&b)
	s.summaryPruning(&b)
	s.summarySolve(&b)
	s.summaryVerification(&b)
	return b.String()
}

// returnOrder is the order of the result messages, fifo by default.
func (p *Problem) returnOrder() string {
	if p.Return == "" {
		return "fifo"
	}
	return p.Return
}

// summaryOrder writes the worker order line of a heterogeneous star.
func (s *Schedule) summaryOrder(b *bytes.Buffer) {
	if s.WorkerOrderMethod == "" {
		return
	}
	b.WriteString("worker order:")
	for _, d := range s.WorkerOrder {
		fmt.Fprintf(b, " %d", d)
	}
	switch s.WorkerOrderMethod {
	case "given":
		b.WriteString(" (given)\n")
		return
	case "exact":
		b.WriteString(" (exact: proved best of every order and subset")
	default:
		fmt.Fprintf(b, " (%s: classical rule and local search", s.WorkerOrderMethod)
	}
	if s.WorkerOrderBound != nil && s.WorkerOrderGap != nil {
		fmt.Fprintf(b, "; LP of the full n-stage pattern: bound over every order %.12g, gap %.3g", *s.WorkerOrderBound, *s.WorkerOrderGap)
	}
	b.WriteString(")\n")
}

// destWord is what the problem's destinations are: processors or layers.
func (p *Problem) destWord() string {
	if p.Topology != "star" {
		return "layers"
	}
	return "processors"
}

// summaryPattern writes the pattern line: how the messages were chosen and
// the bound over every pattern.
func (s *Schedule) summaryPattern(b *bytes.Buffer) {
	pi := s.Pattern
	if pi == nil {
		return
	}
	what := s.Problem.destWord()
	on := "all " + what
	if pi.Destinations != nil {
		on = fmt.Sprintf("%s %s only", what, ranges(pi.Destinations))
	}
	switch pi.Method {
	case "greedy":
		b.WriteString("pattern: greedy prune of the full pattern")
	case "exact":
		fmt.Fprintf(b, "pattern: exact (MILP over every sub-pattern, Cbc): %s", on)
	case "full":
		b.WriteString("pattern: full (no pruning: every message of the n-stage pattern is sent)")
	default:
		fmt.Fprintf(b, "pattern: search, best of %d solved (%d ruled out by their bound, %d improving single-message changes): %s",
			pi.Candidates, pi.Skipped, pi.Moves, on)
		if pi.Chain > 1 {
			fmt.Fprintf(b, "; searched at %d stage counts up to n, each seeded with the one below", pi.Chain)
		}
	}
	fmt.Fprintf(b, "; bound over every pattern %.12g (%s), gap %.3g", s.PatternLowerBound, pi.Bound, s.PatternGap)
	if pi.Note != "" {
		b.WriteString("; " + pi.Note)
	}
	b.WriteByte('\n')
}

// summaryPruning writes what the prune loop removed, if anything.
func (s *Schedule) summaryPruning(b *bytes.Buffer) {
	r := s.Pruning
	if r == nil || r.Rounds == 0 {
		return
	}
	fmt.Fprintf(b, "pruned in %d round(s): %d empty message(s) removed", r.Rounds, len(r.Messages))
	if len(r.Stages) > 0 {
		fmt.Fprintf(b, ", stages %s", ranges(r.Stages))
	}
	if len(r.Destinations) > 0 {
		fmt.Fprintf(b, ", %s %s", s.Problem.destWord(), ranges(r.Destinations))
	}
	fmt.Fprintf(b, "; Cmax %.12g -> %.12g\n", r.CmaxBefore, r.CmaxAfter)
}

// ranges formats increasing integers as %v does, with every run of three
// or more consecutive numbers written first–last: [1 2 3 7 379 380 … 3000]
// is "[1–3 7 379–3000]". A pruned schedule of n = 3,000 stages lists 2,622
// removed stages in one range instead of 2,622 numbers.
func ranges(xs []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		switch {
		case j-i >= 2:
			fmt.Fprintf(&b, "%d–%d", xs[i], xs[j])
		case j > i:
			fmt.Fprintf(&b, "%d %d", xs[i], xs[j])
		default:
			fmt.Fprintf(&b, "%d", xs[i])
		}
		i = j + 1
	}
	b.WriteByte(']')
	return b.String()
}

// summarySolve writes the LP line: form, solver, size, attempts, time and
// certification.
func (s *Schedule) summarySolve(b *bytes.Buffer) {
	si := s.Solve
	if si == nil {
		return
	}
	fmt.Fprintf(b, "LP (%s form, %s): %d variables, %d constraints, %d nonzeros; %d attempt(s)",
		si.Form, si.Solver, si.Variables, si.Constraints, si.Nonzeros, len(si.Attempts))
	gen, most := 0, 0
	for _, a := range si.Attempts {
		if a.Messages > 0 {
			gen++
			most = max(most, a.Messages)
		}
	}
	if gen > 0 {
		fmt.Fprintf(b, ", %d by stage generation (restricted LPs of at most %d messages)", gen, most)
	}
	if si.Seconds > 0 {
		fmt.Fprintf(b, ", %.3fs", si.Seconds)
	}
	if !si.Certified {
		fmt.Fprintf(b, "; NOT certified: %s", si.Note)
	}
	b.WriteByte('\n')
}

// summaryVerification writes the executor's verdict.
func (s *Schedule) summaryVerification(b *bytes.Buffer) {
	v := s.Verification
	if v == nil {
		return
	}
	if v.OK {
		fmt.Fprintf(b, "verified by the executor: %d processors, %d events, makespan %.12g (earliest %.12g)\n",
			v.Processors, v.Events, v.Makespan, v.EarliestMakespan)
		return
	}
	fmt.Fprintf(b, "executor found %d violation(s):\n", len(v.Violations))
	for _, x := range v.Violations {
		fmt.Fprintf(b, "  %s at %g: %s\n", x.Kind, x.Time, x.Message)
	}
}

// String formats the float like strconv 'g', with "inf" for +Inf.
func (f Float) String() string {
	b, _ := f.MarshalJSON()
	if len(b) > 0 && b[0] == '"' {
		return string(b[1 : len(b)-1])
	}
	return string(b)
}

// WriteTable writes the summary and a table of the chunks.
func (s *Schedule) WriteTable(w io.Writer) error {
	if _, err := io.WriteString(w, s.Summary()); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	dest := "proc"
	if s.Problem.Topology != "star" {
		dest = "layer"
	}
	fmt.Fprintf(tw, "stage\t%s\tload\tstart\tarrival\tcompute start\tcompute end\t\n", dest)
	for _, c := range s.Chunks {
		fmt.Fprintf(tw, "%d\t%d\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t\n", c.Stage, c.Dest(), c.Load, c.Start, c.Arrival, c.ComputeStart, c.ComputeEnd)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(s.Returns) == 0 {
		return nil
	}
	fmt.Fprintf(w, "results returned (%s, β=%s), in the order the originator receives them:\n", s.Problem.returnOrder(), g(s.Problem.ResultRatio))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "return\tproc\tresults\tstart\tend\t\n")
	for i, r := range s.Returns {
		fmt.Fprintf(tw, "%d\t%d\t%.6g\t%.6g\t%.6g\t\n", i+1, r.Processor, r.Load, r.Start, r.End)
	}
	return tw.Flush()
}
