package optimize

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/topology"
)

// DefaultSpan is how many stages beyond n_min OverN evaluates at most when
// Options.NMax is zero.
const DefaultSpan = 200

// tieTol is the relative difference below which two makespans count as
// equal; ties go to the fewer stages (OverN) or the smaller buffer (OverD).
const tieTol = 1e-9

// Options configure the searches of this package.
type Options struct {
	// Solve holds the solver and the LP settings of every solve (its
	// Pattern, Cache, Warm and Verify are not used: a point is the
	// paper's greedy prune, a Final the pattern search, neither verified).
	// Its NoPrune selects the curve: false (the default) optimises the
	// pruned makespan that `dlsched solve --stages n --pattern greedy`
	// reports, true the LP optimum of the full n-stage pattern (the
	// paper's Fig. 9 model).
	Solve solve.Options
	// NMax is the guard of the stage search: no n above it is evaluated.
	// Zero means n_min + DefaultSpan.
	NMax int
	// MaxLPSeconds refuses, before anything is solved, a search estimated
	// (EstimateOverN) to take more seconds of LP solving, with an
	// *LPSecondsError; zero: no limit.
	MaxLPSeconds float64
	// NoWarm disables warm starts (used only for the unpruned curve, see
	// the package doc).
	NoWarm bool
	// Progress, if set, is called after every evaluated point.
	Progress func(Point)
	// NoTimings leaves Stats.Seconds at 0, so that the same input gives
	// the same output.
	NoTimings bool
	// noFinal leaves NResult.Final nil (OverND solves it for its best
	// line only).
	noFinal bool
}

// Point is one evaluated (n, D).
type Point struct {
	// Stages is n, the number of stages of the LP's full pattern (the
	// x axis of the curve; `solve --stages n`).
	Stages int `json:"stages"`
	// D is the buffer size.
	D schedule.Float `json:"D"`
	// Cmax is the value of the optimised curve: the pruned makespan, or
	// the unpruned one when pruning is off. +Inf marks an infeasible point
	// (n below n_min for this D).
	Cmax schedule.Float `json:"cmax"`
	// CmaxFull is the makespan of the LP solution of the full n-stage
	// pattern, before pruning (equal to Cmax when pruning is off).
	CmaxFull schedule.Float `json:"cmax_full"`
	// LowerBound is the certified lower bound on the optimum of the LP
	// whose solution gave Cmax.
	LowerBound schedule.Float `json:"lower_bound"`
	// Bound is L(n), the physical lower bound of FullPatternBound on every
	// schedule of the full n-stage pattern.
	Bound schedule.Float `json:"bound"`
	// StagesUsed counts the stages that carry load after pruning.
	StagesUsed int `json:"stages_used"`
	// NMin is the minimum feasible number of stages for this D.
	NMin int `json:"n_min"`
	// Warm is true when the point was solved from the previous point's
	// basis.
	Warm bool `json:"warm,omitempty"`
}

// Bound is the straight line L(n) = Slope·n + Intercept below the makespan
// of every schedule of the full n-stage pattern (FullPatternBound).
type Bound struct {
	Slope, Intercept float64
}

// At returns L(n).
func (b Bound) At(n int) float64 { return b.Slope*float64(n) + b.Intercept }

// FirstAbove returns the smallest n >= 1 with L(n) > c, or 0 when there is
// none (Slope = 0, which happens only with S = 0).
func (b Bound) FirstAbove(c float64) int {
	if b.Intercept > c {
		return 1
	}
	if !(b.Slope > 0) || math.IsInf(c, 1) || math.IsNaN(c) {
		return 0
	}
	q := (c - b.Intercept) / b.Slope
	if q > 1e15 {
		return 0
	}
	n := int(math.Floor(q)) + 1
	for n > 1 && b.At(n-1) > c {
		n--
	}
	for b.At(n) <= c {
		n++
	}
	return n
}

// FullPatternBound returns the lower bound L(n) on the makespan of any
// schedule whose message pattern is the full n-stage pattern (every
// destination once per stage, each message paying its startup S even when
// empty — the paper's model, Section 4.1: "S is added even if the size of
// the load chunk is 0"). It follows from the originator's resources alone,
// which must carry every message one after another (docs/semantics.md):
//
//   - star: the single port sends all nm messages, each lasting S_i + C_iα,
//     so Cmax ≥ n·ΣS_i + V·min C_i (homogeneous: nmS + CV);
//   - ordinary tree: each of the originator's p links carries hop 0 of every
//     message, S + C·p^(i−1)α for a message to layer i; Σ p^(i−1)α over all
//     messages is V/p, and the last message still needs i_last − 1 hops of
//     at least S each: Cmax ≥ n·h'·S + CV/p + (i_last − 1)S, with h' the
//     number of computing layers and i_last the last one in activation
//     order;
//   - binomial tree: the originator takes part in every step of every
//     scatter, Si + C(p+1)^(i−1)α for layer i, and Σ(p+1)^(i−1)α = V/p:
//     Cmax ≥ n·S·Σi + CV/p, the sum over the computing layers.
//
// Computing time is left out, so the bound is loose while computing
// dominates, but its slope is exactly the S-per-stage growth the paper
// observes ("After exceeding a certain limit, Cmax grows linearly with
// n"). It holds for the true optimum, independently of any solver.
func FullPatternBound(p *problem.Problem) Bound {
	switch p.Kind {
	case topology.Star:
		if len(p.Procs) > 0 {
			sumS, minC := 0.0, math.Inf(1)
			for _, q := range p.Procs {
				sumS += q.S
				minC = math.Min(minC, q.C)
			}
			return Bound{Slope: sumS, Intercept: minC * p.V}
		}
		return Bound{Slope: float64(p.M) * p.S, Intercept: p.C * p.V}
	case topology.Tree:
		d := p.Dests()
		last := d[len(d)-1]
		return Bound{Slope: float64(len(d)) * p.S, Intercept: p.C*p.V/float64(p.P) + float64(last-1)*p.S}
	default:
		sum := 0
		for _, i := range p.Dests() {
			sum += i
		}
		return Bound{Slope: float64(sum) * p.S, Intercept: p.C * p.V / float64(p.P)}
	}
}

// PatternBound is the line L(n) below every point of a search with opt:
// FullPatternBound, or, on a heterogeneous star whose worker order is
// searched (solve.Options.WorkerOrder), where a point may use any order
// of any subset of the processors, the bound over every subset: the full
// n-stage pattern of a subset pays at least n·min S_i of startups and the
// port carries V at min C_i at best, so L(n) = n·min S_i + V·min C_i.
func PatternBound(p *problem.Problem, opt solve.Options) Bound {
	if ordered, _ := opt.SearchesOrder(p); !ordered {
		return FullPatternBound(p)
	}
	return subsetBound(p)
}

// subsetBound is PatternBound on a heterogeneous star whose worker order
// is searched: n·min S_i + V·min C_i, below every order of every subset.
func subsetBound(p *problem.Problem) Bound {
	minS, minC := math.Inf(1), math.Inf(1)
	for _, q := range p.Procs {
		minS, minC = math.Min(minS, q.S), math.Min(minC, q.C)
	}
	return Bound{Slope: minS, Intercept: minC * p.V}
}

// NResult is the outcome of OverN.
type NResult struct {
	// Curve holds the evaluated points in increasing n.
	Curve []Point
	// Best is the point of least Cmax (ties: fewest stages).
	Best Point
	// NMin is the first n evaluated; Last the last one the search needed
	// (a surface drawn through a common n may add points beyond it).
	NMin, Last int
	// Covered is true when the stopping rule fired: for every n > Last,
	// L(n) > Best.Cmax, so no full n-stage pattern beats Best. It is false
	// when the guard NMax (or the memory limit) stopped the search first.
	Covered bool
	// RuleN is the smallest n with L(n) > Best.Cmax, computed in closed
	// form whether or not the search reached it (0 when S = 0 and no such
	// n exists). When Covered, RuleN = Last + 1.
	RuleN int
	// Bound is the line L(n) of FullPatternBound.
	Bound Bound
	// Pruned tells which curve was optimised (Options.Solve.NoPrune
	// false).
	Pruned bool
	// Schedule is the schedule of Best (nil when the curve was computed
	// with warm starts; `solve --stages Best.Stages` gives it).
	Schedule *schedule.Schedule
	// Final is Best solved as `dlsched solve --stages n` solves it (the
	// pattern search); its Cmax can be below Best's.
	Final *Final
	// Note explains a search that stopped without covering, or anything
	// else a reader of the result should know.
	Note string
	// Stats counts the work done.
	Stats Stats
}

// Stats counts LP solves and time.
type Stats struct {
	// Warm and Cold count points solved from the previous basis and from
	// scratch; Fallbacks the warm attempts that had to be redone cold.
	Warm, Cold, Fallbacks int
	// Seconds is the wall-clock time of the search.
	Seconds float64 `json:"-"`
}

// OverN evaluates Cmax(n) for n = n_min, n_min+1, ... and returns the
// whole curve and the best n. Each point is solve.Greedy(p, n) — with
// pruning unless opt.Solve.NoPrune — so a point is exactly what
// `dlsched solve --stages n` reports. The search stops before the first n
// with L(n) > Best.Cmax (PatternBound; the package doc gives what this
// covers) or after opt.NMax. With pruning off, points are solved from the
// previous point's basis when the solver supports it (see the package doc
// for the measured gain).
func OverN(p *problem.Problem, opt Options) (*NResult, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if opt.Solve.Solver == nil {
		return nil, errors.New("optimize: no solver")
	}
	t0 := time.Now()
	nmin, nmax, err := stageRange(p, opt)
	if err != nil {
		return nil, err
	}
	if err := checkLPSeconds(p, opt); err != nil {
		return nil, err
	}
	b := PatternBound(p, opt.Solve)
	res := &NResult{NMin: nmin, Bound: b, Pruned: !opt.Solve.NoPrune}
	res.Best.Cmax = schedule.Float(math.Inf(1))
	eng := warmFor(p, opt)
	ord, err := newOrders(p, nmin, opt.Solve)
	if err != nil {
		return nil, err
	}
	for n := nmin; ; n++ {
		best := float64(res.Best.Cmax)
		if n > nmin && b.At(n) > best {
			res.Covered = true
			res.RuleN = n
			break
		}
		if n > nmax {
			res.Note = fmt.Sprintf("stopped by the guard n_max=%d before the stopping rule fired", nmax)
			break
		}
		pt, s, err := evalN(p, n, ord.options(opt.Solve), eng, &res.Stats)
		ord.saw(s)
		if err != nil {
			var se *solve.SizeError
			if errors.As(err, &se) && n > nmin {
				res.Note = fmt.Sprintf("stopped at n=%d: %v", n, err)
				break
			}
			return nil, err
		}
		pt.Bound = schedule.Float(b.At(n))
		pt.NMin = nmin
		res.Curve = append(res.Curve, pt)
		res.Last = n
		if float64(pt.Cmax) < best*(1-tieTol) || math.IsInf(best, 1) {
			res.Best = pt
			res.Schedule = s
		}
		if opt.Progress != nil {
			opt.Progress(pt)
		}
		if err := checkRest(p, opt, b, n, nmax, float64(res.Best.Cmax)); err != nil {
			eng.Close()
			return nil, err
		}
	}
	if eng != nil {
		eng.Close()
	}
	res.ruleN()
	if !opt.noFinal {
		fin, err := finalAt(p, res.Best.Stages, p.D, opt.Solve)
		if err != nil {
			return nil, err
		}
		res.Final = fin
	}
	if !opt.NoTimings {
		res.Stats.Seconds = time.Since(t0).Seconds()
	}
	return res, nil
}

// stageRange returns the stages OverN evaluates: from n_min to
// opt.NMax (n_min + DefaultSpan when zero).
func stageRange(p *problem.Problem, opt Options) (nmin, nmax int, err error) {
	nmin = p.NMin()
	if nmin >= math.MaxInt32 {
		return 0, 0, &problem.FieldError{Field: "D", Value: fmt.Sprintf("%g", p.D), Want: "a buffer large enough for fewer than 2^31 stages"}
	}
	nmax = opt.NMax
	if nmax <= 0 {
		nmax = nmin + DefaultSpan
	}
	if nmax < nmin {
		return 0, 0, &problem.FieldError{Field: FieldNMax, Value: fmt.Sprint(nmax), Want: fmt.Sprintf("at least n_min=%d", nmin)}
	}
	return nmin, nmax, nil
}

// ruleN sets RuleN when the rule did not fire, and says so when no finite
// search covers every n.
func (res *NResult) ruleN() {
	if !res.Covered {
		res.RuleN = res.Bound.FirstAbove(float64(res.Best.Cmax))
	}
	if !res.Covered && res.RuleN == 0 {
		s0 := "S = 0: every stage is free, L(n) does not grow and no finite search covers all n"
		if res.Note != "" {
			s0 = res.Note + "; " + s0
		}
		res.Note = s0
	}
}

// orders holds the worker orders a curve of a heterogeneous star whose
// order is searched tries at every point (solve.Options.Orders): the
// order searched at n_min and the order of the point before. The search
// at every point would cost an order search per n (dozens of LPs each);
// the final schedule (Final) searches again at the best n.
type orders struct {
	searched, last []int
}

// newOrders searches the worker order at n (nil orders when the solve
// searches none).
func newOrders(p *problem.Problem, n int, opt solve.Options) (*orders, error) {
	o, err := solve.SearchOrder(p, n, opt)
	if err != nil || o == nil {
		return nil, err
	}
	return &orders{searched: o}, nil
}

// options returns po with the orders to try.
func (o *orders) options(po solve.Options) solve.Options {
	if o == nil {
		return po
	}
	po.Orders = [][]int{o.searched}
	if o.last != nil && !slices.Equal(o.last, o.searched) {
		po.Orders = append(po.Orders, o.last)
	}
	return po
}

// saw records the worker order of a point's schedule.
func (o *orders) saw(s *schedule.Schedule) {
	if o != nil && s != nil && len(s.WorkerOrder) > 0 {
		o.last = slices.Clone(s.WorkerOrder)
	}
}

// warmFor returns the engine's warm-start option when the curve is the
// unpruned one (solve.Sequence), else nil.
func warmFor(p *problem.Problem, opt Options) *solve.Sequence {
	if opt.Solve.NoPrune && !opt.NoWarm {
		return solve.NewSequence(p, opt.Solve)
	}
	return nil
}

// extend appends to r.Curve the points after its last one up to n =
// through, for drawing a surface over a common range. The search's verdict
// (Best, Last, Covered, RuleN) is unchanged: beyond Last no full pattern
// can win, and a pruned one that would is not taken, since the rule does
// not cover pruned patterns (package doc).
func extend(p *problem.Problem, opt Options, r *NResult, through int) error {
	eng := warmFor(p, opt)
	po := opt.Solve
	if r.Schedule != nil && len(r.Schedule.WorkerOrder) > 0 {
		po.Orders = [][]int{r.Schedule.WorkerOrder} // the best point's, not a search per n
	}
	for n := r.Curve[len(r.Curve)-1].Stages + 1; n <= through; n++ {
		pt, _, err := evalN(p, n, po, eng, &r.Stats)
		if err != nil {
			return err
		}
		pt.Bound = schedule.Float(r.Bound.At(n))
		pt.NMin = r.NMin
		r.Curve = append(r.Curve, pt)
		if opt.Progress != nil {
			opt.Progress(pt)
		}
	}
	return nil
}

// evalN solves one point, warm when eng is usable, else cold.
func evalN(p *problem.Problem, n int, po solve.Options, eng *solve.Sequence, st *Stats) (Point, *schedule.Schedule, error) {
	if eng != nil {
		if out, warm, ok := eng.Solve(n); ok {
			st.Warm++
			return outcomePoint(p, n, out, warm), nil, nil
		}
		st.Fallbacks++
	}
	s, err := solve.Greedy(p, n, po)
	if eng != nil {
		eng.Invalidate() // the shared solver now holds another model
	}
	if err != nil {
		return Point{}, nil, err
	}
	st.Cold++
	return pointOf(p, n, s), s, nil
}

// outcomePoint reads a point out of the unpruned outcome of the full
// n-stage pattern.
func outcomePoint(p *problem.Problem, n int, out solve.Outcome, warm bool) Point {
	return Point{Stages: n, D: schedule.Float(p.D), Cmax: schedule.Float(out.Cmax), CmaxFull: schedule.Float(out.Cmax),
		LowerBound: schedule.Float(out.LowerBound), StagesUsed: out.StagesUsed, Warm: warm}
}

// pointOf reads a point out of a solved schedule.
func pointOf(p *problem.Problem, n int, s *schedule.Schedule) Point {
	full := s.Cmax
	if s.Pruning != nil {
		full = s.Pruning.CmaxBefore
	}
	return Point{Stages: n, D: schedule.Float(p.D), Cmax: schedule.Float(s.Cmax), CmaxFull: schedule.Float(full),
		LowerBound: schedule.Float(s.LowerBound), StagesUsed: s.Stages, NMin: s.NMin}
}

// NothingFeasibleError reports a search in which no evaluated point gave a
// schedule (every LP infeasible or refused); Why gives the reasons.
type NothingFeasibleError struct {
	Over, Why string
}

// Error implements error.
func (e *NothingFeasibleError) Error() string {
	return fmt.Sprintf("optimize over %s: nothing is feasible: %s", e.Over, e.Why)
}
