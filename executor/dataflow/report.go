package dataflow

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
	"github.com/dlsched/dlsched/plotting"
)

// Report is the model beside the simulation, as printed by `dlsched
// dataflow` (JSON names are part of the CLI contract).
type Report struct {
	Model     string      `json:"model"`
	Graph     GraphInfo   `json:"graph"`
	Machine   MachineInfo `json:"machine"`
	Predicted *Prediction `json:"predicted"`
	Simulated *Result     `json:"simulated"`
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

// Evaluate runs the model and the simulation for g on m.
func Evaluate(ctx context.Context, g *graph.Graph, source string, m *Machine) (*Report, error) {
	r, err := Run(ctx, g, m)
	if err != nil {
		return nil, err
	}
	return &Report{Model: "dataflow",
		Graph: GraphInfo{Source: source, Nodes: len(g.Nodes), Edges: len(g.Edges), Loops: len(g.Loops), Conds: len(g.Conds),
			TotalWork: g.TotalWork(), CriticalPath: g.CriticalPath()},
		Machine: MachineInfo{PEs: m.PEs, SchedulerDelay: m.SchedulerDelay, ResultBus: m.ResultBus, AckBus: m.AckBus,
			IStructureBus: m.IStructureBus, Barrier: m.Barrier, Policy: m.Policy.String(), Realloc: !m.NoRealloc,
			Eager: !m.NoEager && !m.Barrier && m.Policy == Dynamic, BytesPerTime: m.BytesPerTime},
		Predicted: Predict(g, m), Simulated: r}, nil
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
	fmt.Fprintf(w, "  %-34s %12s %12s\n", "", "predicted", "simulated")
	fmt.Fprintf(w, "  %-34s %12s %12s\n", "execution time (E_m / makespan)", g6(p.EM), g6(s.Makespan))
	fmt.Fprintf(w, "  %-34s %12s %12s\n", "%PE utilisation, true busy fraction", g6(p.PEUtilisation), g6(s.Utilisation))
	fmt.Fprintf(w, "  %-34s %12s\n", "%PE utilisation as printed (f_p/E_m)", g6(p.PEUtilisationPrinted))
	fmt.Fprintf(w, "  %-34s %12s\n", "T_av", g6(p.TAv))
	fmt.Fprintf(w, "  %-34s %12s\n", "E_ideal (critical path)", g6(p.EIdeal))
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

// StudyRow is one point of the Section 4 study.
type StudyRow struct {
	Nodes    int     `json:"fine_nodes"`
	Grain    int     `json:"grain"`
	Graph    int     `json:"graph_nodes"`
	PEs      int     `json:"pes"`
	Delay    float64 `json:"scheduler_delay"`
	Bus      float64 `json:"bus_time"`
	EM       float64 `json:"E_m"`
	Makespan float64 `json:"makespan"`
	Speedup  float64 `json:"speedup"`
}

// StudyConfig is the grid of the study.
type StudyConfig struct {
	Nodes  []int     // fine-grain program sizes (900 and 10,000 in the paper)
	Grains []int     // grains
	PEs    []int     // 1..16
	Delays []float64 // scheduler delay 1..100
	Buses  []float64 // bus time 1..10 (all three buses)
	Seed   uint64
	// Progress, when set, is called with the number of rows done.
	Progress func(done int) `json:"-"`
}

// Rows is the number of rows the study makes.
func (c StudyConfig) Rows() int {
	return len(c.Nodes) * len(c.Grains) * len(c.Delays) * len(c.Buses) * len(c.PEs)
}

// DefaultStudy is the grid used in docs/dataflow.md: the paper's ranges.
func DefaultStudy(large bool) StudyConfig {
	c := StudyConfig{Nodes: []int{900}, Grains: []int{1, 2, 3, 5, 10, 20, 30},
		PEs: []int{1, 2, 4, 8, 12, 16}, Delays: []float64{1, 10, 100}, Buses: []float64{1, 5, 10}, Seed: 1}
	if large {
		c.Nodes, c.Grains = []int{10000}, []int{1, 5, 10, 20, 50, 100}
	}
	return c
}

// StudyReport is the study's rows and the four findings' evidence.
type StudyReport struct {
	Config StudyConfig `json:"-"`
	Rows   []StudyRow  `json:"rows"`
}

// Study runs the grid: for every program size a levelled random program
// (graph.Random, one seed), every grain of it, every PE count, scheduler
// delay and bus time, dynamic scheduling; speedup against the same graph
// and delays on one PE.
func Study(ctx context.Context, c StudyConfig) (*StudyReport, error) {
	r := &StudyReport{Config: c}
	for _, n := range c.Nodes {
		for _, grain := range c.Grains {
			g, err := graph.Random(n, grain, c.Seed)
			if err != nil {
				return nil, err
			}
			for _, d := range c.Delays {
				for _, b := range c.Buses {
					one, err := Run(ctx, g, &Machine{PEs: 1, SchedulerDelay: d, ResultBus: b, AckBus: b, IStructureBus: b})
					if err != nil {
						return nil, err
					}
					for _, p := range c.PEs {
						m := &Machine{PEs: p, SchedulerDelay: d, ResultBus: b, AckBus: b, IStructureBus: b}
						res := one
						if p != 1 {
							if res, err = Run(ctx, g, m); err != nil {
								return nil, err
							}
						}
						r.Rows = append(r.Rows, StudyRow{Nodes: n, Grain: grain, Graph: len(g.Nodes), PEs: p, Delay: d, Bus: b,
							EM: Predict(g, m).EM, Makespan: res.Makespan, Speedup: one.Makespan / res.Makespan})
						if c.Progress != nil {
							c.Progress(len(r.Rows))
						}
					}
				}
			}
		}
	}
	return r, nil
}

// WriteJSON writes the rows.
func (r *StudyReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable writes the rows, then the best grain per PE count.
func (r *StudyReport) WriteTable(w io.Writer) error {
	fmt.Fprintln(w, "fine_nodes grain graph_nodes pes delay bus        E_m   makespan  speedup")
	for _, x := range r.Rows {
		fmt.Fprintf(w, "%10d %5d %11d %3d %5s %3s %10s %10s %8s\n", x.Nodes, x.Grain, x.Graph, x.PEs, g6(x.Delay), g6(x.Bus), g6(x.EM), g6(x.Makespan), strconv.FormatFloat(x.Speedup, 'f', 2, 64))
	}
	fmt.Fprintln(w, "best grain (smallest simulated makespan) per PE count:")
	for _, b := range r.BestGrains() {
		fmt.Fprintf(w, "  %d fine nodes, delay %s, bus %s: %s\n", b.Nodes, g6(b.Delay), g6(b.Bus), b.Describe())
	}
	return nil
}

// BestGrain lists, for one (size, delay, bus), the best grain per PE count.
type BestGrain struct {
	Nodes      int
	Delay, Bus float64
	PEs        []int
	Grain      []int
	GrainModel []int
}

// Describe renders "p=1: grain 30 (model 30), p=2: ...".
func (b BestGrain) Describe() string {
	var parts []string
	for i, p := range b.PEs {
		parts = append(parts, fmt.Sprintf("p=%d: grain %d (model %d)", p, b.Grain[i], b.GrainModel[i]))
	}
	return strings.Join(parts, ", ")
}

// BestGrains finds the grain of smallest makespan (and of smallest E_m)
// for every program size, delay, bus time and PE count.
func (r *StudyReport) BestGrains() []BestGrain {
	type key struct {
		n    int
		d, b float64
	}
	groups := map[key]map[int][]StudyRow{}
	for _, x := range r.Rows {
		k := key{x.Nodes, x.Delay, x.Bus}
		if groups[k] == nil {
			groups[k] = map[int][]StudyRow{}
		}
		groups[k][x.PEs] = append(groups[k][x.PEs], x)
	}
	var keys []key
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.n != b.n {
			return a.n < b.n
		}
		if a.d != b.d {
			return a.d < b.d
		}
		return a.b < b.b
	})
	var out []BestGrain
	for _, k := range keys {
		bg := BestGrain{Nodes: k.n, Delay: k.d, Bus: k.b}
		var ps []int
		for p := range groups[k] {
			ps = append(ps, p)
		}
		sort.Ints(ps)
		for _, p := range ps {
			best, bestM := groups[k][p][0], groups[k][p][0]
			for _, x := range groups[k][p] {
				if x.Makespan < best.Makespan {
					best = x
				}
				if x.EM < bestM.EM {
					bestM = x
				}
			}
			bg.PEs = append(bg.PEs, p)
			bg.Grain = append(bg.Grain, best.Grain)
			bg.GrainModel = append(bg.GrainModel, bestM.Grain)
		}
		out = append(out, bg)
	}
	return out
}

// Charts draws the four findings: time against bus time, against
// scheduler delay, speedup against PEs, and the best grain against PEs.
func (r *StudyReport) Charts() []plotting.Chart {
	c := r.Config
	n := c.Nodes[0]
	pick := func(f func(StudyRow) bool) []StudyRow {
		var out []StudyRow
		for _, x := range r.Rows {
			if x.Nodes == n && f(x) {
				out = append(out, x)
			}
		}
		return out
	}
	midGrain := c.Grains[len(c.Grains)/2]
	note := fmt.Sprintf("random levelled program of %d fine-grain nodes, seed %d", n, c.Seed)
	// 1. time against bus time, per PE count (grain mid, delay lowest)
	c1 := plotting.Chart{Title: "1. Execution time against bus time", Note: note + fmt.Sprintf(", grain %d, scheduler delay %s", midGrain, g6(c.Delays[0])),
		XLabel: "bus time per transfer (time units)", YLabel: "execution time (time units)"}
	for _, p := range c.PEs {
		s := plotting.Series{Name: fmt.Sprintf("%d PEs", p)}
		for _, x := range pick(func(x StudyRow) bool { return x.Grain == midGrain && x.Delay == c.Delays[0] && x.PEs == p }) {
			s.X, s.Y = append(s.X, x.Bus), append(s.Y, x.Makespan)
		}
		c1.Series = append(c1.Series, s)
	}
	// 2. time against scheduler delay
	c2 := plotting.Chart{Title: "2. Execution time against scheduler delay", Note: note + fmt.Sprintf(", grain %d, bus time %s", midGrain, g6(c.Buses[0])),
		XLabel: "scheduler delay per allocation (time units)", YLabel: "execution time (time units)", LogX: true, LogY: true}
	for _, p := range c.PEs {
		s := plotting.Series{Name: fmt.Sprintf("%d PEs", p)}
		for _, x := range pick(func(x StudyRow) bool { return x.Grain == midGrain && x.Bus == c.Buses[0] && x.PEs == p }) {
			s.X, s.Y = append(s.X, x.Delay), append(s.Y, x.Makespan)
		}
		c2.Series = append(c2.Series, s)
	}
	// 3. speedup against PEs, per grain
	c3 := plotting.Chart{Title: "3. Speedup against PEs", Note: note + fmt.Sprintf(", delay %s, bus time %s", g6(c.Delays[0]), g6(c.Buses[0])),
		XLabel: "PEs", YLabel: "speedup (time on 1 PE / time on p PEs)"}
	for _, grain := range c.Grains {
		s := plotting.Series{Name: fmt.Sprintf("grain %d", grain)}
		for _, x := range pick(func(x StudyRow) bool { return x.Grain == grain && x.Delay == c.Delays[0] && x.Bus == c.Buses[0] }) {
			s.X, s.Y = append(s.X, float64(x.PEs)), append(s.Y, x.Speedup)
		}
		c3.Series = append(c3.Series, s)
	}
	// 4. best grain against PEs, per delay
	c4 := plotting.Chart{Title: "4. Best grain against PEs", Note: note + fmt.Sprintf(", bus time %s", g6(c.Buses[0])),
		XLabel: "PEs", YLabel: "grain of the fastest graph (fine nodes per node)"}
	for _, b := range r.BestGrains() {
		if b.Nodes != n || b.Bus != c.Buses[0] {
			continue
		}
		s := plotting.Series{Name: fmt.Sprintf("delay %s, simulated", g6(b.Delay))}
		sm := plotting.Series{Name: fmt.Sprintf("delay %s, model", g6(b.Delay)), Style: plotting.Line}
		for i, p := range b.PEs {
			s.X, s.Y = append(s.X, float64(p)), append(s.Y, float64(b.Grain[i]))
			sm.X, sm.Y = append(sm.X, float64(p)), append(sm.Y, float64(b.GrainModel[i]))
		}
		c4.Series = append(c4.Series, s, sm)
	}
	return []plotting.Chart{c1, c2, c3, c4}
}
