package engine

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
)

// Sequence solves the LPs of the full n-stage patterns of one problem for
// a run of stage counts n (and of loads V, SolveFor) from one basis: the
// engine's warm-start option (Solve is the cold one). The full pattern of
// n stages is a prefix of the full pattern of more stages, and every
// precedence arc of the Network goes from an earlier message to a later
// one, so the n-stage LP is the LP of a larger pattern (its capacity) with
// the later messages switched off: their loads fixed at 0, their computing
// rows and the rows of the arcs into their hops made free. Going from n to
// n+1 switches one stage on — a change of bounds only, which Clp re-solves
// from the previous basis (solver.Incremental).
//
// Every answer goes through the same steps as a cold one, with the same
// tolerances (tolerances.go): the first solve of a loaded model uses the
// first of the cold attempts (FirstAttempt, or TreeFirstAttempt on an
// ordinary tree); the loads of the prefix are repaired and evaluated on the
// n-stage Network; the duals, mapped onto the n-stage LP built in the same
// scale, are certified as record certifies a cold solution; a gap above
// the tolerance gets the cold path's polish. If the gap is still too wide,
// Solve says so (ok false) and the caller solves that n cold. Sequence
// solves the unpruned LP only: a warm solve may end at another optimal
// vertex than a cold one, hence other empty messages and another pruned
// makespan.
type Sequence struct {
	p    *problem.Problem
	opt  Options
	inc  solver.Incremental
	sc   formulations.Scale
	dsts int

	capacity int // stages of the loaded model
	reserve  int // stages the next model holds at least (Reserve)
	nw       *formulations.Network
	model    *lp.Model
	lay      *formulations.Layout
	loaded   bool // the model is in the solver with a basis
	enabled  int  // stages switched on
	broken   bool // the prefix property failed; never use again
}

// NewSequence returns the warm-start engine for p, or nil when opt does
// not allow one: the solver cannot re-solve from a basis (it is not a
// solver.Incremental) or the form is not the compact one (the only form
// whose n-stage LP is a prefix of a larger one). opt.NoPrune is implied.
func NewSequence(p *problem.Problem, opt Options) *Sequence {
	inc, ok := opt.Solver.(solver.Incremental)
	if !ok || opt.Form != formulations.FormCompact || p.Returns() {
		// With result messages the n-stage LP is no prefix of a larger
		// one: the first result message follows the last message sent.
		return nil
	}
	pc := *p
	return &Sequence{p: &pc, opt: opt, inc: inc, sc: formulations.NewScale(p), dsts: len(p.Dests())}
}

// MaxScaleDrift is how far (as a factor) the units of a problem may move
// from the units of the Sequence's model before SolveFor starts afresh
// instead of changing the load in the loaded model: the model keeps the
// units of the problem it was built for (formulations.Scale), so a load
// far from them would be solved in badly scaled numbers.
const MaxScaleDrift = 8

// SolveFor is Solve for problem p, which may differ from the Sequence's
// problem in its load V only (anything else, or units more than
// MaxScaleDrift away, starts afresh: the next solve is from scratch). In
// the compact form V enters the LP only through bounds — the load row
// Σα = V and the upper bounds of the loads and suffix sums — once the
// units stay fixed, so a new V is a change of bounds, re-solved from the
// previous basis like a new n. Sweeps along V (stages = n_min, which grows
// with V) use it.
func (e *Sequence) SolveFor(p *problem.Problem, n int) (out *Outcome, warm, ok bool) {
	e.retarget(p)
	return e.Solve(n)
}

// retarget makes p the Sequence's problem (see SolveFor).
func (e *Sequence) retarget(p *problem.Problem) {
	same := sameProblem(p, e.p)
	if same && p.V == e.p.V {
		return
	}
	pc := *p
	sc := formulations.NewScale(p)
	if !same || drift(sc.L0, e.sc.L0) || drift(sc.T0, e.sc.T0) {
		if !same {
			e.broken = false // the prefix property is the problem's
		}
		e.p, e.sc = &pc, sc
		e.model, e.nw, e.lay, e.loaded = nil, nil, nil, false
		return
	}
	e.p = &pc
	if e.model == nil {
		return
	}
	// The new bounds, in the model and (if loaded) in the solver: the
	// loads (the switched-off messages stay fixed at 0 in the solver until
	// setMsg switches them on with the model's bounds), every suffix sum,
	// and the load row (formulations.Network.Build writes the same).
	m, lay, nw := e.model, e.lay, e.nw
	nw.Prob = e.p
	for j, msg := range nw.Pattern {
		up := p.MaxLoad(msg.Dest) / e.sc.L0
		if c := lay.Alpha[j]; m.ColUpper[c] != up {
			m.ColUpper[c] = up
			if e.loaded && j < e.enabled*e.dsts {
				e.inc.SetColBounds(c, m.ColLower[c], up)
			}
		}
		if c := lay.Beta[j]; c >= 0 {
			up := p.V / p.DestSize(msg.Dest) / e.sc.L0
			if m.ColUpper[c] != up {
				m.ColUpper[c] = up
				if e.loaded {
					e.inc.SetColBounds(c, m.ColLower[c], up)
				}
			}
		}
	}
	r := lay.LoadRow
	m.RowLower[r], m.RowUpper[r] = p.V/e.sc.L0, p.V/e.sc.L0
	if e.loaded {
		e.inc.SetRowBounds(r, m.RowLower[r], m.RowUpper[r])
	}
}

// sameProblem reports whether p and q differ at most in V.
func sameProblem(p, q *problem.Problem) bool {
	a, b := *p, *q
	a.V, b.V = 0, 0
	return reflect.DeepEqual(a, b)
}

// drift reports whether unit a is more than MaxScaleDrift away from b.
func drift(a, b float64) bool {
	r := a / b
	return !(r <= MaxScaleDrift && r >= 1/float64(MaxScaleDrift))
}

// Invalidate records that the solver now holds another model (a cold solve
// in between): the next Solve loads the model again.
func (e *Sequence) Invalidate() { e.loaded = false }

// Reserve says that the Sequence will be asked for up to n stages: the
// next model it builds holds at least n (if that is not more than twice
// what it is built for, and fits the memory limit), so that a run of stage
// counts known in advance — a sweep's chain along n — is solved in one
// model instead of outgrowing it.
func (e *Sequence) Reserve(n int) { e.reserve = n }

// Close drops the model; the solver itself stays open.
func (e *Sequence) Close() { e.model, e.nw, e.lay = nil, nil, nil }

// build makes the model of capacity stages (not yet loaded). The model is
// the full one, whatever stage generation would do in a cold solve.
func (e *Sequence) build(capacity int) bool {
	opt := e.opt
	opt.NoStageGeneration = true
	if CheckSize(e.p, capacity, opt) != nil {
		return false
	}
	nw, err := formulations.NewNetwork(e.p, formulations.FullPattern(e.p, capacity))
	if err != nil {
		return false
	}
	e.nw = nw
	e.model, e.lay = nw.Build(formulations.FormCompact, e.sc)
	e.capacity = capacity
	return true
}

// setMsg switches message j on or off in the solver.
func (e *Sequence) setMsg(j int, on bool) {
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

// errWarmFailed is what a warm attempt that gave no usable answer records.
var errWarmFailed = errors.New("warm start gave no certified answer")

// Solve returns the certified outcome of the full n-stage pattern (n at
// least n_min), solved from the previous basis when there is one. ok is
// false when the caller must solve n cold (the gap stayed above the
// tolerance, the solver failed, or the model would exceed the memory
// limit); warm reports whether the solve started from a previous basis.
func (e *Sequence) Solve(n int) (out *Outcome, warm, ok bool) {
	if n < 1 || e.broken || e.p.Returns() {
		return nil, false, false
	}
	if e.model == nil || n > e.capacity {
		if !e.grow(n) {
			return nil, false, false
		}
		e.loaded = false // a new model: loaded and solved from scratch below
	}
	warm = e.loaded
	// Every solve uses the cold path's first attempt's settings: the first
	// one from scratch, the later ones from the previous basis (Resolve
	// applies every option, so the unscaled tree LPs stay unscaled). Its
	// algorithm is also the faster warm one: on the Fig. 9 sweep (stars,
	// n up to 59) warm primal re-solves took 1.1 s in all where warm dual
	// ones took 2.5 s and cold solves 4.8 s — past the optimum the
	// switched-on stages leave a degenerate dual path (the paper's Fig. 9a
	// with D = 1e7: 23,388 dual iterations against 2,646 primal); on the
	// ordinary trees, whose first attempt is the dual simplex, dual
	// re-solves measured faster (p = 2, h = 5: 0.75 s against 0.87 s).
	so := attempts(e.opt.Base, e.opt.Auto, e.p.Kind)[0]
	t0 := time.Now()
	sol, err := e.solveAt(n, so)
	if err != nil || sol == nil {
		e.loaded = false
		return nil, warm, false
	}
	e.loaded = true
	name := so.Algorithm.String()
	if warm {
		name += " (warm)"
	}
	at := schedule.Attempt{Algorithm: name, Presolve: presolveName(so.Presolve), Status: sol.Status.String(),
		Iterations: sol.Iterations, Seconds: time.Since(t0).Seconds()}
	out, err = e.certified(n, sol, at, so)
	if err != nil {
		return nil, warm, false
	}
	out.clamp()
	return out, warm, out.Gap() <= e.opt.tol()
}

// grow builds a model with room for n stages. Switched-off stages still
// cost every warm re-solve (Resolve has no presolve to drop them), so the
// first model holds a quarter more stages than asked (at least 4), a
// model outgrown doubles, and a reservation (Reserve) is kept when it is
// at most twice n.
func (e *Sequence) grow(n int) bool {
	c := 2 * e.capacity
	if c < n+max(4, n/4) {
		c = n + max(4, n/4)
	}
	reserved := e.reserve > c && e.reserve <= 2*n && e.build(e.reserve)
	return reserved || e.build(c)
}

// solveAt switches the first n stages on and solves with so: from
// scratch on a model not yet loaded (with presolve where the backend
// solves a loaded model so, Clp's SolveLoaded; else from the slack
// basis), otherwise from the previous basis.
func (e *Sequence) solveAt(n int, so solver.Options) (*solver.Solution, error) {
	if !e.loaded {
		if err := e.inc.Load(e.model); err != nil {
			return nil, err
		}
		for j := n * e.dsts; j < len(e.nw.Pattern); j++ {
			e.setMsg(j, false)
		}
		e.enabled = n
		if s, ok := e.inc.(interface {
			SolveLoaded(solver.Options) (*solver.Solution, error)
		}); ok {
			return s.SolveLoaded(so)
		}
		return e.inc.Resolve(so)
	}
	for j := e.enabled * e.dsts; j < n*e.dsts; j++ {
		e.setMsg(j, true)
	}
	for j := n * e.dsts; j < e.enabled*e.dsts; j++ {
		e.setMsg(j, false)
	}
	e.enabled = n
	return e.inc.Resolve(so)
}

// certified records the solution of the n-stage prefix and polishes as the
// cold path does where the answer does not certify, or where its loads
// cannot be repaired to carry V (as when V fills the n stages to the last
// unit and the loads sit within the primal tolerance of their bounds).
func (e *Sequence) certified(n int, sol *solver.Solution, at schedule.Attempt, so solver.Options) (*Outcome, error) {
	out, lay, err := e.record(n, sol, at)
	if errors.Is(err, errWarmFailed) {
		if s2, at2, perr := polish(e.inc, so); perr == nil {
			out, _, err = e.record(n, s2, at2)
		}
	} else if err == nil && out.Gap() > e.opt.tol() {
		if s2, at2, perr := polish(e.inc, so); perr == nil {
			e.add(out, lay, s2, at2)
		}
	}
	return out, err
}

// ScheduleFor is SolveFor as a schedule: what the cold Solve returns
// without pruning (status, certified bound and gap, the solve's record),
// from the warm outcome. ok false: solve n cold.
func (e *Sequence) ScheduleFor(p *problem.Problem, n int) (s *schedule.Schedule, warm, ok bool) {
	start := time.Now()
	out, warm, ok := e.SolveFor(p, n)
	if !ok {
		return nil, warm, false
	}
	s = out.schedule(n, out.Attempts, e.opt, start)
	s.Solve.Warm = warm
	return s, warm, true
}

// record builds the Outcome of the n-stage pattern from the solution of
// the loaded model: the prefix of its loads and the duals mapped onto the
// n-stage LP. It returns the n-stage layout for later solutions.
func (e *Sequence) record(n int, sol *solver.Solution, at schedule.Attempt) (*Outcome, *formulations.Layout, error) {
	nw, err := formulations.NewNetwork(e.p, formulations.FullPattern(e.p, n))
	if err != nil {
		return nil, nil, err
	}
	if !e.isPrefix(nw) {
		e.broken = true
		return nil, nil, fmt.Errorf("engine: the %d-stage network is not a prefix of the %d-stage one", n, e.capacity)
	}
	model, lay := nw.Build(formulations.FormCompact, e.sc)
	out := unsolved(nw, model)
	e.add(out, lay, sol, at)
	if out.Timing == nil {
		return nil, nil, errWarmFailed
	}
	return out, lay, nil
}

// add repairs, evaluates and certifies one more solution of the loaded
// model into out, whose n-stage LP has layout lay (Outcome.record).
func (e *Sequence) add(out *Outcome, lay *formulations.Layout, sol *solver.Solution, at schedule.Attempt) {
	nw := out.Network
	var y []float64
	if sol.Duals != nil {
		y = make([]float64, out.Model.NumRows())
		for a := range nw.Arcs {
			y[lay.ArcRow[a]] = sol.Duals[e.lay.ArcRow[a]]
		}
		for j := range nw.Pattern {
			y[lay.CompRow[j]] = sol.Duals[e.lay.CompRow[j]]
			if r := lay.SufRow[j]; r >= 0 && e.lay.SufRow[j] >= 0 {
				y[r] = sol.Duals[e.lay.SufRow[j]]
			}
		}
		y[lay.LoadRow] = sol.Duals[e.lay.LoadRow]
	}
	out.record(nw, out.Model, lay, e.lay.Decode(sol.X)[:len(nw.Pattern)], y, at)
}

// isPrefix reports whether nw is the start of the loaded network: the
// same hops and arcs, in the same order.
func (e *Sequence) isPrefix(nw *formulations.Network) bool {
	if len(nw.Hops) > len(e.nw.Hops) || len(nw.Arcs) > len(e.nw.Arcs) {
		return false
	}
	for h := range nw.Hops {
		if nw.Hops[h] != e.nw.Hops[h] {
			return false
		}
	}
	for a := range nw.Arcs {
		if nw.Arcs[a] != e.nw.Arcs[a] {
			return false
		}
	}
	return true
}
