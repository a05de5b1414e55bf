package problem

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// Problem holds the parameters of a divisible-load scheduling problem.
type Problem struct {
	// Kind is the topology; Order the layer activation order of trees.
	Kind  topology.Kind
	Order topology.Order
	// Buffers is 1 or 2 for ordinary trees (ignored otherwise).
	Buffers int
	// M is the number of star processors; P and H the out-degree and the
	// height of a tree.
	M, P, H int
	// S, C, A: startup time, per-unit transfer time, per-unit computing
	// time.
	S, C, A float64
	// Procs, if not empty, gives per-processor S, C, A of a heterogeneous
	// star (len(Procs) == M).
	Procs []schedule.Proc
	// D is the buffer size (math.Inf(1) for unlimited) and V the load.
	D, V float64
	// Relay lists tree layers that only relay and never compute.
	Relay []int
	// ResultRatio is β, the result units each unit of load produces: every
	// star processor sends β times its total load back to the originator
	// after the distribution (0: nothing is returned, the paper's model).
	// Stars only.
	ResultRatio float64
	// Return is the order of the result messages on the originator's port:
	// ReturnFIFO (activation order) or ReturnLIFO (its reverse).
	Return ReturnOrder
}

// ReturnOrder is the order in which the processors of a star send their
// results back.
type ReturnOrder int

const (
	// ReturnFIFO returns the results in the activation order of the
	// processors.
	ReturnFIFO ReturnOrder = iota
	// ReturnLIFO returns them in the reverse order.
	ReturnLIFO
)

// String returns "fifo" or "lifo".
func (r ReturnOrder) String() string {
	if r == ReturnLIFO {
		return "lifo"
	}
	return "fifo"
}

// Returns reports whether the processors send results back (β > 0).
func (p *Problem) Returns() bool { return p.ResultRatio > 0 }

// Validate checks every parameter with the per-field rules of CheckInt
// and CheckFloat and the rules that tie fields together (Procs against m,
// Relay against h, the size of a tree) and returns a *FieldError naming
// the first bad one. Every entry point — command-line flags, sweep specs,
// schedule JSON (FromSchedule) and library callers (New) — validates
// here.
func (p *Problem) Validate() error { return p.validate(false) }

// ValidateRelaxed is Validate under the rules of a replay, which runs
// schedules no LP solve made: C, A and V may also be 0 (free links, free
// computing, an empty load, as the farms and the tests build them).
func (p *Problem) ValidateRelaxed() error { return p.validate(true) }

func (p *Problem) validate(relaxed bool) error {
	check := CheckFloat
	if relaxed {
		check = checkRelaxed
	}
	switch p.Kind {
	case topology.Star:
		if err := CheckInt(FieldM, p.M); err != nil {
			return err
		}
		if len(p.Procs) > 0 {
			if len(p.Procs) != p.M {
				return &FieldError{FieldProcs, fmt.Sprint(len(p.Procs)), fmt.Sprintf("exactly m=%d processors", p.M)}
			}
			if err := checkProcs(p.Procs, relaxed); err != nil {
				return err
			}
		}
		if err := checkResults(p.ResultRatio); err != nil {
			return err
		}
	case topology.Tree, topology.Binomial:
		if err := CheckInt(FieldP, p.P); err != nil {
			return err
		}
		if err := CheckInt(FieldH, p.H); err != nil {
			return err
		}
		if n := topology.ComputingProcessors(p.Kind, 0, p.P, p.H); n > 1e15 {
			return &FieldError{FieldH, fmt.Sprint(p.H), fmt.Sprintf("a tree of at most 1e15 processors (p=%d h=%d has %.3g)", p.P, p.H, n)}
		}
		if p.Kind == topology.Tree {
			if err := CheckInt(FieldBuffers, p.Buffers); err != nil {
				return err
			}
		}
		relay := map[int]bool{}
		for _, l := range p.Relay {
			if l < 1 || l > p.H {
				return &FieldError{FieldRelay, fmt.Sprint(l), fmt.Sprintf("layers between 1 and h=%d", p.H)}
			}
			relay[l] = true
		}
		if len(relay) >= p.H {
			return &FieldError{FieldRelay, fmt.Sprint(p.Relay), "at least one computing layer"}
		}
		if p.ResultRatio != 0 {
			return &FieldError{FieldResultRatio, fmtVal(p.ResultRatio), "0 for a tree (results are returned on stars only)"}
		}
	default:
		return &FieldError{FieldTopology, fmt.Sprint(p.Kind), topologyWant}
	}
	if len(p.Procs) == 0 || p.Kind != topology.Star {
		for _, f := range []struct {
			name string
			v    float64
		}{{FieldS, p.S}, {FieldC, p.C}, {FieldA, p.A}} {
			if err := check(f.name, f.v); err != nil {
				return err
			}
		}
	}
	if err := check(FieldD, p.D); err != nil {
		return err
	}
	return check(FieldV, p.V)
}

// checkProcs checks the per-processor parameters of a heterogeneous star:
// S finite and >= 0, C and A finite and >= 0 and not both 0 (a processor
// with C = A = 0 would take any load in no time); the replay's rules
// (relaxed) accept C = A = 0 too.
func checkProcs(procs []schedule.Proc, relaxed bool) error {
	for i, q := range procs {
		for _, f := range []struct {
			name string
			v    float64
		}{{FieldS, q.S}, {FieldC, q.C}, {FieldA, q.A}} {
			if err := checkRelaxed(f.name, f.v); err != nil {
				err.(*FieldError).Field = fmt.Sprintf("%s (processor %d)", f.name, i+1)
				return err
			}
		}
		if !relaxed && q.C == 0 && q.A == 0 {
			return &FieldError{fmt.Sprintf("%s (processor %d)", FieldC, i+1), "0",
				"C > 0 or A > 0 (with C = A = 0 the processor would take any load in no time)"}
		}
	}
	return nil
}

// checkResults checks the result ratio β: finite and >= 0.
func checkResults(beta float64) error {
	if math.IsNaN(beta) || math.IsInf(beta, 0) || beta < 0 {
		return &FieldError{FieldResultRatio, fmtVal(beta), "a finite number >= 0"}
	}
	return nil
}

// Dests returns the destinations of one stage in send order: processors
// 1..m of a star, or the computing layers of a tree in activation order.
func (p *Problem) Dests() []int {
	if p.Kind == topology.Star {
		out := make([]int, p.M)
		for i := range out {
			out[i] = i + 1
		}
		return out
	}
	layers := p.Order.Layers(p.H)
	if len(p.Relay) == 0 {
		return layers
	}
	out := layers[:0]
	for _, l := range layers {
		if !slices.Contains(p.Relay, l) {
			out = append(out, l)
		}
	}
	return out
}

// DestSize returns the number of processors in destination d: 1 for a star
// processor, the layer size for a tree layer.
func (p *Problem) DestSize(d int) float64 {
	if p.Kind == topology.Star {
		return 1
	}
	return topology.LayerSize(p.Kind, p.P, d)
}

// FirstHopFactor returns how many destination processors' loads the first
// (largest) transfer of a message to d carries: 1 for a star and for layer 1,
// p^(d−1) for an ordinary tree, p(p+1)^(d−2) for a binomial tree (d ≥ 2).
// The buffer constraints (4), (11), (31)–(32) read FirstHopFactor·α ≤ D.
func (p *Problem) FirstHopFactor(d int) float64 {
	switch p.Kind {
	case topology.Tree:
		return topology.TreeHopLoad(p.P, d, 0)
	case topology.Binomial:
		return topology.BinomialStepLoad(p.P, d, 1)
	}
	return 1
}

// MaxLoad returns the largest α a message to d may carry: D/FirstHopFactor,
// or, for D = ∞, V/DestSize (more could not be placed anyway).
func (p *Problem) MaxLoad(d int) float64 {
	if math.IsInf(p.D, 1) {
		return p.V / p.DestSize(d)
	}
	return math.Min(p.D/p.FirstHopFactor(d), p.V/p.DestSize(d))
}

// StageCapacity returns the most load one stage can carry: Σ_d
// DestSize(d)·MaxLoad(d) with D finite: mD for a star, phD for an ordinary
// tree, (h(p+1)−1)D for a binomial tree (fewer with relay-only layers).
func (p *Problem) StageCapacity() float64 {
	s := 0.0
	for _, d := range p.Dests() {
		s += p.DestSize(d) * p.D / p.FirstHopFactor(d)
	}
	return s
}

// NMin returns the minimum feasible number of stages: ⌈V/(Dm)⌉ for a star
// (Section 3.1), ⌈V/(Dph)⌉ for an ordinary tree (Section 3.2),
// ⌈V/(D(h(p+1)−1))⌉ for a binomial tree (Section 3.3); 1 when D = ∞.
func (p *Problem) NMin() int {
	if math.IsInf(p.D, 1) {
		return 1
	}
	capacity := p.StageCapacity()
	q := p.V / capacity
	if q > 1e12 {
		return math.MaxInt32
	}
	n := int(math.Ceil(q))
	if n < 1 {
		n = 1
	}
	// Guard the ceiling against rounding of the quotient.
	for n > 1 && float64(n-1)*capacity >= p.V {
		n--
	}
	for float64(n)*capacity < p.V {
		n++
	}
	return n
}

// Processors returns the number of computing processors: m, or the sizes of
// the non-relay layers summed.
func (p *Problem) Processors() float64 {
	s := 0.0
	for _, d := range p.Dests() {
		s += p.DestSize(d)
	}
	return s
}

// LowerBoundLB returns the trivial lower bound of Section 4.1, S + VA/P with
// P the number of computing processors (for a heterogeneous star
// min S_i + V/Σ(1/A_i)).
func (p *Problem) LowerBoundLB() float64 {
	if p.Kind == topology.Star && len(p.Procs) > 0 {
		minS, rate := math.Inf(1), 0.0
		for _, q := range p.Procs {
			minS = math.Min(minS, q.S)
			rate += 1 / q.A
		}
		return minS + p.V/rate
	}
	return p.S + p.V*p.A/p.Processors()
}

// Params returns (S, C, A) for destination d (heterogeneous star aware).
func (p *Problem) Params(d int) (s, c, a float64) {
	if p.Kind == topology.Star && len(p.Procs) > 0 {
		q := p.Procs[d-1]
		return q.S, q.C, q.A
	}
	return p.S, p.C, p.A
}

// ScheduleProblem returns the problem as recorded in a schedule, built with
// n stages.
func (p *Problem) ScheduleProblem(n int) schedule.Problem {
	sp := schedule.Problem{
		Topology: p.Kind.String(),
		S:        p.S, C: p.C, A: p.A,
		D: schedule.Float(p.D), V: p.V,
		Stages: n,
	}
	switch p.Kind {
	case topology.Star:
		sp.M = p.M
		sp.Procs = append([]schedule.Proc(nil), p.Procs...)
	case topology.Tree:
		sp.Order, sp.P, sp.H, sp.Buffers = p.Order.String(), p.P, p.H, p.Buffers
		if p.Buffers == 2 {
			sp.BufferReuse = "alternate"
		}
	case topology.Binomial:
		sp.Order, sp.P, sp.H = p.Order.String(), p.P, p.H
	}
	if len(p.Relay) > 0 {
		r := append([]int(nil), p.Relay...)
		sort.Ints(r)
		sp.Relay = r
	}
	if p.Returns() {
		sp.ResultRatio, sp.Return = p.ResultRatio, p.Return.String()
	}
	return sp
}
