package dataflow

import (
	"math"
	"strconv"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
	"github.com/dlsched/dlsched/platform"
)

// pkg prefixes the package's input errors (platform.FieldError and
// platform.LimitError).
const pkg = "dataflow"

// The fields the package's input errors name, in the library's words; a
// command line maps them to its flags.
const (
	FieldGraph          = "Config.Graph"
	FieldPEs            = "Machine.PEs"
	FieldSchedulerDelay = "Machine.SchedulerDelay"
	FieldResultBus      = "Machine.ResultBus"
	FieldAckBus         = "Machine.AckBus"
	FieldIStructureBus  = "Machine.IStructureBus"
	FieldBytesPerTime   = "Machine.BytesPerTime"
	FieldPolicy         = "Machine.Policy"
	FieldBarrier        = "Machine.Barrier"
	FieldMaxBytes       = "Limits.MaxBytes"
	FieldMaxEvents      = "Limits.MaxEvents"
	FieldTrace          = "RunOptions.Trace"
)

// Config is one run: a graph on a machine.
type Config struct {
	// Graph is the program executed.
	Graph *graph.Graph
	// Source names the graph in the report ("proto151.stg").
	Source string
	// Machine is the machine that executes it.
	Machine Machine
}

// Policy is the scheduling strategy (Section 1).
type Policy int

const (
	// Dynamic allocates one node at a time to a free PE (Section 1.1).
	Dynamic Policy = iota
	// Static divides the nodes among the PEs before the start (Section
	// 1.2): node k of the (level, id) order goes to PE k mod p.
	Static
	// Quasi divides the graph into partitions of consecutive levels, each
	// executed statically, one after the other (Section 1.3).
	Quasi
)

// ParsePolicy reads "dynamic", "static" or "quasi"; another name is a
// *platform.FieldError on Machine.Policy.
func ParsePolicy(s string) (Policy, error) {
	switch s {
	case "dynamic":
		return Dynamic, nil
	case "static":
		return Static, nil
	case "quasi":
		return Quasi, nil
	}
	return 0, platform.Bad(pkg, FieldPolicy, strconv.Quote(s), "dynamic, static or quasi")
}

// String returns the policy's name.
func (p Policy) String() string { return [...]string{"dynamic", "static", "quasi"}[p] }

// Machine is the machine's configuration (times in the graph's unit).
type Machine struct {
	// PEs is p.
	PEs int
	// SchedulerDelay is the scheduler's constant delay per allocation.
	SchedulerDelay float64
	// ResultBus, AckBus and IStructureBus are the times one transfer
	// holds each bus (FIFO, one transfer at a time).
	ResultBus, AckBus, IStructureBus float64
	// Barrier executes the graph level by level (Section 3.5).
	Barrier bool
	// Policy is the scheduling strategy; NoRealloc switches off same-loop
	// reallocation; NoEager switches off eager allocation of nodes that
	// are not yet enabled.
	Policy    Policy
	NoRealloc bool
	NoEager   bool
	// BytesPerTime is the result bus's rate for the data a result carries
	// (graph.Node.Data): a transfer holds the bus ResultBus + Data /
	// BytesPerTime. 0 leaves the data out.
	BytesPerTime float64
}

// MaxPEs bounds the machine.
const MaxPEs = 100_000

// Validate checks the configuration; the first invalid field is a
// *platform.FieldError.
func (m *Machine) Validate() error {
	if m.PEs < 1 || m.PEs > MaxPEs {
		return platform.Bad(pkg, FieldPEs, m.PEs, "1 to "+strconv.Itoa(MaxPEs))
	}
	for _, f := range []struct {
		field string
		v     float64
	}{{FieldSchedulerDelay, m.SchedulerDelay}, {FieldResultBus, m.ResultBus}, {FieldAckBus, m.AckBus}, {FieldIStructureBus, m.IStructureBus}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return platform.Bad(pkg, f.field, f.v, "a finite time >= 0")
		}
	}
	if !(m.BytesPerTime >= 0) || math.IsInf(m.BytesPerTime, 0) {
		return platform.Bad(pkg, FieldBytesPerTime, m.BytesPerTime, "a finite rate >= 0 (0: data not charged)")
	}
	if m.Policy < Dynamic || m.Policy > Quasi {
		return platform.Bad(pkg, FieldPolicy, int(m.Policy), "Dynamic, Static or Quasi")
	}
	return nil
}

// check validates the machine for g: static and quasi-dynamic scheduling
// and level by level execution are defined for loop-free graphs.
func (c *Config) check() error {
	if c.Graph == nil || len(c.Graph.Nodes) == 0 {
		return platform.Bad(pkg, FieldGraph, "(none)", "a graph of at least one node")
	}
	m := &c.Machine
	if err := m.Validate(); err != nil {
		return err
	}
	loops := len(c.Graph.Loops)
	if m.Policy != Dynamic && loops > 0 {
		return platform.Bad(pkg, FieldPolicy, m.Policy,
			"dynamic for a graph with loops (static and quasi-dynamic scheduling are defined here for loop-free graphs; the graph has "+strconv.Itoa(loops)+" loops)")
	}
	if m.Barrier && loops > 0 {
		// an iteration's nodes share their levels with the next iteration's,
		// which waits for a later level of this one
		return platform.Bad(pkg, FieldBarrier, "(level by level)",
			"a loop-free graph (the graph has "+strconv.Itoa(loops)+" loops, and an iteration's nodes share their levels with the next iteration's)")
	}
	return nil
}
