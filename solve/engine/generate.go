package engine

import (
	"cmp"
	"slices"
	"sort"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solver"
)

// maxGenerationRounds bounds the restricted solves before SolvePattern
// falls back to the full LP.
const maxGenerationRounds = 30

// initialLive returns the messages of the first restricted LP of stage
// generation — those of the first ⌊5·n_min/4⌋ + 2 stages present in pat:
// at the optimum of the full n-stage LP of the paper's stars the loads sit
// in the first stages (the solver's optimal vertex fills the first
// 2·n_min stages, but the first 1.25·n_min already reach the optimum:
// star m = 10, n = 1,000 to 10,000, D = V/n, certified in one round) —
// or nil when SolvePattern should solve the full LP at once: stage
// generation switched off, not formulations.GeneratedByDefault (other form,
// ordinary tree, fewer than formulations.GenerationMinMessages messages),
// or a first restricted LP that would hold most of the pattern anyway.
func initialLive(p *problem.Problem, pat formulations.Pattern, opt Options) []bool {
	if opt.NoStageGeneration || p.Returns() || !formulations.GeneratedByDefault(p.Kind, opt.Form, len(pat)) {
		return nil
	}
	stages := make([]int, 0, len(pat))
	seen := map[int]bool{}
	for _, m := range pat {
		if !seen[m.Stage] {
			seen[m.Stage] = true
			stages = append(stages, m.Stage)
		}
	}
	sort.Ints(stages)
	k := p.NMin()*5/4 + 2
	if k >= len(stages) {
		return nil
	}
	last := stages[k-1]
	live := make([]bool, len(pat))
	count := 0
	for j, m := range pat {
		if m.Stage <= last {
			live[j] = true
			count++
		}
	}
	if 4*count > 3*len(pat) {
		return nil
	}
	return live
}

// generate solves the LP of nw (model, lay: the full compact LP) by stage
// generation: it solves the restricted LP over the messages in live
// (formulations.Network.BuildRestricted), evaluates its loads on the full
// network (every message of the pattern, loaded or not, paying its
// startup), and certifies the result on the full model with the
// restricted LP's duals, the rows the restricted LP lacks given dual 0.
// While the certified gap is above tolerance, it adds the messages whose
// reduced cost in the full LP under the repaired duals is negative (their
// load would lower the bound's objective) and solves again. Cmax is always
// the makespan of a feasible schedule of the full pattern and the bound a
// bound on the full LP, so the gap is the full LP's. It returns true when
// the gap reached the tolerance; false sends SolvePattern to the full LP,
// keeping the best makespan and bound found here.
func (out *Outcome) generate(nw *formulations.Network, model *lp.Model, lay *formulations.Layout, sc formulations.Scale, live []bool, opt Options) (bool, error) {
	so := attempts(opt.Base, opt.Auto, nw.Prob.Kind)[0]
	if opt.Auto {
		// The restricted LPs are solved without Clp's scaling: the same
		// certificate, fewer seconds per iteration (star m = 10, D = V/n,
		// one run: n = 10,000 3.7 s against 5.9 s, n = 3,000 0.44 against
		// 0.62 s; D = 5e3, 1e5 and ∞ and a binomial tree about equal).
		so.Scaling, so.ScalingSet = 0, true
	}
	tol := opt.tol()
	for round := 0; round < maxGenerationRounds; round++ {
		rm, rlay := nw.BuildRestricted(sc, live)
		count := 0
		for _, l := range live {
			if l {
				count++
			}
		}
		sol, at, err := out.solveRestricted(nw, rm, rlay, so, opt, round == 0)
		at.Messages = count
		if err != nil {
			out.Attempts = append(out.Attempts, at)
			if so.Context != nil && so.Context.Err() != nil {
				return false, err
			}
			return false, nil
		}
		y := fullDuals(model, lay, rlay, sol.Duals)
		rep := out.record(nw, model, lay, rlay.Decode(sol.X), y, at)
		if out.Gap() <= tol {
			out.keepRestartOf(rlay, rm, opt)
			return true, nil
		}
		if rep != nil {
			// Price with the restricted LP's own load dual: the repaired
			// one maximises the bound, which a message priced out by the
			// restricted LP's dual can make 0 (its load looks free).
			rep[lay.LoadRow] = y[lay.LoadRow]
		}
		add := price(model, lay, rep, live, len(nw.Dests))
		if len(add) == 0 {
			// Nothing to add: the restricted optimum is the full one but
			// its duals are not accurate enough. Polish them as
			// SolvePattern does.
			inc, ok := opt.Solver.(solver.Incremental)
			if !ok || opt.NoRetry {
				return false, nil
			}
			sol, at, err := polish(inc, so)
			if err != nil {
				return false, nil
			}
			at.Messages = count
			out.record(nw, model, lay, rlay.Decode(sol.X), fullDuals(model, lay, rlay, sol.Duals), at)
			if out.Gap() > tol {
				return false, nil
			}
			out.keepRestartOf(rlay, rm, opt)
			return true, nil
		}
		for _, j := range add {
			live[j] = true
		}
	}
	return false, nil
}

// fullDuals maps the duals yr of the restricted LP (layout rlay) onto the
// rows of the full LP (model, layout lay): arc, computing, suffix and load
// rows where the restricted LP has them, 0 elsewhere (Layout.RepairDuals
// restores the arc rows of a contracted chain by flow balance).
func fullDuals(model *lp.Model, lay, rlay *formulations.Layout, yr []float64) []float64 {
	if yr == nil {
		return nil
	}
	y := make([]float64, model.NumRows())
	for a := range lay.Arcs {
		if r := rlay.ArcRow[a]; r >= 0 {
			y[lay.ArcRow[a]] = yr[r]
		}
	}
	for j := range lay.CompRow {
		if r := rlay.CompRow[j]; r >= 0 {
			y[lay.CompRow[j]] = yr[r]
		}
		if r := rlay.SufRow[j]; r >= 0 && lay.SufRow[j] >= 0 {
			y[lay.SufRow[j]] = yr[r]
		}
	}
	y[lay.LoadRow] = yr[rlay.LoadRow]
	return y
}

// price returns the messages outside live whose load column has a negative
// reduced cost c − Aᵀy in the full LP under the duals y, most negative
// first, at most a quarter as many as are live already and at least four per
// destination (so the restricted LP grows by at most a quarter per round). A column is priced in when its reduced cost times its
// upper bound could move the bound by more than 1e-13 of the scaled Cmax
// (at least 1, the scaled trivial bound).
func price(model *lp.Model, lay *formulations.Layout, y []float64, live []bool, dests int) []int {
	if y == nil {
		return nil
	}
	r := append([]float64(nil), model.Obj...)
	for i := 0; i < model.NumRows(); i++ {
		if y[i] == 0 {
			continue
		}
		cols, vals := model.Row(i)
		for q, c := range cols {
			r[c] -= vals[q] * y[i]
		}
	}
	type cand struct {
		j int
		v float64
	}
	var cs []cand
	nLive := 0
	for j, c := range lay.Alpha {
		if live[j] {
			nLive++
			continue
		}
		if v := r[c] * model.ColUpper[c]; v < -1e-13 {
			cs = append(cs, cand{j, v})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Compare(a.v, b.v) })
	if limit := max(nLive/4, 4*dests); len(cs) > limit {
		cs = cs[:limit]
	}
	add := make([]int, len(cs))
	for q, c := range cs {
		add[q] = c.j
	}
	return add
}
