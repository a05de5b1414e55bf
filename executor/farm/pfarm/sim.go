package pfarm

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/topology"
)

// Slowdown changes the speed of a processor from a time on (a node that
// slows down, or speeds up, during the run): every computation on it,
// overheads included, runs at Factor times the nominal speed.
type Slowdown struct {
	// Node is the processor number (1-based).
	Node int
	// At is the time of the change, Factor the new speed (> 0).
	At, Factor float64
}

// SimOptions tune a simulation.
type SimOptions struct {
	// Slowdowns perturb the processors during the run.
	Slowdowns []Slowdown
	// Progress, if set, is called with the number of results received,
	// about 200 times per run.
	Progress func(done, total int)
	// MaxEvents bounds the kernel events (0: none).
	MaxEvents int64
	// NoRootWorker makes the root a pure distributor (no local worker)
	// and FreeHostLink makes the host's link cost nothing: together they
	// put the load's owner at the root of the tree, as a divisible-load
	// platform has it (dlsched compare).
	NoRootWorker, FreeHostLink bool
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

// task is a task in the farm; local marks a result computed where it is.
type task struct {
	id    int32
	time  float64
	local bool
}

// node holds the kernel objects of one processor (Fig. 1 of the paper).
type node struct {
	cpu       *executor.CPU
	taskIn    *executor.Channel[task] // link from the parent (host for the root)
	resultOut *executor.Channel[task] // link to the parent
	mgrIn     *executor.Mailbox[task] // InLink -> task manager (one task buffer)
	workerReq *executor.Mailbox[int]  // the worker asks for a task
	workerBox *executor.Mailbox[task]
	outReq    []*executor.Mailbox[int] // OutLink j asks for a task
	outBox    []*executor.Mailbox[task]
	results   *executor.Mailbox[task] // results waiting to go up
	cases     [][]executor.Case       // the manager's PRI ALT, one rotation per round-robin start
	chosen    int                     // which case fired
}

// Simulate runs Pfarm on the kernel (Section 2, Fig. 1): per processor an
// InLink process on the link from the parent, a task manager with a
// single task buffer, one OutLink process per child link, the worker, one
// result InLink per child link and a result OutLink toward the parent.
// Communication processes run at High priority and the worker at Low on
// the processor's CPU. The manager gives a task to the local worker first,
// otherwise to the idle OutLinks in round-robin order; OutLinks ask for a
// task only when they are empty, so tasks move on demand. Links are occam
// channels: a transfer of x bytes takes Startup + τ·x and both ends wait
// for it. CPU costs: a task executed locally costs α = T_e + β_e — β_e/2
// when the manager hands it to the worker, T_e in the worker, β_e/2 when
// its result leaves; a forwarded task costs β_f in four quarters: task in
// (manager), task out (OutLink), result in, result out (docs/pfarm.md).
// The host sends M tasks and collects M results at no cost.
func Simulate(ctx context.Context, t *topology.FarmTree, p *Params, opt SimOptions) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	n := t.N()
	if err := checkSlowdowns(opt.Slowdowns, n); err != nil {
		return nil, err
	}
	sim := executor.NewSim(executor.SimConfig{Seed: p.Seed, MaxEvents: opt.MaxEvents})
	res := &Result{TasksPerWorker: make([]int64, n), Busy: make([]float64, n)}
	firstAt := make([]float64, n)
	for i := range firstAt {
		firstAt[i] = math.Inf(1)
	}
	taskCost := func(task) float64 { return p.Startup + p.Tau*p.Dt }
	resultCost := func(task) float64 { return p.Startup + p.Tau*p.Dr }
	nodes := make([]*node, n)
	for v := range nodes {
		name := strconv.Itoa(v + 1)
		tc, rc := taskCost, resultCost
		if v == 0 && opt.FreeHostLink {
			tc, rc = func(task) float64 { return 0 }, func(task) float64 { return 0 }
		}
		nd := &node{
			cpu: executor.NewCPU(sim, "cpu"+name),
			taskIn: executor.NewChannel(sim, executor.ChannelConfig[task]{Name: "tasks→" + name, Cost: tc,
				Size: func(task) float64 { return p.Dt }}),
			resultOut: executor.NewChannel(sim, executor.ChannelConfig[task]{Name: "results←" + name, Cost: rc,
				Size: func(task) float64 { return p.Dr }}),
			mgrIn:     executor.NewMailbox[task](sim, "manager"+name, 0),
			workerReq: executor.NewMailbox[int](sim, "worker request"+name, 0),
			workerBox: executor.NewMailbox[task](sim, "worker"+name, 0),
			results:   executor.NewMailbox[task](sim, "results"+name, executor.Unbounded),
		}
		k := len(t.Children[v])
		for j := 0; j < k; j++ {
			nd.outReq = append(nd.outReq, executor.NewMailbox[int](sim, "outlink request"+name+"."+strconv.Itoa(j+1), 0))
			nd.outBox = append(nd.outBox, executor.NewMailbox[task](sim, "outlink"+name+"."+strconv.Itoa(j+1), 0))
		}
		// cases[r]: the worker first, then the OutLinks from r round-robin.
		nd.cases = make([][]executor.Case, max(k, 1))
		for r := range nd.cases {
			cs := []executor.Case{nd.workerReq.Case(func(int) { nd.chosen = -1 })}
			if v == 0 && opt.NoRootWorker {
				cs = cs[:0]
			}
			for q := 0; q < k; q++ {
				j := (r + q) % k
				cs = append(cs, nd.outReq[j].Case(func(int) { nd.chosen = j }))
			}
			nd.cases[r] = cs
		}
		nodes[v] = nd
	}
	for _, s := range opt.Slowdowns {
		cpu, f := nodes[s.Node-1].cpu, s.Factor
		sim.At(s.At, func() { cpu.SetSpeed(f) })
	}
	halfE, quarterF := p.BetaE/2, p.BetaF/4
	for v := range nodes {
		nd := nodes[v]
		name := strconv.Itoa(v + 1)
		sim.SpawnDaemon("inlink"+name, func(pr *executor.Proc) {
			for {
				nd.mgrIn.Send(pr, nd.taskIn.Recv(pr))
			}
		})
		sim.SpawnDaemon("manager"+name, func(pr *executor.Proc) {
			rr := 0
			for {
				tk := nd.mgrIn.Recv(pr)
				pr.PriAlt(nd.cases[rr]...)
				if nd.chosen < 0 {
					nd.cpu.Compute(pr, halfE, executor.High)
					nd.workerBox.Send(pr, tk)
					continue
				}
				j := nd.chosen
				rr = (j + 1) % len(nd.outReq)
				nd.cpu.Compute(pr, quarterF, executor.High)
				nd.outBox[j].Send(pr, tk)
			}
		})
		if !(v == 0 && opt.NoRootWorker) {
			sim.SpawnDaemon("worker"+name, func(pr *executor.Proc) {
				for {
					nd.workerReq.Send(pr, 0)
					tk := nd.workerBox.Recv(pr)
					if res.TasksPerWorker[v] == 0 {
						firstAt[v] = pr.Now()
					}
					nd.cpu.Compute(pr, tk.time, executor.Low)
					res.TasksPerWorker[v]++
					tk.local = true
					nd.results.Put(tk)
				}
			})
		}
		for j, c := range t.Children[v] {
			child := nodes[c]
			sim.SpawnDaemon("outlink"+name+"."+strconv.Itoa(j+1), func(pr *executor.Proc) {
				for {
					nd.outReq[j].Send(pr, 0)
					tk := nd.outBox[j].Recv(pr)
					nd.cpu.Compute(pr, quarterF, executor.High)
					child.taskIn.Send(pr, tk)
				}
			})
			sim.SpawnDaemon("result inlink"+name+"."+strconv.Itoa(j+1), func(pr *executor.Proc) {
				for {
					r := child.resultOut.Recv(pr)
					nd.cpu.Compute(pr, quarterF, executor.High)
					r.local = false
					nd.results.Put(r)
				}
			})
		}
		sim.SpawnDaemon("result outlink"+name, func(pr *executor.Proc) {
			for {
				r := nd.results.Recv(pr)
				cost := quarterF
				if r.local {
					cost = halfE
				}
				nd.cpu.Compute(pr, cost, executor.High)
				nd.resultOut.Send(pr, r)
			}
		})
	}
	dist := p.Tasks
	if dist == nil {
		dist = Const(p.Te)
	}
	next := dist.source(sim.Rand("tasks"), p.M)
	root := nodes[0]
	sim.SpawnDaemon("host sender", func(pr *executor.Proc) {
		for i := 0; i < p.M; i++ {
			root.taskIn.Send(pr, task{id: int32(i), time: next()})
		}
	})
	every := max(p.M/200, 1)
	sim.Spawn("host receiver", func(pr *executor.Proc) {
		for i := 1; i <= p.M; i++ {
			root.resultOut.Recv(pr)
			if opt.Progress != nil && (i%every == 0 || i == p.M) {
				opt.Progress(i, p.M)
			}
		}
		res.Makespan = pr.Now()
		sim.Stop()
	})
	if err := sim.Run(ctx); err != nil {
		return nil, fmt.Errorf("pfarm: simulation: %w", err)
	}
	for v, nd := range nodes {
		res.Busy[v] = nd.cpu.BusyTime()
		for _, ch := range []executor.Stats{nd.taskIn.Stats(), nd.resultOut.Stats()} {
			res.Messages += ch.Count
			res.Bytes += ch.Units
		}
	}
	res.Events = sim.Events()
	order := make([]int, 0, n)
	for v := range firstAt {
		if !math.IsInf(firstAt[v], 1) {
			order = append(order, v)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return firstAt[order[a]] < firstAt[order[b]] })
	for _, v := range order {
		res.FirstTaskOrder = append(res.FirstTaskOrder, v+1)
	}
	return res, nil
}

func checkSlowdowns(sl []Slowdown, n int) error {
	for k, s := range sl {
		if s.Node < 1 || s.Node > n || !(s.At >= 0) || math.IsInf(s.At, 0) || !(s.Factor > 0) || math.IsInf(s.Factor, 0) {
			return fmt.Errorf("pfarm: slowdowns[%d]: node %d at %g factor %g, want node 1..%d, time >= 0, factor > 0", k, s.Node, s.At, s.Factor, n)
		}
	}
	return nil
}
