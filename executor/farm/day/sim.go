package day

import (
	"context"
	"fmt"
	"strconv"

	"github.com/dlsched/dlsched/executor"
)

// Result is what a simulation observed (JSON field names are part of the
// CLI contract).
type Result struct {
	// Efficiency is Σ job times/(w·T), T from the farmer's first send to
	// the arrival of the last result (Section 4.9).
	Efficiency float64 `json:"efficiency"`
	Makespan   float64 `json:"makespan"`
	// JobsPerWorker[k] counts the jobs worker k+1 executed.
	JobsPerWorker []int `json:"jobs_per_worker"`
	// FirstJobStart[k] is when worker k+1 (worker 1 next to the farmer)
	// started its first job; null for a worker that got none (a
	// communication-bound line starves its far end).
	FirstJobStart []*float64 `json:"first_job_start"`
	// Messages counts link transfers (jobs and results); Bytes their
	// sizes (set-up not included).
	Messages int64   `json:"messages"`
	Bytes    float64 `json:"bytes"`
	// Busy[k] is the CPU time of worker k+1 (jobs and stolen cycles).
	Busy []float64 `json:"busy"`
	// Events is the number of kernel events.
	Events int64 `json:"events"`
}

type job struct {
	id     int
	time   float64
	worker int
}

// signal wakes the processes that wait for a change of a processor's
// state: each subscriber has a one-slot mailbox that a notification fills
// (and leaves full if it already is).
type signal struct{ subs []*executor.Mailbox[struct{}] }

func (s *signal) notify() {
	for _, m := range s.subs {
		m.Put(struct{}{})
	}
}

// waiter subscribes a process to some processors' signals.
type waiter struct{ kick *executor.Mailbox[struct{}] }

func newWaiter(sim *executor.Sim, name string, sigs ...*signal) *waiter {
	w := &waiter{kick: executor.NewMailbox[struct{}](sim, name, 1)}
	for _, s := range sigs {
		s.subs = append(s.subs, w.kick)
	}
	return w
}

// until blocks p until cond holds, re-checking after every notification.
func (w *waiter) until(p *executor.Proc, cond func() bool) {
	for !cond() {
		w.kick.Recv(p)
	}
}

// direction is one direction of a physical link, a CPU whose speed is the
// bandwidth (bytes per second): a message of m bytes with set-up s costs
// m + s "work"; while the other direction is busy both run at the
// bidirectional factor times B.
type direction struct {
	cpu   *executor.CPU
	other *direction
	busy  bool
}

func (d *direction) transfer(p *executor.Proc, bytes, bw, factor float64) {
	d.busy = true
	if d.other != nil && d.other.busy {
		d.cpu.SetSpeed(bw * factor)
		d.other.cpu.SetSpeed(bw * factor)
	} else {
		d.cpu.SetSpeed(bw)
	}
	d.cpu.Compute(p, bytes, executor.Low)
	d.busy = false
	if d.other != nil && d.other.busy {
		d.other.cpu.SetSpeed(bw)
	}
}

// worker is the state of a worker processor's harness, in slots.
type worker struct {
	id       int
	cpu      *executor.CPU
	sig      signal
	children []*worker
	jobs     executor.FIFO[job] // jobs in J slots, ready
	jUsed    int                // J slots occupied (ready, reserved, leaving)
	pJobs    []executor.FIFO[job]
	pUsed    []int
	results  executor.FIFO[job] // results in R slots, ready
	rUsed    int
	q        []executor.FIFO[job] // inbound result slots per inbound link
	qUsed    []int
	waiting  bool // the worker asks for a job
	deposit  bool // the worker waits to deposit a result
	done     int
	first    float64
	started  bool
}

// Simulate runs the farm on the kernel: the farmer, the workers with their
// harness slots, the links, and the harvester (line) or the farmer
// collecting results (tree). See the package documentation.
func Simulate(ctx context.Context, c *Config) (*Result, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	sim := executor.NewSim(executor.SimConfig{})
	h := c.Harness
	bw, factor := c.Bandwidth, c.bidir()
	s := c.setupBytes()
	jobBytes, resBytes := c.MessageBytes+s, c.resultBytes()+s
	w := c.Workers
	ws := make([]*worker, w)
	for k := range ws {
		ws[k] = &worker{id: k, cpu: executor.NewCPU(sim, "worker"+strconv.Itoa(k+1))}
	}
	// Topology: the farmer feeds worker 1 (line) or workers 1-3 (tree);
	// children in a tree are in heap order.
	var top []*worker
	if c.Layout == Line {
		top = ws[:1]
		for k := 0; k+1 < w; k++ {
			ws[k].children = []*worker{ws[k+1]}
		}
	} else {
		top = ws[:3]
		for k := range ws {
			for i := 3*k + 3; i < 3*k+6 && i < w; i++ {
				ws[k].children = append(ws[k].children, ws[i])
			}
		}
	}
	for _, x := range ws {
		x.pJobs = make([]executor.FIFO[job], len(x.children))
		x.pUsed = make([]int, len(x.children))
	}
	newDir := func(name string) *direction {
		return &direction{cpu: executor.NewCPU(sim, name)}
	}
	res := &Result{JobsPerWorker: make([]int, w), FirstJobStart: make([]*float64, w)}
	total := c.jobs()
	next := 0
	farmerSig := &signal{}
	farmer := executor.NewCPU(sim, "farmer")
	received := 0
	sink := func(p *executor.Proc) {
		received++
		if received == total {
			res.Makespan = p.Now()
			sim.Stop()
		}
	}
	steal := func(x *worker) {
		if x != nil && c.CPUPerMessage > 0 {
			x.cpu.Submit(c.CPUPerMessage, executor.High, nil)
		}
	}

	// Job links: the farmer's, and every worker's to its children.
	jobLink := func(from *worker, l int, to *worker, d *direction) {
		var sigs []*signal
		if from != nil {
			sigs = append(sigs, &from.sig)
		} else {
			sigs = append(sigs, farmerSig)
		}
		sigs = append(sigs, &to.sig)
		wt := newWaiter(sim, fmt.Sprintf("job link →%d", to.id+1), sigs...)
		sim.SpawnDaemon(fmt.Sprintf("job link →%d", to.id+1), func(p *executor.Proc) {
			for {
				wt.until(p, func() bool {
					if to.jUsed >= h.J {
						return false
					}
					switch {
					case from == nil:
						return next < total
					case h.P > 0:
						return from.pJobs[l].Len() > 0
					default:
						return from.jobs.Len() > 0 && !(from.waiting && !c.DistantFirst)
					}
				})
				var jb job
				switch {
				case from == nil:
					jb = job{id: next, time: c.jobTime(next)}
					next++
					if c.FarmerCost > 0 {
						farmer.Compute(p, c.FarmerCost, executor.High)
					}
				case h.P > 0:
					jb = from.pJobs[l].Pop()
				default:
					jb = from.jobs.Pop()
				}
				to.jUsed++ // the receiver's slot, reserved when the transfer starts
				steal(from)
				d.transfer(p, jobBytes, bw, factor)
				res.Messages++
				res.Bytes += c.MessageBytes
				switch {
				case from == nil:
				case h.P > 0:
					from.pUsed[l]--
				default:
					from.jUsed--
				}
				to.jobs.Push(jb)
				steal(to)
				if from != nil {
					from.sig.notify()
				} else {
					farmerSig.notify()
				}
				to.sig.notify()
			}
		})
	}
	// Result links: toward the harvester (line) or the parent (tree).
	resultLink := func(from *worker, to *worker, l int, d *direction) {
		sigs := []*signal{&from.sig}
		if to != nil {
			sigs = append(sigs, &to.sig)
		}
		wt := newWaiter(sim, fmt.Sprintf("result link %d→", from.id+1), sigs...)
		sim.SpawnDaemon(fmt.Sprintf("result link %d→", from.id+1), func(p *executor.Proc) {
			for {
				wt.until(p, func() bool {
					if from.results.Len() == 0 {
						return false
					}
					switch {
					case to == nil:
						return true
					case h.Q > 0:
						return to.qUsed[l] < h.Q
					default:
						return to.rUsed < h.R && !to.deposit
					}
				})
				r := from.results.Pop()
				switch {
				case to == nil:
				case h.Q > 0:
					to.qUsed[l]++
				default:
					to.rUsed++
				}
				steal(from)
				d.transfer(p, resBytes, bw, factor)
				res.Messages++
				res.Bytes += c.resultBytes()
				from.rUsed--
				switch {
				case to == nil:
					sink(p)
				case h.Q > 0:
					to.q[l].Push(r)
				default:
					to.results.Push(r)
				}
				steal(to)
				from.sig.notify()
				if to != nil {
					to.sig.notify()
				}
			}
		})
	}

	// Wire the links (a tree's job and result directions share a link).
	if c.Layout == Line {
		jobLink(nil, 0, ws[0], newDir("job link farmer→1"))
		for k := 0; k+1 < w; k++ {
			jobLink(ws[k], 0, ws[k+1], newDir(fmt.Sprintf("job link %d→%d", k+1, k+2)))
			ws[k+1].q = make([]executor.FIFO[job], 1)
			ws[k+1].qUsed = make([]int, 1)
			resultLink(ws[k], ws[k+1], 0, newDir(fmt.Sprintf("result link %d→%d", k+1, k+2)))
		}
		resultLink(ws[w-1], nil, 0, newDir("result link →harvester"))
	} else {
		for _, x := range ws {
			x.q = make([]executor.FIFO[job], len(x.children))
			x.qUsed = make([]int, len(x.children))
		}
		for _, t := range top {
			down, up := newDir(fmt.Sprintf("link farmer→%d", t.id+1)), newDir(fmt.Sprintf("link %d→farmer", t.id+1))
			down.other, up.other = up, down
			jobLink(nil, 0, t, down)
			resultLink(t, nil, 0, up)
		}
		for _, x := range ws {
			for l, ch := range x.children {
				down, up := newDir(fmt.Sprintf("link %d→%d", x.id+1, ch.id+1)), newDir(fmt.Sprintf("link %d→%d", ch.id+1, x.id+1))
				down.other, up.other = up, down
				jobLink(x, l, ch, down)
				resultLink(ch, x, l, up)
			}
		}
	}

	for _, x := range ws {
		x := x
		// The worker: the oldest job in J, compute, deposit the result when
		// a collector slot is free, then ask again.
		wt := newWaiter(sim, fmt.Sprintf("worker %d", x.id+1), &x.sig)
		sim.SpawnDaemon(fmt.Sprintf("worker %d", x.id+1), func(p *executor.Proc) {
			for {
				x.waiting = true
				x.sig.notify()
				wt.until(p, func() bool {
					return x.jobs.Len() > 0 && (!c.DistantFirst || !childCanTake(x, h))
				})
				jb := x.jobs.Pop()
				x.jUsed--
				x.waiting = false
				if !x.started {
					x.started, x.first = true, p.Now()
				}
				x.sig.notify()
				x.cpu.Compute(p, jb.time, executor.Low)
				x.done++
				jb.worker = x.id
				x.deposit = true
				x.sig.notify()
				wt.until(p, func() bool { return x.rUsed < h.R })
				x.rUsed++
				x.results.Push(jb)
				x.deposit = false
				x.sig.notify()
			}
		})
		// The splitter: jobs from J to the child links' committed slots,
		// round-robin, the local worker first.
		if h.P > 0 && len(x.children) > 0 {
			rr := 0
			sw := newWaiter(sim, fmt.Sprintf("splitter %d", x.id+1), &x.sig)
			sim.SpawnDaemon(fmt.Sprintf("splitter %d", x.id+1), func(p *executor.Proc) {
				for {
					pick := -1
					sw.until(p, func() bool {
						if x.jobs.Len() == 0 || (x.waiting && !c.DistantFirst) {
							return false
						}
						for i := range x.children {
							if l := (rr + i) % len(x.children); x.pUsed[l] < h.P {
								pick = l
								return true
							}
						}
						return false
					})
					rr = (pick + 1) % len(x.children)
					x.pJobs[pick].Push(x.jobs.Pop())
					x.jUsed--
					x.pUsed[pick]++
					x.sig.notify()
				}
			})
		}
		// The collector: inbound result slots to the collector slots, the
		// local worker's result first.
		if h.Q > 0 && len(x.q) > 0 {
			rr := 0
			cw := newWaiter(sim, fmt.Sprintf("collector %d", x.id+1), &x.sig)
			sim.SpawnDaemon(fmt.Sprintf("collector %d", x.id+1), func(p *executor.Proc) {
				for {
					pick := -1
					cw.until(p, func() bool {
						if x.rUsed >= h.R || x.deposit {
							return false
						}
						for i := range x.q {
							if l := (rr + i) % len(x.q); x.q[l].Len() > 0 {
								pick = l
								return true
							}
						}
						return false
					})
					rr = (pick + 1) % len(x.q)
					x.results.Push(x.q[pick].Pop())
					x.qUsed[pick]--
					x.rUsed++
					x.sig.notify()
				}
			})
		}
	}
	if err := sim.Run(ctx); err != nil {
		return nil, fmt.Errorf("day: simulation: %w", err)
	}
	if received < total {
		return nil, fmt.Errorf("day: simulation: %d of %d results arrived", received, total)
	}
	work := 0.0
	for k := 0; k < total; k++ {
		work += c.jobTime(k)
	}
	res.Efficiency = work / (float64(w) * res.Makespan)
	res.Busy = make([]float64, w)
	for k, x := range ws {
		res.Busy[k] = x.cpu.BusyTime()
		res.JobsPerWorker[k] = x.done
		if x.started {
			first := x.first
			res.FirstJobStart[k] = &first
		}
	}
	res.Events = sim.Events()
	return res, nil
}

// childCanTake reports whether a child link of x could take a job now
// (for distant-first priority).
func childCanTake(x *worker, h Harness) bool {
	for l, ch := range x.children {
		if h.P > 0 && x.pUsed[l] < h.P || h.P == 0 && ch.jUsed < h.J {
			return true
		}
	}
	return false
}
