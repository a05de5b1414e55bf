package optimize

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// Fig9 returns the problem of the paper's Fig. 9 ("Dependence of Cmax on
// D, n") for set "a" (m = 10, A = 1E-4, C = 1E-4, S = 1E-1, V = 1E7) or "b"
// (m = 10, A = 1E-3, C = 1E-4, S = 1E-2, V = 1E7), a star; D is left at
// V/100. The paper gives D "as a fraction of V"; Fig9Fractions are the
// fractions used by `dlsched optimize --over n,D --preset fig9a|fig9b`.
func Fig9(set string) (*problem.Problem, error) {
	p := &problem.Problem{Kind: topology.Star, M: 10, V: 1e7}
	switch set {
	case "a":
		p.A, p.C, p.S = 1e-4, 1e-4, 1e-1
	case "b":
		p.A, p.C, p.S = 1e-3, 1e-4, 1e-2
	default:
		return nil, fmt.Errorf("optimize: Fig. 9 has parameter sets a and b, not %q", set)
	}
	p.D = p.V / 100
	return p, nil
}

// Fig9Fractions are the buffer sizes of the Fig. 9 presets as fractions of
// V: n_min = 1/(10·fraction) runs from 100 down to 1.
var Fig9Fractions = []float64{1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 1e-1}

// Line is the curve over n of one buffer size.
type Line struct {
	D float64
	NResult
}

// SurfaceResult is the outcome of OverND.
type SurfaceResult struct {
	// Lines holds one OverN result per D, in the order given.
	Lines []Line
	// Best is the best point over all lines (ties: the earlier line).
	Best Point
	// Through is the largest n of any line.
	Through int
	// Final is the best line's Final: Best solved as `dlsched solve`
	// solves it.
	Final *Final
	// Stats counts the work done.
	Stats Stats
}

// OverND computes Cmax over n for each buffer size in ds (the surface of
// the paper's Fig. 9): each line is an OverN search with its stopping rule.
// With through > 0 every line that stopped earlier is then extended up to
// n = through, so that the surface is drawn over a common range and shows
// the linear growth past the optimum (extra points do not change a line's
// best, see extend). Past the optimum the LPs are highly degenerate and
// each costs about as much as a cold solve, warm or not.
func OverND(p *problem.Problem, ds []float64, opt Options, through int) (*SurfaceResult, error) {
	if len(ds) == 0 {
		return nil, errors.New("optimize: no buffer sizes")
	}
	if err := checkSurfaceLPSeconds(p, ds, opt); err != nil {
		return nil, err
	}
	t0 := time.Now()
	res := &SurfaceResult{}
	res.Best.Cmax = schedule.Float(math.Inf(1))
	lineOpt := opt
	lineOpt.noFinal = true
	lineOpt.MaxLPSeconds = 0 // checked for all the lines at once
	for _, d := range ds {
		q := *p
		q.D = d
		r, err := OverN(&q, lineOpt)
		if err != nil {
			return nil, fmt.Errorf("D=%g: %w", d, err)
		}
		res.Lines = append(res.Lines, Line{D: d, NResult: *r})
		if r.Last > res.Through {
			res.Through = r.Last
		}
	}
	if through > res.Through {
		res.Through = through
	}
	for i := range res.Lines {
		l := &res.Lines[i]
		if through > 0 && l.Covered && l.Last < through {
			q := *p
			q.D = l.D
			if err := extend(&q, opt, &l.NResult, through); err != nil {
				return nil, fmt.Errorf("D=%g: %w", l.D, err)
			}
		}
	}
	for _, l := range res.Lines {
		res.Stats.add(l.Stats)
		b := l.Best
		cur := float64(res.Best.Cmax)
		if float64(b.Cmax) < cur*(1-tieTol) || math.IsInf(cur, 1) {
			res.Best = b
		}
	}
	if res.Best.Stages > 0 {
		fin, err := finalAt(p, res.Best.Stages, float64(res.Best.D), opt.Solve)
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

func (s *Stats) add(o Stats) {
	s.Warm += o.Warm
	s.Cold += o.Cold
	s.Fallbacks += o.Fallbacks
}

// checkSurfaceLPSeconds refuses a surface whose lines' searches over n are
// estimated to take more than opt.MaxLPSeconds of LP solving in all.
func checkSurfaceLPSeconds(p *problem.Problem, ds []float64, opt Options) error {
	if opt.MaxLPSeconds <= 0 {
		return nil
	}
	all := Estimate{NMin: math.MaxInt}
	for _, d := range ds {
		q := *p
		q.D = d
		e, err := EstimateOverN(&q, opt)
		if err != nil {
			return fmt.Errorf("D=%g: %w", d, err)
		}
		all.NMin, all.End = min(all.NMin, e.NMin), max(all.End, e.End)
		all.LPSeconds += e.LPSeconds
		if all.LPSeconds > opt.MaxLPSeconds {
			return &LPSecondsError{Estimate: all, Limit: opt.MaxLPSeconds}
		}
	}
	return nil
}
