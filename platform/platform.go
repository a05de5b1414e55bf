package platform

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/schedule"
)

// Kind is the shape of the network between the master and the workers.
type Kind string

// The topologies. In a Star the master has a link to every worker; in a
// Chain worker i+1 hangs below worker i and worker 1 below the master; in
// a KAry tree the master is the root, every node has K children and there
// are Depth levels of workers (K + K² + … + K^Depth workers, heap order).
const (
	Star  Kind = "star"
	Chain Kind = "chain"
	KAry  Kind = "kary"
)

// Topology says how the master reaches its workers.
type Topology struct {
	Kind Kind `json:"topology"`
	// M is the number of workers of a star or a chain.
	M int `json:"m,omitempty"`
	// K and Depth shape a k-ary tree.
	K     int `json:"k,omitempty"`
	Depth int `json:"depth,omitempty"`
}

// MaxWorkers bounds the workers of a platform.
const MaxWorkers = 10000

// Workers returns the number of workers (-1 when a k-ary tree exceeds
// MaxWorkers).
func (t Topology) Workers() int {
	if t.Kind != KAry {
		return t.M
	}
	n, level := 0, 1
	for d := 0; d < t.Depth; d++ {
		if level > MaxWorkers/max(t.K, 1) {
			return -1
		}
		level *= t.K
		n += level
		if n > MaxWorkers {
			return -1
		}
	}
	return n
}

// Parent returns the parent of worker i (1-based; 0 is the master).
func (t Topology) Parent(i int) int {
	switch t.Kind {
	case Chain:
		return i - 1
	case KAry:
		return (i - 1) / t.K
	}
	return 0
}

// Slow slows worker Worker (1-based) to Factor times its nominal speed
// from time At on.
type Slow struct {
	Worker int     `json:"worker"`
	At     float64 `json:"at"`
	Factor float64 `json:"factor"`
}

// Crash ends worker Worker (1-based) at time At: what it holds is lost.
type Crash struct {
	Worker int     `json:"worker"`
	At     float64 `json:"at"`
}

// Platform is one machine: a master holding V units of load, its workers
// on Topology, links costing S + C·x per message of x units, computing A
// per unit (PerWorkerA, when given, per worker of a star), buffers of D
// units (Inf: unlimited), results of ResultPerUnit units per unit of load,
// and the perturbations of the real machine that a planner does not know.
type Platform struct {
	Topology
	S float64 `json:"S"`
	C float64 `json:"C"`
	A float64 `json:"A"`
	// PerWorkerA gives per-worker A on a star, overriding A.
	PerWorkerA []float64      `json:"procs,omitempty"`
	D          schedule.Float `json:"D"`
	V          float64        `json:"V"`
	// ResultPerUnit is the result size per unit of load (default 0).
	ResultPerUnit float64 `json:"result_per_unit"`
	Slows         []Slow  `json:"slows,omitempty"`
	Crashes       []Crash `json:"crashes,omitempty"`
}

// WorkerA returns the computing cost per unit of worker i (1-based).
func (p *Platform) WorkerA(i int) float64 {
	if len(p.PerWorkerA) > 0 {
		return p.PerWorkerA[i-1]
	}
	return p.A
}

// Perturbed reports whether the real platform differs from the nominal.
func (p *Platform) Perturbed() bool { return len(p.Slows) > 0 || len(p.Crashes) > 0 }

// Crashed reports whether worker i crashes (at the time returned).
func (p *Platform) Crashed(i int) (float64, bool) {
	for _, c := range p.Crashes {
		if c.Worker == i {
			return c.At, true
		}
	}
	return 0, false
}

const pkg = "platform"

// Validate checks the platform; errors are *FieldError naming the field
// ("Platform.M", "Platform.Slows").
func (p *Platform) Validate() error {
	if err := p.checkTopology(); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    float64
		pos  bool
	}{{"S", p.S, false}, {"C", p.C, false}, {"ResultPerUnit", p.ResultPerUnit, false}, {"A", p.A, true}, {"V", p.V, true}} {
		if !finite(f.v) || f.v < 0 || f.pos && f.v == 0 {
			want := "a finite number >= 0"
			if f.pos {
				want = "a finite number > 0"
			}
			return Bad(pkg, "Platform."+f.name, f.v, want)
		}
	}
	if d := float64(p.D); !(d > 0) {
		return Bad(pkg, "Platform.D", d, "a number > 0 or inf")
	}
	if err := p.checkPerWorker(); err != nil {
		return err
	}
	return p.checkPerturbations()
}

func (p *Platform) checkTopology() error {
	switch p.Kind {
	case Star, Chain:
		if p.M < 1 || p.M > MaxWorkers {
			return Bad(pkg, "Platform.M", p.M, fmt.Sprintf("1..%d workers", MaxWorkers))
		}
	case KAry:
		if p.K < 1 {
			return Bad(pkg, "Platform.K", p.K, "at least 1 child per node")
		}
		if p.Depth < 1 || p.Workers() < 0 {
			return Bad(pkg, "Platform.Depth", p.Depth, fmt.Sprintf("at least 1 level, at most %d workers in all", MaxWorkers))
		}
	default:
		return Bad(pkg, "Platform.Topology", string(p.Kind), "star, chain or kary")
	}
	return nil
}

func (p *Platform) checkPerWorker() error {
	if len(p.PerWorkerA) == 0 {
		return nil
	}
	if p.Kind != Star || len(p.PerWorkerA) != p.M {
		return Bad(pkg, "Platform.PerWorkerA", fmt.Sprintf("%d values", len(p.PerWorkerA)), "one A per worker of a star ({Platform.M})")
	}
	for i, a := range p.PerWorkerA {
		if !finite(a) || a <= 0 {
			return Bad(pkg, "Platform.PerWorkerA", fmt.Sprintf("%g (worker %d)", a, i+1), "A > 0")
		}
	}
	return nil
}

func (p *Platform) checkPerturbations() error {
	w := p.Workers()
	for i, s := range p.Slows {
		if s.Worker < 1 || s.Worker > w || !finite(s.At) || s.At < 0 || !finite(s.Factor) || s.Factor <= 0 {
			return Bad(pkg, "Platform.Slows", fmt.Sprintf("worker %d at %g factor %g (slowdown %d)", s.Worker, s.At, s.Factor, i+1),
				fmt.Sprintf("a worker 1..%d, a time >= 0 and a factor > 0", w))
		}
	}
	for i, c := range p.Crashes {
		if c.Worker < 1 || c.Worker > w || !finite(c.At) || c.At < 0 {
			return Bad(pkg, "Platform.Crashes", fmt.Sprintf("worker %d at %g (crash %d)", c.Worker, c.At, i+1),
				fmt.Sprintf("a worker 1..%d and a time >= 0", w))
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
