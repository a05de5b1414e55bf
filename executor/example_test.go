package executor_test

import (
	"context"
	"fmt"

	"github.com/dlsched/dlsched/executor"
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
