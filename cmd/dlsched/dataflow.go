package main

import (
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
			"  dlsched dataflow --study small --plot study.svg",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "graph", Usage: "graph file: .json (dlsched's format), .stg (Standard Task Graph) or .dot/.gv"},
			&cli.StringFlag{Name: "levels", Usage: "generate: level sizes, every node depending on every node of the level before (e.g. 5,3,8)"},
			&cli.StringFlag{Name: "random", Usage: "generate: a levelled random program of N fine-grain nodes"},
			&cli.StringFlag{Name: "grain", Value: "1", Usage: "with --random: fine nodes merged into one node"},
			&cli.StringFlag{Name: "seed", Value: "1", Usage: "with --random: the generator's seed"},
			&cli.StringFlag{Name: "pes", Usage: "number of processing elements p"},
			&cli.StringFlag{Name: "node-time", Usage: "with --levels: the time of every node (default 1)"},
			&cli.StringFlag{Name: "scheduler-delay", Value: "0", Usage: "the scheduler's delay per allocation"},
			&cli.StringFlag{Name: "bus-time", Usage: "time of one transfer on each of the three buses"},
			&cli.StringFlag{Name: "result-bus", Usage: "time of one transfer on the result bus"},
			&cli.StringFlag{Name: "ack-bus", Usage: "time of one transfer on the acknowledgement bus"},
			&cli.StringFlag{Name: "istructure-bus", Usage: "time of one transfer on the I-structure bus"},
			&cli.BoolFlag{Name: "barrier", Usage: "execute level by level (the model's assumption)"},
			&cli.StringFlag{Name: "policy", Value: "dynamic", Usage: "dynamic, static or quasi"},
			&cli.BoolFlag{Name: "no-realloc", Usage: "no same-loop reallocation (the one-PE loop deadlocks)"},
			&cli.BoolFlag{Name: "no-eager", Usage: "allocate enabled nodes only"},
			&cli.StringFlag{Name: "study", Usage: "the paper's Section 4 study: small (900 fine nodes) or large (10,000)"},
			&cli.StringFlag{Name: "plot", Usage: "with --study: draw the four findings (.svg or .png)"},
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table or json"},
			&cli.StringFlag{Name: "out", Usage: "write the report to this file instead of stdout"},
		},
		Action: dataflowAction,
	}
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
	if c.IsSet("study") {
		return dataflowStudy(c, format)
	}
	if c.IsSet("plot") {
		return usagef("invalid --plot: it needs --study")
	}
	g, source, err := dataflowGraph(c)
	if err != nil {
		return err
	}
	m, err := dataflowMachine(c)
	if err != nil {
		return err
	}
	r, err := dataflow.Evaluate(c.Context, g, source, m)
	var in *dataflow.InputError
	if errors.As(err, &in) {
		return usage(err)
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

func dataflowStudy(c *cli.Context, format string) error {
	for _, name := range []string{"graph", "levels", "random", "pes"} {
		if c.IsSet(name) {
			return usagef("invalid --%s: --study generates its own graphs and machines", name)
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

// dataflowGraph reads or generates the graph (exactly one source).
func dataflowGraph(c *cli.Context) (*graph.Graph, string, error) {
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
		return readGraphFile(c.String("graph"))
	case c.IsSet("levels"):
		var sizes []int
		for _, f := range strings.Split(c.String("levels"), ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return nil, "", usagef("invalid --levels %s: want level sizes like 5,3,8", c.String("levels"))
			}
			sizes = append(sizes, v)
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
			return nil, "", usage(err)
		}
		return g, "levels " + c.String("levels"), nil
	}
	nodes, err := parseInt(c, "random")
	if err != nil {
		return nil, "", err
	}
	grain, err := parseInt(c, "grain")
	if err != nil {
		return nil, "", err
	}
	seed, err := strconv.ParseUint(strings.TrimSpace(c.String("seed")), 10, 64)
	if err != nil {
		return nil, "", usagef("invalid --seed %s: want a non-negative integer", c.String("seed"))
	}
	g, err := graph.Random(nodes, grain, seed)
	if err != nil {
		return nil, "", usage(err)
	}
	return g, fmt.Sprintf("random program of %d fine nodes, grain %d, seed %d", nodes, grain, seed), nil
}

func readGraphFile(path string) (*graph.Graph, string, error) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil, "", usagef("invalid --graph %s: not a readable regular file", path)
	}
	if st.Size() > 1<<30 {
		return nil, "", usagef("invalid --graph %s: larger than 1 GiB", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", usagef("invalid --graph %s: %v", path, err)
	}
	defer f.Close()
	var g *graph.Graph
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		g, err = graph.ReadJSON(f)
	case ".stg":
		g, err = graph.ReadSTG(f)
	case ".dot", ".gv":
		var data []byte
		if data, err = io.ReadAll(f); err == nil {
			g, err = graph.ReadDOT(data)
		}
	default:
		return nil, "", usagef("invalid --graph %s: want a file ending in .json, .stg, .dot or .gv", path)
	}
	if err != nil {
		return nil, "", usagef("invalid --graph %s: %v", path, err)
	}
	return g, filepath.Base(path), nil
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
	if err := m.Validate(); err != nil {
		return nil, usage(err)
	}
	return m, nil
}
