package dataflow

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
	"github.com/dlsched/dlsched/platform"
)

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

// Validate checks the grid: every list given, sizes, grains and PE
// counts in range, times finite and >= 0.
func (c StudyConfig) Validate() error {
	for _, l := range []struct {
		field string
		n     int
	}{{"StudyConfig.Nodes", len(c.Nodes)}, {"StudyConfig.Grains", len(c.Grains)}, {"StudyConfig.PEs", len(c.PEs)},
		{"StudyConfig.Delays", len(c.Delays)}, {"StudyConfig.Buses", len(c.Buses)}} {
		if l.n == 0 {
			return platform.Bad(pkg, l.field, "[]", "at least one value")
		}
	}
	for _, n := range c.Nodes {
		if n < 1 || n > graph.MaxNodes {
			return platform.Bad(pkg, "StudyConfig.Nodes", n, fmt.Sprintf("1 to %d fine nodes", graph.MaxNodes))
		}
		for _, g := range c.Grains {
			if g < 1 || g > n {
				return platform.Bad(pkg, "StudyConfig.Grains", g, fmt.Sprintf("1 to %d (the fine nodes)", n))
			}
		}
	}
	for _, p := range c.PEs {
		if p < 1 || p > MaxPEs {
			return platform.Bad(pkg, "StudyConfig.PEs", p, fmt.Sprintf("1 to %d", MaxPEs))
		}
	}
	for _, l := range []struct {
		field string
		v     []float64
	}{{"StudyConfig.Delays", c.Delays}, {"StudyConfig.Buses", c.Buses}} {
		for _, x := range l.v {
			if !(x >= 0) || math.IsInf(x, 0) {
				return platform.Bad(pkg, l.field, x, "finite times >= 0")
			}
		}
	}
	return nil
}

// StudyReport is the study's rows and the four findings' evidence (JSON:
// Format first, then the rows).
type StudyReport struct {
	Format string      `json:"format"`
	Config StudyConfig `json:"-"`
	Rows   []StudyRow  `json:"rows"`
}

// Study runs the grid: for every program size a levelled random program
// (graph.Random, one seed), every grain of it, every PE count, scheduler
// delay and bus time, dynamic scheduling; speedup against the same graph
// and delays on one PE. opt.Progress is called with the rows done and
// their number; opt.Limits bound each run; a study is not traced
// (opt.Trace must be nil) and always simulates (opt.NoSim must be false).
func Study(ctx context.Context, c StudyConfig, opt platform.RunOptions) (*StudyReport, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if opt.Trace != nil {
		return nil, platform.Bad(pkg, FieldTrace, "(a recorder)", "nil for a study of many runs: trace one run of it with Run")
	}
	if opt.NoSim {
		return nil, platform.Bad(pkg, "RunOptions.NoSim", true, "false: the study compares the model with the simulation")
	}
	r := &StudyReport{Format: StudyFormat, Config: c}
	for _, n := range c.Nodes {
		for _, grain := range c.Grains {
			g, err := graph.Random(n, grain, c.Seed)
			if err != nil {
				return nil, err
			}
			for _, d := range c.Delays {
				for _, b := range c.Buses {
					if err := r.point(ctx, g, n, grain, d, b, opt); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return r, nil
}

// point adds the rows of one graph, delay and bus time: one per PE count.
func (r *StudyReport) point(ctx context.Context, g *graph.Graph, n, grain int, d, b float64, opt platform.RunOptions) error {
	machine := func(p int) Machine {
		return Machine{PEs: p, SchedulerDelay: d, ResultBus: b, AckBus: b, IStructureBus: b}
	}
	lim := platform.RunOptions{Limits: opt.Limits}
	one, err := simulateChecked(ctx, &Config{Graph: g, Machine: machine(1)}, lim)
	if err != nil {
		return err
	}
	for _, p := range r.Config.PEs {
		cfg := &Config{Graph: g, Machine: machine(p)}
		res := one
		if p != 1 {
			if res, err = simulateChecked(ctx, cfg, lim); err != nil {
				return err
			}
		}
		r.Rows = append(r.Rows, StudyRow{Nodes: n, Grain: grain, Graph: len(g.Nodes), PEs: p, Delay: d, Bus: b,
			EM: Predict(g, &cfg.Machine).EM, Makespan: res.Makespan, Speedup: one.Makespan / res.Makespan})
		if opt.Progress != nil {
			opt.Progress(len(r.Rows), r.Config.Rows())
		}
	}
	return nil
}

// simulateChecked checks a configuration and its limits, and simulates it.
func simulateChecked(ctx context.Context, c *Config, opt platform.RunOptions) (*Result, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := CheckRun(GraphSizes(c.Graph), &c.Machine, opt); err != nil {
		return nil, err
	}
	return simulate(ctx, c, opt)
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
