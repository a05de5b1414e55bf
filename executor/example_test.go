package executor_test

import (
	"context"
	"fmt"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/schedule"
)

// A demand-driven processor farm in the transputer style: a master hands
// out tasks to the workers that ask for work. Each task crosses the
// master→worker link (S + C·size), and on the worker a High-priority router
// spends 0.5 of CPU time per message, preempting the Low-priority worker.
// (Checked by hand: e.g. at t=14 worker 0 computes its last task, 12.5..14.5,
// when the stop message arrives; the router preempts it for 0.5, so it ends
// at 15; worker 1 likewise ends at 15.5.)
func Example_farm() {
	s := executor.NewSim(executor.SimConfig{})
	const workers, S, C = 2, 1.0, 0.5
	tasks := []float64{4, 4, 2, 2, 2, 1}
	requests := executor.NewMailbox[int](s, "requests", executor.Unbounded)
	done := make([]float64, workers)
	count := make([]int, workers)
	links := make([]*executor.Channel[float64], workers)
	for w := 0; w < workers; w++ {
		cpu := executor.NewCPU(s, fmt.Sprint("cpu", w))
		links[w] = executor.NewChannel(s, executor.ChannelConfig[float64]{
			Name: fmt.Sprint("link", w), Cost: func(x float64) float64 { return S + C*x }})
		local := executor.NewMailbox[float64](s, fmt.Sprint("queue", w), executor.Unbounded)
		s.Spawn(fmt.Sprint("router", w), func(p *executor.Proc) {
			for {
				x := links[w].Recv(p)
				cpu.Compute(p, 0.5, executor.High)
				local.Send(p, x)
				if x < 0 {
					return
				}
			}
		})
		s.Spawn(fmt.Sprint("worker", w), func(p *executor.Proc) {
			requests.Send(p, w)
			for {
				x := local.Recv(p)
				if x < 0 {
					return
				}
				requests.Send(p, w) // ask for the next task before computing
				cpu.Compute(p, x, executor.Low)
				count[w]++
				done[w] = p.Now()
			}
		})
	}
	s.Spawn("master", func(p *executor.Proc) {
		for _, x := range tasks {
			links[requests.Recv(p)].Send(p, x)
		}
		for i := 0; i < workers; i++ {
			links[requests.Recv(p)].Send(p, -1) // stop
		}
	})
	if err := s.Run(context.Background()); err != nil {
		fmt.Println(err)
		return
	}
	for w := 0; w < workers; w++ {
		fmt.Printf("worker %d: %d tasks, done at %g\n", w, count[w], done[w])
	}
	// Output:
	// worker 0: 3 tasks, done at 15
	// worker 1: 3 tasks, done at 15.5
}

// Verify a star schedule: the paper's Section 4.1 example, m=3, A=C=1,
// S=0, loads 1.5, 1, 0.5: the processors stop computing at 3.5.
func ExampleVerify() {
	s := &schedule.Schedule{
		Cmax: 3.5,
		Problem: schedule.Problem{Topology: "star", M: 3, S: 0, C: 1, A: 1,
			D: schedule.Float(1.5), V: 3, Stages: 1},
		Chunks: []schedule.Chunk{
			{Stage: 1, Processor: 1, Load: 1.5, Hops: []schedule.Hop{{From: 0, To: 1, Start: 0}}},
			{Stage: 1, Processor: 2, Load: 1, Hops: []schedule.Hop{{From: 0, To: 1, Start: 1.5}}},
			{Stage: 1, Processor: 3, Load: 0.5, Hops: []schedule.Hop{{From: 0, To: 1, Start: 2.5}}},
		},
	}
	v, err := executor.Verify(s, executor.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.OK, v.Makespan, v.EarliestMakespan, v.Processors)

	s.Chunks[2].Hops[0].Start = 2 // before the transfer to P2 has ended
	v, _ = executor.Verify(s, executor.Options{})
	for _, x := range v.Violations {
		fmt.Println(x.Kind, x.Message)
	}
	// Output:
	// true 3.5 3.5 3
	// link_busy stage 1, processor 3 (chunk 3): the transfer P0→P3 starts at 2 on node P0, whose ports still carry stage 1, processor 2 (chunk 2) the transfer P0→P2 until 2.5
}
