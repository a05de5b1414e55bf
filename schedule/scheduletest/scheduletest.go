package scheduletest

import (
	"math"

	"github.com/dlsched/dlsched/schedule"
)

// Star is a one-stage star, m = 2, S = 0.1, C = 0.01, A = 0.1,
// D = ∞, V = 30, solved by hand: P0 sends α1 to P1, then α2 to P2, and both
// finish together (the classic single-installment optimum):
//
//	P1 ends at S + Cα1 + Aα1, P2 at S + Cα1 + S + Cα2 + Aα2,
//	equal ⇔ Aα1 = S + (C+A)α2, with α1 + α2 = 30
//	⇒ 3 − 0.1α2 = 0.1 + 0.11α2 ⇒ α2 = 2.9/0.21 ≈ 13.8095, α1 ≈ 16.1905,
//	Cmax = S + (C+A)α1 ≈ 1.88095.
//
// The loads are not representable exactly, which exercises full precision.
func Star() *schedule.Schedule {
	const S, C, A = 0.1, 0.01, 0.1
	a2 := 2.9 / 0.21
	a1 := 30 - a2
	arr1 := S + C*a1
	end1 := arr1 + A*a1
	arr2 := arr1 + S + C*a2
	end2 := arr2 + A*a2
	cmax := math.Max(end1, end2)
	return &schedule.Schedule{
		Status: "optimal", Cmax: cmax, LowerBound: cmax, Gap: 0, Stages: 1, NMin: 1,
		Problem: schedule.Problem{Topology: "star", M: 2, S: S, C: C, A: A, D: schedule.Float(math.Inf(1)), V: 30, Stages: 1},
		Chunks: []schedule.Chunk{
			{Stage: 1, Processor: 1, Load: a1, Start: 0, Arrival: arr1,
				Hops:         []schedule.Hop{{From: 0, To: 1, Load: a1, Start: 0, End: arr1}},
				ComputeStart: arr1, ComputeEnd: end1},
			{Stage: 1, Processor: 2, Load: a2, Start: arr1, Arrival: arr2,
				Hops:         []schedule.Hop{{From: 0, To: 1, Load: a2, Start: arr1, End: arr2}},
				ComputeStart: arr2, ComputeEnd: end2},
		},
	}
}

// Tree is a one-stage ordinary tree, p = 2, h = 2, NLF, S = 1,
// C = 0.5, A = 1, D = 4, α1 = 2, α2 = 1 (V = 2·2 + 4·1 = 8), timed by hand:
//
//	layer 1: hop 0→1 carries 2, 0 → 1 + 0.5·2 = 2; computes 2 → 4.
//	layer 2: hop 0→1 carries p·α2 = 2, 2 → 4; hop 1→2 carries 1,
//	         4 → 5.5; computes 5.5 → 6.5.  Cmax = 6.5.
func Tree() *schedule.Schedule {
	return &schedule.Schedule{
		Status: "optimal", Cmax: 6.5, LowerBound: 6.5, Gap: 0, Stages: 1, NMin: 1,
		Problem: schedule.Problem{Topology: "tree", Order: "nlf", Buffers: 2, BufferReuse: "alternate",
			P: 2, H: 2, S: 1, C: 0.5, A: 1, D: 4, V: 8, Stages: 1},
		Chunks: []schedule.Chunk{
			{Stage: 1, Layer: 1, Load: 2, Start: 0, Arrival: 2,
				Hops:         []schedule.Hop{{From: 0, To: 1, Load: 2, Start: 0, End: 2}},
				ComputeStart: 2, ComputeEnd: 4},
			{Stage: 1, Layer: 2, Load: 1, Start: 2, Arrival: 5.5,
				Hops: []schedule.Hop{
					{From: 0, To: 1, Load: 2, Start: 2, End: 4},
					{From: 1, To: 2, Load: 1, Start: 4, End: 5.5},
				},
				ComputeStart: 5.5, ComputeEnd: 6.5},
		},
	}
}

// Binomial is a one-stage binomial tree, p = 2, h = 2, LLF, S = 1,
// C = 0.5, A = 1, D = 10, α2 = 1, α1 = 2 (V = 6·1 + 2·2 = 10), by hand:
//
//	layer 2 first: step 1 carries p·α2 = 2, 0 → 2; step 2 carries 1,
//	               2 → 3.5; computes 3.5 → 4.5.
//	layer 1: step 1 carries 2, 3.5 → 5.5; computes 5.5 → 7.5. Cmax = 7.5.
func Binomial() *schedule.Schedule {
	return &schedule.Schedule{
		Status: "optimal", Cmax: 7.5, LowerBound: 7.5, Stages: 1, NMin: 1,
		Problem: schedule.Problem{Topology: "binomial", Order: "llf", P: 2, H: 2, S: 1, C: 0.5, A: 1, D: 10, V: 10, Stages: 1},
		Chunks: []schedule.Chunk{
			{Stage: 1, Layer: 2, Load: 1, Start: 0, Arrival: 3.5,
				Hops: []schedule.Hop{
					{From: 0, To: 1, Load: 2, Start: 0, End: 2},
					{From: 1, To: 2, Load: 1, Start: 2, End: 3.5},
				},
				ComputeStart: 3.5, ComputeEnd: 4.5},
			{Stage: 1, Layer: 1, Load: 2, Start: 3.5, Arrival: 5.5,
				Hops:         []schedule.Hop{{From: 0, To: 1, Load: 2, Start: 3.5, End: 5.5}},
				ComputeStart: 5.5, ComputeEnd: 7.5},
		},
	}
}
