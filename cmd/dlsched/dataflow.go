package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dlsched/dlsched/executor/dataflow"
	"github.com/dlsched/dlsched/executor/dataflow/graph"
	"github.com/dlsched/dlsched/internal/atomicfile"
	"github.com/dlsched/dlsched/plotting"
)

func dataflowCommand() *cli.Command {
	return &cli.Command{
		Name:  "dataflow",
		Usage: "the dataflow multiprocessor (paper 004): p PEs, a scheduler, three buses; model beside simulation",
		Description: "Times are in the graph's time unit. Examples:\n" +
			"  dlsched dataflow --levels 5,3,8 --pes 4 --barrier\n" +
			"  dlsched dataflow --graph testdata/stg/proto151.stg --pes 8 --scheduler-delay 1 --bus-time 1\n" +
			"  dlsched dataflow --graph testdata/wfcommons/blast-chameleon-small-001.json --pes 8\n" +
			"  dlsched dataflow --study small --plot study.svg",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "graph", Usage: "graph file: .json (dlsched's format, or a WfCommons workflow), .stg (Standard Task Graph) or .dot/.gv"},
			&cli.StringFlag{Name: "levels", Usage: "generate: level sizes, every node depending on every node of the level before (e.g. 5,3,8)"},
			&cli.StringFlag{Name: "random", Usage: "generate: a levelled random program of N fine-grain nodes"},
			&cli.StringFlag{Name: "grain", Value: "1", Usage: "with --random: fine nodes merged into one node"},
			&cli.StringFlag{Name: "seed", Value: "1", Usage: "with --random: the generator's seed"},
			&cli.StringFlag{Name: "pes", Usage: "number of processing elements p"},
			&cli.StringFlag{Name: "node-time", Usage: "with --levels: the time of every node (default 1)"},
			&cli.StringFlag{Name: "time-unit", Usage: "with a WfCommons workflow: seconds per time unit (default 1)"},
			&cli.StringFlag{Name: "bytes-per-time", Usage: "with a graph whose results carry data (a WfCommons workflow's output files): the result bus's rate; off by default"},
			&cli.StringFlag{Name: "scheduler-delay", Value: "0", Usage: "the scheduler's delay per allocation and per acknowledgement it sends"},
			&cli.StringFlag{Name: "bus-time", Usage: "time of one transfer on each of the three buses"},
			&cli.StringFlag{Name: "result-bus", Usage: "time of one transfer on the result bus"},
			&cli.StringFlag{Name: "ack-bus", Usage: "time of one transfer on the acknowledgement bus"},
			&cli.StringFlag{Name: "istructure-bus", Usage: "time of one transfer on the I-structure bus"},
			&cli.BoolFlag{Name: "barrier", Usage: "execute level by level (the model's assumption; loop-free graphs)"},
			&cli.StringFlag{Name: "policy", Value: "dynamic", Usage: "dynamic, static or quasi"},
			&cli.BoolFlag{Name: "no-realloc", Usage: "with dynamic scheduling: no same-loop reallocation (the one-PE loop deadlocks)"},
			&cli.BoolFlag{Name: "no-eager", Usage: "with dynamic scheduling and no barrier: allocate enabled nodes only"},
			&cli.StringFlag{Name: "study", Usage: "the paper's Section 4 study: small (900 fine nodes) or large (10,000)"},
			&cli.StringFlag{Name: "plot", Usage: "with --study: draw the four findings (.svg or .png)"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table or json"},
			&cli.StringFlag{Name: "out", Usage: "write the report to this file instead of stdout"},
		}, limitFlags()...),
		Action: dataflowAction,
	}
}

// dataflowFlags names the library's fields by their flags in messages.
var dataflowFlags = strings.NewReplacer(
	"Machine.PEs", "--pes", "Machine.SchedulerDelay", "--scheduler-delay",
	"Machine.ResultBus, AckBus, IStructureBus", "the bus times", "Machine.BytesPerTime", "--bytes-per-time",
	"Machine.Barrier", "--barrier", "Machine.Policy", "--policy",
	dataflow.FieldMaxBytes, "--max-memory", dataflow.FieldMaxEvents, "--max-events")

// dataflowUsage is a usage error for a library error about the input,
// its fields named by their flags and the "dataflow: " prefix dropped.
func dataflowUsage(prefix string, err error) error {
	msg := dataflowFlags.Replace(strings.TrimPrefix(err.Error(), "dataflow: "))
	if prefix != "" {
		msg = prefix + ": " + msg
	}
	return usagef("%s", msg)
}

func dataflowAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("unexpected argument %q", c.Args().First())
	}
	format := c.String("format")
	if format != "table" && format != "json" {
		return usagef("invalid --format %s: want table or json", format)
	}
	if err := checkOutPath("out", c.String("out")); err != nil {
		return err
	}
	maxBytes, maxEvents, err := limits(c)
	if err != nil {
		return err
	}
	if c.IsSet("study") {
		return dataflowStudy(c, format)
	}
	if err := dataflowInapplicable(c); err != nil {
		return err
	}
	m, err := dataflowMachine(c)
	if err != nil {
		return err
	}
	m.MaxBytes, m.MaxEvents = maxBytes, maxEvents
	g, source, err := dataflowGraph(c, m)
	if err != nil {
		return err
	}
	m.Progress = progress(c, int(dataflow.GraphSizes(g).Instances), 200_000, "simulating", "node instances")
	r, err := dataflow.Evaluate(c.Context, g, source, m)
	var in *dataflow.InputError
	if errors.As(err, &in) {
		return dataflowUsage("", err)
	}
	if err != nil {
		return err
	}
	if err := writeReport(c.String("out"), format, r.WriteJSON, r.WriteTable); err != nil {
		return err
	}
	if !r.Simulated.Completed {
		return errors.New(r.Simulated.Deadlock) // exit 1, the reason on stderr
	}
	return nil
}

// dataflowInapplicable refuses, before anything is read or built, a flag
// that does not apply to the other flags given (docs/reliability.md: exit
// 2, never ignored).
func dataflowInapplicable(c *cli.Context) error {
	if c.IsSet("plot") {
		return usagef("invalid --plot: it needs --study")
	}
	for _, f := range []struct{ flag, needs, why string }{
		{"seed", "random", "it seeds the --random generator"},
		{"grain", "random", "it merges the fine nodes of --random"},
		{"node-time", "levels", "files give their own times and --random uses the grain"},
		{"time-unit", "graph", "it scales a WfCommons workflow's run times"},
		{"bytes-per-time", "graph", "generated graphs carry no data"},
	} {
		if c.IsSet(f.flag) && !c.IsSet(f.needs) {
			return usagef("invalid --%s: it applies to --%s only (%s)", f.flag, f.needs, f.why)
		}
	}
	if pol := c.String("policy"); pol != "dynamic" {
		for _, name := range []string{"no-realloc", "no-eager"} {
			if c.IsSet(name) {
				return usagef("invalid --%s with --policy %s: it applies to dynamic scheduling only (the %s policy allots nodes before they run, and runs loop-free graphs)", name, pol, pol)
			}
		}
	}
	if c.IsSet("no-eager") && c.Bool("barrier") {
		return usagef("invalid --no-eager with --barrier: level by level execution never allocates a node before it is enabled")
	}
	return nil
}

func dataflowStudy(c *cli.Context, format string) error {
	keep := map[string]bool{"study": true, "plot": true, "format": true, "out": true, "quiet": true}
	for _, name := range c.FlagNames() {
		if c.IsSet(name) && !keep[name] {
			return usagef("invalid --%s: --study runs its own graphs and machines (the paper's ranges, at most 10,000 nodes; docs/dataflow.md)", name)
		}
	}
	var cfg dataflow.StudyConfig
	switch c.String("study") {
	case "small":
		cfg = dataflow.DefaultStudy(false)
	case "large":
		cfg = dataflow.DefaultStudy(true)
	default:
		return usagef("invalid --study %q: want small or large", c.String("study"))
	}
	plotPath := c.String("plot")
	var plotFormat string
	var err error
	if plotPath != "" {
		if plotFormat, err = plotting.Format(plotPath); err != nil {
			return usagef("invalid --plot %s: want a file ending in .svg or .png", plotPath)
		}
		if err := checkOutPath("plot", plotPath); err != nil {
			return err
		}
	}
	cfg.Progress = progress(c, cfg.Rows(), 1, "study", "rows")
	r, err := dataflow.Study(c.Context, cfg)
	if err != nil {
		return err
	}
	if plotPath != "" {
		if err := atomicfile.Write(plotPath, func(w io.Writer) error {
			return plotting.WritePanels(w, plotFormat, r.Charts(), 2)
		}); err != nil {
			return err
		}
	}
	return writeReport(c.String("out"), format, r.WriteJSON, r.WriteTable)
}

// dataflowGraph reads or generates the graph (exactly one source), after
// checking the run's estimated size against m's limits.
func dataflowGraph(c *cli.Context, m *dataflow.Machine) (*graph.Graph, string, error) {
	n := 0
	for _, name := range []string{"graph", "levels", "random"} {
		if c.IsSet(name) {
			n++
		}
	}
	if n != 1 {
		return nil, "", usagef("invalid graph: give exactly one of --graph FILE, --levels SIZES or --random N")
	}
	switch {
	case c.IsSet("graph"):
		return readGraphFile(c, m)
	case c.IsSet("levels"):
		return levelledGraph(c, m)
	}
	return randomGraph(c, m)
}

// checkGenerated refuses a generated graph of the given size beyond the
// machine's limits, naming the flag that asked for it.
func checkGenerated(flag string, nodes, edges float64, m *dataflow.Machine) error {
	s := dataflow.Sizes{Nodes: nodes, Edges: edges, Instances: nodes, InstanceEdges: edges}
	if err := m.Check(dataflow.EstimateRun(s, m)); err != nil {
		return dataflowUsage(fmt.Sprintf("invalid --%s", flag), fmt.Errorf("%w; raise the limit or generate a smaller graph", err))
	}
	return nil
}

func levelledGraph(c *cli.Context, m *dataflow.Machine) (*graph.Graph, string, error) {
	var sizes []int
	for _, f := range strings.Split(c.String("levels"), ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, "", usagef("invalid --levels %s: want level sizes >= 1 like 5,3,8", c.String("levels"))
		}
		sizes = append(sizes, v)
	}
	nodes, edges := graph.LevelledSize(sizes)
	if nodes > graph.MaxNodes {
		return nil, "", usagef("invalid --levels %s: %.4g nodes, more than %d", c.String("levels"), nodes, graph.MaxNodes)
	}
	if err := checkGenerated("levels "+c.String("levels"), nodes, edges, m); err != nil {
		return nil, "", err
	}
	t := 1.0
	if c.IsSet("node-time") {
		var err error
		if t, err = parseFloat(c, "node-time", false); err != nil {
			return nil, "", err
		}
	}
	g, err := graph.Levelled(sizes, t)
	if err != nil {
		return nil, "", dataflowUsage("invalid --levels", err)
	}
	return g, "levels " + c.String("levels"), nil
}

func randomGraph(c *cli.Context, m *dataflow.Machine) (*graph.Graph, string, error) {
	nodes, err := parseInt(c, "random")
	if err != nil {
		return nil, "", err
	}
	if nodes < 1 || nodes > graph.MaxNodes {
		return nil, "", usagef("invalid --random %s: want 1 to %d fine nodes", c.String("random"), graph.MaxNodes)
	}
	grain, err := parseInt(c, "grain")
	if err != nil {
		return nil, "", err
	}
	if grain < 1 || grain > nodes {
		return nil, "", usagef("invalid --grain %s: want 1 to %d (the fine nodes of --random)", c.String("grain"), nodes)
	}
	seed, err := strconv.ParseUint(strings.TrimSpace(c.String("seed")), 10, 64)
	if err != nil {
		return nil, "", usagef("invalid --seed %s: want a non-negative integer", c.String("seed"))
	}
	if err := checkGenerated("random "+c.String("random"), float64(nodes), 2*float64(nodes), m); err != nil {
		return nil, "", err
	}
	g, err := graph.Random(nodes, grain, seed)
	if err != nil {
		return nil, "", dataflowUsage("invalid --random", err)
	}
	return g, fmt.Sprintf("random program of %d fine nodes, grain %d, seed %d", nodes, grain, seed), nil
}

// readGraphFile reads --graph after checking, from the file's size, that
// reading it stays within --max-memory; then the graph's run estimate.
func readGraphFile(c *cli.Context, m *dataflow.Machine) (*graph.Graph, string, error) {
	path := c.String("graph")
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil, "", usagef("invalid --graph %s: not a readable regular file", path)
	}
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".json", ".stg", ".dot", ".gv":
	default:
		return nil, "", usagef("invalid --graph %s: want a file ending in .json, .stg, .dot or .gv", path)
	}
	if err := m.Check(dataflow.Estimate{Bytes: graph.ReadCost(ext, st.Size())}); err != nil {
		return nil, "", dataflowUsage(fmt.Sprintf("invalid --graph %s (%d MB)", path, st.Size()>>20), fmt.Errorf("reading it: %w", err))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", usagef("invalid --graph %s: %v", path, err)
	}
	g, wf, err := decodeGraph(c, ext, data)
	if err != nil {
		return nil, "", usagef("invalid --graph %s: %v", path, err)
	}
	if err := dataflowDataFlags(c, g, wf); err != nil {
		return nil, "", err
	}
	if err := m.CheckSize(g); err != nil {
		return nil, "", dataflowUsage(fmt.Sprintf("invalid --graph %s", path), err)
	}
	return g, filepath.Base(path), nil
}

// decodeGraph reads the file's bytes in its format; wf reports a WfCommons
// workflow (a JSON object with a "workflow" key).
func decodeGraph(c *cli.Context, ext string, data []byte) (g *graph.Graph, wf bool, err error) {
	switch {
	case ext == ".stg":
		g, err = graph.ReadSTG(bytes.NewReader(data))
	case ext == ".dot" || ext == ".gv":
		g, err = graph.ReadDOT(data)
	case graph.IsWfFormat(data):
		unit := 1.0
		if c.IsSet("time-unit") {
			if unit, err = parseFloat(c, "time-unit", false); err != nil {
				return nil, true, err
			}
			if !(unit > 0) {
				return nil, true, usagef("invalid --time-unit %s: want seconds per time unit > 0", c.String("time-unit"))
			}
		}
		g, _, err = graph.ReadWfFormat(data, unit)
		return g, true, err
	default:
		g, err = graph.ReadJSON(bytes.NewReader(data))
	}
	return g, false, err
}

// dataflowDataFlags refuses --time-unit for a graph that is not a
// WfCommons workflow and --bytes-per-time for one whose results carry no
// data, and sets the rate.
func dataflowDataFlags(c *cli.Context, g *graph.Graph, wf bool) error {
	if c.IsSet("time-unit") && !wf {
		return usagef("invalid --time-unit: it applies to WfCommons workflows only (run times in seconds); %s gives its own times", c.String("graph"))
	}
	if !c.IsSet("bytes-per-time") {
		return nil
	}
	data := false
	for _, nd := range g.Nodes {
		data = data || nd.Data > 0
	}
	if !data {
		return usagef("invalid --bytes-per-time: no node of %s carries data (a WfCommons workflow's output files, or \"data\" in dlsched's JSON)", c.String("graph"))
	}
	return nil
}

func dataflowMachine(c *cli.Context) (*dataflow.Machine, error) {
	m := &dataflow.Machine{Barrier: c.Bool("barrier"), NoRealloc: c.Bool("no-realloc"), NoEager: c.Bool("no-eager")}
	var err error
	if m.PEs, err = parseInt(c, "pes"); err != nil {
		return nil, err
	}
	if m.Policy, err = dataflow.ParsePolicy(c.String("policy")); err != nil {
		return nil, usagef("invalid --policy %q: want dynamic, static or quasi", c.String("policy"))
	}
	if m.SchedulerDelay, err = parseFloat(c, "scheduler-delay", false); err != nil {
		return nil, err
	}
	if c.IsSet("bus-time") {
		for _, name := range []string{"result-bus", "ack-bus", "istructure-bus"} {
			if c.IsSet(name) {
				return nil, usagef("invalid --%s: give --bus-time or the three bus times, not both", name)
			}
		}
		b, err := parseFloat(c, "bus-time", false)
		if err != nil {
			return nil, err
		}
		m.ResultBus, m.AckBus, m.IStructureBus = b, b, b
	}
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"result-bus", &m.ResultBus}, {"ack-bus", &m.AckBus}, {"istructure-bus", &m.IStructureBus}} {
		if c.IsSet(f.name) {
			if *f.dst, err = parseFloat(c, f.name, false); err != nil {
				return nil, err
			}
		}
	}
	if c.IsSet("bytes-per-time") {
		if m.BytesPerTime, err = parseFloat(c, "bytes-per-time", false); err != nil {
			return nil, err
		}
		if !(m.BytesPerTime > 0) {
			return nil, usagef("invalid --bytes-per-time %s: want a rate > 0 (leave it out to ignore the data)", c.String("bytes-per-time"))
		}
	}
	if m.PEs < 1 || m.PEs > dataflow.MaxPEs {
		return nil, usagef("invalid --pes %s: want 1 to %d", c.String("pes"), dataflow.MaxPEs)
	}
	if err := m.Validate(); err != nil {
		return nil, dataflowUsage("", err)
	}
	return m, nil
}
