package pattern

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve/engine"
	"github.com/dlsched/dlsched/solver"
)

// ahead solves the greedy prunes of a chain's stage counts ahead of the
// search, on Options.Parallel−1 further solvers: the greedy prune of the
// full k-stage pattern is the first solve of count k and depends on p and
// k only — it starts cold, from a fresh engine.Starts, and its prune
// rounds restart from one another — so it can run while the search works
// on the counts below. The search takes a prune solved ahead only where it
// would have solved it the same way (take, usable): it would not have,
// when the chain's record holds the full pattern or, below the top count,
// one of the patterns the prune went through (the search then stops the
// prune there, Options.Known); it then solves the count itself, as without
// ahead. So the schedules are the same for every Options.Parallel.
type ahead struct {
	lo     int
	ctx    context.Context // the workers', cancelled by stop
	slots  []aheadSlot
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// aheadSlot is the greedy prune of one stage count: claimed by the first
// of the search and the workers to reach it, done once solved (or given up
// to the search).
type aheadSlot struct {
	claimed atomic.Bool
	done    chan struct{}
	run     aheadRun
}

// aheadRun is a greedy prune solved ahead: its full pattern's key, its
// schedule or error, the patterns its prune rounds asked about
// (Options.Known, in order) and the engine.Starts it ended with (the
// basis the count's next candidate starts from).
type aheadRun struct {
	full   seqKey // the key of the full k-stage pattern
	s      *schedule.Schedule
	err    error
	keeps  []seqKey
	starts *engine.Starts
}

// startAhead starts the workers of chain c when Search may use them: more
// than one LP at once (Options.Parallel), a solver factory, no cache (a
// sweep runs its points in parallel instead), more than one count, and no
// greedy prune taken from the top count (topReuse). Nil otherwise. There
// are at most as many workers, besides the search, as further LPs of the
// full n-stage pattern fit in Engine.MaxModelBytes (engine.Fits).
func startAhead(c *chain) *ahead {
	opt := c.opt
	if opt.Parallel <= 1 || opt.NewSolver == nil || opt.Cache != nil || c.lo >= c.n || c.reuse {
		return nil
	}
	parent := opt.Engine.Base.Context
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	a := &ahead{lo: c.lo, ctx: ctx, slots: make([]aheadSlot, c.n-c.lo+1), cancel: cancel}
	for i := range a.slots {
		a.slots[i].done = make(chan struct{})
	}
	// The LPs held at once share the memory limit: the search's own and
	// the workers' (each the full n-stage pattern's at most).
	workers := min(int64(opt.Parallel-1), int64(c.n-c.lo), engine.Fits(c.p, c.n, opt.Engine)-1)
	for range workers {
		s, release, err := opt.NewSolver()
		if err != nil {
			break // the search solves what no worker does
		}
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			defer release()
			a.work(ctx, c, s)
		}()
	}
	return a
}

// work solves the greedy prunes of the counts no one has claimed, lowest
// first, on solver s.
func (a *ahead) work(ctx context.Context, c *chain, s solver.Solver) {
	for i := range a.slots {
		if ctx.Err() != nil {
			return
		}
		sl := &a.slots[i]
		if !sl.claimed.CompareAndSwap(false, true) {
			continue
		}
		sl.run = solveAhead(ctx, c, a.lo+i, s)
		close(sl.done)
	}
}

// solveAhead solves the greedy prune of the full k-stage pattern as the
// search's first solve at count k does, on solver s, recording the
// patterns the prune asks about instead of stopping at known ones.
func solveAhead(ctx context.Context, c *chain, k int, s solver.Solver) aheadRun {
	run := aheadRun{full: keyOf(fullOn(c.p, k, nil)), starts: &engine.Starts{}}
	o := c.opt.Engine
	o.Solver, o.Starts, o.Dests = s, run.starts, nil
	o.Base.Context = ctx
	o.Known = func(keep formulations.Pattern) bool {
		run.keeps = append(run.keeps, keyOf(keep))
		return false
	}
	run.s, run.err = engine.Solve(c.p, k, o)
	return run
}

// take returns the greedy prune of count k solved ahead; false when no
// worker has started it (the search then solves it itself, and no worker
// will). While a worker is on it, the search solves the counts above that
// no one has claimed, on its own solver s, as the workers do.
func (a *ahead) take(c *chain, k int, s solver.Solver) (*aheadRun, bool) {
	if a == nil {
		return nil, false
	}
	sl := &a.slots[k-a.lo]
	if sl.claimed.CompareAndSwap(false, true) {
		close(sl.done)
		return nil, false
	}
	for j := k + 1; j <= c.n; j++ {
		select {
		case <-sl.done:
			return &sl.run, true
		default:
		}
		next := &a.slots[j-a.lo]
		if next.claimed.CompareAndSwap(false, true) {
			next.run = solveAhead(a.ctx, c, j, s)
			close(next.done)
		}
	}
	<-sl.done
	return &sl.run, true
}

// stop cancels the workers' solves and waits for them.
func (a *ahead) stop() {
	if a == nil {
		return
	}
	a.cancel()
	a.wg.Wait()
}

// usable returns the greedy prune solved ahead as the search's own at
// this count — recording its patterns and taking its final basis, as
// solve would have — when the search would have solved it the same way:
// without an error, with the full pattern not in the chain's record and,
// below the top count, none of the patterns its prune went through
// either (solve's stop). False otherwise: the search solves it itself.
func (sr *searcher) usable(run *aheadRun) (*schedule.Schedule, bool) {
	if !sr.wouldSolve(run) {
		aheadHook(sr.n, false)
		return nil, false
	}
	aheadHook(sr.n, true)
	sr.record(append(append([]seqKey{run.full}, run.keeps...), keyOf(patternOf(run.s))), run.s.Cmax)
	sr.opt.Engine.Starts = run.starts
	return run.s, true
}

// wouldSolve reports whether the search would have solved the greedy
// prune at its count as run did (usable).
func (sr *searcher) wouldSolve(run *aheadRun) bool {
	if run.err != nil {
		return false
	}
	if _, ok := sr.recalled(run.full); ok {
		return false
	}
	if sr.n < sr.c.n {
		for _, k := range run.keeps {
			if _, ok := sr.recalled(k); ok {
				return false
			}
		}
	}
	return true
}

// aheadHook is told, for each greedy prune solved ahead that the search
// takes up, its count and whether it was used (tests count them).
var aheadHook = func(k int, used bool) {}
