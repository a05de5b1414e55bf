package engine

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/topology"
)

// DefaultTolerance is the certified relative gap a schedule must reach.
const DefaultTolerance = 1e-9

// DefaultMaxModelBytes is the default memory limit for one LP (4 GiB).
const DefaultMaxModelBytes = 4 << 30

// Options configure a solve.
type Options struct {
	// Solver is the LP backend; required.
	Solver solver.Solver
	// Form is the LP form (compact by default).
	Form formulations.Form
	// NoPrune returns the raw LP optimum without removing empty messages.
	NoPrune bool
	// Tolerance is the certified relative gap to reach (DefaultTolerance
	// when zero).
	Tolerance float64
	// MaxModelBytes refuses models whose estimated memory exceeds it
	// (DefaultMaxModelBytes when zero).
	MaxModelBytes int64
	// Base are the solver options of the first attempt.
	Base solver.Options
	// NoRetry stops after the first attempt even if the gap is too wide.
	NoRetry bool
	// Auto replaces Base's algorithm and tolerances in the first attempt
	// by the settings measured best for these LPs (see attempts).
	Auto bool
	// NoStageGeneration solves the LP of the whole pattern at once instead
	// of generating its messages (stage generation, generate.go): a
	// restricted LP over the messages most likely to carry load, grown by
	// the messages whose reduced costs in the full LP are negative, and
	// certified against the full LP. Both give a gap certified against the
	// full LP.
	NoStageGeneration bool
	// CrashWhole starts a star's LP of at least
	// formulations.GenerationMinMessages messages that stage generation
	// leaves whole from a crash basis (crashWhole; with Auto and a
	// solver.Restarter) instead of Clp's slack basis. It is much faster on
	// a pattern that an earlier prune produced (its loads all positive),
	// but it ends at another optimal vertex, from which the prune of a
	// full pattern can keep other messages (the star m = 8, V = 1e9, D =
	// 1e6, n = 126 ends at Cmax 20.0748 instead of 20.0454), so only the
	// callers that re-solve such a pattern set it (solve.MaxLoad).
	CrashWhole bool
	// Dests, if not nil, restricts the n-stage pattern to these
	// destinations (star processors or tree layers); the others receive
	// nothing (a tree layer left out only relays). Pattern searches use it.
	Dests []int
	// Starts, if set, starts the first LP from the basis the previous call
	// with the same Starts ended with, and keeps this call's for the next.
	Starts *Starts
	// Known, if set, is asked before each prune round with the messages
	// the round would keep (those carrying load, in send order). An
	// answer of true ends the prune loop before that round: the schedule
	// is the last one solved, its empty messages included. A pattern's LP
	// depends on its messages and their order only, so a pattern search
	// that has solved the pattern before knows where it leads.
	Known func(formulations.Pattern) bool
}

func (o *Options) tol() float64 {
	if o.Tolerance > 0 {
		return o.Tolerance
	}
	return DefaultTolerance
}

// SizeError reports a model larger than the memory limit; it is returned
// before the model (or anything in proportion to it) is built.
type SizeError struct {
	Estimate formulations.SizeEstimate
	Limit    int64
}

// Error implements error.
func (e *SizeError) Error() string {
	return fmt.Sprintf("the LP needs about %d MB (%d variables, %d constraints, %d nonzeros), more than the memory limit of %d MB",
		e.Estimate.Bytes()>>20, e.Estimate.Vars, e.Estimate.Rows, e.Estimate.Nonzeros, e.Limit>>20)
}

func (o *Options) limit() int64 {
	if o.MaxModelBytes > 0 {
		return o.MaxModelBytes
	}
	return DefaultMaxModelBytes
}

// Fits returns how many LPs of the full n-stage pattern fit in opt's
// memory limit at once (at least 1 when one does; Parallel searches hold
// several).
func Fits(p *problem.Problem, n int, opt Options) int64 {
	if b := fullEstimate(p, n, opt).Bytes(); b > 0 {
		return opt.limit() / b
	}
	return 1
}

// fullEstimate is the size of the LP of the full n-stage pattern as opt
// solves it (stage generation only where opt allows it).
func fullEstimate(p *problem.Problem, n int, opt Options) formulations.SizeEstimate {
	est := formulations.EstimateFull(p, n, opt.Form)
	est.Generated = est.Generated && !opt.NoStageGeneration
	return est
}

// CheckSize returns a *SizeError if the LP of the full n-stage pattern is
// estimated to need more memory than opt allows. It allocates nothing in
// proportion to n.
func CheckSize(p *problem.Problem, n int, opt Options) error {
	if err := checkForm(p, opt); err != nil {
		return err
	}
	est := fullEstimate(p, n, opt)
	if est.Bytes() > opt.limit() {
		return &SizeError{Estimate: est, Limit: opt.limit()}
	}
	return nil
}

// Outcome is the certified solution of one pattern.
type Outcome struct {
	Network *formulations.Network
	Timing  *formulations.Timing
	// Cmax is the makespan of the repaired schedule (user units),
	// LowerBound a certified lower bound on the LP optimum.
	Cmax, LowerBound float64
	Attempts         []schedule.Attempt
	Model            *lp.Model
	Status           solver.Status
	// restart is the final basis, for the next prune round (nil when the
	// solver cannot give one or the LP was solved by stage generation).
	restart *restart
}

// Gap returns (Cmax − LowerBound)/Cmax, at least 0.
func (o *Outcome) Gap() float64 {
	if o.Cmax <= 0 {
		return 0
	}
	g := (o.Cmax - o.LowerBound) / o.Cmax
	if g < 0 || math.IsNaN(g) {
		if math.IsNaN(g) {
			return math.Inf(1)
		}
		return 0
	}
	return g
}

// FirstAttempt is the solver setting of the first attempt with Auto: primal
// simplex with presolve, primal tolerance 1e-10 and dual tolerance 1e-12.
// On these LPs it measured fastest among Clp's methods, and the tight dual
// tolerance makes its duals certify the optimum to about 1e-10 without the
// polishing re-solve (README, Performance).
func FirstAttempt(base solver.Options) solver.Options {
	base.Algorithm = solver.Primal
	base.PrimalTolerance, base.DualTolerance = FirstPrimalTolerance, FirstDualTolerance
	return base
}

// TreeFirstAttempt is the solver setting of the first attempt with Auto
// on ordinary trees: dual simplex with presolve, Clp's scaling off,
// primal tolerance 1e-10 and dual tolerance 1e-12. With Clp's scaling the
// tree LPs' hop coefficients C·p^(i−l−1) (spanning p^(h−1)) leave duals
// that certify only to a few 1e-9 and sent the solve through several
// attempts; unscaled, the dual simplex certified every tree LP measured
// (p = 2, h = 5 to 8, 1- and 2-buffer, n = 100) in one solve, 1.6–2.5×
// faster than the scaled primal simplex where the LP took more than a few
// thousand iterations (docs/formulations.md, algorithm choice).
func TreeFirstAttempt(base solver.Options) solver.Options {
	base.Algorithm = solver.Dual
	base.Scaling, base.ScalingSet = 0, true
	base.PrimalTolerance, base.DualTolerance = 1e-10, 1e-12
	return base
}

// attempts lists the solver settings tried in turn while the certified gap
// is above tolerance: with Auto FirstAttempt (TreeFirstAttempt for an
// ordinary tree, then an unscaled primal simplex), otherwise Base, then
// the others.
func attempts(base solver.Options, auto bool, kind topology.Kind) []solver.Options {
	first := base
	var extra []solver.Options
	if auto {
		first = FirstAttempt(base)
		if kind == topology.Tree {
			first = TreeFirstAttempt(base)
			primal := FirstAttempt(base)
			primal.Scaling, primal.ScalingSet = 0, true
			extra = append(extra, primal)
		}
	}
	dual := base
	dual.Algorithm = solver.Dual
	strict := dual
	strict.Presolve = solver.PresolveOff
	strict.PrimalTolerance, strict.DualTolerance = StrictTolerance, StrictTolerance
	barrier := base
	barrier.Algorithm = solver.Barrier
	noscale := strict
	noscale.Scaling, noscale.ScalingSet = 0, true
	out := []solver.Options{first}
	for _, o := range append(extra, dual, strict, barrier, noscale) {
		if o != first {
			out = append(out, o)
		}
	}
	return out
}

func presolveName(p solver.Presolve) string {
	switch p {
	case solver.PresolveOn:
		return "on"
	case solver.PresolveOff:
		return "off"
	}
	return "auto"
}

// attemptOf is the record of one solve — algorithm alg, presolve setting
// presolve, seconds secs — from what the solver returned: its iterations
// and status, failed when it gave an error and no status.
func attemptOf(alg, presolve string, sol *solver.Solution, err error, secs float64) schedule.Attempt {
	at := schedule.Attempt{Algorithm: alg, Presolve: presolve, Seconds: secs}
	if sol != nil {
		at.Iterations, at.Status = sol.Iterations, sol.Status.String()
	}
	if err != nil && at.Status == "" {
		at.Status = solver.Failed.String()
	}
	return at
}

// FieldForm names Options.Form in errors (*problem.FieldError).
const FieldForm = "form"

// checkForm refuses result messages in another form than the compact one:
// their rows and the dual repair that certifies them are written for the
// compact form (docs/heterogeneous.md).
func checkForm(p *problem.Problem, opt Options) error {
	if p.Returns() && opt.Form != formulations.FormCompact {
		return &problem.FieldError{Field: FieldForm, Value: opt.Form.String(),
			Want: "compact when results are returned ({" + problem.FieldResultRatio + "} > 0)"}
	}
	return nil
}

// newOutcome builds the LP of pattern pat in opt's form, after checking
// its estimated size against the memory limit, and the unsolved Outcome
// that records its solves.
func newOutcome(p *problem.Problem, pat formulations.Pattern, opt Options) (*Outcome, *formulations.Layout, formulations.Scale, error) {
	nw, err := formulations.NewNetwork(p, pat)
	if err != nil {
		return nil, nil, formulations.Scale{}, err
	}
	return outcomeOf(nw, opt)
}

// outcomeOf builds the LP of network nw in opt's form, after checking its
// form and its estimated size against the memory limit, and the unsolved
// Outcome that records its solves.
func outcomeOf(nw *formulations.Network, opt Options) (*Outcome, *formulations.Layout, formulations.Scale, error) {
	if err := checkForm(nw.Prob, opt); err != nil {
		return nil, nil, formulations.Scale{}, err
	}
	est := nw.Estimate(opt.Form)
	est.Generated = est.Generated && !opt.NoStageGeneration
	if est.Bytes() > opt.limit() {
		return nil, nil, formulations.Scale{}, &SizeError{Estimate: est, Limit: opt.limit()}
	}
	sc := formulations.NewScale(nw.Prob)
	model, lay := nw.Build(opt.Form, sc)
	return unsolved(nw, model), lay, sc, nil
}

// unsolved is the Outcome of nw's LP model before any solution is
// recorded: no makespan, no bound, status failed.
func unsolved(nw *formulations.Network, model *lp.Model) *Outcome {
	return &Outcome{Network: nw, Model: model, Cmax: math.Inf(1), LowerBound: math.Inf(-1), Status: solver.Failed}
}

// SolvePattern builds, solves, repairs and certifies the LP of one message
// pattern.
func SolvePattern(p *problem.Problem, pat formulations.Pattern, opt Options) (*Outcome, error) {
	if opt.Solver == nil {
		return nil, errors.New("engine: no solver")
	}
	out, lay, sc, err := newOutcome(p, pat, opt)
	if err != nil {
		return nil, err
	}
	return out.solve(lay, sc, opt)
}

// SolveNetwork builds, solves, repairs and certifies the LP of a network
// built by its caller (the order search's relaxations,
// formulations.NewOrderRelaxation) as SolvePattern does for a pattern's
// network. Stage generation and restarts do not apply.
func SolveNetwork(nw *formulations.Network, opt Options) (*Outcome, error) {
	if opt.Solver == nil {
		return nil, errors.New("engine: no solver")
	}
	opt.NoStageGeneration, opt.Starts = true, nil
	out, lay, sc, err := outcomeOf(nw, opt)
	if err != nil {
		return nil, err
	}
	return out.solve(lay, sc, opt)
}

// solve solves the outcome's LP (layout lay, scale sc): by stage
// generation where it applies, else by the attempts in turn, each
// polished while the certified gap exceeds the tolerance.
func (out *Outcome) solve(lay *formulations.Layout, sc formulations.Scale, opt Options) (*Outcome, error) {
	nw, model := out.Network, out.Model
	p, pat := nw.Prob, nw.Pattern
	tol := opt.tol()
	var lastErr error
	generated := false
	solved := false // certified by stage generation or from the crash basis
	if live := initialLive(p, pat, opt); live != nil {
		var err error
		generated, err = out.generate(nw, model, lay, sc, live, opt)
		if err != nil {
			return out, fmt.Errorf("engine: %s LP with %d messages: %w", p.Kind, len(pat), err)
		}
		solved = generated
	} else {
		var err error
		if solved, err = out.crashWhole(lay, opt); err != nil {
			return out, fmt.Errorf("engine: %s LP with %d messages: %w", p.Kind, len(pat), err)
		}
	}
	for q, so := range attempts(opt.Base, opt.Auto, p.Kind) {
		if solved {
			break
		}
		if q > 0 && opt.NoRetry {
			break
		}
		t0 := time.Now()
		sol, err := opt.Solver.Solve(model, so)
		at := attemptOf(so.Algorithm.String(), presolveName(so.Presolve), sol, err, time.Since(t0).Seconds())
		if so.ScalingSet {
			at.Scaling = fmt.Sprint(so.Scaling)
		}
		if err != nil {
			out.Attempts = append(out.Attempts, at)
			lastErr = err
			if so.Context != nil && so.Context.Err() != nil {
				return out, fmt.Errorf("engine: %s LP with %d messages: %w", p.Kind, len(pat), err)
			}
			var se *solver.StatusError
			if errors.As(err, &se) && (se.Status == solver.Infeasible || se.Status == solver.Unbounded) {
				out.Status = se.Status
				return out, fmt.Errorf("engine: %s LP with %d messages: %w", p.Kind, len(pat), err)
			}
			continue
		}
		out.record(nw, model, lay, lay.Decode(sol.X), sol.Duals, at)
		if out.Gap() <= tol {
			break
		}
		// Polish: re-solve from the final basis with the dual simplex and
		// tolerances of 1e-12. It usually takes a few hundred iterations
		// and gives the duals that certification needs.
		if inc, ok := opt.Solver.(solver.Incremental); ok && !opt.NoRetry {
			if sol, at, err := polish(inc, so); err == nil {
				out.record(nw, model, lay, lay.Decode(sol.X), sol.Duals, at)
				if out.Gap() <= tol {
					break
				}
			}
		}
	}
	if out.Timing == nil {
		if lastErr == nil {
			lastErr = errors.New("no attempt produced a solution")
		}
		return out, fmt.Errorf("engine: %s LP with %d messages: %w", p.Kind, len(pat), lastErr)
	}
	if !generated {
		out.keepRestart(lay, opt)
	}
	out.finish()
	return out, nil
}

// finish raises the bound to the trivial one where the duals certify less
// — S + VA/P holds for every feasible schedule, so it also bounds the LP
// optimum; it keeps the bound finite when the duals certify nothing — and
// keeps it at most the makespan.
func (out *Outcome) finish() {
	if lb := out.Network.Prob.LowerBoundLB(); lb > out.LowerBound {
		out.LowerBound = lb * (1 - 0x1p-50)
	}
	out.clamp()
}

// clamp keeps the bound at most the makespan: both are rigorous up to the
// rounding of the scaled coefficients, so a bound above a feasible
// makespan can only be that rounding.
func (out *Outcome) clamp() {
	if out.LowerBound > out.Cmax {
		out.LowerBound = out.Cmax
	}
}

// polish re-solves the loaded model from its final basis with the dual
// simplex and tolerances of PolishTolerance (log level and context of so)
// and returns the solution with its attempt record. It usually takes a
// few hundred iterations and gives the duals certification needs; the
// cold attempts and the warm Sequence both use it.
func polish(inc solver.Incremental, so solver.Options) (*solver.Solution, schedule.Attempt, error) {
	t0 := time.Now()
	pol := solver.Options{Algorithm: solver.Dual, PrimalTolerance: PolishTolerance, DualTolerance: PolishTolerance,
		LogLevel: so.LogLevel, Context: so.Context}
	sol, err := inc.Resolve(pol)
	if err != nil {
		return nil, schedule.Attempt{}, err
	}
	return sol, schedule.Attempt{Algorithm: "dual polish", Presolve: "off", Status: sol.Status.String(),
		Iterations: sol.Iterations, Seconds: time.Since(t0).Seconds()}, nil
}

// StagesUsed counts the stages whose messages carry load: more than
// zeroShare of V, the share below which the prune loop calls a message
// empty.
func (out *Outcome) StagesUsed() int {
	p := out.Network.Prob
	used := map[int]bool{}
	for j, m := range out.Network.Pattern {
		if out.Timing.Alpha[j]*p.DestSize(m.Dest) > zeroShare*p.V {
			used[m.Stage] = true
		}
	}
	return len(used)
}

// record repairs and certifies one solution — loads raw (user units, one
// per message of nw) and duals y of model's rows — and keeps the best
// makespan and the best bound seen so far. It returns the repaired duals
// (nil when the loads could not be repaired or y is nil).
func (out *Outcome) record(nw *formulations.Network, model *lp.Model, lay *formulations.Layout, raw, y []float64, at schedule.Attempt) []float64 {
	alpha, err := nw.RepairLoads(raw)
	if err != nil {
		at.Status = "repair_failed"
		out.Attempts = append(out.Attempts, at)
		return nil
	}
	tm := nw.Evaluate(alpha)
	lb, rep := certify(model, nw, lay, y, tm.Cmax)
	if triv := nw.Prob.LowerBoundLB() * (1 - 0x1p-50); !(lb >= triv) {
		lb = triv // S + VA/P: valid for every schedule; never -Inf or NaN
	}
	at.Cmax, at.LowerBound = tm.Cmax, lb
	at.Gap = gapOf(tm.Cmax, lb)
	out.Attempts = append(out.Attempts, at)
	out.Status = solver.Optimal
	if tm.Cmax < out.Cmax {
		out.Cmax, out.Timing = tm.Cmax, tm
	}
	if lb > out.LowerBound {
		out.LowerBound = lb
	}
	return rep
}

func gapOf(cmax, lb float64) float64 {
	if cmax <= 0 || math.IsInf(lb, -1) {
		return math.Inf(1)
	}
	return math.Max(0, (cmax-lb)/cmax)
}

// certify returns a safe lower bound (user units) on the LP optimum from
// the duals y of model's rows, as given and as repaired by
// Layout.RepairDuals, and the repaired duals. Time columns are bounded
// above by the makespan of the repaired schedule (slightly enlarged):
// every start time of an optimal solution is at most its Cmax, which is at
// most that makespan, so the box still holds an optimal solution and the
// bound stays valid.
func certify(model *lp.Model, nw *formulations.Network, lay *formulations.Layout, y []float64, cmax float64) (float64, []float64) {
	if y == nil {
		return math.Inf(-1), nil
	}
	ub := cmax / lay.Scale.T0 * (1 + 1e-9)
	saved := make([]float64, len(lay.TimeCols))
	for q, c := range lay.TimeCols {
		saved[q] = model.ColUpper[c]
		model.ColUpper[c] = ub
	}
	rep := lay.RepairDuals(model, nw, y)
	lb := math.Max(solver.SafeLowerBound(model, y), solver.SafeLowerBound(model, rep))
	for q, c := range lay.TimeCols {
		model.ColUpper[c] = saved[q]
	}
	if math.IsInf(lb, -1) {
		return lb, rep
	}
	v := lb * lay.Scale.T0
	return v - math.Abs(v)*0x1p-51, rep
}

// Solve solves the problem with n stages: full pattern, certification, and
// (unless opt.NoPrune) the prune loop. It returns the schedule with Status,
// Cmax, LowerBound, Gap, Pruning and Solve filled in.
func Solve(p *problem.Problem, n int, opt Options) (*schedule.Schedule, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	nmin := p.NMin()
	if n < nmin {
		return nil, &problem.StagesError{N: n, NMin: nmin}
	}
	if err := CheckSize(p, n, opt); err != nil {
		return nil, err
	}
	pat := formulations.FullPattern(p, n)
	if opt.Dests != nil {
		keep := map[int]bool{}
		for _, d := range opt.Dests {
			keep[d] = true
		}
		var sub formulations.Pattern
		for _, m := range pat {
			if keep[m.Dest] {
				sub = append(sub, m)
			}
		}
		if len(sub) == 0 {
			return nil, errors.New("engine: no destination left in the pattern")
		}
		pat = sub
	}
	return SolveFrom(p, n, pat, opt)
}

// SolveFrom solves the LP of pattern pat (messages of at most n stages),
// certifies it and (unless opt.NoPrune) prunes it as Solve does; the
// schedule reports n as its stage count.
func SolveFrom(p *problem.Problem, n int, pat formulations.Pattern, opt Options) (*schedule.Schedule, error) {
	start := time.Now()
	var res *Outcome
	var tried []schedule.Attempt
	var err error
	if st := opt.Starts; st != nil && st.last != nil && st.last.Network.Prob.V == p.V && sameProblem(st.last.Network.Prob, p) {
		res, tried, err = solveRestarted(p, pat, st.last, opt)
	}
	if err == nil && res == nil {
		res, err = SolvePattern(p, pat, opt)
	}
	if err != nil {
		return nil, err
	}
	all := append(tried, res.Attempts...)
	var removed *schedule.Removed
	if !opt.NoPrune {
		removed = &schedule.Removed{CmaxBefore: res.Cmax, CmaxAfter: res.Cmax}
		for round := 0; round < 1000; round++ {
			keep, drop := split(res)
			if len(drop) == 0 || (opt.Known != nil && opt.Known(keep)) {
				break
			}
			// From the basis of the LP before, where the solver allows it;
			// from scratch otherwise or if that does not certify.
			next, tried, err := solveRestarted(p, keep, res, opt)
			if err == nil && next == nil {
				all = append(all, tried...)
				next, err = SolvePattern(p, keep, opt)
			}
			if err != nil {
				return nil, fmt.Errorf("engine: prune round %d: %w", round+1, err)
			}
			all = append(all, next.Attempts...)
			if next.Cmax > res.Cmax*(1+1e-12) {
				// Removing zero-load messages cannot lengthen the schedule
				// (docs/formulations.md); only round-off can. Keep the
				// better one.
				break
			}
			for _, j := range drop {
				m := res.Network.Pattern[j]
				removed.Messages = append(removed.Messages, [2]int{m.Stage, m.Dest})
			}
			removed.Rounds++
			res = next
		}
		removed.CmaxAfter = res.Cmax
		removed.Stages, removed.Destinations = lost(p, n, res.Network.Pattern, opt.Dests)
	}
	if opt.Starts != nil && res.restart != nil {
		// What a restart reads, not the model: a search keeps one basis
		// beside the LP it solves.
		opt.Starts.last = &Outcome{Network: res.Network, restart: res.restart}
	}
	s := res.schedule(n, all, opt, start)
	s.Pruning = removed
	return s, nil
}

// schedule returns the n-stage schedule of the outcome with its status,
// certified bound and gap, and the solve's record (attempts all, started
// at start).
func (res *Outcome) schedule(n int, all []schedule.Attempt, opt Options, start time.Time) *schedule.Schedule {
	s := res.Network.Schedule(res.Timing, n)
	s.Status = solver.Optimal.String()
	s.LowerBound = res.LowerBound
	s.Gap = res.Gap()
	s.Solve = &schedule.SolveInfo{
		Solver: opt.Solver.Name(), Form: opt.Form.String(),
		Variables: res.Model.NumVars(), Constraints: res.Model.NumRows(), Nonzeros: res.Model.NumNonzeros(),
		Attempts: all, Tolerance: opt.tol(), Certified: s.Gap <= opt.tol(),
		Seconds: time.Since(start).Seconds(),
	}
	if !s.Solve.Certified {
		s.Solve.Note = fmt.Sprintf("certified gap %.3g exceeds the tolerance %.3g after %d attempts", s.Gap, opt.tol(), len(res.Attempts))
	}
	return s
}

// zeroShare is the share of V below which a message's load counts as zero
// for pruning.
const zeroShare = 1e-12

// capacityRoundOff is the relative shortfall of a pattern's capacity below
// V that split takes for round-off (a few units in the last place).
const capacityRoundOff = 1e-14

// split divides the pattern into messages that carry load and those that
// carry (numerically) none. It drops nothing when the messages that carry
// load cannot carry V on their own (formulations.Capacity): the LP's
// tolerance lets a message sit a hair above its bound D, and the rest,
// below zeroShare, then looks empty although the pattern without it is
// infeasible (a heterogeneous star with results, V = D·(1 + 6e-13):
// TestPruneKeepsCapacity). A shortfall within capacityRoundOff is the
// round-off of MaxLoad's V/DestSize·DestSize (one message that may carry
// all of V), not a shortfall.
func split(res *Outcome) (keep formulations.Pattern, drop []int) {
	p := res.Network.Prob
	for j, m := range res.Network.Pattern {
		if res.Timing.Alpha[j]*p.DestSize(m.Dest) <= zeroShare*p.V {
			drop = append(drop, j)
		} else {
			keep = append(keep, m)
		}
	}
	if len(keep) == 0 || formulations.Capacity(p, keep) < p.V*(1-capacityRoundOff) {
		return res.Network.Pattern, nil
	}
	return keep, drop
}

// lost returns the stages and destinations of the full n-stage pattern that
// no longer carry any message in pat.
func lost(p *problem.Problem, n int, pat formulations.Pattern, only []int) (stages, dests []int) {
	hasStage, hasDest := map[int]bool{}, map[int]bool{}
	for _, m := range pat {
		hasStage[m.Stage], hasDest[m.Dest] = true, true
	}
	for k := 1; k <= n; k++ {
		if !hasStage[k] {
			stages = append(stages, k)
		}
	}
	all := p.Dests()
	if only != nil {
		all = only
	}
	for _, d := range all {
		if !hasDest[d] {
			dests = append(dests, d)
		}
	}
	sort.Ints(dests)
	return stages, dests
}
