package engine

import (
	"math"
	"time"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// crashes reports whether an LP of nw starts from a crash basis (the
// first restricted LP of stage generation: crashBasis; a large deadline
// LP: deadlineCrash): a star, solved with the engine's own choice of
// method (Auto) by a solver whose basis can be set.
func crashes(nw *formulations.Network, opt Options) bool {
	_, ok := opt.Solver.(solver.Restarter)
	return ok && opt.Auto && nw.Prob.Kind == topology.Star
}

// crashBasis returns a starting basis for the compact LP model (layout
// lay, the full LP or a restricted one) of network nw, built from a
// feasible schedule instead of Clp's slack basis. From the slack basis the
// primal simplex brings every basic column of the optimum into the basis
// one pivot at a time — on the paper's star about 1.9 iterations per
// message, each dearer as the LP grows, so the solve grows as n². At the
// optimum of the star m = 10, D = V/n, n = 1,000 (its restricted LP, 1,270
// messages, solved without presolve) every hop time and every nonzero
// suffix sum is basic, 990 of the 1,270 loads sit at their bound D and 270
// are basic, 1,247 of the 1,280 computing rows are slack and the arc,
// suffix and load rows are equalities. The basis here has that shape and
// is the vertex of a feasible schedule: the loads, in the pattern's order,
// at their upper bound until they carry V, the one that completes V basic
// (crashLoads); every other column that is not fixed basic (hop times,
// suffix sums, Cmax); of the rows, the equalities nonbasic and of the
// inequalities the ones that bind in that schedule's earliest-start
// timing (Network.Evaluate) — for each hop the arc from the predecessor
// that ends last, and the computing row that decides Cmax — nonbasic, the
// others slack. That is one basic entry per row (every hop with an arc
// into it has a time column and exactly one binding arc), and a primal
// feasible start. It is a start only: the simplex goes on from it to the
// optimum, and the certificate is the same as from a cold solve.
func crashBasis(nw *formulations.Network, model *lp.Model, lay *formulations.Layout) solver.Basis {
	b := startBasis(model)
	bindRows(nw, lay, b, crashLoads(nw, lay, b.Cols))
	return b
}

// startBasis returns the basis crashBasis starts from: every column basic
// but the fixed ones, every row nonbasic (Fixed, as Clp reports an
// equality) or, an inequality, slack.
func startBasis(model *lp.Model) solver.Basis {
	b := solver.Basis{Cols: make([]solver.BasisStatus, model.NumVars()), Rows: make([]solver.BasisStatus, model.NumRows())}
	for j := range b.Cols {
		b.Cols[j] = solver.Basic
		if model.ColLower[j] == model.ColUpper[j] {
			b.Cols[j] = solver.Fixed
		}
	}
	for i := range b.Rows {
		b.Rows[i] = solver.Fixed
		if model.RowLower[i] < model.RowUpper[i] {
			b.Rows[i] = solver.Basic
		}
	}
	return b
}

// bindRows makes nonbasic the inequality rows of b that bind in the
// earliest-start timing of loads alpha: for each hop with a time column
// the arc from the predecessor that ends last (a hop with no arc row into
// it starts at 0: its column is nonbasic instead), and the computing row
// that decides Cmax.
func bindRows(nw *formulations.Network, lay *formulations.Layout, b solver.Basis, alpha []float64) {
	t := nw.Evaluate(alpha)
	bind := func(i int) {
		if i >= 0 && b.Rows[i] == solver.Basic {
			b.Rows[i] = solver.AtLower
		}
	}
	for h, in := range lay.In {
		best, at := -1, math.Inf(-1)
		for _, a := range in {
			if r := lay.ArcRow[a]; r >= 0 && t.End[lay.Arcs[a].From] > at {
				best, at = r, t.End[lay.Arcs[a].From]
			}
		}
		switch c := lay.Time[h]; {
		case c >= 0 && best < 0 && b.Cols[c] == solver.Basic:
			b.Cols[c] = solver.AtLower // no arc into it: it starts at 0
		case c >= 0:
			bind(best)
		}
	}
	bind(decidingRow(nw, lay, t, alpha))
}

// crashLoads returns crashBasis's loads (one per message of nw, 0 where
// lay has no load column) and marks their columns in cols: in the
// pattern's order each takes its bound (AtUpper) until V is carried, the
// one that completes V is basic (the last at its bound when none does),
// the rest are 0 (AtLower).
func crashLoads(nw *formulations.Network, lay *formulations.Layout, cols []solver.BasisStatus) []float64 {
	p := nw.Prob
	alpha := make([]float64, len(nw.Pattern))
	rest, last, basic := p.V, -1, false
	for q, j := range lay.Alpha {
		if j < 0 {
			continue
		}
		d := nw.Pattern[q].Dest
		w, up := p.DestSize(d), p.MaxLoad(d)
		switch {
		case rest <= 0:
			cols[j] = solver.AtLower
		case up*w < rest:
			cols[j] = solver.AtUpper
			alpha[q], rest, last = up, rest-up*w, j
		default:
			alpha[q], rest, basic = rest/w, 0, true
		}
	}
	if !basic && last >= 0 {
		cols[last] = solver.Basic
	}
	return alpha
}

// decidingRow returns the computing row of lay that decides Cmax in the
// timing t of loads alpha: the largest end of a message's last hop plus
// the computing of all that its destination receives from it on (paper
// (3) in the compact form), −1 when there is none.
func decidingRow(nw *formulations.Network, lay *formulations.Layout, t *formulations.Timing, alpha []float64) int {
	row, at := -1, math.Inf(-1)
	for _, d := range nw.Dests {
		_, _, a := nw.Prob.Params(d)
		msgs := nw.DestMsgs[d]
		suffix := 0.0
		for k := len(msgs) - 1; k >= 0; k-- {
			j := msgs[k]
			suffix += alpha[j]
			hops := nw.MsgHops[j]
			if v := t.End[hops[len(hops)-1]] + a*suffix; lay.CompRow[j] >= 0 && v > at {
				row, at = lay.CompRow[j], v
			}
		}
	}
	return row
}

// solveFromBasis loads model and solves it from basis b with the primal
// simplex and no presolve (the basis is in the model's own rows
// and columns). It returns nil without an error when the solver refuses
// the model or the basis; a solve that fails returns its attempt and
// error, and the caller solves cold.
func solveFromBasis(model *lp.Model, b solver.Basis, so solver.Options, opt Options) (*solver.Solution, schedule.Attempt, error) {
	rs := opt.Solver.(solver.Restarter)
	if rs.Load(model) != nil || rs.SetBasis(b) != nil {
		return nil, schedule.Attempt{}, nil
	}
	so.Algorithm, so.Presolve = solver.Primal, solver.PresolveOff
	t0 := time.Now()
	sol, err := rs.Resolve(so)
	return sol, attemptOf(so.Algorithm.String()+" (crash start)", "off", sol, err, time.Since(t0).Seconds()), err
}

// solveRestricted solves the restricted LP rm (layout rlay) of a
// generation round: the first round's (first) from crashBasis where
// crashes allows — a crash start that fails is recorded and the LP solved
// cold — every other cold with the setting so.
func (out *Outcome) solveRestricted(nw *formulations.Network, rm *lp.Model, rlay *formulations.Layout, so solver.Options, opt Options, first bool) (*solver.Solution, schedule.Attempt, error) {
	if first && crashes(nw, opt) {
		if sol, at, err := out.crashStart(rm, crashBasis(nw, rm, rlay), so, opt); sol != nil || err != nil {
			return sol, at, err
		}
	}
	t0 := time.Now()
	sol, err := opt.Solver.Solve(rm, so)
	return sol, attemptOf(so.Algorithm.String(), presolveName(so.Presolve), sol, err, time.Since(t0).Seconds()), err
}

// crashWhole solves the whole LP of a star that stage generation leaves
// whole (a pattern whose first stages hold most of its messages, such as
// a pruned one, or stage generation switched off) from crashBasis when
// opt.CrashWhole asks for it, crashes allows, the pattern has at least
// formulations.GenerationMinMessages messages and no results come back
// (crashBasis does not place result hops), as the first restricted LP of
// stage generation is: the cold solve from Clp's slack basis grows as n²
// there too (the deadline form's pruned pattern of 10,040 messages, star
// m = 10, n = 3,000: 5.8 s). It reports whether the answer certified
// within the tolerance; if not, or if the crash start fails, the caller's
// cold attempts follow (a certificate short of the tolerance is kept: the
// Outcome keeps the best makespan and bound). Only a cancelled context is
// an error.
func (out *Outcome) crashWhole(lay *formulations.Layout, opt Options) (bool, error) {
	nw, model := out.Network, out.Model
	if !opt.CrashWhole || !crashes(nw, opt) || len(nw.Pattern) < formulations.GenerationMinMessages || nw.Prob.Returns() {
		return false, nil
	}
	so := attempts(opt.Base, opt.Auto, nw.Prob.Kind)[0]
	sol, at, err := out.crashStart(model, crashBasis(nw, model, lay), so, opt)
	if sol == nil {
		return false, err
	}
	out.record(nw, model, lay, lay.Decode(sol.X), sol.Duals, at)
	return out.Gap() <= opt.tol(), nil
}

// crashStart solves model from basis b (solveFromBasis). A crash start
// that fails is recorded in out.Attempts and returns no solution and no
// error, so that the caller solves cold, unless the context was cancelled:
// then the error.
func (out *Outcome) crashStart(model *lp.Model, b solver.Basis, so solver.Options, opt Options) (*solver.Solution, schedule.Attempt, error) {
	sol, at, err := solveFromBasis(model, b, so, opt)
	if err == nil && sol != nil {
		return sol, at, nil
	}
	if at.Algorithm != "" {
		out.Attempts = append(out.Attempts, at)
	}
	if so.Context != nil && so.Context.Err() != nil {
		return nil, at, err
	}
	return nil, at, nil
}
