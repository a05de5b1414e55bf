package optimize

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/dlsched/dlsched/closedform"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
)

// StageRule says which n OverD uses for each buffer size.
type StageRule int

const (
	// StagesMin uses n_min(D), the fewest stages that can carry V (the
	// setting of the paper's Figs. 7, 8, 10 and 11).
	StagesMin StageRule = iota
	// StagesFixed uses DOptions.N for every D; a D with n_min(D) > N is
	// infeasible.
	StagesFixed
	// StagesBest uses the best n for each D (OverN).
	StagesBest
)

// String returns "min", "fixed" or "best".
func (r StageRule) String() string {
	switch r {
	case StagesFixed:
		return "fixed"
	case StagesBest:
		return "best"
	}
	return "min"
}

// Default grid and refinement sizes of OverD.
const (
	DefaultPoints = 9
	// MaxPoints bounds the grid, checked before it is allocated.
	MaxPoints     = 1000
	DefaultRefine = 8
)

// DOptions configure OverD.
type DOptions struct {
	Options
	// DMin and DMax delimit the buffer sizes searched (finite, 0 < DMin <
	// DMax).
	DMin, DMax float64
	// Points is the size of the logarithmic grid (default DefaultPoints,
	// at least 2); Refine the number of evaluations of each refinement
	// (default DefaultRefine; negative for none).
	Points, Refine int
	// Stages picks n per D; N is the stage count of StagesFixed.
	Stages StageRule
	N      int
	// Within is the relative slack of the smallest-buffer answer:
	// Smallest is the smallest D found with Cmax <= Best·(1+Within).
	Within float64
}

// DResult is the outcome of OverD.
type DResult struct {
	// Curve holds every evaluated point in increasing D (grid and
	// refinement).
	Curve []Point
	// Grid is the number of grid points among them.
	Grid int
	// Best has the least Cmax (ties within 1e-9: the smaller D).
	Best Point
	// Smallest is the smallest D with Cmax <= Best·(1+Within).
	Smallest Point
	// Within is the slack used for Smallest.
	Within float64
	// Unlimited is the same rule with D = ∞, for reference.
	Unlimited Point
	// AtDStar is the same rule at the Section 5 heuristic's D* (nil when
	// no D* exists); it is not part of Curve.
	AtDStar *Point
	// Stages is the rule used.
	Stages StageRule
	// DStar is the Section 5 heuristic for the problem's topology.
	DStar closedform.DStar
	// Final is Best solved as `dlsched solve --D d --stages n` solves
	// it (the pattern search); its Cmax can be below Best's.
	Final *Final
	// Note lists skipped buffer sizes and other remarks.
	Note string
	// Stats counts the work done.
	Stats Stats
}

// OverD searches the buffer size D in [DMin, DMax]: a logarithmic grid of
// Points sizes, then a golden-section refinement on log D in the two grid
// cells around the best grid point, then a bisection on log D for the
// smallest D within Within of the best. For StagesFixed and StagesBest the
// makespan never increases with D (a schedule feasible with buffers D is
// feasible with larger ones), so the best D is the top of the range up to
// the tolerance, and the useful answer is Smallest: the buffer beyond which
// more memory buys less than Within. For StagesMin the curve is not
// monotone (n_min(D) jumps at D = V/(k·capacity)); the refinement finds a
// local minimum in the bracket, and a dip narrower than a grid cell can be
// missed — that is all a grid can promise.
func OverD(p *problem.Problem, opt DOptions) (*DResult, error) {
	if err := checkD(p, &opt); err != nil {
		return nil, err
	}
	t0 := time.Now()
	ds := &dSearch{p: p, opt: opt, seen: map[float64]Point{},
		res: &DResult{Within: opt.Within, Stages: opt.Stages, DStar: closedform.DStarFor(p)}}
	grid := LogGrid(opt.DMin, opt.DMax, opt.Points)
	for _, d := range grid {
		if _, err := ds.eval(d); err != nil {
			return nil, err
		}
	}
	ds.res.Grid = len(ds.seen)
	if opt.Refine > 0 && !math.IsInf(float64(ds.best().Cmax), 1) {
		if err := ds.refine(grid); err != nil {
			return nil, err
		}
		if err := ds.bisect(); err != nil {
			return nil, err
		}
	}
	if err := ds.finish(); err != nil {
		return nil, err
	}
	if !opt.NoTimings {
		ds.res.Stats.Seconds = time.Since(t0).Seconds()
	}
	return ds.res, nil
}

// checkD refuses invalid options of OverD and fills in the defaults of
// Points and Refine.
func checkD(p *problem.Problem, opt *DOptions) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if opt.Solve.Solver == nil {
		return errors.New("optimize: no solver")
	}
	if !(opt.DMin > 0) || math.IsInf(opt.DMin, 0) {
		return &problem.FieldError{Field: "DMin", Value: fmt.Sprint(opt.DMin), Want: "a finite number > 0"}
	}
	if !(opt.DMax > opt.DMin) || math.IsInf(opt.DMax, 0) {
		return &problem.FieldError{Field: "DMax", Value: fmt.Sprint(opt.DMax), Want: fmt.Sprintf("a finite number > {DMin} %g", opt.DMin)}
	}
	if opt.Points == 0 {
		opt.Points = DefaultPoints
	}
	if opt.Points < 2 || opt.Points > MaxPoints {
		return &problem.FieldError{Field: "Points", Value: fmt.Sprint(opt.Points), Want: fmt.Sprintf("an integer from 2 to %d", MaxPoints)}
	}
	if opt.Refine == 0 {
		opt.Refine = DefaultRefine
	}
	if !(opt.Within >= 0 && opt.Within <= 1) {
		return &problem.FieldError{Field: "Within", Value: fmt.Sprint(opt.Within), Want: "a fraction from 0 to 1"}
	}
	if opt.Stages == StagesFixed && opt.N < 1 {
		return &problem.FieldError{Field: "N", Value: fmt.Sprint(opt.N), Want: "an integer >= 1"}
	}
	return nil
}

// dSearch is one OverD: the points evaluated so far, by D, and the notes
// they left.
type dSearch struct {
	p     *problem.Problem
	opt   DOptions
	res   *DResult
	seen  map[float64]Point
	notes []string
}

// eval evaluates buffer size d once (evalD) and remembers it.
func (ds *dSearch) eval(d float64) (Point, error) {
	if pt, ok := ds.seen[d]; ok {
		return pt, nil
	}
	pt, note, err := evalD(ds.p, d, ds.opt, &ds.res.Stats)
	if err != nil {
		return pt, err
	}
	if note != "" {
		ds.notes = append(ds.notes, note)
	}
	ds.seen[d] = pt
	return pt, nil
}

// f is Cmax at D = e^x.
func (ds *dSearch) f(x float64) (float64, error) {
	pt, err := ds.eval(math.Exp(x))
	return float64(pt.Cmax), err
}

// best returns the point of least Cmax so far (ties within tieTol: the
// smaller D).
func (ds *dSearch) best() Point {
	var b Point
	b.Cmax = schedule.Float(math.Inf(1))
	for _, pt := range sorted(ds.seen) {
		if float64(pt.Cmax) < float64(b.Cmax)*(1-tieTol) || (math.IsInf(float64(b.Cmax), 1) && !math.IsInf(float64(pt.Cmax), 1)) {
			b = pt
		}
	}
	return b
}

// refine runs the golden section on log D in the grid cells next to the
// best grid point, opt.Refine evaluations in all.
func (ds *dSearch) refine(grid []float64) error {
	b := sort.SearchFloat64s(grid, float64(ds.best().D))
	a, c := math.Log(grid[max(b-1, 0)]), math.Log(grid[min(b+1, len(grid)-1)])
	const phi = 0.6180339887498949
	x1, x2 := c-phi*(c-a), a+phi*(c-a)
	f1, err := ds.f(x1)
	if err != nil {
		return err
	}
	f2, err := ds.f(x2)
	if err != nil {
		return err
	}
	for k := 2; k < ds.opt.Refine; k++ {
		if f1 <= f2 {
			c, x2, f2 = x2, x1, f1
			x1 = c - phi*(c-a)
			if f1, err = ds.f(x1); err != nil {
				return err
			}
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + phi*(c-a)
			if f2, err = ds.f(x2); err != nil {
				return err
			}
		}
	}
	return nil
}

// bisect looks for the smallest D within the slack of the best, between
// the largest evaluated D below the first one that qualifies and it,
// opt.Refine evaluations.
func (ds *dSearch) bisect() error {
	tau := float64(ds.best().Cmax) * (1 + ds.opt.Within)
	pts := sorted(ds.seen)
	q := 0
	for q < len(pts) && float64(pts[q].Cmax) > tau {
		q++
	}
	if q == 0 || q == len(pts) {
		return nil
	}
	a, c := math.Log(float64(pts[q-1].D)), math.Log(float64(pts[q].D))
	for k := 0; k < ds.opt.Refine; k++ {
		m := (a + c) / 2
		fm, err := ds.f(m)
		if err != nil {
			return err
		}
		if fm <= tau {
			c = m
		} else {
			a = m
		}
	}
	return nil
}

// finish fills the result: the curve, the best and the smallest D within
// the slack, the same rule at D = ∞ and at the Section 5 heuristic's D*,
// and the best point solved as `dlsched solve` solves it.
func (ds *dSearch) finish() error {
	p, opt, res := ds.p, ds.opt, ds.res
	res.Curve = sorted(ds.seen)
	res.Best = ds.best()
	if math.IsInf(float64(res.Best.Cmax), 1) {
		why := strings.Join(ds.notes, "; ")
		if why == "" {
			why = "every evaluated D gave no feasible schedule"
		}
		return &NothingFeasibleError{Over: fmt.Sprintf("D in [%g, %g]", opt.DMin, opt.DMax), Why: why}
	}
	tau := float64(res.Best.Cmax) * (1 + opt.Within)
	for _, pt := range res.Curve {
		if float64(pt.Cmax) <= tau {
			res.Smallest = pt
			break
		}
	}
	un, note, err := evalD(p, math.Inf(1), opt, &res.Stats)
	if err != nil {
		return err
	}
	if note != "" {
		ds.notes = append(ds.notes, note)
	}
	res.Unlimited = un
	if d := res.DStar; d.Exists && d.D > 0 && !math.IsInf(d.D, 0) {
		pt, note, err := evalD(p, d.D, opt, &res.Stats)
		if err != nil {
			return err
		}
		if note != "" {
			ds.notes = append(ds.notes, note)
		}
		res.AtDStar = &pt
	}
	res.Note = strings.Join(ds.notes, "; ")
	if res.Best.Stages > 0 {
		fin, err := finalAt(p, res.Best.Stages, float64(res.Best.D), opt.Solve)
		if err != nil {
			return err
		}
		res.Final = fin
	}
	return nil
}

// sorted returns the points in increasing D.
func sorted(seen map[float64]Point) []Point {
	out := make([]Point, 0, len(seen))
	for _, pt := range seen {
		out = append(out, pt)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].D < out[b].D })
	return out
}

// evalD evaluates one buffer size under the stage rule. A D that needs an
// LP beyond the memory limit, or (StagesFixed) more stages than N, gives an
// infeasible point (Cmax = +Inf) and a note.
func evalD(p *problem.Problem, d float64, opt DOptions, st *Stats) (Point, string, error) {
	q := *p
	q.D = d
	nmin := q.NMin()
	inf := Point{D: schedule.Float(d), Cmax: schedule.Float(math.Inf(1)), CmaxFull: schedule.Float(math.Inf(1)),
		LowerBound: schedule.Float(math.Inf(1)), NMin: nmin}
	n := nmin
	switch opt.Stages {
	case StagesFixed:
		n = opt.N
		inf.Stages = n
		if n < nmin {
			return inf, "", nil
		}
	case StagesBest:
		r, err := OverN(&q, opt.Options)
		if err != nil {
			var se *solve.SizeError
			if errors.As(err, &se) {
				return inf, fmt.Sprintf("D=%g skipped: %v", d, err), nil
			}
			return inf, "", err
		}
		st.Warm += r.Stats.Warm
		st.Cold += r.Stats.Cold
		st.Fallbacks += r.Stats.Fallbacks
		note := ""
		if !r.Covered {
			note = fmt.Sprintf("D=%g: best n over [%d, %d] only (%s)", d, r.NMin, r.Last, strings.TrimPrefix(r.Note, "; "))
		}
		return r.Best, note, nil
	}
	if nmin > 1e7 {
		inf.Stages = nmin
		return inf, fmt.Sprintf("D=%g skipped: n_min=%d stages", d, nmin), nil
	}
	s, err := solve.Greedy(&q, n, opt.Solve)
	if err != nil {
		var se *solve.SizeError
		if errors.As(err, &se) {
			inf.Stages = n
			return inf, fmt.Sprintf("D=%g skipped: %v", d, err), nil
		}
		return inf, "", err
	}
	st.Cold++
	pt := pointOf(&q, n, s)
	pt.Bound = schedule.Float(PatternBound(&q, opt.Solve).At(n))
	return pt, "", nil
}
