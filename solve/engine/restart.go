package engine

import (
	"fmt"
	"time"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// elemKey says what a column or row of a pattern's LP stands for — the
// message (stage, destination) and hop level it belongs to, or the two
// hops of an arc — so that the basis of one pattern's LP can start the LP
// of a pattern with fewer messages (a prune round).
type elemKey struct {
	kind       byte // a α, b suffix, t hop start, s compute start, c Cmax; A arc, C computing, S suffix, H chain, L load
	arc        formulations.ArcKind
	eq         string
	s1, d1, l1 int
	s2, d2, l2 int
	known      bool
}

// basisKeys returns the keys of the columns and rows of a model built by
// nw.Build with layout lay (cols and rows: the model's size). Columns and
// rows the layout does not name get the zero key, which matches nothing.
func basisKeys(nw *formulations.Network, lay *formulations.Layout, cols, rows int) (ck, rk []elemKey) {
	ck, rk = make([]elemKey, cols), make([]elemKey, rows)
	msg := func(kind byte, j int) elemKey {
		m := nw.Pattern[j]
		return elemKey{kind: kind, s1: m.Stage, d1: m.Dest, known: true}
	}
	hop := func(kind byte, h int) elemKey {
		k := msg(kind, nw.Hops[h].Msg)
		k.l1 = nw.Hops[h].Level
		return k
	}
	set := func(keys []elemKey, i int, k elemKey) {
		if i >= 0 && i < len(keys) {
			keys[i] = k
		}
	}
	for j := range nw.Pattern {
		set(ck, at(lay.Alpha, j), msg('a', j))
		set(ck, at(lay.Beta, j), msg('b', j))
		set(ck, at(lay.Start, j), msg('s', j))
		set(rk, at(lay.CompRow, j), msg('C', j))
		set(rk, at(lay.SufRow, j), msg('S', j))
		set(rk, at(lay.ChainRow, j), msg('H', j))
	}
	for h := range nw.Hops {
		set(ck, at(lay.Time, h), hop('t', h))
	}
	for a, arc := range lay.Arcs {
		k := hop('A', arc.From)
		to := hop('A', arc.To)
		k.arc, k.eq = arc.Kind, arc.Eq
		k.s2, k.d2, k.l2 = to.s1, to.d1, to.l1
		set(rk, at(lay.ArcRow, a), k)
	}
	set(ck, lay.Cmax, elemKey{kind: 'c', known: true})
	set(rk, lay.LoadRow, elemKey{kind: 'L', known: true})
	return ck, rk
}

// at returns s[i], or −1 when s is too short.
func at(s []int, i int) int {
	if i < len(s) {
		return s[i]
	}
	return -1
}

// restartBasis maps the basis old of the LP (oldCols, oldRows keys) onto
// an LP with keys newCols, newRows: an element keeps its status where it
// has a counterpart (unknown keys are never stored, so they match
// nothing); a new column starts at its lower bound and a new row basic
// (its slack). The count of basic entries may then be off; the
// backend repairs that.
//
// On a chain (chain: stars, whose hops each start when the one before
// ends), a prune round that removes message j joins the arcs i → j → x
// into one arc i → x, which has no counterpart; it takes the status of
// the arc the old LP had into x. That keeps the count of basic entries
// right (j's hop time, basic, leaves with its two arc rows and its
// computing row; its load is at its bound 0) and the restart at the old
// optimum: the star of the paper's Section 4.1 at n = 10,000 (D = V/n)
// prunes 2,043 empty messages from the restricted LP of stage generation
// and re-solves in 6 iterations, against 8,633 with those rows basic
// (TestChainRestartBasis). On a tree a hop has arcs of several kinds from
// several hops, and the rows stay basic.
func restartBasis(old solver.Basis, oldCols, oldRows, newCols, newRows []elemKey, chain bool) solver.Basis {
	status := make(map[elemKey]solver.BasisStatus, len(oldCols)+len(oldRows))
	for j, k := range oldCols {
		if k.known {
			status[k] = old.Cols[j]
		}
	}
	for i, k := range oldRows {
		if k.known {
			status[k] = old.Rows[i]
		}
	}
	var into map[elemKey]solver.BasisStatus // chain: an old arc row's status by the hop it enters
	if chain {
		into = make(map[elemKey]solver.BasisStatus, len(oldRows))
		for i, k := range oldRows {
			if k.known && k.kind == 'A' {
				into[intoKey(k)] = old.Rows[i]
			}
		}
	}
	b := solver.Basis{Cols: make([]solver.BasisStatus, len(newCols)), Rows: make([]solver.BasisStatus, len(newRows))}
	for j, k := range newCols {
		b.Cols[j] = solver.AtLower
		if s, ok := status[k]; ok {
			b.Cols[j] = s
		}
	}
	for i, k := range newRows {
		b.Rows[i] = solver.Basic
		if s, ok := status[k]; ok {
			b.Rows[i] = s
		} else if s, ok := into[intoKey(k)]; ok { // into holds arc rows only
			b.Rows[i] = s
		}
	}
	return b
}

// restart is what a solved outcome keeps for the next prune round: the
// final basis and the layout of its model, and the keys of its columns
// and rows once built (keys).
type restart struct {
	basis      solver.Basis
	lay        *formulations.Layout
	cols, rows []elemKey
}

// keys returns the keys of the columns and rows of the basis's model, the
// LP of nw, building them on first use.
func (r *restart) keys(nw *formulations.Network) (cols, rows []elemKey) {
	if r.cols == nil && r.rows == nil {
		r.cols, r.rows = basisKeys(nw, r.lay, len(r.basis.Cols), len(r.basis.Rows))
	}
	return r.cols, r.rows
}

// restarts reports whether prune rounds of p restart from the basis of
// the round before (solveRestarted).
func restarts(p *problem.Problem, opt Options) bool {
	_, ok := opt.Solver.(solver.Restarter)
	return ok && !opt.NoPrune && p.Kind != topology.Binomial
}

// keepRestart records the basis of the model just solved by opt.Solver
// for the outcome out (layout lay), when prune rounds will use it.
func (out *Outcome) keepRestart(lay *formulations.Layout, opt Options) {
	out.keepRestartOf(lay, out.Model, opt)
}

// keepRestartOf records the basis of model, the LP just solved by
// opt.Solver with layout lay over out's network — the whole LP, or the
// restricted LP that stage generation solved last
// (formulations.Network.BuildRestricted: its layout names the full
// network's messages, −1 for those it leaves out) — when prune rounds
// will use it.
func (out *Outcome) keepRestartOf(lay *formulations.Layout, model *lp.Model, opt Options) {
	if !restarts(out.Network.Prob, opt) {
		return
	}
	b, ok := opt.Solver.(solver.Restarter).Basis()
	if !ok || len(b.Cols) != model.NumVars() || len(b.Rows) != model.NumRows() {
		return
	}
	out.restart = &restart{basis: b, lay: lay}
}

// solveRestarted solves the LP of pattern pat — prev's pattern less the
// messages a prune round removes — from prev's final basis mapped onto it
// (the first attempt's algorithm and tolerances, no presolve), then
// repairs and certifies it as SolvePattern does. It returns nil (and no
// error) when that does not apply (a solver without bases, a binomial
// tree, a pattern solved by stage generation, no basis kept, a basis the
// solver refuses) or when the answer does not certify; the caller then
// solves cold. Those attempts are returned for the record. Only a
// cancelled context or a model over the memory limit is an error.
//
// Binomial trees are left cold: their hops form one chain of equalities
// that Clp's presolve eliminates, and it then solves a pruned LP in 0 to
// 20 iterations, which a restart without presolve does not beat (binomial
// p = 2, h = 8, n = 60: 0 iterations cold, 55 restarted). On an ordinary
// tree and a star the restart saves most of the work (tree p = 2, h = 6,
// n = 100: 322 iterations instead of 2,816; star m = 10, n = 300: 254
// instead of 1,154; TestPruneRoundsRestart).
func solveRestarted(p *problem.Problem, pat formulations.Pattern, prev *Outcome, opt Options) (*Outcome, []schedule.Attempt, error) {
	if !restarts(p, opt) || prev.restart == nil || initialLive(p, pat, opt) != nil {
		return nil, nil, nil
	}
	rs := opt.Solver.(solver.Restarter)
	out, lay, _, err := newOutcome(p, pat, opt)
	if err != nil {
		return nil, nil, err
	}
	nw, model := out.Network, out.Model
	old := prev.restart
	ck, rk := basisKeys(nw, lay, model.NumVars(), model.NumRows())
	ocols, orows := old.keys(prev.Network)
	if rs.Load(model) != nil || rs.SetBasis(restartBasis(old.basis, ocols, orows, ck, rk, prev.Network.IsChain() && nw.IsChain())) != nil {
		return nil, nil, nil // the cold solve loads the model again and reports what fails
	}
	so := restartAttempt(p, opt)
	t0 := time.Now()
	sol, err := rs.Resolve(so)
	at := attemptOf(so.Algorithm.String()+" (restart)", "off", sol, err, time.Since(t0).Seconds())
	if err != nil {
		if so.Context != nil && so.Context.Err() != nil {
			return nil, nil, fmt.Errorf("engine: %s LP with %d messages: %w", p.Kind, len(pat), err)
		}
		return nil, []schedule.Attempt{at}, nil
	}
	out.record(nw, model, lay, lay.Decode(sol.X), sol.Duals, at)
	if out.Gap() > opt.tol() && !opt.NoRetry {
		if sol, at, err := polish(rs, so); err == nil {
			out.record(nw, model, lay, lay.Decode(sol.X), sol.Duals, at)
		}
	}
	if out.Timing == nil || out.Gap() > opt.tol() {
		return nil, out.Attempts, nil
	}
	out.keepRestart(lay, opt)
	if out.restart != nil {
		out.restart.cols, out.restart.rows = ck, rk // this round's keys serve the next
	}
	out.finish()
	return out, nil, nil
}

// restartAttempt returns the solver setting of a restarted solve: the
// first attempt's (algorithm, scaling, tolerances) — with Auto, the
// primal simplex. A prune round removes messages that carry no load, so
// the loads and times of the LP before stay feasible for the LP after
// (a removed message's startup only delays the ones after it;
// docs/formulations.md): the basis mapped from it is close to a primal
// feasible one, which the primal simplex improves from where it stands.
// The dual simplex, the first attempt on ordinary trees, loses that: on
// the tree p = 2, h = 8, n = 100 (TreeNLF-1) its restart took 4,246
// iterations and 0.80 s, more than the cold solve of the larger LP before
// it (4,779 iterations, 0.31 s with presolve); the primal simplex's
// restart took a fraction of that (TestTreeRestartPrimal). A search's
// candidate started from the candidate before (Starts) has no such
// feasible start, yet the primal simplex is ahead there too: the default
// search of the tree p = 2, h = 4, D = 10, V = 5e3, n = 300 took 50 s with
// primal restarts everywhere, 103 s with the dual simplex's, 136 s with
// candidates solved cold (same Cmax, 0.50692). On stars the first attempt
// is the primal simplex already.
func restartAttempt(p *problem.Problem, opt Options) solver.Options {
	so := attempts(opt.Base, opt.Auto, p.Kind)[0]
	if opt.Auto {
		so.Algorithm = solver.Primal
	}
	return so
}

// Starts hands the final basis of one solve to the next: the first LP of
// a Solve or SolveFrom given Options.Starts starts from the basis the
// previous such call ended with, where restarts apply (stars and ordinary
// trees, with pruning). A pattern search's candidates — the best pattern
// give or take some messages or stages — are such neighbours. The zero
// value is ready; a Starts is used by one goroutine at a time.
type Starts struct{ last *Outcome }

// intoKey is the key of an arc row without its first hop: the arc's kind
// and the hop it enters.
func intoKey(k elemKey) elemKey {
	k.s1, k.d1, k.l1 = 0, 0, 0
	return k
}
