package nepp

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Section 3.1.4 of the report: "Procedure NextJobToReplicate (node, job,
// exclude, threshold) / Pass by reference: node, job, threshold". The
// search position is kept from one call to the next. Five nodes of speeds
// 0.1, 1, 0.1, 0.25, 0.5, q = 1, five jobs of work 1, free messages:
// nodes 1..5 get jobs 1..5 and the input is exhausted. At t = 1 node 2
// asks for work; the first search starts at the tail of node 3's queue
// ("the procedure that first initializes 'node' and 'job' should
// initialize them to the tail of a queue") and replicates job 3, leaving
// the position at node 4. At t = 2 node 5 asks: the search goes on from
// node 4 and replicates job 4; node 2 (job 3 done) then gets job 1, at
// t = 3 (job 1 done) job 4 again, its only candidate: 2 copies, so the
// threshold rises to 2. At t = 4 nodes 4, 5 and 2 all finish job 4, node 4
// first: makespan 4, results per node 0 3 0 1 1, nothing discarded.
// Restarting the search at the node after the requester (what dlsched
// did) gave node 5 job 1 at t = 2 and results 0 3 0 1 2 with node 4's
// result discarded.
func TestReplicaPositionPersists(t *testing.T) {
	r := run(t, zeroCost(FaultTolerant, []float64{0.1, 1, 0.1, 0.25, 0.5}, 1, 5))
	if r.Makespan != 4 || fmt.Sprint(r.JobsPerNode) != "[0 3 0 1 1]" || r.RedundantDiscarded != 0 || !r.Completed {
		t.Fatalf("makespan %g, results per node %v, %d discarded; want 4, [0 3 0 1 1], 0", r.Makespan, r.JobsPerNode, r.RedundantDiscarded)
	}
}

// The threshold is passed by reference too: once raised it stays, so a
// later search takes the first job with at most that many copies even when
// another has fewer ("NextJobToReplicate tends to return a job with the
// fewest possible copies" — tends). Three nodes, q = q_min = 3 (a queue is
// refilled below 3 jobs), nine jobs: node 1 holds 1-3, node 2 4-6, node 3
// 7-9 (1-based here, 0-based in the code).
func TestReplicaThresholdPersists(t *testing.T) {
	h := newHostState(FaultTolerant, 3, 3, 3, 9)
	for n := 0; n < 3; n++ {
		h.assign(n, h.fresh(n))
	}
	step := func(node int, want string) {
		t.Helper()
		js := h.replicas(node)
		if fmt.Sprint(js) != want {
			t.Fatalf("node %d got %v, want %s (threshold %d)", node+1, js, want, h.threshold)
		}
		h.assign(node, js)
	}
	h.receive(2, 6)
	h.receive(2, 7)
	// Node 3 holds job 9: the first search starts at node 1's tail and
	// takes jobs 3 and 2 (0-based 2, 1), then moves on to node 2's tail.
	step(2, "[1 2]")
	h.receive(1, 3)
	h.receive(1, 4)
	h.receive(0, 0)
	// Node 2 holds job 6. Its first job is 9 (one copy, in node 3's
	// queue); for its second only jobs 2 and 3 are left, with 2 copies
	// each: the threshold rises from 1 to 2 and job 3 is taken.
	step(1, "[2 8]")
	if h.threshold != 2 {
		t.Fatalf("threshold %d, want 2", h.threshold)
	}
	// Node 1 holds jobs 2 and 3; job 6 has one copy (node 2) and job 9
	// two (nodes 3 and 2). Walking on from node 1 (its own queue skipped)
	// to node 2's tail, job 9 comes first and has at most 2 copies: it is
	// taken, not job 6. A threshold restarted at 1 would take job 6.
	step(0, "[8]")
}

// The fast search (MinReplicas from a count of jobs per number of copies
// instead of a failed walk of every queue) chooses exactly what the
// report's pseudocode chooses, walking every record as printed:
// SearchForCandidate with its MinReplicas and AllRedundant, and
// NextJobToReplicate raising the threshold and searching again.
func TestReplicaMatchesPseudocode(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := rapid.IntRange(1, 5).Draw(rt, "p")
		q := rapid.IntRange(1, 4).Draw(rt, "q")
		qmin := rapid.IntRange(1, q).Draw(rt, "qmin")
		jobs := rapid.IntRange(1, 16).Draw(rt, "J")
		fast, lit := newHostState(FaultTolerant, p, q, qmin, jobs), newHostState(FaultTolerant, p, q, qmin, jobs)
		for range rapid.IntRange(0, 60).Draw(rt, "steps") {
			node := rapid.IntRange(0, p-1).Draw(rt, "node")
			if len(fast.mirror[node]) > 0 && rapid.Bool().Draw(rt, "result") {
				fast.receive(node, fast.mirror[node][0])
				lit.receive(node, lit.mirror[node][0])
				continue
			}
			if len(fast.mirror[node]) >= qmin {
				continue
			}
			var a, b []int
			if fast.next < jobs {
				a, b = fast.fresh(node), lit.fresh(node)
			} else {
				a, b = fast.replicas(node), literalReplicas(lit, node)
			}
			if !slices.Equal(a, b) || fast.cur != lit.cur || fast.threshold != lit.threshold {
				rt.Fatalf("node %d: fast %v (at %v, threshold %d), pseudocode %v (at %v, threshold %d)",
					node, a, fast.cur, fast.threshold, b, lit.cur, lit.threshold)
			}
			fast.assign(node, a)
			lit.assign(node, b)
		}
	})
}

// literalReplicas is "select a set of jobs to duplicate" with the
// pseudocode's NextJobToReplicate, as reconstructed in docs/nepp.md.
func literalReplicas(h *hostState, node int) []int {
	if !h.started {
		h.started, h.threshold, h.cur = true, 1, h.tail((node+1)%h.p)
	}
	chosen := map[int]bool{}
	var out []int
	for len(h.mirror[node])+len(out) < h.q {
		j, minRep, allRedundant := literalSearch(h, node, chosen)
		if j < 0 && !allRedundant {
			h.threshold = minRep
			j, _, _ = literalSearch(h, node, chosen)
		}
		if j < 0 {
			break
		}
		chosen[j] = true
		h.copies[j]++
		out = append(out, j)
	}
	for _, j := range out {
		h.copies[j]--
	}
	slices.Sort(out)
	return out
}

// literalSearch is SearchForCandidate: every record once, from the
// position, each queue from its tail toward its head, the queues in turn.
func literalSearch(h *hostState, exclude int, chosen map[int]bool) (job int, minRep int32, allRedundant bool) {
	type pos struct{ node, i int }
	start := h.cur.node
	first := max(h.cur.abs-h.popped[start], -1)
	var walk []pos
	for i := first; i >= 0; i-- {
		walk = append(walk, pos{start, i})
	}
	for k := 1; k < h.p; k++ {
		n := (start + k) % h.p
		for i := len(h.mirror[n]) - 1; i >= 0; i-- {
			walk = append(walk, pos{n, i})
		}
	}
	for i := len(h.mirror[start]) - 1; i > first; i-- {
		walk = append(walk, pos{start, i})
	}
	minRep, allRedundant = 1<<30, true
	for _, x := range walk {
		j := h.mirror[x.node][x.i]
		if h.have[j] || x.node == exclude || slices.Contains(h.mirror[exclude], j) || chosen[j] {
			continue
		}
		allRedundant = false
		minRep = min(minRep, h.copies[j])
		if h.copies[j] <= h.threshold {
			h.cur = h.after(x.node, x.i, start, exclude)
			return j, minRep, false
		}
	}
	return -1, minRep, allRedundant
}
