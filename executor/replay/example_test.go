package replay_test

import (
	"fmt"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/schedule"
)

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
	v, err := replay.Verify(s, replay.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.OK, v.Makespan, v.EarliestMakespan, v.Processors)

	s.Chunks[2].Hops[0].Start = 2 // before the transfer to P2 has ended
	v, _ = replay.Verify(s, replay.Options{})
	for _, x := range v.Violations {
		fmt.Println(x.Kind, x.Message)
	}
	// Output:
	// true 3.5 3.5 3
	// link_busy stage 1, processor 3 (chunk 3): the transfer P0→P3 starts at 2 on node P0, whose ports still carry stage 1, processor 2 (chunk 2) the transfer P0→P2 until 2.5
}
