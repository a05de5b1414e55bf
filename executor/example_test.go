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

// A master and three workers pulling tasks on demand, in the style of a
// SimPy model: each process is a plain function that waits on events.
// Worker 3 runs at a third of the speed of the others. Task sizes come from
// the named random stream "tasks" (seeded, so the output is fixed); a task
// of x units crosses the master's link in 0.1 + 0.01·x and costs x work
// units. The master first spends 3 time units reading its input; workers
// wait for a task in an ALT that also times out, to report idle periods
// longer than 2 time units.
func Example_demandDriven() {
	s := executor.NewSim(executor.SimConfig{Seed: 1})
	const workers, tasks = 3, 30
	requests := executor.NewMailbox[int](s, "requests", executor.Unbounded)
	links := make([]*executor.Channel[float64], workers)
	done := make([]int, workers)
	for w := range links {
		links[w] = executor.NewChannel(s, executor.ChannelConfig[float64]{
			Name: fmt.Sprint("link", w+1), Cost: func(x float64) float64 { return 0.1 + 0.01*x }})
		cpu := executor.NewCPU(s, fmt.Sprint("cpu", w+1))
		if w == 2 {
			cpu.SetSpeed(1.0 / 3)
		}
		s.SpawnDaemon(fmt.Sprint("worker", w+1), func(p *executor.Proc) {
			for {
				requests.Put(w)
				var x float64
				if p.PriAlt(links[w].Case(func(v float64) { x = v }), p.Timeout(2)) == 1 {
					fmt.Printf("worker %d idle at t=%.2f\n", w+1, p.Now())
					x = links[w].Recv(p)
				}
				cpu.Compute(p, x, executor.Low)
				done[w]++
			}
		})
	}
	s.Spawn("master", func(p *executor.Proc) {
		rng := s.Rand("tasks")
		p.Wait(3)
		for i := 0; i < tasks; i++ {
			links[requests.Recv(p)].Send(p, 1+9*rng.Float64())
		}
		for i := 0; i < workers; i++ { // wait for the last results
			requests.Recv(p)
		}
		s.Stop()
	})
	if err := s.Run(context.Background()); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("all %d tasks done at t=%.2f; tasks per worker %v\n", tasks, s.Now(), done)
	for _, st := range s.Stats() {
		if st.Kind == "cpu" {
			fmt.Printf("%s: busy %.2f, utilisation %.0f%%\n", st.Name, st.Busy, 100*st.Utilisation)
		}
	}
	// Output:
	// worker 1 idle at t=2.00
	// worker 2 idle at t=2.00
	// worker 3 idle at t=2.00
	// worker 2 idle at t=78.30
	// worker 1 idle at t=79.92
	// all 30 tasks done at t=80.71; tasks per worker [13 12 5]
	// cpu1: busy 72.89, utilisation 90%
	// cpu2: busy 71.15, utilisation 88%
	// cpu3: busy 76.59, utilisation 95%
}
