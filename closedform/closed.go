package closedform

import (
	"math"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// StarEqualFinish returns the single-installment (n = 1) star schedule with
// unlimited buffers in which all m processors finish together — the classic
// divisible-load closed form: P_i stops at t_i + S + Cα_i + Aα_i = Cmax, and
// since P_{i+1} starts when P_i's message ends,
//
//	Aα_i = S + (A + C)α_{i+1},  Σα_i = V,
//
// so α_{i+1} = (Aα_i − S)/(A + C). With S = 0 this is the geometric series
// of Section 4.1 (m=3, A=C=1, V=3: α = (12/7, 6/7, 3/7), Cmax = 24/7). ok is
// false when some α_i would not be positive (S too large for m
// processors), in which case the formula does not describe the optimum.
// Homogeneous star only.
func StarEqualFinish(m int, s, c, a, v float64) (alpha []float64, cmax float64, ok bool) {
	// α_i = x_i α_1 − y_i.
	x, y := make([]float64, m), make([]float64, m)
	x[0] = 1
	for i := 1; i < m; i++ {
		x[i] = x[i-1] * a / (a + c)
		y[i] = (a*y[i-1] + s) / (a + c)
	}
	sx, sy := 0.0, 0.0
	for i := 0; i < m; i++ {
		sx += x[i]
		sy += y[i]
	}
	a1 := (v + sy) / sx
	alpha = make([]float64, m)
	ok = true
	for i := range alpha {
		alpha[i] = x[i]*a1 - y[i]
		if alpha[i] <= 0 {
			ok = false
		}
	}
	return alpha, s + (a+c)*a1, ok
}

// TreeOneLayer returns Cmax of an ordinary tree of height 1 (or a binomial
// tree of height 1): p processors fed at once over the originator's p
// ports. With n stages each carrying the buffer maximum until V is placed,
// the optimum for n = 1 is S + (C + A)V/p.
func TreeOneLayer(p int, s, c, a, v float64) float64 {
	return s + (c+a)*v/float64(p)
}

// DStar holds the buffer size heuristic of Section 5.
type DStar struct {
	// D is the smallest buffer size for which the processors keep
	// computing until the next stage; valid only if Exists.
	D float64
	// Exists is false when the formula's denominator is not positive: no
	// buffer size avoids idle time.
	Exists bool
	// Formula is the printed formula, for display.
	Formula string
	// Why explains a missing D*.
	Why string
}

// DStarHeuristic returns the paper's D* for the problem's topology
// (Section 5):
//
//	star:            D* ≥ mS/(A − mC)                                  (A > mC)
//	binomial tree:   D* ≥ S(h+1)h p(p+1)^(h−2) / (2(A − Ch(p+1)^(h−1)))  (A > Ch(p+1)^(h−1))
//	2-buffer tree:   D* ≥ hS/(A/p^(h−1) − Ch)                          (A/p^(h−1) > Ch)
//	1-buffer tree:   D* ≥ hS/(A/p^(h−1) − hC(1 + 1/p))                 (A/p^(h−1) > hC(1+1/p))
//
// The last one is printed in the paper as hS/(p^(h−1) − hC(1+1/p)), which is
// dimensionally wrong (A is missing); the derivation just above it — the
// computing time D*A/p^(h−1) of layer h at least the stage's communication
// time hS + hCD*(1+1/p) — gives the form used here (docs/formulations.md).
func DStarHeuristic(pr *problem.Problem) DStar {
	s, c, a := pr.S, pr.C, pr.A
	switch pr.Kind {
	case topology.Star:
		m := float64(pr.M)
		den := a - m*c
		if den <= 0 {
			return DStar{Formula: "mS/(A-mC)", Why: "A <= mC: the originator cannot feed m processors fast enough; idle time is inevitable"}
		}
		return DStar{D: m * s / den, Exists: true, Formula: "mS/(A-mC)"}
	case topology.Binomial:
		p, h := float64(pr.P), float64(pr.H)
		den := 2 * (a - c*h*math.Pow(p+1, h-1))
		if den <= 0 {
			return DStar{Formula: "S(h+1)hp(p+1)^(h-2)/(2(A-Ch(p+1)^(h-1)))", Why: "A <= Ch(p+1)^(h-1): too many layers, idle time is inevitable"}
		}
		return DStar{D: s * (h + 1) * h * p * math.Pow(p+1, h-2) / den, Exists: true, Formula: "S(h+1)hp(p+1)^(h-2)/(2(A-Ch(p+1)^(h-1)))"}
	default:
		p, h := float64(pr.P), float64(pr.H)
		last := a / math.Pow(p, h-1)
		if pr.Buffers == 2 {
			den := last - c*h
			if den <= 0 {
				return DStar{Formula: "hS/(A/p^(h-1)-Ch)", Why: "A/p^(h-1) <= Ch: layer h cannot compute while a stage is sent; idle time is inevitable"}
			}
			return DStar{D: h * s / den, Exists: true, Formula: "hS/(A/p^(h-1)-Ch)"}
		}
		den := last - h*c*(1+1/p)
		if den <= 0 {
			return DStar{Formula: "hS/(A/p^(h-1)-hC(1+1/p))", Why: "A/p^(h-1) <= hC(1+1/p): layer h cannot compute while a stage is sent; idle time is inevitable"}
		}
		return DStar{D: h * s / den, Exists: true, Formula: "hS/(A/p^(h-1)-hC(1+1/p))"}
	}
}

// DStarFor returns the Section 5 heuristic for p (DStarHeuristic)
// where it applies: its derivations assume identical processors and, for
// trees, that every layer computes, so a heterogeneous star or a tree with
// relay-only layers gets no D* and a reason.
func DStarFor(p *problem.Problem) DStar {
	d := DStarHeuristic(p)
	switch {
	case p.Kind == topology.Star && len(p.Procs) > 0:
		return DStar{Formula: d.Formula, Why: "the heuristic assumes identical processors"}
	case len(p.Relay) > 0:
		return DStar{Formula: d.Formula, Why: "the heuristic assumes every layer computes"}
	}
	return d
}
