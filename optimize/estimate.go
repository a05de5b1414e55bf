package optimize

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/topology"
)

// DefaultMaxLPSeconds is the default Options.MaxLPSeconds of `dlsched
// optimize`: an hour of estimated LP solving. The estimate errs high —
// it counts every n up to the guard and LPs solved cold, where the
// search's warm chain and its stopping rule often end much sooner (the
// star m = 10, D = 1e4, V = 1e6 over n = 10..210: 71.9 s estimated, 9.2 s
// measured; the tree p = 2, h = 8, D = 100, V = 8e4 over n = 51..250:
// 2,170 s estimated, 67 s measured, the rule firing at n = 105) — so the
// default refuses only searches that run for hours (n_max = 1e9 on that
// star: 7.3e6 s).
const DefaultMaxLPSeconds = 3600

// The measured constants of EstimateOverN (docs/compare.md, Limits).
const (
	// Clp's time for one LP grows about with the square of its rows:
	// stars solved by stage generation 1.2e-10 s per row² (m = 4, 750,000
	// rows: 53 s), LPs solved whole 2.5e-8 s per row² (a chain of 10,
	// 17,471 rows: 7.6 s; 69,971 rows: 81 s).
	lpSecondsGenerated = 1.2e-10
	lpSecondsWhole     = 2.5e-8
	// The final solve at the best n searches patterns: up to about 20
	// LPs of that size on trees (a 2-ary tree of 4 levels, 125 stages:
	// 7.4 s against 0.44 s for the greedy prune), 2 on stars (a star of
	// 4, 31,250 stages: one LP, the other candidates ruled out by their
	// bound; below 64 messages more candidates, but small ones).
	finalTree, finalStar = 20, 2
)

// Estimate is what a search over n (OverN) is estimated to cost, from
// the inputs alone.
type Estimate struct {
	// NMin and End are the first and the last n the search may evaluate:
	// End is Options.NMax (n_min + DefaultSpan when zero) or, on a star
	// with S > 0, the last n before the stopping rule must fire (SearchEnd).
	NMin, End int
	// First is the size of the LP of n_min.
	First solve.ModelSize
	// LPSeconds is Clp's estimated time for the LPs of n_min..End and the
	// final pattern search at End.
	LPSeconds float64
}

// EstimateOverN estimates the search over n of p with opt (its NMax and
// Solve's form); it solves nothing and allocates nothing in proportion
// to n. Errors are OverN's for the stage range.
func EstimateOverN(p *problem.Problem, opt Options) (Estimate, error) {
	return estimateTo(p, opt, SearchEnd)
}

// estimateTo is EstimateOverN with the search ending at end(p, nmin, nmax).
func estimateTo(p *problem.Problem, opt Options, end func(p *problem.Problem, nmin, nmax int) int) (Estimate, error) {
	nmin, nmax, err := stageRange(p, opt)
	if err != nil {
		return Estimate{}, err
	}
	e0, err := solve.EstimateModel(p, nmin, opt.Solve)
	if err != nil {
		return Estimate{}, err
	}
	last := end(p, nmin, nmax)
	return Estimate{NMin: nmin, End: last, First: e0, LPSeconds: lpSeconds(p, e0, nmin, last, opt.Solve)}, nil
}

// SearchEnd bounds the last n OverN evaluates. It stops at the first
// n > n_min with L(n) > best (PatternBound); on a star with S > 0 the
// best is at most the makespan U of a feasible n_min-stage schedule
// (RoundRobin), so the search ends before L(n) > U. On a heterogeneous
// star L is the bound over every subset and order of the processors (a
// searched worker order may use any; a seeded property test found n = 16
// evaluated where the full pattern's bound ended at 14). Elsewhere it may
// run to nmax.
func SearchEnd(p *problem.Problem, nmin, nmax int) int {
	if p.Kind != topology.Star || !(p.S > 0) {
		return nmax
	}
	b := FullPatternBound(p)
	if len(p.Procs) > 0 {
		b = subsetBound(p)
	}
	first := b.FirstAbove(RoundRobin(p, nmin))
	if first > 0 && first-1 < nmax {
		return max(first-1, nmin)
	}
	return nmax
}

// RoundRobin is the makespan of equal chunks x = V/(n·m) sent to the
// star's processors in stage order (a feasible n-stage schedule when
// n >= n_min, as x <= D): the k-th chunk of processor i arrives at
// a_k = (k−1)R + Σ_{j<=i} (S_j + C_j x), R the length of a round, and
// computing in arrival order processor i finishes at most at
// max(a_n + A_i x, a_1 + n A_i x).
func RoundRobin(p *problem.Problem, n int) float64 {
	d := len(p.Dests())
	x := p.V / float64(n*d)
	r := 0.0
	for i := 1; i <= d; i++ {
		s, c, _ := p.Params(i)
		r += s + c*x
	}
	u, a1 := 0.0, 0.0
	for i := 1; i <= d; i++ {
		s, c, a := p.Params(i)
		a1 += s + c*x
		an := float64(n-1)*r + a1
		u = math.Max(u, math.Max(an+a*x, a1+float64(n)*a*x))
	}
	return u
}

// lpSeconds estimates Clp's time for the search: one LP per n in
// [nmin, end] and the final pattern search at end, each c·rows², with
// rows linear in n (e0, the estimate at nmin, and one at nmin + 1 fix
// the line).
func lpSeconds(p *problem.Problem, e0 solve.ModelSize, nmin, end int, so solve.Options) float64 {
	e1, err := solve.EstimateModel(p, nmin+1, so)
	if err != nil {
		e1 = e0
	}
	slope := float64(e1.Rows - e0.Rows)
	r0 := float64(e0.Rows) - slope*float64(nmin)
	c, final := lpSecondsWhole, float64(finalTree)
	if p.Kind == topology.Star {
		final = finalStar
	}
	if e0.Generated {
		c = lpSecondsGenerated
	}
	// Σ_{n=a}^{b} (r0 + slope·n)² in closed form.
	a, b := float64(nmin), float64(end)
	cnt := b - a + 1
	sum1 := (a + b) * cnt / 2
	sq := func(x float64) float64 { return x * (x + 1) * (2*x + 1) / 6 }
	sum2 := sq(b) - sq(a-1)
	rEnd := r0 + slope*b
	return c * (r0*r0*cnt + 2*r0*slope*sum1 + slope*slope*sum2 + final*rEnd*rEnd)
}

// LPSecondsError refuses a search estimated to take more than
// Options.MaxLPSeconds of LP solving.
type LPSecondsError struct {
	Estimate Estimate
	// Limit is Options.MaxLPSeconds.
	Limit float64
}

// FieldMaxLPSeconds and FieldNMax name Options.MaxLPSeconds and
// Options.NMax in errors.
const (
	FieldMaxLPSeconds = "MaxLPSeconds"
	FieldNMax         = "NMax"
)

func (e *LPSecondsError) Error() string { return e.Format(func(f string) string { return f }) }

// Format is Error with the fields named by name (the command line passes
// its flag names).
func (e *LPSecondsError) Format(name func(string) string) string {
	return fmt.Sprintf("the search over n = %d..%d may need about %.3g s of LP solving, more than %s %g: raise it, or lower %s, or use larger buffers (%s)",
		e.Estimate.NMin, e.Estimate.End, e.Estimate.LPSeconds, name(FieldMaxLPSeconds), e.Limit, name(FieldNMax), name("D"))
}

// checkLPSeconds refuses, before anything is solved, a search whose LPs
// are certain to take more than opt.MaxLPSeconds (none when it is zero):
// from n_min up to SearchEnd on a star with S > 0, where the stopping
// rule must fire by then; elsewhere the LP of n_min alone, the rest being
// checked once it is solved (checkRest).
func checkLPSeconds(p *problem.Problem, opt Options) error {
	if opt.MaxLPSeconds <= 0 {
		return nil
	}
	end := SearchEnd
	if p.Kind != topology.Star || !(p.S > 0) {
		end = func(_ *problem.Problem, nmin, _ int) int { return nmin }
	}
	e, err := estimateTo(p, opt, end)
	if err != nil {
		return err
	}
	if e.LPSeconds > opt.MaxLPSeconds {
		return &LPSecondsError{Estimate: e, Limit: opt.MaxLPSeconds}
	}
	return nil
}

// checkRest refuses, after the LP of n_min (n), a search whose remaining
// LPs are estimated to take more than opt.MaxLPSeconds: the stopping rule
// fires at the first n whose bound b exceeds best, so the search ends
// there or at nmax, whichever comes first.
func checkRest(p *problem.Problem, opt Options, b Bound, n, nmax int, best float64) error {
	if opt.MaxLPSeconds <= 0 || n != p.NMin() || n >= nmax {
		return nil
	}
	end := nmax
	if first := b.FirstAbove(best); first > 0 && first-1 < end {
		end = first - 1
	}
	if end <= n {
		return nil
	}
	e0, err := solve.EstimateModel(p, n+1, opt.Solve)
	if err != nil {
		return nil // OverN meets the size refusal at n + 1 and stops there
	}
	e := Estimate{NMin: n + 1, End: end, First: e0, LPSeconds: lpSeconds(p, e0, n+1, end, opt.Solve)}
	if e.LPSeconds > opt.MaxLPSeconds {
		return &LPSecondsError{Estimate: e, Limit: opt.MaxLPSeconds}
	}
	return nil
}
