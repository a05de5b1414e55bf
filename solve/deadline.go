package solve

import (
	"fmt"
	"math"
	"time"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solve/pattern"
	"github.com/dlsched/dlsched/solver"
)

// FieldDeadline names MaxLoad's deadline in errors.
const FieldDeadline = "deadline"

// maxDeadlineRounds bounds MaxLoad's alternation of searches and deadline
// LPs; each round strictly raises the load, so it ends long before.
const maxDeadlineRounds = 50

// deadlineTol is the relative margin below the deadline at which a
// search's makespan counts as reaching it.
const deadlineTol = 1e-9

// MaxLoad answers the deadline form: the largest load that finishes by
// the deadline with n stages, under everything Schedule searches (the
// worker order of a heterogeneous star, the message pattern; buffers and
// results as p states them). p.V is ignored (it must be valid). It
// alternates two steps from the given order's full n-stage pattern: the
// deadline LP of a pattern (engine.MaxLoad: maximise the load with Cmax
// at most the deadline) gives a load V; Schedule's search at V gives the
// best makespan and pattern for V. While that makespan is below the
// deadline, the pattern carries more: its deadline LP gives the next V,
// larger. When the search finds nothing shorter than the deadline, V is
// the answer: the returned schedule (Schedule's, verified with
// opt.Verify) carries it, its Cmax is the deadline to the LP's tolerance,
// and Schedule.MaxLoad and Deadline record the question and the answer
// (docs/heterogeneous.md). Errors are Schedule's, a *problem.FieldError on
// FieldDeadline, and an infeasible error (IsInfeasible) when no load at
// all finishes by the deadline. opt.Progress is not called.
func MaxLoad(p *problem.Problem, n int, deadline float64, opt Options) (*Result, error) {
	if !(deadline > 0) || math.IsInf(deadline, 0) {
		return nil, &problem.FieldError{Field: FieldDeadline, Value: fmt.Sprintf("%g", deadline), Want: "a finite time > 0"}
	}
	eo, err := opt.engine()
	if err != nil {
		return nil, err
	}
	if err := check(p, n, eo, opt); err != nil {
		return nil, err
	}
	opt.Progress = nil // its pattern searches are many, one per load tried
	t0 := time.Now()
	v, _, err := engine.MaxLoad(p, formulations.FullPattern(p, n), deadline, eo)
	if err != nil {
		return nil, wrap(err)
	}
	if !(v > 0) {
		// The given pattern's startups alone exceed the deadline; a
		// subset's may not: start the search from a crumb of load.
		v = crumb(p, deadline)
	}
	r, q, v, lps, err := raiseAndMeet(p, n, deadline, v, eo, opt)
	if err != nil {
		return nil, wrap(err)
	}
	s := r.s
	if r.perm != nil {
		s = r.remap(q)
	}
	s.Deadline, s.MaxLoad = deadline, v
	res := &Result{Schedule: s, SearchLPs: lps, SolveSeconds: time.Since(t0).Seconds()}
	if opt.Verify {
		res.VerifySeconds, res.VerifyErr = Verify(s, opt)
	}
	return res, nil
}

// maxDeadlinePasses bounds MaxLoad's passes of raiseLoad and
// meetDeadline (raiseAndMeet).
const maxDeadlinePasses = 3

// raiseAndMeet is raiseLoad from load v, then meetDeadline. The search is
// a heuristic over orders and patterns, and a hair less load can lead it
// to another, much shorter schedule: when meetDeadline had to lower the
// load and the schedule it ends with finishes well before the deadline,
// that load is not the largest, so the alternation starts again from it,
// up to maxDeadlinePasses passes (rapid found a three-processor star with
// results, n = 3, T = 5, whose load 7.3504 took 5 + 1e-13 and 1e-13 less
// took 4.92; raised again, 7.4815 takes 5).
func raiseAndMeet(p *problem.Problem, n int, deadline, v float64, eo engine.Options, opt Options) (*permuted, *problem.Problem, float64, int, error) {
	lps := 0
	for pass := 1; ; pass++ {
		r, q, w, k, err := raiseLoad(p, n, deadline, v, eo, opt)
		lps += k
		if err != nil {
			return nil, nil, 0, lps, err
		}
		lowered := r.s.Cmax > deadline
		if r, q, w, err = meetDeadline(r, q, w, n, deadline, eo, opt); err != nil {
			return nil, nil, 0, lps, err
		}
		if !lowered || pass == maxDeadlinePasses || !(r.s.Cmax < deadline*(1-deadlineTol)) {
			return r, q, w, lps, nil
		}
		v = w
	}
}

// crumb is a load far below any answer: 1e-9 of what the fastest
// destination alone would compute by the deadline without startups.
func crumb(p *problem.Problem, deadline float64) float64 {
	rate := p.C + p.A
	if len(p.Procs) > 0 {
		rate = math.Inf(1)
		for _, q := range p.Procs {
			rate = math.Min(rate, q.C+q.A)
		}
	}
	return 1e-9 * deadline / rate
}

// raiseLoad is MaxLoad's alternation from load v: it returns the last
// search's schedule, its problem (p at the answer's load), the answer and
// the LPs solved. A search's makespan below the deadline means that its
// pattern carries more — its deadline LP gives the next load, and the
// pattern seeds the next search, so that the search's answer meets the
// deadline — unless the pattern is full (each message at D): then the
// pattern with one more message of the full n-stage pattern that carries
// most is tried, and last a little more load (1e-9) shows whether the
// search finds another order or pattern that carries it.
func raiseLoad(p *problem.Problem, n int, deadline, v float64, eo engine.Options, opt Options) (*permuted, *problem.Problem, float64, int, error) {
	dl := &deadlineSearch{p: p, n: n, deadline: deadline, eo: eo, opt: opt, full: float64(n) * p.StageCapacity()}
	v = math.Min(v, dl.full) // a deadline LP's sum may pass it by rounding
	r, err := dl.search(v, nil)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	if r.s.Cmax > deadline*(1+deadlineTol) {
		return nil, nil, 0, 0, fmt.Errorf("no load finishes by the deadline %g with %d stage(s): the shortest schedule of a crumb of load takes %.12g: %w",
			deadline, n, r.s.Cmax, solver.ErrInfeasible)
	}
	for round := 0; round < maxDeadlineRounds && r.s.Cmax < deadline*(1-deadlineTol); round++ {
		seed, next, err := dl.carry(r)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		if next > v*(1+1e-12) {
			if r, err = dl.search(next, seed); err != nil {
				return nil, nil, 0, 0, err
			}
			v = next
			continue
		}
		more := v * (1 + 1e-9)
		if more > dl.full {
			break // every buffer is full
		}
		// Strictly by the deadline: a schedule of more that ends after it,
		// even by rounding, would be shaved back below v (meetDeadline), and
		// its pattern there can carry less than v's (a seeded property
		// test found 12.5·(1 − 1e-9) returned where 12.5 had finished by the
		// deadline).
		r2, err := dl.search(more, nil)
		if err != nil || r2.s.Cmax > deadline {
			break // nothing carries more by the deadline
		}
		r, v = r2, more
	}
	q := *p
	q.V = v
	return r, &q, v, dl.lps, nil
}

// meetDeadline lowers the answer v by what rounding put above the
// deadline (the deadline LP's solution satisfies Cmax ≤ T only to the
// solver's tolerance, about 1e-11 relative): while the schedule ends after
// T, v shrinks by four times the excess, re-solved in the same pattern.
func meetDeadline(r *permuted, q *problem.Problem, v float64, n int, deadline float64, eo engine.Options, opt Options) (*permuted, *problem.Problem, float64, error) {
	dl := &deadlineSearch{p: q, n: n, deadline: deadline, eo: eo, opt: opt}
	for i := 0; i < 3 && r.s.Cmax > deadline; i++ {
		v *= 1 - 4*(r.s.Cmax-deadline)/deadline
		seed := &seeded{q: r.q, pat: patternOf(r.s), r: r}
		next, err := dl.search(v, seed)
		if err != nil {
			return nil, nil, 0, err
		}
		r = next
		qq := *q
		qq.V = v
		q = &qq
	}
	return r, q, v, nil
}

// deadlineSearch runs MaxLoad's searches and counts their LPs.
type deadlineSearch struct {
	p              *problem.Problem
	n              int
	deadline, full float64
	eo             engine.Options
	opt            Options
	lps            int
}

// seeded is a pattern on the processors of q, in their numbers.
type seeded struct {
	q   *problem.Problem
	pat formulations.Pattern
	r   *permuted // where q's processors come from
}

// carry returns the pattern that carries most by the deadline among r's
// and, when r's carries no more than r's load (every message full), r's
// with one more message of the full n-stage pattern, and that load.
func (dl *deadlineSearch) carry(r *permuted) (*seeded, float64, error) {
	best := &seeded{q: r.q, pat: patternOf(r.s), r: r}
	most, _, err := engine.MaxLoad(r.q, best.pat, dl.deadline, dl.eo)
	dl.lps++
	if err != nil || most > r.q.V*(1+1e-12) {
		return best, math.Min(most, dl.full), err
	}
	have := map[formulations.Msg]bool{}
	for _, m := range best.pat {
		have[m] = true
	}
	full := formulations.FullPattern(r.q, dl.n)
	for _, add := range full {
		if have[add] {
			continue
		}
		var cand formulations.Pattern
		for _, m := range full {
			if have[m] || m == add {
				cand = append(cand, m)
			}
		}
		v, _, err := engine.MaxLoad(r.q, cand, dl.deadline, dl.eo)
		dl.lps++
		if err != nil {
			return nil, 0, err
		}
		if v > most*(1+1e-12) {
			best, most = &seeded{q: r.q, pat: cand, r: r}, v
		}
	}
	return best, math.Min(most, dl.full), nil
}

// search is Schedule's search at load v; with seed (a pattern that
// carries v by the deadline), that pattern at v too, the better kept: the
// search is a heuristic over patterns and may miss it.
func (dl *deadlineSearch) search(v float64, seed *seeded) (*permuted, error) {
	q := *dl.p
	q.V = v
	r, k, err := schedulePermuted(&q, dl.n, dl.eo, dl.opt)
	dl.lps += k
	if err != nil || seed == nil {
		return r, err
	}
	sq := *seed.q
	sq.V = v
	// The seed is a pruned pattern, re-solved at each load tried: from a
	// crash basis when it is a large star's (engine.Options.CrashWhole).
	eo := dl.eo
	eo.CrashWhole = true
	s, err := engine.SolveFrom(&sq, dl.n, seed.pat, eo)
	dl.lps++
	if err != nil || !(s.Cmax < r.s.Cmax*(1-1e-12)) {
		return r, nil
	}
	s.Pattern = &schedule.PatternInfo{Method: pattern.MethodSearch, Candidates: 1,
		Note: "the deadline form's pattern: the search at this load found a longer one"}
	pattern.SetBound(&sq, s)
	return &permuted{s: s, q: &sq, perm: seed.r.perm, ord: seed.r.ord}, nil
}

// patternOf returns the message pattern of a schedule: its chunks' stages
// and destinations in send order.
func patternOf(s *schedule.Schedule) formulations.Pattern {
	out := make(formulations.Pattern, len(s.Chunks))
	for i := range s.Chunks {
		out[i] = formulations.Msg{Stage: s.Chunks[i].Stage, Dest: s.Chunks[i].Dest()}
	}
	return out
}
