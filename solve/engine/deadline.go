package engine

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solver"
)

// MaxLoad solves the deadline form of the LP of pattern pat: the largest
// load Σ DestSize·α that the pattern's messages carry with every
// computation (and result message) ended by the deadline T — the LP of
// SolvePattern with Cmax bounded by T instead of minimised and the load
// row's right-hand side free, maximised (docs/heterogeneous.md). p.V is
// not used, except that it must be valid. It returns the load of the LP's
// solution (its loads clipped into their boxes), which the caller solves
// in the ordinary form to get a schedule, and a certified upper bound on
// the LP's optimum (+Inf when the duals certify nothing). A pattern whose
// messages cannot even all arrive empty by the deadline carries 0.
func MaxLoad(p *problem.Problem, pat formulations.Pattern, deadline float64, opt Options) (load, upper float64, err error) {
	if opt.Solver == nil {
		return 0, 0, errors.New("engine: no solver")
	}
	if !(deadline > 0) || math.IsInf(deadline, 0) {
		return 0, 0, fmt.Errorf("engine: deadline %g, want a finite time > 0", deadline)
	}
	nw, err := formulations.NewNetwork(p, pat)
	if err != nil {
		return 0, 0, err
	}
	if err := checkForm(p, opt); err != nil {
		return 0, 0, err
	}
	est := nw.Estimate(formulations.FormCompact)
	if est.Bytes() > opt.limit() {
		return 0, 0, &SizeError{Estimate: est, Limit: opt.limit()}
	}
	model, lay, vEst := deadlineModel(nw, deadline)
	answer := func(sol *solver.Solution) (load, upper float64) {
		for j, c := range lay.Alpha {
			x := math.Min(math.Max(sol.X[c], 0), model.ColUpper[c])
			load += p.DestSize(pat[j].Dest) * x * lay.Scale.L0
		}
		upper = math.Inf(1)
		if lb := solver.SafeLowerBound(model, sol.Duals); !math.IsInf(lb, -1) {
			upper = -lb * vEst
		}
		return load, upper
	}
	if crashes(nw, opt) && len(pat) >= formulations.GenerationMinMessages {
		// Large LPs only, as stage generation: a smaller one solves cold
		// in milliseconds, and its answer stays the one it always was.
		so := attempts(opt.Base, opt.Auto, p.Kind)[0]
		sol, _, err := solveFromBasis(model, deadlineCrash(nw, model, lay, deadline), so, opt)
		if err == nil && sol != nil {
			// Taken when certified within the tolerance, as a cold
			// answer is; else the cold attempts below.
			if load, upper = answer(sol); load <= upper*(1+opt.tol()) && upper-load <= opt.tol()*load {
				return load, upper, nil
			}
		} else if so.Context != nil && so.Context.Err() != nil {
			return 0, 0, err
		}
	}
	var lastErr error
	for q, so := range attempts(opt.Base, opt.Auto, p.Kind) {
		if q > 0 && opt.NoRetry {
			break
		}
		sol, err := opt.Solver.Solve(model, so)
		if errors.Is(err, solver.ErrInfeasible) {
			return 0, 0, nil // not even an empty message arrives by the deadline
		}
		if err != nil {
			lastErr = err
			if so.Context != nil && so.Context.Err() != nil {
				return 0, 0, err
			}
			continue
		}
		load, upper = answer(sol)
		return load, upper, nil
	}
	if lastErr == nil {
		lastErr = errors.New("no attempt produced a solution")
	}
	return 0, 0, fmt.Errorf("engine: deadline LP of %d messages: %w", len(pat), lastErr)
}

// deadlineModel writes the deadline form of nw's compact LP: Cmax and
// every start time at most T (they are in every schedule that meets it),
// no load row, each load at most what its message can carry and still
// arrive and be computed by T (and D), each suffix sum at most the sum of
// its loads' bounds, and the objective −Σ DestSize·α in units of vEst, an
// estimate of the answer that keeps the objective near 1.
func deadlineModel(nw *formulations.Network, deadline float64) (*lp.Model, *formulations.Layout, float64) {
	p := *nw.Prob
	vEst := 0.0
	caps := make([]float64, len(nw.Pattern))
	for j, m := range nw.Pattern {
		konst, coef := 0.0, 0.0
		for _, h := range nw.MsgHops[j] {
			konst += nw.Hops[h].Const
			coef += nw.Hops[h].Coef
		}
		_, _, a := p.Params(m.Dest)
		caps[j] = math.Max(deadline-konst, 0) / (coef + a)
		if !math.IsInf(p.D, 1) {
			caps[j] = math.Min(caps[j], p.D/p.FirstHopFactor(m.Dest))
		}
		vEst += p.DestSize(m.Dest) * caps[j]
	}
	if !(vEst > 0) {
		vEst = 1
	}
	sc := formulations.Scale{L0: vEst, T0: deadline}
	if !math.IsInf(p.D, 1) && p.D < vEst {
		sc.L0 = p.D
	}
	p.V = vEst
	nw.Prob = &p
	model, lay := nw.Build(formulations.FormCompact, sc)
	for c := range model.Obj {
		model.Obj[c] = 0
	}
	for _, c := range lay.TimeCols {
		model.ColUpper[c] = 1 // T in units of T0 = T
	}
	model.RowLower[lay.LoadRow], model.RowUpper[lay.LoadRow] = math.Inf(-1), math.Inf(1)
	for j, c := range lay.Alpha {
		model.ColUpper[c] = caps[j] / sc.L0
		model.Obj[c] = -p.DestSize(nw.Pattern[j].Dest) * sc.L0 / vEst
	}
	for _, d := range nw.Dests {
		sum := 0.0
		msgs := nw.DestMsgs[d]
		for q := len(msgs) - 1; q >= 0; q-- {
			sum += caps[msgs[q]]
			if c := lay.Beta[msgs[q]]; c >= 0 {
				model.ColUpper[c] = sum / sc.L0
			}
		}
	}
	return model, lay, vEst
}

// deadlineCrash returns a crash basis (crashBasis) for the deadline LP
// model (layout lay) of nw with deadline T: the messages, in the
// pattern's order, at their caps (the model's upper bounds) as far as the
// earliest-start makespan stays within T and the rest empty — every load
// nonbasic, a feasible vertex — and the rows bound as that timing binds
// them; the free load row is slack.
func deadlineCrash(nw *formulations.Network, model *lp.Model, lay *formulations.Layout, deadline float64) solver.Basis {
	b := startBasis(model)
	alpha := make([]float64, len(nw.Pattern))
	fill := func(k int) {
		for q, c := range lay.Alpha {
			alpha[q] = 0
			if q < k {
				alpha[q] = model.ColUpper[c] * lay.Scale.L0
			}
		}
	}
	// The makespan grows with k: a load only delays what follows it.
	k := sort.Search(len(alpha)+1, func(k int) bool {
		fill(k)
		return nw.Evaluate(alpha).Cmax > deadline
	}) - 1
	fill(k)
	for q, c := range lay.Alpha {
		b.Cols[c] = solver.AtLower
		if q < k {
			b.Cols[c] = solver.AtUpper
		}
	}
	bindRows(nw, lay, b, alpha)
	return b
}
