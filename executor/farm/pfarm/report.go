package pfarm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/topology"
)

// Format is the declared format of the JSON report (WriteJSON), described
// by schema/pfarm.schema.json.
const Format = "dlsched.pfarm/1"

// Config is one farm: its tree, its parameters, and what to compute
// besides the model and the simulation. The options every model run takes
// (limits, the model alone, progress, a trace) are platform.RunOptions.
type Config struct {
	// Topology is the tree of processors.
	Topology topology.FarmSpec
	// Params are the tasks, the overheads and the links.
	Params Params
	// FindOpt also runs FindOptTree.
	FindOpt bool
	// Slowdowns perturb the processors during the simulation.
	Slowdowns []Slowdown
	// NoRootWorker makes the root a pure distributor (no local worker)
	// and FreeHostLink makes the host's link cost nothing: together they
	// put the load's owner at the root of the tree, as a divisible-load
	// platform has it (FromPlatform).
	NoRootWorker, FreeHostLink bool
}

// Report is the model beside the simulation, as printed by `dlsched farm
// pfarm` (JSON field names are part of the CLI contract, described by
// schema/pfarm.schema.json).
type Report struct {
	Format     string            `json:"format"`
	Model      string            `json:"model"`
	Topology   topology.FarmSpec `json:"topology"`
	Tree       string            `json:"tree"`
	N          int               `json:"N"`
	Parameters ReportParams      `json:"parameters"`
	Predicted  *Prediction       `json:"predicted"`
	Simulated  *Result           `json:"simulated,omitempty"`
	FindOpt    *OptTree          `json:"find_opt,omitempty"`
}

// ReportParams echoes the inputs (seconds and bytes); the farm of a
// platform (FromPlatform) adds its root without a worker, its free host
// link and its slowdowns.
type ReportParams struct {
	M            int        `json:"M"`
	Te           float64    `json:"Te"`
	BetaE        float64    `json:"beta_e"`
	BetaF        float64    `json:"beta_f"`
	Alpha        float64    `json:"alpha"`
	Tau          float64    `json:"tau"`
	Startup      float64    `json:"startup,omitempty"`
	Dt           float64    `json:"Dt"`
	Dr           float64    `json:"Dr"`
	Tasks        string     `json:"tasks"`
	Seed         uint64     `json:"seed"`
	NoRootWorker bool       `json:"no_root_worker,omitempty"`
	FreeHostLink bool       `json:"free_host_link,omitempty"`
	Slowdowns    []Slowdown `json:"slowdowns,omitempty"`
}

// Run checks the input and its Estimate against opt's limits, builds the
// tree, evaluates the model and (unless opt.NoSim) simulates, recording
// into opt.Trace when it is set. Bad input is a *platform.FieldError and a
// run over the limits a *platform.LimitError, both returned before the
// tree is built; a failed or cancelled simulation is any other error.
func Run(ctx context.Context, cfg Config, opt platform.RunOptions) (*Report, error) {
	cost, err := Estimate(cfg, opt)
	if err != nil {
		return nil, err
	}
	if err := checkLimits(&cfg, opt, cost); err != nil {
		return nil, err
	}
	t, err := cfg.Topology.Build()
	if err != nil {
		return nil, fmt.Errorf("pfarm: %w", err)
	}
	p := cfg.Params
	if p.Tasks != nil {
		p.Te = p.Tasks.Mean()
	}
	r, err := report(cfg, t, &p)
	if err != nil {
		return nil, err
	}
	if !opt.NoSim {
		// The limits were checked against the estimate: the kernel runs
		// the simulation to its end.
		sim := platform.RunOptions{Progress: opt.Progress, Trace: opt.Trace}
		if r.Simulated, err = simulateTree(ctx, t, &p, &cfg, sim); err != nil {
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
	r := &Report{Format: Format, Model: "pfarm", Topology: cfg.Topology, Tree: t.Name, N: t.N(), Predicted: pr,
		Parameters: ReportParams{M: p.M, Te: p.Te, BetaE: p.BetaE, BetaF: p.BetaF, Alpha: p.Alpha(),
			Tau: p.Tau, Startup: p.Startup, Dt: p.Dt, Dr: p.Dr, Tasks: tasks, Seed: p.Seed,
			NoRootWorker: cfg.NoRootWorker, FreeHostLink: cfg.FreeHostLink, Slowdowns: cfg.Slowdowns}}
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
	if x := p.perturbations(); x != "" {
		fmt.Fprintln(w, x)
	}
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

// perturbations describes how the farm departs from the paper's: a root
// without a worker, a free host link, slowdowns ("" for none).
func (p *ReportParams) perturbations() string {
	var xs []string
	if p.NoRootWorker {
		xs = append(xs, "the root has no worker")
	}
	if p.FreeHostLink {
		xs = append(xs, "the host's link is free")
	}
	for _, s := range p.Slowdowns {
		xs = append(xs, fmt.Sprintf("processor %d at speed %s from %s s", s.Node, g(s.Factor), g(s.At)))
	}
	return strings.Join(xs, "; ")
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
