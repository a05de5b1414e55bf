package closedform

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// LBLayer is the LB strategy of Section 4.2 for one computing layer i of a
// binomial tree: layers other than i only relay, and every one of n stages
// sends the same chunk α = V/(nP) to each of the P = p(p+1)^(i−1)
// processors of layer i. One scatter lasts T = iS + C(p+1)^(i−1)α = iS +
// CV/(np) (Section 3.3).
type LBLayer struct {
	// Layer is i; Processors is P = p(p+1)^(i−1).
	Layer      int     `json:"layer"`
	Processors float64 `json:"processors"`
	// NStar is the paper's real minimiser n* = sqrt(AV/(iSp(p+1)^(i−1)))
	// (+Inf when S = 0).
	NStar schedule.Float `json:"n_star"`
	// NMin is the fewest stages for buffer D: the first step carries
	// p(p+1)^(i−2)α ≤ D (α ≤ D for i = 1).
	NMin int `json:"n_min"`
	// Stages is n* rounded: Paper(n) = n·iS + CV/p + AV/(nP) is convex in
	// n, so the best integer is ⌊n*⌋ or ⌈n*⌉, whichever gives the smaller
	// value (the smaller on a tie), raised to NMin when below it.
	Stages int `json:"stages"`
	// Paper is the paper's Cmax(n) = n(iS + VC(p+1)^(i−1)/(np(p+1)^(i−1)))
	// + AV/(np(p+1)^(i−1)) at Stages.
	Paper float64 `json:"cmax_paper"`
	// EqualChunks is the true makespan of the equal-chunk schedule at
	// Stages: chunk k arrives at kT and the layer computes the chunks
	// back to back, so Cmax = max(nT + Aα, T + nAα). It equals Paper
	// exactly when Aα ≤ T (the layer computes a chunk within one scatter);
	// otherwise Paper undercounts the computing and may even fall below
	// the trivial bound iS + AV/P.
	EqualChunks float64 `json:"cmax_equal_chunks"`
	// ComputeBound is true when Aα > T at Stages (Paper < EqualChunks).
	ComputeBound bool `json:"compute_bound"`
	// BestStages and BestEqualChunks are the integer n ≥ NMin that
	// minimises EqualChunks (also convex in n) and its value.
	BestStages      int     `json:"best_stages"`
	BestEqualChunks float64 `json:"best_cmax_equal_chunks"`
	// Trivial is the bound iS + AV/P no schedule on layer i can beat.
	Trivial float64 `json:"trivial_bound"`
}

// lbParts returns T(n) and Aα(n) for layer i.
func lbParts(p *problem.Problem, i, n int) (t, comp float64) {
	P := topology.LayerSize(topology.Binomial, p.P, i)
	alpha := p.V / (float64(n) * P)
	t = float64(i)*p.S + p.C*topology.BinomialTransferLoad(p.P, i)*alpha
	return t, p.A * alpha
}

// LBPaper returns the paper's closed form Cmax(n) of the LB strategy for
// layer i (Section 4.2): n(iS + VC/(np)) + AV/(np(p+1)^(i−1)).
func LBPaper(p *problem.Problem, i, n int) float64 {
	t, comp := lbParts(p, i, n)
	return float64(n)*t + comp
}

// LBEqualChunks returns the makespan of the LB strategy's schedule for
// layer i with n equal stages under the physical model: max(nT + Aα,
// T + nAα).
func LBEqualChunks(p *problem.Problem, i, n int) float64 {
	t, comp := lbParts(p, i, n)
	return math.Max(float64(n)*t+comp, t+float64(n)*comp)
}

// LBStrategy returns the LB strategy of Section 4.2 for every layer of the
// binomial tree p (p.Relay and p.Order are ignored) and the index of the
// layer the paper would pick: the least Paper value. The paper's own
// choice ignores D; here n is at least the n_min of buffer D.
func LBStrategy(p *problem.Problem) ([]LBLayer, int, error) {
	if p.Kind != topology.Binomial {
		return nil, 0, &problem.FieldError{Field: "topology", Value: p.Kind.String(), Want: "binomial (the LB strategy of Section 4.2 is for binomial trees)"}
	}
	q := *p
	q.Relay = nil
	if err := q.Validate(); err != nil {
		return nil, 0, err
	}
	out := make([]LBLayer, 0, p.H)
	bestIdx := 0
	for i := 1; i <= p.H; i++ {
		one := SingleLayer(&q, i)
		P := topology.LayerSize(topology.Binomial, p.P, i)
		l := LBLayer{Layer: i, Processors: P, NMin: one.NMin(), Trivial: float64(i)*p.S + p.A*p.V/P}
		if l.NMin >= math.MaxInt32 {
			return nil, 0, &problem.FieldError{Field: "D", Value: fmt.Sprintf("%g", p.D), Want: "a buffer large enough for fewer than 2^31 stages"}
		}
		if p.S > 0 {
			ns := math.Sqrt(p.A * p.V / (float64(i) * p.S * P))
			l.NStar = schedule.Float(ns)
			lo := int(math.Max(1, math.Floor(ns)))
			n := lo
			if hi := lo + 1; float64(hi) <= math.Ceil(ns) && LBPaper(p, i, hi) < LBPaper(p, i, lo) {
				n = hi
			}
			if n < l.NMin {
				n = l.NMin
			}
			l.Stages = n
		} else {
			l.NStar = schedule.Float(math.Inf(1))
			l.Stages = l.NMin
		}
		l.Paper = LBPaper(p, i, l.Stages)
		l.EqualChunks = LBEqualChunks(p, i, l.Stages)
		t, comp := lbParts(p, i, l.Stages)
		l.ComputeBound = comp > t
		l.BestStages, l.BestEqualChunks = bestEqualChunks(p, i, l.NMin)
		out = append(out, l)
		if l.Paper < out[bestIdx].Paper {
			bestIdx = len(out) - 1
		}
	}
	return out, bestIdx, nil
}

// bestEqualChunks minimises the convex LBEqualChunks over integers n ≥ nmin
// by bisection on the sign of its forward difference.
func bestEqualChunks(p *problem.Problem, i, nmin int) (int, float64) {
	f := func(n int) float64 { return LBEqualChunks(p, i, n) }
	lo := nmin
	hi := nmin
	if p.S > 0 {
		// E(n) ≥ n·iS, so no n beyond E(nmin)/(iS) can be better.
		h := f(nmin)/(float64(i)*p.S) + 1
		if h > 1e12 {
			h = 1e12
		}
		hi = max(nmin, int(h))
	} else {
		hi = max(nmin, 1<<40)
	}
	// Smallest n in [lo, hi] with f(n+1) − f(n) ≥ 0.
	for lo < hi {
		mid := lo + (hi-lo)/2
		if f(mid+1) >= f(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, f(lo)
}

// SingleLayer returns a copy of p with every layer but i relay-only (the
// problem of the LB strategy on layer i).
func SingleLayer(p *problem.Problem, i int) *problem.Problem {
	q := *p
	q.Relay = nil
	for l := 1; l <= p.H; l++ {
		if l != i {
			q.Relay = append(q.Relay, l)
		}
	}
	return &q
}

// LBBest returns the index of the layer whose equal-chunk schedule, at its
// best n, has the least true makespan (BestEqualChunks) — the choice the
// paper's rule should make when some layer is compute-bound.
func LBBest(layers []LBLayer) int {
	b := 0
	for i, l := range layers {
		if l.BestEqualChunks < layers[b].BestEqualChunks {
			b = i
		}
	}
	return b
}

// LBLine returns the value of the paper's LB line (Section 4.2, Figs. 10
// and 11) for p: the paper's Cmax_i(n) of the layer it would pick (the
// least value over layers), with n the better neighbour of n* raised to
// the n_min of buffer D — the single definition used by sweep's lb_layer
// column and optimize's relay report. ok is false for topologies other
// than the binomial tree and for problems LBStrategy refuses.
//
// D is respected because the physical model (docs/semantics.md) forbids a
// message larger than the buffer: with n < n_min the first hop to layer i
// would carry p(p+1)^(i−2)·V/(nP) > D, so the n* of the printed formula
// describes no feasible schedule when D binds.
func LBLine(p *problem.Problem) (cmax float64, ok bool) {
	if p.Kind != topology.Binomial {
		return 0, false
	}
	layers, pick, err := LBStrategy(p)
	if err != nil {
		return 0, false
	}
	return layers[pick].Paper, true
}
