package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// msg is a (stage, destination, load) triple for building test schedules.
type msg struct {
	stage, dest int
	load        float64
}

// newSchedule builds a schedule from a problem and its messages in send
// order; V is set to Σ load × destination size unless v is given.
func newSchedule(pr schedule.Problem, msgs []msg) *schedule.Schedule {
	s := &schedule.Schedule{Status: "optimal", Problem: pr}
	kind, _ := topology.ParseKind(pr.Topology)
	v := 0.0
	for _, m := range msgs {
		c := schedule.Chunk{Stage: m.stage, Load: m.load}
		if kind == topology.Star {
			c.Processor = m.dest
		} else {
			c.Layer = m.dest
		}
		s.Chunks = append(s.Chunks, c)
		v += m.load * topology.LayerSize(kind, pr.P, m.dest)
	}
	s.Problem.V = v
	return s
}

// fillEarliest gives s the earliest-mode times of its loads (Earliest,
// then Apply).
func fillEarliest(t testing.TB, s *schedule.Schedule) Result {
	t.Helper()
	r, err := Earliest(s, Options{})
	if err != nil {
		t.Fatalf("Earliest: %v", err)
	}
	if err := r.Apply(s); err != nil {
		t.Fatal(err)
	}
	return r
}

// pattern returns the full stage pattern: n stages of the destinations in
// order (star: 1..m; trees: NLF 1..h or LLF h..1).
func pattern(pr schedule.Problem, n int) [][2]int {
	var dests []int
	if pr.Topology == "star" {
		for i := 1; i <= pr.M; i++ {
			dests = append(dests, i)
		}
	} else {
		o, _ := topology.ParseOrder(pr.Order)
		dests = o.Layers(pr.H)
	}
	var out [][2]int
	for k := 1; k <= n; k++ {
		for _, d := range dests {
			out = append(out, [2]int{k, d})
		}
	}
	return out
}

// loadLimit is the largest load per processor that fits the buffer D in a
// message to destination d (p^(d−1)·α ≤ D in a tree, p(p+1)^(d−2)·α ≤ D in
// a binomial tree for d ≥ 2).
func loadLimit(pr schedule.Problem, d int) float64 {
	D := float64(pr.D)
	switch pr.Topology {
	case "tree":
		return D / math.Pow(float64(pr.P), float64(d-1))
	case "binomial":
		if d == 1 {
			return D
		}
		return D / (float64(pr.P) * math.Pow(float64(pr.P+1), float64(d-2)))
	}
	return D
}

// variant names a family of random instances.
type variant struct {
	name     string
	topology string
	order    string
	buffers  int
	hetero   bool
}

var variants = []variant{
	{"star", "star", "", 0, false},
	{"hetero-star", "star", "", 0, true},
	{"tree-1buf-nlf", "tree", "nlf", 1, false},
	{"tree-1buf-llf", "tree", "llf", 1, false},
	{"tree-2buf-nlf", "tree", "nlf", 2, false},
	{"tree-2buf-llf", "tree", "llf", 2, false},
	{"binomial-nlf", "binomial", "nlf", 0, false},
	{"binomial-llf", "binomial", "llf", 0, false},
}

// randomInstance draws a schedule (loads only, no times) of the variant:
// random sizes, parameters, stages, pruned message subsets, loads with
// zeros and loads exactly at the buffer limit, sometimes a relay-only
// layer.
func randomInstance(rng *rand.Rand, vr variant) *schedule.Schedule {
	pr := schedule.Problem{Topology: vr.topology, Order: vr.order, Buffers: vr.buffers}
	r01 := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return 1
		}
		return rng.Float64()
	}
	pr.S, pr.C, pr.A = r01(), r01(), r01()
	switch vr.topology {
	case "star":
		pr.M = 1 + rng.IntN(6)
		if vr.hetero {
			for i := 0; i < pr.M; i++ {
				pr.Procs = append(pr.Procs, schedule.Proc{S: r01(), C: r01(), A: r01()})
			}
		}
	case "tree":
		pr.P, pr.H = 1+rng.IntN(3), 1+rng.IntN(4)
	case "binomial":
		pr.P, pr.H = 1+rng.IntN(3), 1+rng.IntN(3)
	}
	pr.D = schedule.Float(0.5 + 4*rng.Float64())
	if rng.IntN(5) == 0 {
		pr.D = schedule.Float(math.Inf(1))
	}
	if pr.Topology != "star" && pr.H > 1 && rng.IntN(4) == 0 {
		pr.Relay = []int{1 + rng.IntN(pr.H)}
	}
	n := 1 + rng.IntN(4)
	pr.Stages = n
	var msgs []msg
	for _, sd := range pattern(pr, n) {
		if len(pr.Relay) > 0 && sd[1] == pr.Relay[0] {
			continue
		}
		if rng.IntN(5) == 0 { // pruned
			continue
		}
		lim := loadLimit(pr, sd[1])
		if math.IsInf(lim, 1) {
			lim = 2
		}
		var x float64
		switch rng.IntN(7) {
		case 0:
			x = 0
		case 1:
			x = lim
		default:
			x = lim * rng.Float64()
		}
		msgs = append(msgs, msg{sd[0], sd[1], x})
	}
	return newSchedule(pr, msgs)
}

// reference computes earliest times by a max-plus recurrence over the
// message list, with the layers in lock-step: an implementation of
// docs/semantics.md independent of the simulator. It returns the hop
// starts per chunk and the makespan.
func reference(s *schedule.Schedule) ([][]float64, float64) {
	pr := s.Problem
	kind, _ := topology.ParseKind(pr.Topology)
	h, p := pr.H, pr.P
	if kind == topology.Star {
		h = pr.M // "layers" = processors, only hop 0
	}
	nbuf := 1
	if kind == topology.Tree && pr.Buffers != 1 {
		nbuf = 2
	}
	relay := map[int]bool{}
	for _, l := range pr.Relay {
		relay[l] = true
	}
	portFree := make([]float64, h+1) // ports of the nodes of a layer
	cpuFree := make([]float64, h+1)  // CPU of a node of a layer
	leave := make([][]float64, h+1)  // per layer, buffer leave times of received messages
	makespan := 0.0
	starts := make([][]float64, len(s.Chunks))
	for ci, c := range s.Chunks {
		i := c.Dest()
		var sp, cp, ap float64 = pr.S, pr.C, pr.A
		if kind == topology.Star {
			sp, cp, ap = pr.ProcParams(i)
		}
		dur := func(f float64) float64 { return sp + cp*f*c.Load }
		var arrival float64
		switch kind {
		case topology.Star:
			st := portFree[0]
			arrival = st + dur(1)
			portFree[0] = arrival
			starts[ci] = []float64{st}
		case topology.Tree:
			// Receive index of this chunk at layers 1..i: every earlier
			// message of those layers is final, so the buffer rule reads
			// leave[l+1][j−nbuf].
			js := make([]int, i+1)
			for l := 1; l <= i; l++ {
				js[l] = len(leave[l])
			}
			relayEnd := make([]float64, i+1)
			arr := 0.0
			for l := 0; l < i; l++ {
				st := math.Max(portFree[l], arr) // ports free, message received
				if j := js[l+1]; j >= nbuf {
					st = math.Max(st, leave[l+1][j-nbuf]) // receiver's buffer
				}
				end := st + dur(topology.TreeHopLoad(p, i, l))
				portFree[l] = end
				relayEnd[l] = end
				starts[ci] = append(starts[ci], st)
				arr = end
			}
			for l := 1; l < i; l++ {
				leave[l] = append(leave[l], relayEnd[l]) // relayed
			}
			leave[i] = append(leave[i], arr) // own load leaves on arrival
			arrival = arr
		case topology.Binomial:
			arr := make([]float64, i+1) // arrival at layer l
			for st := 1; st <= i; st++ {
				t := 0.0
				for l := 0; l < st; l++ {
					t = math.Max(t, portFree[l])
					if l > 0 {
						t = math.Max(t, arr[l])
					}
				}
				if j := len(leave[st]); j >= 1 {
					t = math.Max(t, leave[st][j-1])
				}
				end := t + dur(topology.BinomialStepLoad(p, i, st))
				for l := 0; l < st; l++ {
					portFree[l] = end
				}
				arr[st] = end
				starts[ci] = append(starts[ci], t)
			}
			for l := 1; l < i; l++ {
				leave[l] = append(leave[l], arr[i]) // relayed until the last step
			}
			leave[i] = append(leave[i], arr[i])
			arrival = arr[i]
		}
		makespan = math.Max(makespan, arrival)
		if kind != topology.Star && relay[i] {
			continue
		}
		st := math.Max(cpuFree[i], arrival)
		cpuFree[i] = st + ap*c.Load
		makespan = math.Max(makespan, cpuFree[i])
	}
	return starts, makespan
}

// kinds returns the set of violation kinds.
func kinds(v []schedule.Violation) map[string]bool {
	out := map[string]bool{}
	for _, x := range v {
		out[x.Kind] = true
	}
	return out
}

func clone(s *schedule.Schedule) *schedule.Schedule {
	c := *s
	c.Chunks = make([]schedule.Chunk, len(s.Chunks))
	for i, ch := range s.Chunks {
		ch.Hops = append([]schedule.Hop(nil), ch.Hops...)
		c.Chunks[i] = ch
	}
	c.Problem.Relay = append([]int(nil), s.Problem.Relay...)
	c.Problem.Procs = append([]schedule.Proc(nil), s.Problem.Procs...)
	return &c
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
