package pfarm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/topology"
)

// Config is one request: a topology, the parameters, and what to compute.
type Config struct {
	Topology topology.FarmSpec
	Params   Params
	// NoSim skips the simulation (the model alone); FindOpt also runs
	// FindOptTree.
	NoSim, FindOpt bool
	// Sim tunes the simulation.
	Sim SimOptions
	// MaxBytes and MaxEvents refuse a run whose Estimate exceeds them,
	// before anything is built (0: no limit).
	MaxBytes, MaxEvents int64
}

// Report is the model beside the simulation, as printed by `dlsched farm
// pfarm` (JSON field names are part of the CLI contract).
type Report struct {
	Model      string            `json:"model"`
	Topology   topology.FarmSpec `json:"topology"`
	Tree       string            `json:"tree"`
	N          int               `json:"N"`
	Parameters ReportParams      `json:"parameters"`
	Predicted  *Prediction       `json:"predicted"`
	Simulated  *Result           `json:"simulated,omitempty"`
	FindOpt    *OptTree          `json:"find_opt,omitempty"`
}

// ReportParams echoes the inputs (seconds and bytes).
type ReportParams struct {
	M       int     `json:"M"`
	Te      float64 `json:"Te"`
	BetaE   float64 `json:"beta_e"`
	BetaF   float64 `json:"beta_f"`
	Alpha   float64 `json:"alpha"`
	Tau     float64 `json:"tau"`
	Startup float64 `json:"startup,omitempty"`
	Dt      float64 `json:"Dt"`
	Dr      float64 `json:"Dr"`
	Tasks   string  `json:"tasks"`
	Seed    uint64  `json:"seed"`
}

// InputError reports bad input to Run (a bad topology or parameter, a
// *FieldError, or a run above the limits, a *LimitError), as opposed to a
// failed or cancelled simulation.
type InputError struct{ Err error }

// Error returns the underlying message.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

// Run checks the input and its Estimate against the limits, builds the
// tree, evaluates the model and (unless NoSim) simulates. Bad input and
// runs over the limits are reported as an *InputError before the tree is
// built.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cost, err := Estimate(cfg)
	if err == nil {
		err = cfg.checkLimits(cost)
	}
	if err == nil {
		err = checkSlowdowns(cfg.Sim.Slowdowns, cost.N)
	}
	if err != nil {
		return nil, &InputError{err}
	}
	t, err := cfg.Topology.Build()
	if err != nil {
		return nil, &InputError{err}
	}
	p := cfg.Params
	if p.Tasks != nil {
		p.Te = p.Tasks.Mean()
	}
	r, err := report(cfg, t, &p)
	if err != nil {
		return nil, &InputError{err}
	}
	if !cfg.NoSim {
		if r.Simulated, err = Simulate(ctx, t, &p, cfg.Sim); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// report evaluates the model (and FindOptTree) for the parameters p.
func report(cfg Config, t *topology.FarmTree, p *Params) (*Report, error) {
	pr, err := Predict(t, p)
	if err != nil {
		return nil, err
	}
	tasks := Const(p.Te).String()
	if p.Tasks != nil {
		tasks = p.Tasks.String()
	}
	r := &Report{Model: "pfarm", Topology: cfg.Topology, Tree: t.Name, N: t.N(), Predicted: pr,
		Parameters: ReportParams{M: p.M, Te: p.Te, BetaE: p.BetaE, BetaF: p.BetaF, Alpha: p.Alpha(),
			Tau: p.Tau, Startup: p.Startup, Dt: p.Dt, Dr: p.Dr, Tasks: tasks, Seed: p.Seed}}
	if cfg.FindOpt {
		if r.FindOpt, err = FindOptTree(t, p); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func f(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// WriteTable writes the model and the simulation side by side.
func (r *Report) WriteTable(w io.Writer) error {
	p, pr := r.Parameters, r.Predicted
	fmt.Fprintf(w, "Pfarm on %s (N=%d): M=%d tasks %s, alpha=%s s (Te %s + beta_e %s), beta_f=%s s, tau=%s s/byte, Dt=%s Dr=%s bytes, seed %d\n",
		r.Tree, r.N, p.M, p.Tasks, g(p.Alpha), g(p.Te), g(p.BetaE), g(p.BetaF), g(p.Tau), g(p.Dt), g(p.Dr), p.Seed)
	row := func(label, pred, sim string) {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %-44s %14s %14s", label, pred, sim), " "))
	}
	row("", "predicted (s)", "simulated (s)")
	simulated := "-"
	if r.Simulated != nil {
		simulated = f(r.Simulated.Makespan)
	}
	row("total T_su + T_ss(M-4N) + T_wd", f(pr.Total), simulated)
	label := "steady state T_ss(M)"
	if pr.Clamped {
		label += ", clamped at M*beta_f"
	}
	row(label, f(pr.SteadyState), "")
	row("start-up T_su", f(pr.Startup), "")
	row("wind-down T_wd", f(pr.Winddown), "")
	row("communication bound T_comm", f(pr.CommBound), "")
	for _, x := range pr.Warnings {
		fmt.Fprintf(w, "warning: %s\n", x)
	}
	if pr.Saturated {
		fmt.Fprintf(w, "saturated: processors %s would have to forward more tasks than they receive (eq. 3)\n", ints(pr.SaturatedNodes))
	}
	fmt.Fprintf(w, "first tasks, predicted (Lemma 1): %s\n", ints(pr.FirstTaskOrder))
	if s := r.Simulated; s != nil {
		fmt.Fprintf(w, "first tasks, simulated:           %s\n", ints(s.FirstTaskOrder))
		fmt.Fprintf(w, "tasks per worker: %s\n", ints64(s.TasksPerWorker))
		fmt.Fprintf(w, "messages %d, bytes %s, kernel events %d\n", s.Messages, g(s.Bytes), s.Events)
	}
	if o := r.FindOpt; o != nil {
		fmt.Fprintf(w, "FindOptTree keeps %d of %d processors (%s): T_ss = %s s\n", len(o.Kept), r.N, ints(o.Kept), f(o.SteadyState))
	}
	return nil
}

func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

func ints64(xs []int64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, " ")
}
