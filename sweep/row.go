package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/table"
)

// Row statuses besides the solver's ("optimal"): see Row.Status.
const (
	// StatusOptimal: solved; Cmax, LowerBound and Gap are set.
	StatusOptimal = "optimal"
	// StatusInvalid: the point's inputs cannot be solved as given (a
	// fixed n below n_min, a model over the memory limit, a parameter out
	// of range).
	StatusInvalid = "invalid"
	// StatusInfeasible: the LP solver proved the LP infeasible.
	StatusInfeasible = "infeasible"
	// StatusFailed: the solver or the solve failed otherwise.
	StatusFailed = "failed"
	// StatusSkipped: not solved because its number of stages exceeds the
	// spec's run.max_stages.
	StatusSkipped = "skipped"
	// StatusUnsupported: the point asks for something this build cannot
	// do (stages = "opt" without the optimizer).
	StatusUnsupported = "unsupported"
)

// Verification is the executor's verdict on a row's schedule.
type Verification struct {
	OK       bool    `json:"ok"`
	Makespan float64 `json:"makespan"`
	// Violations counts the violations found (0 when OK).
	Violations int `json:"violations,omitempty"`
}

// Row is one line of a results file: one point and its outcome.
type Row struct {
	// Key identifies the point (see Key); Index is its position in the
	// spec's grid.
	Key   string `json:"key"`
	Index int    `json:"index"`
	Label string `json:"label,omitempty"`
	// Problem holds the inputs as in solve's JSON; Problem.Stages is the
	// number of stages the LP was built with (n_min for "min"; the
	// requested n for a fixed policy).
	Problem schedule.Problem `json:"problem"`
	// StagesPolicy is "min", "opt" or the requested number.
	StagesPolicy string `json:"stages_policy"`
	// Status is one of the Status constants.
	Status string `json:"status"`
	// Cmax, LowerBound and Gap are set for optimal rows: the makespan of
	// the repaired schedule, a certified lower bound and the relative gap.
	Cmax       *schedule.Float `json:"cmax,omitempty"`
	LowerBound *schedule.Float `json:"lower_bound,omitempty"`
	Gap        *schedule.Float `json:"gap,omitempty"`
	Certified  bool            `json:"certified,omitempty"`
	// Warm is true when the LP was solved from the basis of the row
	// before it in its chain (the same problem with a smaller V or n;
	// run.warm, unpruned rows only): certified like a cold solve, so a
	// cold re-solve agrees within the certified gap, not bit for bit.
	Warm bool `json:"warm,omitempty"`
	// Stages counts the stages that carry load after pruning; NMin is the
	// minimum feasible number of stages.
	Stages int `json:"stages,omitempty"`
	NMin   int `json:"n_min"`
	// LBTrivial is S + V·A/P (Section 4.1); LBLayer the best one-layer
	// strategy of Section 4.2 (binomial trees only).
	LBTrivial schedule.Float `json:"lb_trivial"`
	// Pattern says how the message pattern was chosen ("search" with the
	// destinations it kept, "greedy" or "full"); PatternLowerBound is a
	// bound valid for every pattern and every n (today LBTrivial) and
	// PatternGap is (Cmax − PatternLowerBound)/Cmax, beside Gap, which
	// certifies the LP of the returned pattern only.
	Pattern           string          `json:"pattern,omitempty"`
	PatternLowerBound *schedule.Float `json:"pattern_lower_bound,omitempty"`
	PatternGap        *schedule.Float `json:"pattern_gap,omitempty"`
	LBLayer           *schedule.Float `json:"lb_layer,omitempty"`
	// LPs counts the LP solves (certification attempts and prune
	// rounds), Iterations their simplex iterations.
	LPs        int `json:"lps"`
	Iterations int `json:"iterations"`
	// Seconds is the wall time of the point; SolveSeconds and
	// VerifySeconds its parts (all absent with Options.NoTimings).
	Seconds       float64 `json:"seconds,omitempty"`
	SolveSeconds  float64 `json:"solve_seconds,omitempty"`
	VerifySeconds float64 `json:"verify_seconds,omitempty"`
	// Verification is nil when verification is off or failed to run.
	Verification *Verification `json:"verification,omitempty"`
	// Error explains a status other than optimal (or a verification that
	// could not run).
	Error string `json:"error,omitempty"`
	// WorkerOrder, WorkerOrderMethod and WorkerOrderGap are the
	// schedule's on a heterogeneous star (schedule.Schedule.WorkerOrder);
	// Deadline and MaxLoad the deadline form's question and answer.
	WorkerOrder       []int           `json:"worker_order,omitempty"`
	WorkerOrderMethod string          `json:"worker_order_method,omitempty"`
	WorkerOrderGap    *schedule.Float `json:"worker_order_gap,omitempty"`
	Deadline          *schedule.Float `json:"deadline,omitempty"`
	MaxLoad           *schedule.Float `json:"max_load,omitempty"`
}

// line is a row as a results file holds it: "format":
// "dlsched.sweep-row/1" (schema.SweepRow) first, then the row's fields
// (schema/sweep-row.schema.json).
type line struct {
	Format string `json:"format"`
	Row
}

// marshalLine encodes a row as one JSON line ending in '\n', its first
// field the format.
func marshalLine(r *Row) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(line{schema.SweepRow, *r}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteJSONL writes rows as JSON lines.
func WriteJSONL(w io.Writer, rows []Row) error {
	for i := range rows {
		b, err := marshalLine(&rows[i])
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// CSVHeader lists the columns of WriteCSV.
var CSVHeader = []string{"index", "key", "label", "topology", "order", "buffers", "m", "p", "h",
	"S", "C", "A", "D", "V", "stages_policy", "stages_built", "status", "cmax", "lower_bound", "gap",
	"certified", "stages", "n_min", "lb_trivial", "lb_layer", "lps", "iterations", "seconds",
	"solve_seconds", "verify_seconds", "verified", "makespan", "pattern", "pattern_lower_bound", "pattern_gap", "error",
	"procs", "result_ratio", "return", "deadline", "max_load", "worker_order", "worker_order_method", "worker_order_gap"}

func optF(f *schedule.Float) string {
	if f == nil {
		return ""
	}
	return table.FormatFloat(float64(*f))
}

// WriteCSV writes rows as CSV with the CSVHeader columns; empty cells are
// parameters that do not apply or values that do not exist.
func WriteCSV(w io.Writer, rows []Row) error {
	return table.WriteCSV(w, CSVHeader, len(rows), func(i int) []string { return rowCells(&rows[i]) })
}

// rowCells returns the CSVHeader cells of a row.
func rowCells(r *Row) []string {
	p := &r.Problem
	verified, makespan := "", ""
	if r.Verification != nil {
		verified = strconv.FormatBool(r.Verification.OK)
		makespan = table.FormatFloat(r.Verification.Makespan)
	}
	return append([]string{
		strconv.Itoa(r.Index), r.Key, r.Label, p.Topology, p.Order, table.FormatInt(p.Buffers), table.FormatInt(p.M), table.FormatInt(p.P), table.FormatInt(p.H),
		table.FormatFloat(p.S), table.FormatFloat(p.C), table.FormatFloat(p.A), table.FormatFloat(float64(p.D)), table.FormatFloat(p.V),
		r.StagesPolicy, strconv.Itoa(p.Stages), r.Status, optF(r.Cmax), optF(r.LowerBound), optF(r.Gap),
		strconv.FormatBool(r.Certified), table.FormatInt(r.Stages), strconv.Itoa(r.NMin), table.FormatFloat(float64(r.LBTrivial)), optF(r.LBLayer),
		strconv.Itoa(r.LPs), strconv.Itoa(r.Iterations), table.FormatFloat(r.Seconds), table.FormatFloat(r.SolveSeconds),
		table.FormatFloat(r.VerifySeconds), verified, makespan, r.Pattern, optF(r.PatternLowerBound), optF(r.PatternGap), r.Error,
	}, heteroCells(r)...)
}

// ReadRows reads a results file's complete lines. A last line without its
// newline (a write cut short) is ignored and reported by torn; a complete
// line that is not a row is an error naming the line.
func ReadRows(name string, r io.Reader) (rows []Row, torn bool, err error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", name, err)
	}
	rows, _, torn, err = parseRows(name, b)
	return rows, torn, err
}

// parseRows parses the complete lines of b; good is the length of the
// prefix made of complete lines.
func parseRows(name string, b []byte) (rows []Row, good int, torn bool, err error) {
	n := 0
	for len(b[good:]) > 0 {
		rest := b[good:]
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return rows, good, true, nil
		}
		n++
		text := bytes.TrimSpace(rest[:i])
		if len(text) > 0 {
			row, err := parseRow(text)
			if err != nil {
				return rows, good, false, fmt.Errorf("%s line %d: %w", name, n, err)
			}
			rows = append(rows, row)
		}
		good += i + 1
	}
	return rows, good, false, nil
}

// parseRow decodes one line of a results file. A line that declares
// another kind or major version than schema.SweepRow is refused with a
// *schema.FormatError; one without a format (written before formats were
// declared) is read as version 1.
func parseRow(text []byte) (Row, error) {
	if err := schema.Check(text, schema.SweepRow); err != nil {
		return Row{}, err
	}
	var row Row
	err := json.NewDecoder(bytes.NewReader(text)).Decode(&row)
	if err == nil && row.Key == "" {
		err = fmt.Errorf("no key")
	}
	if err != nil {
		return Row{}, fmt.Errorf("not a results row: %v", err)
	}
	return row, nil
}
