package solve_test

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve"
)

// Solve the paper's Fig. 6 star (10 processors, buffers of 1e4 units) in
// five stages, verify the schedule on the executor, and read its chunks.
// The makespan is the certified optimum of the schedule's LP; every
// processor gets one chunk per stage.
func ExampleSchedule() {
	p, err := problem.New(problem.Input{Topology: "star", M: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e4, V: 5e3})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, closeSolver, err := solve.NewSolver("clp")
	if err != nil {
		fmt.Println("no LP solver:", err)
		return
	}
	defer closeSolver()
	res, err := solve.Schedule(p, 5, solve.Options{Solver: s, Verify: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	sch := res.Schedule
	fmt.Printf("Cmax %.6f, stages %d, chunks %d, verified %v\n", sch.Cmax, sch.Stages, len(sch.Chunks), sch.Verification.OK)
	total := 0.0
	for _, c := range sch.Chunks {
		total += c.Load
	}
	first := sch.Chunks[0]
	fmt.Printf("load %.0f; first chunk: stage %d, processor %d, starts at %g\n", math.Round(total), first.Stage, first.Processor, first.Start)
	// Output:
	// Cmax 0.505556, stages 5, chunks 50, verified true
	// load 5000; first chunk: stage 1, processor 1, starts at 0
}
