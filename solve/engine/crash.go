package engine

import (
	"time"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// crashes reports whether the first restricted LP of stage generation
// starts from crashBasis: a star, solved with the engine's own choice of
// method (Auto) by a solver whose basis can be set.
func crashes(nw *formulations.Network, opt Options) bool {
	_, ok := opt.Solver.(solver.Restarter)
	return ok && opt.Auto && nw.Prob.Kind == topology.Star
}

// crashBasis returns a starting basis for the restricted LP model (layout
// lay) of a star's stage generation, built from the shape of the optimal
// bases of the paper's stars instead of Clp's slack basis. From the slack
// basis the primal simplex brings every hop time, suffix sum and load of
// the optimum into the basis one pivot at a time — about 1.9 iterations
// per message, each dearer as the LP grows, so the solve grows as n². At
// the optimum of the star m = 10, D = V/n, n = 1,000 (its restricted LP,
// 1,270 messages, solved without presolve) every hop time and every
// nonzero suffix sum is basic; 990 of the 1,270 loads sit at their bound D
// and 270 are basic; 1,247 of the 1,280 computing rows are slack (their
// processor is computing when the message arrives) and the arc, suffix and
// load rows are equalities. The basis here is that shape, filled in
// without solving: the loads, in the pattern's order, at their upper
// bound until they carry V, the one that completes V basic, the rest at 0
// (a feasible load assignment); every other non-fixed column basic; every
// inequality row slack but one, the computing row of the last message of
// the first stage, which decides Cmax when the processors compute longer
// than the port sends. It is a start only: the simplex goes on from it to
// the optimum, and the certificate is the same as from a cold solve.
func crashBasis(nw *formulations.Network, model *lp.Model, lay *formulations.Layout) solver.Basis {
	b := solver.Basis{Cols: make([]solver.BasisStatus, model.NumVars()), Rows: make([]solver.BasisStatus, model.NumRows())}
	for j := range b.Cols {
		b.Cols[j] = solver.Basic
		if model.ColLower[j] == model.ColUpper[j] {
			b.Cols[j] = solver.Fixed
		}
	}
	rest := model.RowLower[lay.LoadRow] // V in the model's units
	for q, j := range lay.Alpha {
		if j < 0 {
			continue
		}
		w := nw.Prob.DestSize(nw.Pattern[q].Dest)
		switch up := model.ColUpper[j] * w; {
		case rest <= 0:
			b.Cols[j] = solver.AtLower
		case up < rest:
			b.Cols[j] = solver.AtUpper
			rest -= up
		default:
			rest = 0 // basic: it carries what is left of V
		}
	}
	for i := range b.Rows {
		b.Rows[i] = solver.Fixed
		if model.RowLower[i] < model.RowUpper[i] {
			b.Rows[i] = solver.Basic
		}
	}
	first := 0
	for first+1 < len(nw.Pattern) && nw.Pattern[first+1].Stage == nw.Pattern[0].Stage {
		first++
	}
	if i := lay.CompRow[first]; i >= 0 {
		b.Rows[i] = solver.AtLower
	}
	return b
}

// solveCrashed solves the restricted LP rm (layout rlay) from crashBasis
// with the primal simplex and no presolve (the basis is in the model's
// own rows and columns). It returns nil without an error when the solver
// refuses the model or the basis; a solve that fails returns its attempt
// and error, and the caller solves cold.
func solveCrashed(nw *formulations.Network, rm *lp.Model, rlay *formulations.Layout, so solver.Options, opt Options) (*solver.Solution, schedule.Attempt, error) {
	rs := opt.Solver.(solver.Restarter)
	if rs.Load(rm) != nil || rs.SetBasis(crashBasis(nw, rm, rlay)) != nil {
		return nil, schedule.Attempt{}, nil
	}
	so.Algorithm, so.Presolve = solver.Primal, solver.PresolveOff
	t0 := time.Now()
	sol, err := rs.Resolve(so)
	return sol, attemptOf(so.Algorithm.String()+" (crash start)", "off", sol, err, time.Since(t0).Seconds()), err
}

// solveRestricted solves the restricted LP rm of generation round first
// or later: the first from crashBasis where crashes allows (a crash start
// that fails is recorded and the LP solved cold), the others cold with
// the setting so.
func (out *Outcome) solveRestricted(nw *formulations.Network, rm *lp.Model, rlay *formulations.Layout, so solver.Options, opt Options, first bool) (*solver.Solution, schedule.Attempt, error) {
	if first && crashes(nw, opt) {
		sol, at, err := solveCrashed(nw, rm, rlay, so, opt)
		if err == nil && sol != nil {
			return sol, at, nil
		}
		if at.Algorithm != "" {
			out.Attempts = append(out.Attempts, at)
		}
		if so.Context != nil && so.Context.Err() != nil {
			return nil, at, err
		}
	}
	t0 := time.Now()
	sol, err := opt.Solver.Solve(rm, so)
	return sol, attemptOf(so.Algorithm.String(), presolveName(so.Presolve), sol, err, time.Since(t0).Seconds()), err
}
