package pfarm

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/topology"
	"github.com/dlsched/dlsched/trace"
)

// Slowdown changes the speed of a processor from a time on (a node that
// slows down, or speeds up, during the run): every computation on it,
// overheads included, runs at Factor times the nominal speed.
type Slowdown struct {
	// Node is the processor number (1-based).
	Node int `json:"node"`
	// At is the time of the change (seconds), Factor the new speed (> 0).
	At     float64 `json:"at"`
	Factor float64 `json:"factor"`
}

// Result is what a simulation observed.
type Result struct {
	// Makespan is the time the last result reaches the host (the host
	// sends the first task at time 0).
	Makespan float64 `json:"makespan"`
	// TasksPerWorker[i] is the number of tasks processor i+1 executed.
	TasksPerWorker []int64 `json:"tasks_per_worker"`
	// FirstTaskOrder lists the processors in the order their workers got
	// their first task (ties by number).
	FirstTaskOrder []int `json:"first_task_order"`
	// Busy[i] is the CPU time processor i+1 spent (work and overheads).
	Busy []float64 `json:"busy"`
	// Messages and Bytes count the link transfers (tasks and results,
	// the host's links included).
	Messages int64   `json:"messages"`
	Bytes    float64 `json:"bytes"`
	// Events is the number of kernel events.
	Events int64 `json:"events"`
}

// task is a task in the farm: its number and execution time.
type task struct {
	id   int32
	time float64
}

// costs are the CPU times the processes charge (docs/pfarm.md). Every
// message a link process receives costs C_R and every message it sends
// C_S, both β_f/4 (Section 5.5: "C_R = β_f/4"), so a forwarded task costs
// β_f in four quarters (task in, task out, result in, result out). A task
// executed locally is received and its result sent like any other, and
// the manager's hand-over to the worker charges the rest of β_e, so that
// it costs α = T_e + β_e in all.
type costs struct {
	receive, send float64 // C_R and C_S
	handOver      float64 // β_e − C_R − C_S, at least 0
}

func newCosts(p *Params) costs {
	c := costs{receive: p.BetaF / 4, send: p.BetaF / 4}
	c.handOver = math.Max(p.BetaE-c.receive-c.send, 0)
	return c
}

// node holds the kernel objects of one processor (Fig. 1 of the paper).
type node struct {
	v         int // node number (processor v+1)
	cpu       *executor.CPU
	taskIn    *executor.Channel[task] // link from the parent (host for the root)
	resultOut *executor.Channel[task] // link to the parent
	mgrIn     *executor.Mailbox[task] // InLink -> task manager (one task buffer)
	workerReq *executor.Mailbox[int]  // the worker asks for a task
	workerBox *executor.Mailbox[task]
	outReq    []*executor.Mailbox[int] // OutLink j asks for a task
	outBox    []*executor.Mailbox[task]
	results   *executor.Mailbox[task] // results waiting to go up
	hasWorker bool
	workerAsk executor.Case   // the worker's request, first in the PRI ALT
	outAsk    []executor.Case // OutLink j's request
	alt       []executor.Case // the PRI ALT of the current round-robin start
	tr        *nodeTrace      // what the trace needs (nil when not tracing)
}

// farm is one simulation: the kernel, the processors and what is
// observed.
type farm struct {
	sim     *executor.Sim
	p       *Params
	cfg     *Config
	opt     platform.RunOptions
	rec     trace.Recorder // nil: nothing is recorded
	cost    costs
	nodes   []*node
	res     *Result
	firstAt []float64
}

// simulateTree runs Pfarm on the kernel (Section 2, Fig. 1): per
// processor an InLink process on the link from the parent, a task manager
// with a single task buffer, one OutLink process per child link, the
// worker, one result InLink per child link and a result OutLink toward the
// parent. Communication processes run at High priority and the worker at
// Low on the processor's CPU. The manager gives a task to the local worker
// first, otherwise to the idle OutLinks in round-robin order; OutLinks ask
// for a task only when they are empty, so tasks move on demand. Links are
// occam channels: a transfer of x bytes takes Startup + τ·x and both ends
// wait for it. CPU costs: each link process spends C_R = β_f/4 after every
// message it receives and C_S = β_f/4 before every message it sends, in
// series with its link as eq. (1) has it; the manager's hand-over to the
// worker costs β_e − β_f/2, so a local task costs α = T_e + β_e and a
// forwarded one β_f (docs/pfarm.md). The host sends M tasks and collects
// M results at no cost. The kernel stops after opt.MaxEvents events (0:
// never); opt.Progress and opt.Trace are used when set. p and the
// slowdowns of cfg must be valid (Estimate checks them).
func simulateTree(ctx context.Context, t *topology.FarmTree, p *Params, cfg *Config, opt platform.RunOptions) (*Result, error) {
	f := newFarm(t, p, cfg, opt)
	f.spawn(t)
	if err := f.sim.Run(ctx); err != nil {
		return nil, fmt.Errorf("pfarm: simulation: %w", err)
	}
	return f.result(), nil
}

// newFarm builds the kernel objects of every processor.
func newFarm(t *topology.FarmTree, p *Params, cfg *Config, opt platform.RunOptions) *farm {
	n := t.N()
	f := &farm{
		sim:     executor.NewSim(executor.SimConfig{Seed: p.Seed, MaxEvents: opt.MaxEvents}),
		p:       p,
		cfg:     cfg,
		opt:     opt,
		rec:     opt.Trace,
		cost:    newCosts(p),
		nodes:   make([]*node, n),
		res:     &Result{TasksPerWorker: make([]int64, n), Busy: make([]float64, n)},
		firstAt: make([]float64, n),
	}
	for v := range f.nodes {
		f.firstAt[v] = math.Inf(1)
		f.nodes[v] = f.newNode(v, len(t.Children[v]))
	}
	if f.rec != nil {
		f.nameNodes(t)
	}
	for _, s := range cfg.Slowdowns {
		nd, factor := f.nodes[s.Node-1], s.Factor
		f.sim.At(s.At, func() {
			nd.cpu.SetSpeed(factor)
			f.slowdown(nd, factor)
		})
	}
	return f
}

// newNode builds processor v with k child links.
func (f *farm) newNode(v, k int) *node {
	sim, p, name := f.sim, f.p, strconv.Itoa(v+1)
	taskCost := func(task) float64 { return p.Startup + p.Tau*p.Dt }
	resultCost := func(task) float64 { return p.Startup + p.Tau*p.Dr }
	if v == 0 && f.cfg.FreeHostLink {
		taskCost, resultCost = func(task) float64 { return 0 }, func(task) float64 { return 0 }
	}
	nd := &node{v: v, cpu: executor.NewCPU(sim, "cpu"+name)}
	taskLink := executor.ChannelConfig[task]{Name: "tasks→" + name, Cost: taskCost, Size: func(task) float64 { return p.Dt }}
	resultLink := executor.ChannelConfig[task]{Name: "results←" + name, Cost: resultCost, Size: func(task) float64 { return p.Dr }}
	if f.rec != nil { // the trace needs the start of every transfer
		nd.tr = &nodeTrace{}
		taskLink.OnStart = func(task) { nd.tr.taskStart = sim.Now() }
		resultLink.OnStart = func(task) { nd.tr.resultStart = sim.Now() }
	}
	nd.taskIn, nd.resultOut = executor.NewChannel(sim, taskLink), executor.NewChannel(sim, resultLink)
	nd.mgrIn = executor.NewMailbox[task](sim, "manager"+name, 0)
	nd.workerReq = executor.NewMailbox[int](sim, "worker request"+name, 0)
	nd.workerBox = executor.NewMailbox[task](sim, "worker"+name, 0)
	nd.results = executor.NewMailbox[task](sim, "results"+name, executor.Unbounded)
	nd.hasWorker = !(v == 0 && f.cfg.NoRootWorker)
	nd.alt = make([]executor.Case, 0, k+1)
	nd.workerAsk = nd.workerReq.Case(nil)
	for j := 0; j < k; j++ {
		link := name + "." + strconv.Itoa(j+1)
		nd.outReq = append(nd.outReq, executor.NewMailbox[int](sim, "outlink request"+link, 0))
		nd.outBox = append(nd.outBox, executor.NewMailbox[task](sim, "outlink"+link, 0))
		nd.outAsk = append(nd.outAsk, nd.outReq[j].Case(nil))
	}
	return nd
}

// spawn starts the processes of Fig. 1 on every processor and the host.
func (f *farm) spawn(t *topology.FarmTree) {
	for v, nd := range f.nodes {
		name := strconv.Itoa(v + 1)
		f.sim.SpawnDaemon("inlink"+name, f.inLink(nd))
		f.sim.SpawnDaemon("manager"+name, f.manager(nd))
		if nd.hasWorker {
			f.sim.SpawnDaemon("worker"+name, f.worker(nd))
		}
		for j, c := range t.Children[v] {
			link := name + "." + strconv.Itoa(j+1)
			f.sim.SpawnDaemon("outlink"+link, f.outLink(nd, j, f.nodes[c]))
			f.sim.SpawnDaemon("result inlink"+link, f.resultInLink(nd, f.nodes[c]))
		}
		f.sim.SpawnDaemon("result outlink"+name, f.resultOutLink(nd))
	}
	f.sim.SpawnDaemon("host sender", f.hostSender())
	f.sim.Spawn("host receiver", f.hostReceiver())
}

// inLink is the InLink process on the link from the parent: it receives
// a task, spends C_R, and hands the task to the manager, waiting while
// the manager's single buffer is full. The next receive starts only then,
// so successive receives are at least C_R + τ·D_t apart (eq. 1).
func (f *farm) inLink(nd *node) func(*executor.Proc) {
	return func(pr *executor.Proc) {
		for {
			tk := nd.taskIn.Recv(pr)
			f.taskArrived(nd, tk, pr.Now())
			f.high(pr, nd, f.cost.receive, "receive task", tk)
			nd.mgrIn.Send(pr, tk)
		}
	}
}

// manager is the task manager: it holds one task and offers it in a PRI
// ALT, to the worker first ("priority is given to assigning tasks to the
// worker process over the OutLink processes"), then to the idle OutLinks
// round-robin from the one after the last served ("Tasks are assigned to
// idle OutLink processes in round-robin fashion").
func (f *farm) manager(nd *node) func(*executor.Proc) {
	return func(pr *executor.Proc) {
		next := 0 // round-robin start
		for {
			tk := nd.mgrIn.Recv(pr)
			j := nd.offer(pr, next)
			if j < 0 {
				f.high(pr, nd, f.cost.handOver, "hand over", tk)
				nd.workerBox.Send(pr, tk)
				continue
			}
			next = (j + 1) % len(nd.outReq)
			nd.outBox[j].Send(pr, tk)
		}
	}
}

// offer waits in the manager's PRI ALT for a request, the worker's first,
// then the OutLinks' from next on; it returns the OutLink that asked, or
// -1 for the worker.
func (nd *node) offer(pr *executor.Proc, next int) int {
	k := len(nd.outAsk)
	cs := nd.alt[:0]
	if nd.hasWorker {
		cs = append(cs, nd.workerAsk)
	}
	for q := 0; q < k; q++ {
		cs = append(cs, nd.outAsk[(next+q)%k])
	}
	i := pr.PriAlt(cs...)
	if nd.hasWorker {
		if i == 0 {
			return -1
		}
		i--
	}
	return (next + i) % k
}

// worker asks the manager for a task, executes it at Low priority (T_e)
// and queues its result for the result OutLink.
func (f *farm) worker(nd *node) func(*executor.Proc) {
	return func(pr *executor.Proc) {
		for {
			nd.workerReq.Send(pr, 0)
			tk := nd.workerBox.Recv(pr)
			if f.res.TasksPerWorker[nd.v] == 0 {
				f.firstAt[nd.v] = pr.Now()
			}
			f.execute(pr, nd, tk)
			f.res.TasksPerWorker[nd.v]++
			nd.results.Put(tk)
		}
	}
}

// outLink is the OutLink process of child link j: when empty it asks the
// manager for a task (tasks move on demand), spends C_S and sends the
// task to the child, so successive sends are at least C_S + τ·D_t apart.
func (f *farm) outLink(nd *node, j int, child *node) func(*executor.Proc) {
	return func(pr *executor.Proc) {
		for {
			nd.outReq[j].Send(pr, 0)
			tk := nd.outBox[j].Recv(pr)
			f.high(pr, nd, f.cost.send, "send task", tk)
			child.taskIn.Send(pr, tk)
		}
	}
}

// resultInLink receives the results of a child, spends C_R on each and
// queues it for the result OutLink; results queue without bound ("it is
// not as important to restrict the number of buffers used to return the
// results").
func (f *farm) resultInLink(nd, child *node) func(*executor.Proc) {
	return func(pr *executor.Proc) {
		for {
			r := child.resultOut.Recv(pr)
			f.resultArrived(child, r, pr.Now())
			f.high(pr, nd, f.cost.receive, "receive result", r)
			nd.results.Put(r)
		}
	}
}

// resultOutLink sends the queued results, local and forwarded alike, to
// the parent, spending C_S on each before its send.
func (f *farm) resultOutLink(nd *node) func(*executor.Proc) {
	return func(pr *executor.Proc) {
		for {
			r := nd.results.Recv(pr)
			f.high(pr, nd, f.cost.send, "send result", r)
			nd.resultOut.Send(pr, r)
		}
	}
}

// hostSender sends the M tasks to the root, drawing their times in
// arrival order, at no CPU cost.
func (f *farm) hostSender() func(*executor.Proc) {
	dist := f.p.Tasks
	if dist == nil {
		dist = Const(f.p.Te)
	}
	next := dist.source(f.sim.Rand("tasks"), f.p.M)
	root := f.nodes[0]
	return func(pr *executor.Proc) {
		for i := 0; i < f.p.M; i++ {
			root.taskIn.Send(pr, task{id: int32(i), time: next()})
		}
	}
}

// hostReceiver collects the M results; the arrival of the last one is
// the makespan and ends the run.
func (f *farm) hostReceiver() func(*executor.Proc) {
	m, root := f.p.M, f.nodes[0]
	every := max(m/200, 1)
	return func(pr *executor.Proc) {
		for i := 1; i <= m; i++ {
			r := root.resultOut.Recv(pr)
			f.resultArrived(root, r, pr.Now())
			if f.opt.Progress != nil && (i%every == 0 || i == m) {
				f.opt.Progress(i, m)
			}
		}
		f.res.Makespan = pr.Now()
		f.sim.Stop()
	}
}

// result collects the statistics of a finished run.
func (f *farm) result() *Result {
	res := f.res
	for v, nd := range f.nodes {
		res.Busy[v] = nd.cpu.BusyTime()
		for _, ch := range []executor.Stats{nd.taskIn.Stats(), nd.resultOut.Stats()} {
			res.Messages += ch.Count
			res.Bytes += ch.Units
		}
	}
	res.Events = f.sim.Events()
	order := make([]int, 0, len(f.nodes))
	for v := range f.firstAt {
		if !math.IsInf(f.firstAt[v], 1) {
			order = append(order, v)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return f.firstAt[order[a]] < f.firstAt[order[b]] })
	for _, v := range order {
		res.FirstTaskOrder = append(res.FirstTaskOrder, v+1)
	}
	return res
}

func checkSlowdowns(sl []Slowdown, n int) error {
	for k, s := range sl {
		if s.Node < 1 || s.Node > n || !(s.At >= 0) || math.IsInf(s.At, 0) || !(s.Factor > 0) || math.IsInf(s.Factor, 0) {
			return platform.Bad(pkg, "Slowdowns", fmt.Sprintf("node %d at %g factor %g (slowdown %d)", s.Node, s.At, s.Factor, k+1),
				fmt.Sprintf("a processor 1..%d, a time >= 0 and a factor > 0", n))
		}
	}
	return nil
}
