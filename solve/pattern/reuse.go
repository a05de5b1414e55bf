package pattern

import (
	"fmt"
	"math"
	"slices"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/topology"
)

// portTime returns an upper bound on the time the originator's single port
// of a star is busy with the full n-stage pattern, whatever the loads:
// n·ΣS_i + V·max C_i (ok false for trees, whose links can wait for
// buffers). The port sends one message after the other without a pause
// (a star has no other precedence rule), so in the earliest schedule of
// any loads the last message of the pattern arrives exactly when the port
// has sent every message, at Σ(S_i + C_i·α) ≤ this bound.
func portTime(p *problem.Problem, n int) (float64, bool) {
	if p.Kind != topology.Star {
		return 0, false
	}
	sumS, maxC := 0.0, 0.0
	for _, d := range p.Dests() {
		s, c, _ := p.Params(d)
		sumS += s
		maxC = math.Max(maxC, c)
	}
	return float64(n)*sumS + p.V*maxC, true
}

// topReuse reports whether Search(n) takes the greedy prune of a lower
// stage count from the one at n (topGreedy): on a star whose port, busy
// at most portTime, has sent the whole full n-stage pattern before any
// schedule can end (Bound) — the paper's star with V = 5e6 and 3,000
// stages: 35 s against 500.001 s.
//
// Why that makes the greedy prune of the full k-stage pattern F(k), for k
// from the last stage L that carries load in the LP optimum of F(n) up to
// n, the one of F(n): (a) every solution of F(k), with the messages of
// stages k+1…n added empty, is a solution of F(n) with the same makespan —
// the added messages come after all others on the port and arrive before
// any schedule ends — so LP(F(n)) ≤ LP(F(k)); (b) the optimum of F(n)
// without its empty messages of stages k+1…n is a solution of F(k) whose
// makespan is at most LP(F(n)) (removing empty messages never lengthens a
// schedule, docs/formulations.md, pruning). So it is an optimum of F(k),
// the prune from it drops the same empty messages as at n and solves the
// same LPs from then on: the greedy prune at k is that of n. It costs
// nothing to know.
func topReuse(p *problem.Problem, n int) bool {
	t, ok := portTime(p, n)
	if !ok {
		return false
	}
	lb, _ := Bound(p)
	return t <= lb*(1-1e-9)
}

// topGreedy is the greedy prune of the full pattern at the top count of a
// chain, for the counts below it (topReuse).
type topGreedy struct {
	n    int
	s    *schedule.Schedule
	err  error
	last int      // the last stage carrying load in the LP optimum of F(n)
	keys []seqKey // the patterns its prune solved
	used bool     // added to the chain's record
}

// solveTop solves the greedy prune of the full n-stage pattern as
// Solve(MethodGreedy) does, recording the patterns its prune rounds
// solve and the last stage of the first one (the messages of the LP
// optimum of F(n) that carry load).
func solveTop(p *problem.Problem, n int, o engine.Options) *topGreedy {
	t := &topGreedy{n: n, last: n}
	first := true
	o.Starts = &engine.Starts{}
	o.Known = func(keep formulations.Pattern) bool {
		if first {
			t.last, first = lastStage(keep), false
		}
		t.keys = append(t.keys, keyOf(keep))
		return false
	}
	t.s, t.err = engine.Solve(p, n, o)
	if t.err == nil {
		t.keys = append(t.keys, keyOf(formulations.FullPattern(p, n)), keyOf(patternOf(t.s)))
	}
	return t
}

// lastStage returns the largest stage of pat (0 when empty).
func lastStage(pat formulations.Pattern) int {
	last := 0
	for _, m := range pat {
		last = max(last, m.Stage)
	}
	return last
}

// restamp returns a copy of s, a schedule of at most k stages, as a
// schedule with k stages: the stage count it reports and the stages and
// messages its pruning record lists are those of k (the LP is the same,
// docs above).
func restamp(s *schedule.Schedule, k int) *schedule.Schedule {
	out := *s
	out.Problem.Stages = k
	if r := s.Pruning; r != nil {
		rc := *r
		rc.Messages = slices.DeleteFunc(slices.Clone(r.Messages), func(m [2]int) bool { return m[0] > k })
		has := map[int]bool{}
		for _, c := range s.Chunks {
			has[c.Stage] = true
		}
		rc.Stages = nil
		for st := 1; st <= k; st++ {
			if !has[st] {
				rc.Stages = append(rc.Stages, st)
			}
		}
		out.Pruning = &rc
	}
	return &out
}

// report adds to the note of the count the chain ends at what the chain
// did not solve, and why: the stage counts whose greedy prune was the top
// count's (topReuse) and the candidates solved before.
func (sr *searcher) report() {
	c := sr.c
	if r := sr.rec.reused; r > 0 && c.top != nil {
		t, _ := portTime(sr.p, c.n)
		lb, _ := Bound(sr.p)
		sr.info.Note = joinNote(sr.info.Note, fmt.Sprintf(
			"stage counts %d-%d not solved: the LP optimum of the full %d-stage pattern loads stages 1-%d only, and the port is busy at most %.6g, below the bound %.6g, so their greedy prune is that of n",
			c.n-r, c.n-1, c.n, c.top.last, t, lb))
	}
	if k := sr.rec.known; k > 0 {
		sr.info.Note = joinNote(sr.info.Note, fmt.Sprintf(
			"%d candidates not solved: solved before (the same destinations in the same order)", k))
	}
}
