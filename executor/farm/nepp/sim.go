package nepp

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/executor"
)

// Defaults of the report: PVM sets up a message in 3.9 ms and sends 0.5 µs
// per byte (Section 3.1.3); a compressed job is "about 4 double precision
// numbers and 4 integers" (Section 3.1.2), 48 bytes.
const (
	DefaultSetup       = 3.9e-3
	DefaultPerByte     = 0.5e-6
	DefaultJobBytes    = 48
	DefaultResultBytes = 48
	// MaxJobs and MaxNodes bound a run before anything is allocated.
	MaxJobs  = 10_000_000
	MaxNodes = 100_000
)

// Crash ends node Node (1-based) at time At: its running job, its queue
// and any message it is sending are lost, messages to it vanish, and the
// host is not told.
type Crash struct {
	Node int
	At   float64
}

// Slow multiplies node Node's nominal speed by Factor from time At on
// (the running job is re-timed).
type Slow struct {
	Node   int
	At     float64
	Factor float64
}

// Config is one NEPP run.
type Config struct {
	Algorithm Algorithm
	// Speeds are the hardware speeds c_i of nodes 1..p, Shares the CPU
	// shares α_i (nil: all 1); s_i = α_i·c_i (4.1).
	Speeds, Shares []float64
	// Queue is q, QMin the refill threshold q_min (0: 1, "when the node's
	// queue is empty"); Simple Distribution uses q = q_min = 1.
	Queue, QMin int
	// Jobs is J; Work the mean total work w = f + a of a job (4.4) in
	// units a node of speed 1 does in one second; Useful the mean useful
	// work f (0: Work); HostOverhead w_h per result received.
	Jobs                       int
	Work, Useful, HostOverhead float64
	// WorkDist is "const", "exp" (exponential, mean Work) or "uniform"
	// (uniform on [0, 2·Work]).
	WorkDist string
	// Messages cost Setup + PerByte·bytes, the sender busy meanwhile; a
	// job is JobBytes in an assignment message, a result ResultBytes.
	Setup, PerByte        float64
	JobBytes, ResultBytes float64
	Crashes               []Crash
	Slows                 []Slow
	Seed                  uint64
}

func (c *Config) queue() (q, qmin int) {
	if c.Algorithm == Simple {
		return 1, 1
	}
	qmin = c.QMin
	if qmin == 0 {
		qmin = 1
	}
	return c.Queue, qmin
}

func (c *Config) useful() float64 {
	if c.Useful == 0 {
		return c.Work
	}
	return c.Useful
}

// speeds returns s_i = α_i c_i.
func (c *Config) speeds() []float64 {
	s := make([]float64, len(c.Speeds))
	for i := range s {
		s[i] = c.Speeds[i]
		if c.Shares != nil {
			s[i] *= c.Shares[i]
		}
	}
	return s
}

// Validate checks the configuration; errors name the field.
func (c *Config) Validate() error {
	p := len(c.Speeds)
	switch {
	case p < 1 || p > MaxNodes:
		return fmt.Errorf("nepp: speeds: %d nodes, want 1..%d", p, MaxNodes)
	case c.Shares != nil && len(c.Shares) != p:
		return fmt.Errorf("nepp: shares: %d values for %d nodes", len(c.Shares), p)
	case c.Jobs < 1 || c.Jobs > MaxJobs:
		return fmt.Errorf("nepp: jobs = %d, want 1..%d", c.Jobs, MaxJobs)
	case c.Algorithm != Simple && (c.Queue < 1 || c.Queue > MaxJobs):
		return fmt.Errorf("nepp: queue = %d, want >= 1", c.Queue)
	case c.Algorithm != Simple && (c.QMin < 0 || c.QMin > c.Queue):
		return fmt.Errorf("nepp: qmin = %d, want 1..queue (%d)", c.QMin, c.Queue)
	case !(c.Work > 0) || math.IsInf(c.Work, 0):
		return fmt.Errorf("nepp: work = %g, want > 0", c.Work)
	case !(c.Useful >= 0) || c.Useful > c.Work:
		return fmt.Errorf("nepp: useful = %g, want 0 <= useful <= work (%g)", c.Useful, c.Work)
	case !(c.HostOverhead >= 0) || math.IsInf(c.HostOverhead, 0):
		return fmt.Errorf("nepp: host overhead = %g, want >= 0", c.HostOverhead)
	case !(c.Setup >= 0) || !(c.PerByte >= 0) || !(c.JobBytes >= 0) || !(c.ResultBytes >= 0) ||
		math.IsInf(c.Setup+c.PerByte+c.JobBytes+c.ResultBytes, 0):
		return fmt.Errorf("nepp: message costs setup %g, per byte %g, sizes %g and %g: want finite values >= 0", c.Setup, c.PerByte, c.JobBytes, c.ResultBytes)
	}
	switch c.WorkDist {
	case "", "const", "exp", "uniform":
	default:
		return fmt.Errorf("nepp: work distribution %q, want const, exp or uniform", c.WorkDist)
	}
	for i := range c.Speeds {
		if !(c.Speeds[i] > 0) || math.IsInf(c.Speeds[i], 0) {
			return fmt.Errorf("nepp: speeds[%d] = %g, want > 0", i, c.Speeds[i])
		}
		if c.Shares != nil && (!(c.Shares[i] > 0) || c.Shares[i] > 1) {
			return fmt.Errorf("nepp: shares[%d] = %g, want a CPU share in (0, 1]", i, c.Shares[i])
		}
	}
	for k, x := range c.Crashes {
		if x.Node < 1 || x.Node > p || !(x.At >= 0) || math.IsInf(x.At, 0) {
			return fmt.Errorf("nepp: crash %d: node %d at %g, want node 1..%d at a time >= 0", k+1, x.Node, x.At, p)
		}
	}
	for k, x := range c.Slows {
		if x.Node < 1 || x.Node > p || !(x.At >= 0) || math.IsInf(x.At, 0) || !(x.Factor > 0) || math.IsInf(x.Factor, 0) {
			return fmt.Errorf("nepp: slow %d: node %d at %g factor %g, want node 1..%d, time >= 0, factor > 0", k+1, x.Node, x.At, x.Factor, p)
		}
	}
	return nil
}

// Result is what the simulation observed.
type Result struct {
	// Makespan is the time the host has a result for every job (or, when
	// the run does not complete, the time the last result arrived).
	Makespan float64 `json:"makespan"`
	// Completed reports whether every job's result reached the host.
	Completed bool `json:"completed"`
	// Results is the number of distinct jobs whose result reached the
	// host; MissingJobs lists the others (1-based).
	Results     int   `json:"results"`
	MissingJobs []int `json:"missing_jobs"`
	// JobsPerNode[i] counts the results node i+1 delivered to the host.
	JobsPerNode []int `json:"jobs_per_node"`
	// RedundantDiscarded counts results the host discarded because an
	// earlier copy had arrived; ResultMessages = Results +
	// RedundantDiscarded.
	RedundantDiscarded int `json:"redundant_discarded"`
	ResultMessages     int `json:"result_messages"`
	// Messages counts every message sent (assignments, READY, DONE);
	// Bytes their sizes.
	Messages int     `json:"messages"`
	Bytes    float64 `json:"bytes"`
	// Busy[i] is the time node i+1 spent computing.
	Busy []float64 `json:"busy"`
	// Work is the work the nodes completed plus the host's w_h per result
	// (work units); Speedup, Efficiency and CorrectedEfficiency follow the
	// report's definitions with T_seq = Σ f_j on one node of speed 1.
	Work                float64 `json:"work"`
	Speedup             float64 `json:"speedup"`
	Efficiency          float64 `json:"efficiency"`
	CorrectedEfficiency float64 `json:"corrected_efficiency"`
	// Failure says why the run did not complete ("node k crashed at t
	// holding jobs …"); empty when it completed.
	Failure string `json:"failure"`
	// Events is the number of kernel events.
	Events int64 `json:"events"`
}

type msgKind int

const (
	ready msgKind = iota
	done
)

type message struct {
	node int
	kind msgKind
	job  int
}

// entry is a job in the host's mirror of a node queue.
type entry struct{ job int }

// Simulate runs the algorithm on the kernel: one host process and one
// process per node, each node computing on a CPU of speed s_i.
func Simulate(ctx context.Context, cfg *Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p, J := len(cfg.Speeds), cfg.Jobs
	q, qmin := cfg.queue()
	speeds := cfg.speeds()
	sim := executor.NewSim(executor.SimConfig{Seed: cfg.Seed})
	work, useful := drawWork(sim, cfg)
	msgTime := func(bytes float64) float64 { return cfg.Setup + cfg.PerByte*bytes }

	res := &Result{JobsPerNode: make([]int, p)}
	host := executor.NewMailbox[message](sim, "host", executor.Unbounded)
	inbox := make([]*executor.Mailbox[[]int], p)
	procs := make([]*executor.Proc, p)
	cpus := make([]*executor.CPU, p)
	nodeWork := 0.0
	for i := 0; i < p; i++ {
		name := strconv.Itoa(i + 1)
		inbox[i] = executor.NewMailbox[[]int](sim, "node"+name, executor.Unbounded)
		cpus[i] = executor.NewCPU(sim, "cpu"+name)
		cpus[i].SetSpeed(speeds[i])
		procs[i] = sim.SpawnDaemon("node"+name, func(pr *executor.Proc) {
			var queue executor.FIFO[int]
			pr.Wait(msgTime(0))
			res.Messages++
			host.Put(message{node: i, kind: ready})
			for {
				for inbox[i].Len() == 0 && queue.Len() > 0 {
					j := queue.Pop()
					cpus[i].Compute(pr, work[j], executor.Low)
					nodeWork += work[j]
					pr.Wait(msgTime(cfg.ResultBytes))
					res.Messages++
					res.Bytes += cfg.ResultBytes
					host.Put(message{node: i, kind: done, job: j})
				}
				jobs := inbox[i].Recv(pr)
				if jobs == nil { // DIE
					return
				}
				for _, j := range jobs {
					queue.Push(j)
				}
			}
		})
		procs[i].Own(inbox[i], cpus[i])
	}
	for _, x := range cfg.Crashes {
		pr := procs[x.Node-1]
		sim.At(x.At, func() { sim.Kill(pr) })
	}
	for _, x := range cfg.Slows {
		cpu, s := cpus[x.Node-1], speeds[x.Node-1]*x.Factor
		sim.At(x.At, func() { cpu.SetSpeed(s) })
	}

	h := &hostState{p: p, q: q, qmin: qmin, mirror: make([][]entry, p), have: make([]bool, J), copies: make([]int, J)}
	sim.SpawnDaemon("host", func(pr *executor.Proc) {
		for h.results < J {
			m := host.Recv(pr)
			if m.kind == done {
				h.mirror[m.node] = h.mirror[m.node][1:] // FIFO: the head is m.job
				h.copies[m.job]--
				res.ResultMessages++
				res.JobsPerNode[m.node]++
				pr.Wait(cfg.HostOverhead)
				if h.have[m.job] {
					res.RedundantDiscarded++
				} else {
					h.have[m.job] = true
					h.results++
					res.Makespan = pr.Now()
				}
				if h.results == J {
					break
				}
			}
			if len(h.mirror[m.node]) >= qmin {
				continue
			}
			var jobs []int
			switch {
			case h.next < J:
				for len(h.mirror[m.node])+len(jobs) < q && h.next < J {
					jobs = append(jobs, h.next)
					h.next++
				}
			case cfg.Algorithm == FaultTolerant:
				jobs = h.replicas(m.node)
			}
			if len(jobs) == 0 {
				continue // the partly-empty-queue rule: nothing to send
			}
			for _, j := range jobs {
				h.mirror[m.node] = append(h.mirror[m.node], entry{j})
				h.copies[j]++
			}
			pr.Wait(msgTime(cfg.JobBytes * float64(len(jobs))))
			res.Messages++
			res.Bytes += cfg.JobBytes * float64(len(jobs))
			inbox[m.node].Put(jobs)
		}
		for i := range inbox { // DIE
			inbox[i].Put(nil)
		}
		sim.Stop()
	})
	if err := sim.Run(ctx); err != nil {
		return nil, fmt.Errorf("nepp: simulation: %w", err)
	}
	res.Events = sim.Events()
	res.Busy = make([]float64, p)
	for i, c := range cpus {
		res.Busy[i] = c.BusyTime()
	}
	res.Results = h.results
	res.Completed = h.results == J
	res.MissingJobs = []int{}
	for j, ok := range h.have {
		if !ok {
			res.MissingJobs = append(res.MissingJobs, j+1)
		}
	}
	if !res.Completed {
		res.Failure = failure(cfg, h)
	}
	res.Work = nodeWork + cfg.HostOverhead*float64(res.ResultMessages)
	req := 0.0 // useful work of the jobs whose result arrived
	for j, f := range useful {
		if h.have[j] {
			req += f
		}
	}
	if res.Completed {
		res.Speedup = req / res.Makespan
		res.Efficiency = res.Speedup / float64(p)
	}
	if res.Work > 0 {
		res.CorrectedEfficiency = req / res.Work
	}
	return res, nil
}

// failure names the crashed nodes and the jobs the host never got back
// from them.
func failure(cfg *Config, h *hostState) string {
	var parts []string
	crashes := append([]Crash(nil), cfg.Crashes...)
	sort.SliceStable(crashes, func(a, b int) bool { return crashes[a].At < crashes[b].At })
	seen := map[int]bool{}
	for _, x := range crashes {
		if seen[x.Node] {
			continue
		}
		seen[x.Node] = true
		var held []string
		for _, e := range h.mirror[x.Node-1] {
			if !h.have[e.job] {
				held = append(held, strconv.Itoa(e.job+1))
			}
		}
		if len(held) == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("node %d crashed at %g holding jobs %s", x.Node, x.At, strings.Join(held, ", ")))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("the host got %d of %d results", h.results, cfg.Jobs)
	}
	return strings.Join(parts, "; ")
}

// hostState is the host's view: a mirror of every node queue (jobs sent,
// results not yet received, in order), which results it has, and how many
// copies of each job are in the queues.
type hostState struct {
	p, q, qmin int
	mirror     [][]entry
	have       []bool
	copies     []int
	next       int
	results    int
}

// holds reports whether node already has a copy of job (rule 1).
func (h *hostState) holds(node, job int) bool {
	for _, e := range h.mirror[node] {
		if e.job == job {
			return true
		}
	}
	return false
}

// replicas picks the jobs to replicate for node (Section 3.1.4): up to
// filling its queue to q, never a job node already holds (rule 1), from
// the tail of a queue before its head (rule 2), fewest copies first (rule
// 3: the search threshold starts at 1 copy and rises to the minimum found,
// as NextJobToReplicate does), the queues searched round-robin starting at
// the node after the requester; the chosen jobs go out in input order
// (rule 4). When nothing qualifies the queue stays partly empty.
func (h *hostState) replicas(node int) []int {
	var out []int
	chosen := map[int]bool{}
	for len(h.mirror[node])+len(out) < h.q {
		threshold := 1
		j, minCopies := h.search(node, threshold, chosen)
		if j < 0 && minCopies > threshold && minCopies < math.MaxInt {
			j, _ = h.search(node, minCopies, chosen)
		}
		if j < 0 {
			break
		}
		chosen[j] = true
		out = append(out, j)
		h.copies[j]++ // counted while choosing; undone below
	}
	for _, j := range out {
		h.copies[j]--
	}
	sort.Ints(out)
	return out
}

// search is SearchForCandidate: the first eligible job with at most
// threshold copies, and the fewest copies of any eligible job.
func (h *hostState) search(node, threshold int, chosen map[int]bool) (int, int) {
	minCopies := math.MaxInt
	for k := 1; k < h.p; k++ {
		other := (node + k) % h.p
		queue := h.mirror[other]
		for i := len(queue) - 1; i >= 0; i-- {
			j := queue[i].job
			if h.have[j] || chosen[j] || h.holds(node, j) {
				continue
			}
			minCopies = min(minCopies, h.copies[j])
			if h.copies[j] <= threshold {
				return j, minCopies
			}
		}
	}
	return -1, minCopies
}

// drawWork returns the total and useful work of every job (useful work in
// the same proportion f/w for every job).
func drawWork(sim *executor.Sim, cfg *Config) (work, useful []float64) {
	rng := sim.Rand("work")
	work = make([]float64, cfg.Jobs)
	useful = make([]float64, cfg.Jobs)
	ratio := cfg.useful() / cfg.Work
	for j := range work {
		switch cfg.WorkDist {
		case "exp":
			work[j] = rng.ExpFloat64() * cfg.Work
		case "uniform":
			work[j] = 2 * cfg.Work * rng.Float64()
		default:
			work[j] = cfg.Work
		}
		useful[j] = ratio * work[j]
	}
	return work, useful
}
