package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/dlsched/dlsched/executor/dataflow"
	"github.com/dlsched/dlsched/executor/dataflow/graph"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/plotting"
)

func dataflowCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "graph", Usage: "graph file: .json (dlsched's format, or a WfCommons workflow), .stg (Standard Task Graph) or .dot/.gv"},
		&cli.StringFlag{Name: "levels", Usage: "generate: level sizes, every node depending on every node of the level before (e.g. 5,3,8)"},
		&cli.StringFlag{Name: "random", Usage: "generate: a levelled random program of N fine-grain nodes"},
		&cli.StringFlag{Name: "grain", Value: "1", Usage: "with --random: fine nodes merged into one node"},
		&cli.StringFlag{Name: "seed", Value: "1", Usage: "with --random: the generator's seed"},
		&cli.StringFlag{Name: "workers", Aliases: []string{"pes"}, Usage: "number of processing elements p"},
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
	}
	flags = append(flags, outputFlags("with --study: draw the four findings (.svg or .png)")...)
	return &cli.Command{
		Name:  "dataflow",
		Usage: "the dataflow multiprocessor (paper 004): p PEs, a scheduler, three buses; model beside simulation",
		Description: "Times are in the graph's time unit. Examples:\n" +
			"  dlsched dataflow --levels 5,3,8 --workers 4 --barrier\n" +
			"  dlsched dataflow --graph testdata/stg/proto151.stg --workers 8 --scheduler-delay 1 --bus-time 1\n" +
			"  dlsched dataflow --graph testdata/wfcommons/blast-chameleon-small-001.json --workers 8\n" +
			"  dlsched dataflow --study small --plot study.svg\n" +
			"--format json writes dlsched.dataflow/1 (dlsched.dataflow-study/1 with --study; schema/*.schema.json).\n" +
			"--trace run.json writes a run as a Chrome trace (one process per PE, the scheduler, the buses;\n" +
			"a time unit shown as a second): open it at ui.perfetto.dev (Open trace file) or chrome://tracing (Load).",
		Flags:  append(flags, limitFlags()...),
		Action: dataflowAction,
	}
}

// dataflowFields names the library's fields by the command's flags: the
// bus times by --bus-time when it gave them, the graph by the flag that
// gave it.
func dataflowFields(c *cli.Context) fieldFlags {
	f := fieldFlags{dataflow.FieldPEs: "pes", dataflow.FieldSchedulerDelay: "scheduler-delay",
		dataflow.FieldResultBus: "result-bus", dataflow.FieldAckBus: "ack-bus", dataflow.FieldIStructureBus: "istructure-bus",
		dataflow.FieldBytesPerTime: "bytes-per-time", dataflow.FieldBarrier: "barrier", dataflow.FieldPolicy: "policy",
		dataflow.FieldMaxBytes: "max-memory", dataflow.FieldMaxEvents: "max-events", dataflow.FieldTrace: "trace",
		dataflow.FieldGraph: "graph"}
	if c.IsSet("bus-time") {
		for _, field := range []string{dataflow.FieldResultBus, dataflow.FieldAckBus, dataflow.FieldIStructureBus} {
			f[field] = "bus-time"
		}
	}
	for _, src := range []string{"levels", "random"} {
		if c.IsSet(src) {
			f[dataflow.FieldGraph] = src
		}
	}
	return f
}

// dataflowUsage is bad usage for a library error about the input, its
// fields named by their flags, after prefix ("invalid --levels 5,3").
func dataflowUsage(prefix string, f fieldFlags, err error) error {
	var pn platform.Named
	if errors.As(err, &pn) {
		return usagef("%s: %s", prefix, pn.Format(f.flag))
	}
	return usagef("%s: %v", prefix, err)
}

// dataflowProgress adapts a progress bar to RunOptions.Progress.
func dataflowProgress(bar func(done int)) func(done, total int) {
	if bar == nil {
		return nil
	}
	return func(done, _ int) { bar(done) }
}

func dataflowAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("unexpected argument %q", c.Args().First())
	}
	out, err := readOutputs(c)
	if err != nil {
		return err
	}
	maxBytes, maxEvents, err := limits(c)
	if err != nil {
		return err
	}
	if c.IsSet("study") {
		return dataflowStudy(c, out)
	}
	if err := dataflowInapplicable(c); err != nil {
		return err
	}
	fields := dataflowFields(c)
	m, err := dataflowMachine(c, fields)
	if err != nil {
		return err
	}
	opt := platform.RunOptions{Limits: platform.Limits{MaxBytes: maxBytes, MaxEvents: maxEvents}}
	tr := out.recorder(dataflow.TimeUnit)
	if tr != nil {
		opt.Trace = tr // a nil *trace.Trace would be a non-nil Recorder
	}
	g, source, err := dataflowGraph(c, m, opt, fields)
	if err != nil {
		return err
	}
	opt.Progress = dataflowProgress(progress(c, int(dataflow.GraphSizes(g).Instances), 200_000, "simulating", "node instances"))
	r, err := dataflow.Run(c.Context, dataflow.Config{Graph: g, Source: source, Machine: *m}, opt)
	if err != nil {
		return fields.usage(err)
	}
	if tr != nil {
		tr.Makespan = r.Simulated.Makespan
	}
	if err := out.write(r, nil, 0, tr); err != nil {
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

// dataflowStudy runs the Section 4 study: its graphs and machines are
// fixed, so every graph, machine, limit and trace flag is refused.
func dataflowStudy(c *cli.Context, out outputs) error {
	if c.IsSet("trace") {
		return usagef("invalid --trace with --study: the study runs hundreds of simulations and traces none; trace one run (--random 900 --grain 10 --workers 8 ...)")
	}
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
	opt := platform.RunOptions{Progress: dataflowProgress(progress(c, cfg.Rows(), 1, "study", "rows"))}
	r, err := dataflow.Study(c.Context, cfg, opt)
	if err != nil {
		return err
	}
	return out.write(r, func() []plotting.Chart { return plotting.DataflowStudy(r) }, 2, nil)
}

// dataflowInput is what reading or generating the graph needs: the
// machine and the run's options (its limits, its trace) to check the run
// against before anything is built, and the flags of the library's fields.
type dataflowInput struct {
	c      *cli.Context
	m      *dataflow.Machine
	opt    platform.RunOptions
	fields fieldFlags
}

// dataflowGraph reads or generates the graph (exactly one source), after
// checking the run's estimated size against the limits.
func dataflowGraph(c *cli.Context, m *dataflow.Machine, opt platform.RunOptions, fields fieldFlags) (*graph.Graph, string, error) {
	n := 0
	for _, name := range []string{"graph", "levels", "random"} {
		if c.IsSet(name) {
			n++
		}
	}
	if n != 1 {
		return nil, "", usagef("invalid graph: give exactly one of --graph FILE, --levels SIZES or --random N")
	}
	in := dataflowInput{c: c, m: m, opt: opt, fields: fields}
	switch {
	case c.IsSet("graph"):
		return in.readFile()
	case c.IsSet("levels"):
		return in.levelled()
	}
	return in.random()
}

// checkGenerated refuses a generated graph of the given size beyond the
// limits, naming the flag that asked for it.
func (in dataflowInput) checkGenerated(flag string, nodes, edges float64) error {
	s := dataflow.Sizes{Nodes: nodes, Edges: edges, Instances: nodes, InstanceEdges: edges}
	if err := dataflow.CheckRun(s, in.m, in.opt); err != nil {
		return dataflowUsage("invalid --"+flag, in.fields, err)
	}
	return nil
}

func (in dataflowInput) levelled() (*graph.Graph, string, error) {
	c := in.c
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
	if err := in.checkGenerated("levels "+c.String("levels"), nodes, edges); err != nil {
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
		return nil, "", dataflowUsage("invalid --levels", in.fields, err)
	}
	return g, "levels " + c.String("levels"), nil
}

func (in dataflowInput) random() (*graph.Graph, string, error) {
	c := in.c
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
	if err := in.checkGenerated("random "+c.String("random"), float64(nodes), 2*float64(nodes)); err != nil {
		return nil, "", err
	}
	g, err := graph.Random(nodes, grain, seed)
	if err != nil {
		return nil, "", dataflowUsage("invalid --random", in.fields, err)
	}
	return g, fmt.Sprintf("random program of %d fine nodes, grain %d, seed %d", nodes, grain, seed), nil
}

// readFile reads --graph after checking, from the file's size, that
// reading it stays within --max-memory; then the graph's run estimate.
func (in dataflowInput) readFile() (*graph.Graph, string, error) {
	c := in.c
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
	if err := dataflow.CheckRead(ext, st.Size(), in.opt.Limits); err != nil {
		return nil, "", dataflowUsage("invalid --graph "+path, in.fields, err)
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
	if err := dataflow.CheckRun(dataflow.GraphSizes(g), in.m, in.opt); err != nil {
		return nil, "", dataflowUsage("invalid --graph "+path, in.fields, err)
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

// dataflowMachine reads the machine's flags; the library checks them
// (dataflow.Machine.Validate), its errors named by fields' flags.
func dataflowMachine(c *cli.Context, fields fieldFlags) (*dataflow.Machine, error) {
	m := &dataflow.Machine{Barrier: c.Bool("barrier"), NoRealloc: c.Bool("no-realloc"), NoEager: c.Bool("no-eager")}
	var err error
	if m.PEs, err = parseInt(c, "pes"); err != nil {
		return nil, err
	}
	if m.Policy, err = dataflow.ParsePolicy(c.String("policy")); err != nil {
		return nil, fields.usage(err)
	}
	if m.SchedulerDelay, err = parseFloat(c, "scheduler-delay", false); err != nil {
		return nil, err
	}
	if err := dataflowBuses(c, m); err != nil {
		return nil, err
	}
	if c.IsSet("bytes-per-time") {
		if m.BytesPerTime, err = parseFloat(c, "bytes-per-time", false); err != nil {
			return nil, err
		}
		if !(m.BytesPerTime > 0) {
			return nil, usagef("invalid --bytes-per-time %s: want a rate > 0 (leave it out to ignore the data)", c.String("bytes-per-time"))
		}
	}
	if err := m.Validate(); err != nil {
		return nil, fields.usage(err)
	}
	return m, nil
}

// dataflowBuses reads --bus-time or the three bus times.
func dataflowBuses(c *cli.Context, m *dataflow.Machine) error {
	if c.IsSet("bus-time") {
		for _, name := range []string{"result-bus", "ack-bus", "istructure-bus"} {
			if c.IsSet(name) {
				return usagef("invalid --%s: give --bus-time or the three bus times, not both", name)
			}
		}
		b, err := parseFloat(c, "bus-time", false)
		if err != nil {
			return err
		}
		m.ResultBus, m.AckBus, m.IStructureBus = b, b, b
	}
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"result-bus", &m.ResultBus}, {"ack-bus", &m.AckBus}, {"istructure-bus", &m.IStructureBus}} {
		if c.IsSet(f.name) {
			var err error
			if *f.dst, err = parseFloat(c, f.name, false); err != nil {
				return err
			}
		}
	}
	return nil
}
