package dataflow

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/dlsched/dlsched/platform"
)

// The formats of the documents the package writes (schema/dataflow.schema.json
// and schema/dataflow-study.schema.json describe them).
const (
	Format      = "dlsched.dataflow/1"
	StudyFormat = "dlsched.dataflow-study/1"
)

// Report is the model beside the simulation, as printed by `dlsched
// dataflow` (JSON names are part of the CLI contract; Format first).
type Report struct {
	Format    string      `json:"format"`
	Model     string      `json:"model"`
	Graph     GraphInfo   `json:"graph"`
	Machine   MachineInfo `json:"machine"`
	Predicted *Prediction `json:"predicted"`
	// Simulated is nil when only the model was evaluated (RunOptions.NoSim).
	Simulated *Result `json:"simulated"`
}

// GraphInfo describes the graph run.
type GraphInfo struct {
	Source       string  `json:"source"`
	Nodes        int     `json:"nodes"`
	Edges        int     `json:"edges"`
	Loops        int     `json:"loops"`
	Conds        int     `json:"conds"`
	TotalWork    float64 `json:"total_work"`
	CriticalPath float64 `json:"critical_path"`
}

// MachineInfo echoes the machine.
type MachineInfo struct {
	PEs            int     `json:"pes"`
	SchedulerDelay float64 `json:"scheduler_delay"`
	ResultBus      float64 `json:"result_bus"`
	AckBus         float64 `json:"ack_bus"`
	IStructureBus  float64 `json:"istructure_bus"`
	Barrier        bool    `json:"barrier"`
	Policy         string  `json:"policy"`
	Realloc        bool    `json:"realloc"`
	Eager          bool    `json:"eager"`
	// BytesPerTime is the result bus's rate for the data results carry (0:
	// not charged).
	BytesPerTime float64 `json:"bytes_per_time"`
}

// Run evaluates the analytic model for the configuration and simulates
// the machine executing the graph (the model alone with opt.NoSim). Input
// that cannot run is a *platform.FieldError; a run estimated to exceed
// opt's limits is refused, before anything in proportion to it is built,
// with a *platform.LimitError. A run that cannot finish (a deadlock, reads
// of locations never written) is a Report whose Simulated.Completed is
// false with the reason in Simulated.Deadlock, not an error. opt.Progress
// is called with the node instances finished every few thousand and at
// the end; opt.Trace, when set, records the run (docs/dataflow.md).
func Run(ctx context.Context, cfg Config, opt platform.RunOptions) (*Report, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if opt.NoSim && opt.Trace != nil {
		return nil, platform.Bad(pkg, FieldTrace, "(a recorder)", "nil with RunOptions.NoSim: nothing is simulated")
	}
	if err := CheckRun(GraphSizes(cfg.Graph), &cfg.Machine, opt); err != nil {
		return nil, err
	}
	if n := GraphSizes(cfg.Graph).Instances; n > maxInstances {
		return nil, platform.Bad(pkg, FieldGraph, fmt.Sprintf("(%.4g node instances, loops unrolled)", n),
			fmt.Sprintf("at most %d node instances", maxInstances))
	}
	r := newReport(&cfg)
	if !opt.NoSim {
		var err error
		if r.Simulated, err = simulate(ctx, &cfg, opt); err != nil {
			return nil, err
		}
	}
	r.Predicted = Predict(cfg.Graph, &cfg.Machine)
	return r, nil
}

// newReport describes the graph and the machine.
func newReport(c *Config) *Report {
	g, m := c.Graph, &c.Machine
	return &Report{Format: Format, Model: "dataflow",
		Graph: GraphInfo{Source: c.Source, Nodes: len(g.Nodes), Edges: len(g.Edges), Loops: len(g.Loops), Conds: len(g.Conds),
			TotalWork: g.TotalWork(), CriticalPath: g.CriticalPath()},
		Machine: MachineInfo{PEs: m.PEs, SchedulerDelay: m.SchedulerDelay, ResultBus: m.ResultBus, AckBus: m.AckBus,
			IStructureBus: m.IStructureBus, Barrier: m.Barrier, Policy: m.Policy.String(), Realloc: !m.NoRealloc,
			Eager: !m.NoEager && !m.Barrier && m.Policy == Dynamic, BytesPerTime: m.BytesPerTime}}
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func g6(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// WriteTable writes the model and the simulation.
func (r *Report) WriteTable(w io.Writer) error {
	gi, mi, p, s := r.Graph, r.Machine, r.Predicted, r.Simulated
	fmt.Fprintf(w, "dataflow machine: %s (%d nodes, %d edges, %d loops, %d conditionals; work %s, critical path %s)\n",
		gi.Source, gi.Nodes, gi.Edges, gi.Loops, gi.Conds, g6(gi.TotalWork), g6(gi.CriticalPath))
	data := ""
	if mi.BytesPerTime > 0 {
		data = fmt.Sprintf(", result data at %s bytes per time unit", g6(mi.BytesPerTime))
	}
	fmt.Fprintf(w, "machine: %d PEs, %s scheduling, scheduler delay %s, buses result %s ack %s I-structure %s, barrier %v, reallocation %v, eager %v%s\n",
		mi.PEs, mi.Policy, g6(mi.SchedulerDelay), g6(mi.ResultBus), g6(mi.AckBus), g6(mi.IStructureBus), mi.Barrier, mi.Realloc, mi.Eager, data)
	if s == nil {
		writeModel(w, p)
		fmt.Fprintln(w, "simulated: not run (the model alone)")
		return nil
	}
	fmt.Fprintf(w, "  %-34s %12s %12s\n", "", "predicted", "simulated")
	fmt.Fprintf(w, "  %-34s %12s %12s\n", "execution time (E_m / makespan)", g6(p.EM), g6(s.Makespan))
	fmt.Fprintf(w, "  %-34s %12s %12s\n", "%PE utilisation, true busy fraction", g6(p.PEUtilisation), g6(s.Utilisation))
	writeModelRest(w, p)
	status := "completed"
	if !s.Completed {
		status = s.Deadlock
	}
	fmt.Fprintf(w, "simulated: %s; %d node instances, %d disregard tokens, %d reallocations, %d pending reads, %d I-structure errors, %d kernel events\n",
		status, s.NodeInstances, s.DisregardTokens, s.Reallocations, s.PendingReads, len(s.IStructureErrors), s.Events)
	for _, e := range s.IStructureErrors {
		fmt.Fprintf(w, "I-structure error: location %s written by node %d and again by node %d at %s\n", e.Loc, e.First, e.Second, g6(e.Time))
	}
	return nil
}

// writeModel writes the model's column alone.
func writeModel(w io.Writer, p *Prediction) {
	fmt.Fprintf(w, "  %-34s %12s\n", "", "predicted")
	fmt.Fprintf(w, "  %-34s %12s\n", "execution time (E_m)", g6(p.EM))
	fmt.Fprintf(w, "  %-34s %12s\n", "%PE utilisation, true busy fraction", g6(p.PEUtilisation))
	writeModelRest(w, p)
}

// writeModelRest writes the rows only the model has.
func writeModelRest(w io.Writer, p *Prediction) {
	fmt.Fprintf(w, "  %-34s %12s\n", "%PE utilisation as printed (f_p/E_m)", g6(p.PEUtilisationPrinted))
	fmt.Fprintf(w, "  %-34s %12s\n", "T_av", g6(p.TAv))
	fmt.Fprintf(w, "  %-34s %12s\n", "E_ideal (critical path)", g6(p.EIdeal))
}
