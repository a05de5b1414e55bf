package nepp

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/platform"
)

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
	// steps counts the job records and queues the replica searches walked.
	steps int64
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

// simulation is one run: the kernel, the host's mailbox, and per node an
// inbox, a process and a CPU.
type simulation struct {
	cfg          *Config
	opt          platform.RunOptions
	sim          *executor.Sim
	res          *Result
	h            *hostState
	host         *executor.Mailbox[message]
	inbox        []*executor.Mailbox[[]int]
	procs        []*executor.Proc
	cpus         []*executor.CPU
	speeds       []float64
	work, useful []float64
	nodeWork     float64
	step         int     // results between two Progress calls
	tr           *tracer // nil without opt.Trace
}

func (r *simulation) msgTime(bytes float64) float64 { return r.cfg.Setup + r.cfg.PerByte*bytes }

// simulate runs the algorithm on the kernel: one host process and one
// process per node, each node computing on a CPU of speed s_i. It refuses
// a run estimated beyond opt.Limits (*platform.LimitError) before
// building it.
func simulate(ctx context.Context, cfg *Config, opt platform.RunOptions) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.checkLimits(opt); err != nil {
		return nil, err
	}
	r := newSimulation(cfg, opt)
	for i := range cfg.Speeds {
		r.spawnNode(i)
	}
	r.faults()
	r.sim.SpawnDaemon("host", r.hostProc)
	if err := r.sim.Run(ctx); err != nil {
		return nil, fmt.Errorf("nepp: simulation: %w", err)
	}
	r.tr.close(r.sim.Now())
	r.collect()
	return r.res, nil
}

// newSimulation builds the kernel, the host's state and mailbox and the
// jobs' work.
func newSimulation(cfg *Config, opt platform.RunOptions) *simulation {
	p, J := len(cfg.Speeds), cfg.Jobs
	q, qmin := cfg.queue()
	sim := executor.NewSim(executor.SimConfig{Seed: cfg.Seed, MaxEvents: opt.MaxEvents})
	r := &simulation{cfg: cfg, opt: opt, sim: sim, res: &Result{JobsPerNode: make([]int, p)}, h: newHostState(cfg.Algorithm, p, q, qmin, J),
		host: executor.NewMailbox[message](sim, "host", executor.Unbounded), speeds: cfg.speeds(), step: max(1, J/1000),
		tr: newTracer(opt.Trace, cfg)}
	r.work, r.useful = drawWork(sim, cfg)
	r.inbox = make([]*executor.Mailbox[[]int], p)
	r.procs = make([]*executor.Proc, p)
	r.cpus = make([]*executor.CPU, p)
	return r
}

// spawnNode starts node i's process with its inbox and CPU, which it
// owns: a crash breaks them.
func (r *simulation) spawnNode(i int) {
	name := strconv.Itoa(i + 1)
	r.inbox[i] = executor.NewMailbox[[]int](r.sim, "node"+name, executor.Unbounded)
	r.cpus[i] = executor.NewCPU(r.sim, "cpu"+name)
	r.cpus[i].SetSpeed(r.speeds[i])
	r.procs[i] = r.sim.SpawnDaemon("node"+name, func(pr *executor.Proc) { r.nodeProc(pr, i) })
	r.procs[i].Own(r.inbox[i], r.cpus[i])
}

// nodeProc is the node portion of Multiple Distribution (Simple's with
// q = 1, and Fault-Tolerant's): READY, then work through the queue in
// order, checking for a host message between jobs; an empty message is
// DIE.
func (r *simulation) nodeProc(pr *executor.Proc, i int) {
	var queue executor.FIFO[int]
	r.tell(pr, i, ready, -1)
	for {
		for r.inbox[i].Len() == 0 && queue.Len() > 0 {
			j := queue.Pop()
			r.compute(pr, i, j)
			r.tell(pr, i, done, j)
		}
		jobs := r.inbox[i].Recv(pr)
		if jobs == nil { // DIE
			return
		}
		for _, j := range jobs {
			queue.Push(j)
		}
	}
}

// compute runs job j on node i's CPU.
func (r *simulation) compute(pr *executor.Proc, i, j int) {
	r.tr.compute(i, j, r.work[j], pr.Now())
	r.cpus[i].Compute(pr, r.work[j], executor.Low)
	r.tr.end(i, pr.Now())
	r.nodeWork += r.work[j]
}

// tell sends the host a READY, or the DONE of job j with its result: the
// node is busy for the message's time, then the host has it.
func (r *simulation) tell(pr *executor.Proc, i int, kind msgKind, j int) {
	bytes := 0.0
	if kind == done {
		bytes = r.cfg.ResultBytes
	}
	r.tr.tell(i, kind, j, bytes, pr.Now())
	r.send(pr, bytes)
	r.tr.end(i, pr.Now())
	r.host.Put(message{node: i, kind: kind, job: j})
}

// send keeps pr busy for one message of the given size and counts it.
func (r *simulation) send(pr *executor.Proc, bytes float64) {
	pr.Wait(r.msgTime(bytes))
	r.res.Messages++
	r.res.Bytes += bytes
}

// faults schedules the crashes and the speed changes. A speed change is
// relative to the nominal speed s_i, so a later one replaces an earlier.
func (r *simulation) faults() {
	for _, x := range r.cfg.Crashes {
		i := x.Node - 1
		r.sim.At(x.At, func() {
			if r.sim.Kill(r.procs[i]) {
				r.tr.crash(i, r.sim.Now())
			}
		})
	}
	for _, x := range r.cfg.Slows {
		i, f := x.Node-1, x.Factor
		r.sim.At(x.At, func() {
			r.cpus[i].SetSpeed(r.speeds[i] * f)
			r.tr.slow(i, f, r.speeds[i]*f, r.sim.Now())
		})
	}
}

// hostProc is the host portion of the three algorithms: receive a READY
// or DONE, record or discard the result, and refill the sender's queue
// below q_min. When every result is in it broadcasts DIE.
func (r *simulation) hostProc(pr *executor.Proc) {
	h, J := r.h, r.cfg.Jobs
	for h.results < J {
		m := r.host.Recv(pr)
		if m.kind == done {
			r.result(pr, m)
			if h.results == J {
				break
			}
		}
		r.refill(pr, m.node)
	}
	for i := range r.inbox { // DIE
		r.inbox[i].Put(nil)
	}
	r.sim.Stop()
}

// refill sends node new jobs while the input lasts, then (FT) replicas,
// when its queue holds fewer than q_min; nothing when nothing qualifies
// (the partly-empty-queue rule).
func (r *simulation) refill(pr *executor.Proc, node int) {
	h := r.h
	if len(h.mirror[node]) >= h.qmin {
		return
	}
	var jobs []int
	replicas := false
	switch {
	case h.next < r.cfg.Jobs:
		jobs = h.fresh(node)
	case r.cfg.Algorithm == FaultTolerant:
		jobs, replicas = h.replicas(node), true
	}
	if len(jobs) == 0 {
		return
	}
	h.assign(node, jobs)
	start, bytes := pr.Now(), r.cfg.JobBytes*float64(len(jobs))
	r.send(pr, bytes)
	r.tr.assign(node, jobs, replicas, bytes, start, pr.Now())
	r.inbox[node].Put(jobs)
}

// result takes a DONE message: w_h of host work, then the result is
// recorded (the first copy) or discarded (a redundant one).
func (r *simulation) result(pr *executor.Proc, m message) {
	r.res.ResultMessages++
	r.res.JobsPerNode[m.node]++
	start := pr.Now()
	pr.Wait(r.cfg.HostOverhead)
	first := r.h.receive(m.node, m.job)
	r.tr.result(m.node, m.job, !first, start, pr.Now())
	if !first {
		r.res.RedundantDiscarded++
		return
	}
	r.res.Makespan = pr.Now()
	if n := r.h.results; r.opt.Progress != nil && (n%r.step == 0 || n == r.cfg.Jobs) {
		r.opt.Progress(n, r.cfg.Jobs)
	}
}

// collect fills in the result after the run.
func (r *simulation) collect() {
	res, h, p := r.res, r.h, len(r.cfg.Speeds)
	res.Events = r.sim.Events()
	res.steps = h.steps
	res.Busy = make([]float64, p)
	for i, c := range r.cpus {
		res.Busy[i] = c.BusyTime()
	}
	res.Results = h.results
	res.Completed = h.results == r.cfg.Jobs
	res.MissingJobs = []int{}
	for j, ok := range h.have {
		if !ok {
			res.MissingJobs = append(res.MissingJobs, j+1)
		}
	}
	if !res.Completed {
		res.Failure = failure(r.cfg, h)
	}
	res.Work = r.nodeWork + r.cfg.HostOverhead*float64(res.ResultMessages)
	req := 0.0 // useful work of the jobs whose result arrived
	for j, f := range r.useful {
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
		for _, j := range h.mirror[x.Node-1] {
			if !h.have[j] {
				held = append(held, strconv.Itoa(j+1))
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
