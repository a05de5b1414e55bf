package optimize

import (
	"math"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/pipeline"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
)

// warmEngine solves the LPs of the full n-stage patterns for n = n0, n0+1,
// ... from one basis. The full pattern of n stages is a prefix of the full
// pattern of more stages, and every precedence arc of the Network goes from
// an earlier message to a later one, so the n-stage LP is the LP of a
// larger pattern (capacity stages) with the later messages switched off:
// their loads fixed at 0 and their computing rows and the rows of the arcs
// into their hops made free. Going from n to n+1 switches one stage on —
// a change of bounds only, which Clp re-solves from the previous basis with
// the dual simplex (solver.Incremental).
//
// Every answer is checked like a cold one: the loads of the prefix are
// repaired and evaluated on the n-stage Network (a feasible schedule), and
// the duals, mapped onto the n-stage LP built in the same scale, are
// certified with pipeline.Certify. A point whose gap stays above the
// tolerance after a polish is reported not ok, and the caller solves it
// cold.
type warmEngine struct {
	p    *formulations.Problem
	opt  pipeline.Options
	inc  solver.Incremental
	sc   formulations.Scale
	dsts int

	capacity int // stages of the loaded model
	nw       *formulations.Network
	model    *lp.Model
	lay      *formulations.Layout
	loaded   bool // the model is in the solver with a basis
	enabled  int  // stages switched on
	broken   bool // the prefix property failed; never use again
}

func newWarmEngine(p *formulations.Problem, opt pipeline.Options, inc solver.Incremental) *warmEngine {
	return &warmEngine{p: p, opt: opt, inc: inc, sc: formulations.NewScale(p), dsts: len(p.Dests())}
}

// invalidate records that the solver's model was replaced.
func (e *warmEngine) invalidate() { e.loaded = false }

func (e *warmEngine) close() { e.model, e.nw, e.lay = nil, nil, nil }

// build makes the model of capacity stages (not yet loaded).
func (e *warmEngine) build(capacity int) bool {
	opt := e.opt
	opt.Form = formulations.FormCompact
	if pipeline.CheckSize(e.p, capacity, opt) != nil {
		return false
	}
	nw, err := formulations.NewNetwork(e.p, formulations.FullPattern(e.p, capacity))
	if err != nil {
		return false
	}
	e.nw = nw
	e.model, e.lay = nw.Build(formulations.FormCompact, e.sc)
	e.capacity = capacity
	e.loaded = false
	return true
}

// setMsg switches message j on or off in the solver.
func (e *warmEngine) setMsg(j int, on bool) {
	m, lay, nw := e.model, e.lay, e.nw
	free := math.Inf(1)
	if c := lay.Alpha[j]; on {
		e.inc.SetColBounds(c, m.ColLower[c], m.ColUpper[c])
	} else {
		e.inc.SetColBounds(c, 0, 0)
	}
	if r := lay.CompRow[j]; on {
		e.inc.SetRowBounds(r, m.RowLower[r], m.RowUpper[r])
	} else {
		e.inc.SetRowBounds(r, -free, free)
	}
	for _, h := range nw.MsgHops[j] {
		for _, a := range nw.In[h] {
			r := lay.ArcRow[a]
			if on {
				e.inc.SetRowBounds(r, m.RowLower[r], m.RowUpper[r])
			} else {
				e.inc.SetRowBounds(r, -free, free)
			}
		}
	}
}

// firstOptions are the solver options of a solve from scratch, as the
// pipeline's first attempt.
func (e *warmEngine) firstOptions() solver.Options {
	o := e.opt.Base
	if e.opt.Auto {
		o.Algorithm = solver.Primal
		o.PrimalTolerance, o.DualTolerance = pipeline.WarmPrimalTolerance, pipeline.WarmDualTolerance
	}
	return o
}

// eval returns the point of n stages; ok is false when the caller must
// solve it cold.
func (e *warmEngine) eval(n int) (Point, bool) {
	if e.broken {
		return Point{}, false
	}
	if e.model == nil || n > e.capacity {
		c := 2 * e.capacity
		if c < n+32 {
			c = n + 32
		}
		if !e.build(c) {
			return Point{}, false
		}
	}
	var sol *solver.Solution
	var err error
	warm := e.loaded
	if !e.loaded {
		if err := e.inc.Load(e.model); err != nil {
			return Point{}, false
		}
		for j := range e.nw.Pattern {
			if j >= n*e.dsts {
				e.setMsg(j, false)
			}
		}
		e.enabled = n
		// A solve from scratch (with presolve) where the backend offers
		// one (Clp's SolveLoaded), else the dual simplex from the slack
		// basis.
		if s, ok := e.inc.(interface {
			SolveLoaded(solver.Options) (*solver.Solution, error)
		}); ok {
			sol, err = s.SolveLoaded(e.firstOptions())
		} else {
			sol, err = e.inc.Resolve(e.firstOptions())
		}
	} else {
		for j := e.enabled * e.dsts; j < n*e.dsts; j++ {
			e.setMsg(j, true)
		}
		for j := n * e.dsts; j < e.enabled*e.dsts; j++ {
			e.setMsg(j, false)
		}
		e.enabled = n
		sol, err = e.inc.Resolve(solver.Options{Algorithm: solver.Dual, LogLevel: e.opt.Base.LogLevel})
	}
	if err != nil || sol == nil {
		e.loaded = false
		return Point{}, false
	}
	e.loaded = true
	pt, ok := e.certify(n, sol)
	if !ok {
		// Polish as the pipeline does: dual simplex from this basis with
		// tight tolerances gives duals good enough to certify.
		pol := solver.Options{Algorithm: solver.Dual, PrimalTolerance: pipeline.PolishTolerance, DualTolerance: pipeline.PolishTolerance, LogLevel: e.opt.Base.LogLevel}
		if s2, err := e.inc.Resolve(pol); err == nil {
			pt, ok = e.certify(n, s2)
		}
	}
	pt.Warm = warm
	return pt, ok
}

// certify decodes the prefix of sol as the n-stage schedule and certifies
// it on the n-stage LP.
func (e *warmEngine) certify(n int, sol *solver.Solution) (Point, bool) {
	p := e.p
	pat := formulations.FullPattern(p, n)
	nw, err := formulations.NewNetwork(p, pat)
	if err != nil {
		return Point{}, false
	}
	// The prefix property: the n-stage network is the start of the big one.
	if len(nw.Hops) > len(e.nw.Hops) || len(nw.Arcs) > len(e.nw.Arcs) {
		e.broken = true
		return Point{}, false
	}
	for h := range nw.Hops {
		if nw.Hops[h] != e.nw.Hops[h] {
			e.broken = true
			return Point{}, false
		}
	}
	for a := range nw.Arcs {
		if nw.Arcs[a] != e.nw.Arcs[a] {
			e.broken = true
			return Point{}, false
		}
	}
	raw := e.lay.Decode(sol.X)[:len(pat)]
	alpha, err := nw.RepairLoads(raw)
	if err != nil {
		return Point{}, false
	}
	tm := nw.Evaluate(alpha)
	model, lay := nw.Build(formulations.FormCompact, e.sc)
	y := make([]float64, model.NumRows())
	if sol.Duals != nil {
		for a := range nw.Arcs {
			y[lay.ArcRow[a]] = sol.Duals[e.lay.ArcRow[a]]
		}
		for j := range pat {
			y[lay.CompRow[j]] = sol.Duals[e.lay.CompRow[j]]
			if r := lay.SufRow[j]; r >= 0 && e.lay.SufRow[j] >= 0 {
				y[r] = sol.Duals[e.lay.SufRow[j]]
			}
		}
		y[lay.LoadRow] = sol.Duals[e.lay.LoadRow]
	}
	lb := math.Inf(-1)
	if sol.Duals != nil {
		lb = pipeline.Certify(model, nw, lay, y, tm.Cmax)
	}
	if lb > tm.Cmax {
		lb = tm.Cmax
	}
	tol := e.opt.Tolerance
	if tol <= 0 {
		tol = pipeline.DefaultTolerance
	}
	used := map[int]bool{}
	for j, m := range pat {
		if alpha[j]*p.DestSize(m.Dest) > 1e-12*p.V {
			used[m.Stage] = true
		}
	}
	pt := Point{Stages: n, Cmax: schedule.Float(tm.Cmax), CmaxFull: schedule.Float(tm.Cmax),
		LowerBound: schedule.Float(lb), StagesUsed: len(used)}
	gap := (tm.Cmax - lb) / tm.Cmax
	return pt, gap <= tol
}
