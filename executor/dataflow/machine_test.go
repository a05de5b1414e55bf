package dataflow

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
	"github.com/dlsched/dlsched/internal/leakcheck"
	"github.com/dlsched/dlsched/platform"
)

type fataler interface {
	Helper()
	Fatal(args ...any)
}

func run(t fataler, g *graph.Graph, m *Machine) *Result {
	t.Helper()
	r, err := Run(context.Background(), Config{Graph: g, Machine: *m}, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r.Simulated
}

func parse(t testing.TB, js string) *graph.Graph {
	t.Helper()
	g, err := graph.ReadJSON(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// --levels 5,3,8, node time 1, no delays, barrier: E_m = simulated = 16,
// 5, 3, 3 on 1, 4, 8, 16 PEs; utilisation as printed 100, as true busy
// fraction 100, 80, 66.67, 33.33.
func TestLevelsAcceptance(t *testing.T) {
	g, err := graph.Levelled([]int{5, 3, 8}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []int{1, 4, 8, 16} {
		m := &Machine{PEs: p, Barrier: true}
		pr := Predict(g, m)
		r := run(t, g, m)
		wantE := []float64{16, 5, 3, 3}[i]
		wantU := []float64{100, 80, 200.0 / 3, 100.0 / 3}[i]
		if pr.EM != wantE || r.Makespan != wantE {
			t.Errorf("p=%d: E_m %g, simulated %g, want %g", p, pr.EM, r.Makespan, wantE)
		}
		if pr.PEUtilisationPrinted != 100 || math.Abs(pr.PEUtilisation-wantU) > 1e-9 || math.Abs(r.Utilisation-wantU) > 1e-9 {
			t.Errorf("p=%d: utilisation printed %g, true %g, simulated %g, want 100 and %g", p, pr.PEUtilisationPrinted, pr.PEUtilisation, r.Utilisation, wantU)
		}
	}
}

// Property: in barrier mode with a scheduler delay and zero bus time the
// simulation equals E_m for any level sizes.
func TestBarrierEqualsModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		nl := rapid.IntRange(1, 6).Draw(rt, "levels")
		sizes := make([]int, nl)
		for i := range sizes {
			sizes[i] = rapid.IntRange(1, 12).Draw(rt, "size")
		}
		t0 := float64(rapid.IntRange(1, 5).Draw(rt, "t"))
		d := float64(rapid.IntRange(0, 7).Draw(rt, "d"))
		p := rapid.IntRange(1, 10).Draw(rt, "p")
		g, _ := graph.Levelled(sizes, t0)
		m := &Machine{PEs: p, SchedulerDelay: d, Barrier: true}
		r := run(rt, g, m)
		if em := Predict(g, m).EM; math.Abs(r.Makespan-em) > 1e-9 {
			rt.Fatalf("sizes %v p=%d d=%g: simulated %g, E_m %g", sizes, p, d, r.Makespan, em)
		}
	})
}

const loopGraph = `{"nodes": [{"id": 0}, {"id": 1}, {"id": 2}, {"id": 3}],
 "edges": [[0, 1], [1, 2], [2, 1, {"back": true}], [2, 3]],
 "loops": [{"id": 0, "nodes": [1, 2], "iterations": 3, "control": 2, "parent": null}]}`

// A two-node loop of three iterations between an entry and an exit node,
// on one PE, unit times, no delays: 8 with same-loop reallocation, a
// deadlock without. Nested loops 2 × 3: 18 node instances on one PE.
func TestLoops(t *testing.T) {
	leakcheck.Check(t, func() {
		g := parse(t, loopGraph)
		r := run(t, g, &Machine{PEs: 1})
		if !r.Completed || r.Makespan != 8 || r.NodeInstances != 8 {
			t.Fatalf("with reallocation: %+v", r)
		}
		r = run(t, g, &Machine{PEs: 1, NoRealloc: true})
		if r.Completed || !strings.Contains(r.Deadlock, "deadlock") || !strings.Contains(r.Deadlock, "reallocation is off") {
			t.Fatalf("without reallocation: %+v", r)
		}
		nested := parse(t, `{"nodes": [{"id": 0}, {"id": 1}, {"id": 2}],
 "edges": [[0, 1], [1, 2], [2, 0, {"back": true}]],
 "loops": [{"id": 0, "nodes": [0, 1, 2], "iterations": 2, "control": 2, "parent": null},
           {"id": 1, "nodes": [0, 1, 2], "iterations": 3, "control": 2, "parent": 0}]}`)
		r = run(t, nested, &Machine{PEs: 1})
		if !r.Completed || r.NodeInstances != 18 || r.Makespan != 18 {
			t.Fatalf("nested loops: %+v", r)
		}
	})
}

func condGraph(outcome bool) string {
	// 0 entry, 1 decision, then 2-3, else 4-6, 7 merge, 8 exit
	return fmt.Sprintf(`{"nodes": [{"id": 0}, {"id": 1, "kind": "decision"}, {"id": 2}, {"id": 3},
 {"id": 4}, {"id": 5}, {"id": 6}, {"id": 7, "kind": "merge"}, {"id": 8}],
 "edges": [[0, 1], [1, 2], [2, 3], [1, 4], [4, 5], [5, 6], [3, 7], [6, 7], [7, 8]],
 "conds": [{"decision": 1, "then": [2, 3], "else": [4, 5, 6], "merge": [7], "outcome": %v}]}`, outcome)
}

// A conditional with a 2-node then-branch and a 3-node else-branch between
// a decision and a merge: 6 node instances when true, 7 when false; on 3
// PEs with eager allocation one disregard token is sent.
func TestConditional(t *testing.T) {
	for _, outcome := range []bool{true, false} {
		g := parse(t, condGraph(outcome))
		r := run(t, g, &Machine{PEs: 1, NoEager: true})
		want := 6
		if !outcome {
			want = 7
		}
		if !r.Completed || r.NodeInstances != want {
			t.Errorf("outcome %v: %d instances, want %d (%+v)", outcome, r.NodeInstances, want, r)
		}
		r = run(t, g, &Machine{PEs: 3})
		if !r.Completed || r.DisregardTokens != 1 || r.NodeInstances != want {
			t.Errorf("outcome %v, 3 PEs, eager: %d tokens, %d instances (%+v)", outcome, r.DisregardTokens, r.NodeInstances, r)
		}
	}
}

// Two writes to one location: one error naming both; a read issued before
// its write completes after the write, on one PE.
func TestIStructure(t *testing.T) {
	g := parse(t, `{"nodes": [{"id": 0, "kind": "write", "loc": "a"}, {"id": 1, "kind": "write", "loc": "a"}], "edges": []}`)
	r := run(t, g, &Machine{PEs: 1})
	if len(r.IStructureErrors) != 1 || r.IStructureErrors[0] != (IStructureError{Loc: "a", First: 0, Second: 1, Time: 2}) || !r.Completed {
		t.Fatalf("%+v", r)
	}
	// The read (node 0) is allocated first and finds nothing; the write
	// (node 2, after node 1) then runs; the read is served and completes.
	g = parse(t, `{"nodes": [{"id": 0, "kind": "read", "loc": "x"}, {"id": 1}, {"id": 2, "kind": "write", "loc": "x"}, {"id": 3}],
 "edges": [[1, 2], [0, 3]]}`)
	r = run(t, g, &Machine{PEs: 1, NoEager: true})
	if !r.Completed || r.PendingReads != 0 || r.NodeInstances != 4 || r.Makespan != 4 {
		t.Fatalf("read before write: %+v", r)
	}
	g = parse(t, `{"nodes": [{"id": 0, "kind": "read", "loc": "nowhere"}], "edges": []}`)
	if r = run(t, g, &Machine{PEs: 1}); r.Completed || r.PendingReads != 1 {
		t.Fatalf("read never written: %+v", r)
	}
}

// listSchedule is an independent list scheduler: at every instant the
// free processors take the ready nodes of smallest (level, id).
func listSchedule(g *graph.Graph, p int) float64 {
	lv := g.Levels()
	n := len(g.Nodes)
	need := make([]int, n)
	succ := make([][]int, n)
	for _, e := range g.Edges {
		need[e.To]++
		succ[e.From] = append(succ[e.From], e.To)
	}
	var ready []int
	for v := range need {
		if need[v] == 0 {
			ready = append(ready, v)
		}
	}
	type run struct {
		v   int
		end float64
	}
	var running []run
	now, done, last := 0.0, 0, 0.0
	for done < n {
		// start as many as possible
		for len(running) < p && len(ready) > 0 {
			best := 0
			for k, v := range ready {
				if lv[v] < lv[ready[best]] || lv[v] == lv[ready[best]] && v < ready[best] {
					best = k
				}
			}
			v := ready[best]
			ready = append(ready[:best], ready[best+1:]...)
			running = append(running, run{v, now + g.Nodes[v].Time})
		}
		// advance to the next completion(s)
		next := math.Inf(1)
		for _, r := range running {
			next = math.Min(next, r.end)
		}
		now = next
		var keep []run
		for _, r := range running {
			if r.end == now {
				done++
				last = math.Max(last, now)
				for _, s := range succ[r.v] {
					if need[s]--; need[s] == 0 {
						ready = append(ready, s)
					}
				}
			} else {
				keep = append(keep, r)
			}
		}
		running = keep
	}
	return last
}

// Dynamic scheduling with no delays and no eager allocation is list
// scheduling by (level, id).
func TestDynamicIsListScheduling(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 60).Draw(rt, "n")
		grain := rapid.IntRange(1, 3).Draw(rt, "grain")
		seed := rapid.Uint64().Draw(rt, "seed")
		p := rapid.IntRange(1, 8).Draw(rt, "p")
		g, err := graph.Random(n, min(grain, n), seed)
		if err != nil {
			rt.Fatal(err)
		}
		for i := range g.Nodes { // unequal times make the order matter
			g.Nodes[i].Time = float64(1 + (i*7+int(seed%5))%4)
		}
		r := run(rt, g, &Machine{PEs: p, NoEager: true})
		if want := listSchedule(g, p); !r.Completed || math.Abs(r.Makespan-want) > 1e-9 {
			rt.Fatalf("p=%d: simulated %g, list scheduling %g", p, r.Makespan, want)
		}
	})
}

// The Standard Task Graph examples, no delays, no eager allocation: one PE
// takes exactly the total work; as many PEs as tasks take exactly the
// critical path; any p lies between max(critical path, work/p) and
// work/p + critical path.
func TestSTGBounds(t *testing.T) {
	for _, name := range []string{"sample04.stg", "rand0000.stg", "proto151.stg", "proto000.stg"} {
		f, err := os.Open("../../testdata/stg/" + name)
		if err != nil {
			t.Fatal(err)
		}
		g, err := graph.ReadSTG(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		work, cp := g.TotalWork(), g.CriticalPath()
		for _, p := range []int{1, 2, 3, 4, 7, 16, len(g.Nodes)} {
			r := run(t, g, &Machine{PEs: p, NoEager: true})
			lo, hi := math.Max(cp, work/float64(p)), work/float64(p)+cp
			switch {
			case p == 1 && r.Makespan != work:
				t.Errorf("%s, 1 PE: %g, want the total work %g", name, r.Makespan, work)
			case p == len(g.Nodes) && r.Makespan != cp:
				t.Errorf("%s, %d PEs: %g, want the critical path %g", name, p, r.Makespan, cp)
			case r.Makespan < lo-1e-9 || r.Makespan > hi+1e-9:
				t.Errorf("%s, p=%d: %g outside [%g, %g]", name, p, r.Makespan, lo, hi)
			}
		}
	}
}

// Static and quasi-dynamic scheduling complete and respect the bounds.
func TestStaticAndQuasi(t *testing.T) {
	g, _ := graph.Random(200, 1, 3)
	work, cp := g.TotalWork(), g.CriticalPath()
	for _, pol := range []Policy{Static, Quasi} {
		for _, p := range []int{1, 3, 8} {
			r := run(t, g, &Machine{PEs: p, Policy: pol, SchedulerDelay: 1})
			if !r.Completed || r.Makespan < math.Max(cp, work/float64(p))-1e-9 || r.NodeInstances != len(g.Nodes) {
				t.Errorf("%s p=%d: %+v", pol, p, r)
			}
		}
	}
	_, err := Run(context.Background(), Config{Graph: parse(t, loopGraph), Machine: Machine{PEs: 2, Policy: Static}}, platform.RunOptions{})
	var fe *platform.FieldError
	if !errors.As(err, &fe) || fe.Field != FieldPolicy {
		t.Errorf("static scheduling of a loop: %v, want a FieldError on Machine.Policy", err)
	}
}

// Issue 28 item 7. Section 2.1: "the scheduler picks up the result and
// updates the appropriate node(s). Following this, the scheduler sends
// acknowledgement"; Section 3.2: "Each of these operations takes finite
// time ... the scheduler can be modelled as a constant delay". Level by
// level with unit nodes, d = 2 and free buses, a wave costs d (allocation)
// + 1 + d (acknowledgement) = 5: --levels 5,3,8 on 1, 4, 8, 16 PEs takes
// 16, 5, 3, 3 waves, 80, 25, 15, 15 in the model and the simulation
// (48, 15, 9, 9 when the acknowledgement skipped the scheduler).
func TestAcknowledgementTakesSchedulerDelay(t *testing.T) {
	g, err := graph.Levelled([]int{5, 3, 8}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []int{1, 4, 8, 16} {
		m := &Machine{PEs: p, SchedulerDelay: 2, Barrier: true}
		want := []float64{80, 25, 15, 15}[i]
		if em, sim := Predict(g, m).EM, run(t, g, m).Makespan; em != want || sim != want {
			t.Errorf("p=%d: E_m %g, simulated %g, want %g", p, em, sim, want)
		}
	}
	// One PE, no eager allocation, no barrier: every consumer is still with
	// the scheduler when a result comes out, so each of the 16 nodes costs
	// allocation d + a, compute 1, result bus r, scheduler d, ack a.
	m := &Machine{PEs: 1, SchedulerDelay: 2, ResultBus: 0.5, AckBus: 0.25, NoEager: true}
	if got, want := run(t, g, m).Makespan, 16*(2+0.25+1+0.5+2+0.25); got != want {
		t.Errorf("1 PE with delays: %g, want %g", got, want)
	}
}

// Property (issue 28 item 7): the static and quasi-dynamic policies' model
// charges what the policies do at run time — no allocation per node, the
// scheduler's acknowledgement only for outputs and for results consumed in
// a later partition, one allocation per quasi-dynamic partition — so that
// level by level, with every level a multiple of p (full waves) and free
// buses, the simulation equals E_m for every policy.
func TestPoliciesModelEqualsSimulation(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := rapid.IntRange(1, 5).Draw(rt, "p")
		sizes := make([]int, rapid.IntRange(1, 6).Draw(rt, "levels"))
		for i := range sizes {
			sizes[i] = p * rapid.IntRange(1, 4).Draw(rt, "waves")
		}
		g, err := graph.Levelled(sizes, float64(rapid.IntRange(1, 4).Draw(rt, "t")))
		if err != nil {
			rt.Fatal(err)
		}
		m := &Machine{PEs: p, SchedulerDelay: float64(rapid.IntRange(0, 5).Draw(rt, "d")), Barrier: true,
			Policy: rapid.SampledFrom([]Policy{Dynamic, Static, Quasi}).Draw(rt, "policy")}
		if em, sim := Predict(g, m).EM, run(rt, g, m).Makespan; math.Abs(em-sim) > 1e-9 {
			rt.Fatalf("%s, sizes %v, p=%d, d=%g: E_m %g, simulated %g", m.Policy, sizes, p, m.SchedulerDelay, em, sim)
		}
	})
}

// Issue 28 item 8. Section 2.1: "A merge node (of a conditional construct)
// is 'enabled' on the availability of one of the operands" — one of its
// branch operands, not the loop's "iteration i+1 waits for the control of
// iteration i". A loop 0…6 (back edge 6→0, 4 iterations), decision 1 with
// then [2] and else [3, 4] (taken), merge 5, unit times, no delays, no
// eager allocation: each iteration is a chain of 6, so every PE count
// takes the unrolled critical path 24 (it was 24, 16, 14, 14 on 1, 2, 4,
// 8 PEs: iteration i+1's merge fired before its branch).
func TestConditionalInsideLoop(t *testing.T) {
	g := parse(t, `{"nodes": [{"id": 0}, {"id": 1, "kind": "decision"}, {"id": 2}, {"id": 3}, {"id": 4}, {"id": 5, "kind": "merge"}, {"id": 6}],
 "edges": [[0, 1], [1, 2], [1, 3], [3, 4], [2, 5], [4, 5], [5, 6], [6, 0, {"back": true}]],
 "conds": [{"decision": 1, "then": [2], "else": [3, 4], "merge": [5], "outcome": false}],
 "loops": [{"id": 0, "nodes": [0, 1, 2, 3, 4, 5, 6], "iterations": 4, "control": 6, "parent": null}]}`)
	for _, p := range []int{1, 2, 4, 8} {
		if r := run(t, g, &Machine{PEs: p, NoEager: true}); !r.Completed || r.Makespan != 24 || r.NodeInstances != 24 {
			t.Errorf("p=%d: makespan %g, %d instances (%s), want 24 and 24", p, r.Makespan, r.NodeInstances, r.Deadlock)
		}
	}
}

// Level-by-level execution of a graph with loops is refused: iteration
// i+1's nodes share their levels with iteration i's, and wait for a later
// level of it (it deadlocked at t=2 on the two-node loop).
func TestBarrierRefusesLoops(t *testing.T) {
	_, err := Run(context.Background(), Config{Graph: parse(t, loopGraph), Machine: Machine{PEs: 2, Barrier: true}}, platform.RunOptions{})
	var fe *platform.FieldError
	if !errors.As(err, &fe) || fe.Field != FieldBarrier || !strings.Contains(err.Error(), "Machine.Barrier") {
		t.Fatalf("error %v, want a FieldError naming Machine.Barrier", err)
	}
}
