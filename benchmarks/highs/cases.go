//go:build cgo && highs && (linux || darwin) && (amd64 || arm64)

package main

import (
	"fmt"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// lpCase is one LP of the comparison.
type lpCase struct {
	name string
	// model is the LP; nw and lay are set for dlsched's own LPs, whose
	// duals can then be certified as dlsched certifies them.
	model *lp.Model
	nw    *formulations.Network
	lay   *formulations.Layout
	// tree marks an ordinary tree's LP: dlsched's first attempt on it is
	// the unscaled dual simplex (engine.TreeFirstAttempt), not the
	// primal (engine.FirstAttempt).
	tree bool
	// repeat is how many solves one timed run makes (small LPs: the time
	// per LP is the run's time over repeat).
	repeat int
}

// dlschedLP builds the compact LP that dlsched solves for p with the full
// n-stage pattern (formulations.Network.Build, scaled units).
func dlschedLP(name string, p *problem.Problem, n, repeat int) (lpCase, error) {
	if err := p.Validate(); err != nil {
		return lpCase{}, err
	}
	nw, err := formulations.NewNetwork(p, formulations.FullPattern(p, n))
	if err != nil {
		return lpCase{}, err
	}
	m, lay := nw.Build(formulations.FormCompact, formulations.NewScale(p))
	return lpCase{name: name, model: m, nw: nw, lay: lay, tree: p.Kind == topology.Tree, repeat: repeat}, nil
}

// fig10LP is one LP of the paper's Fig. 10 sweep, the one
// engine.BenchmarkFig10LP times: binomial NLF, p = 2, h = 10, D = 1e2,
// V = 2500, n = 5 (140 rows, 141 columns).
func fig10LP() (lpCase, error) {
	p := &problem.Problem{Kind: topology.Binomial, Order: topology.NLF, P: 2, H: 10,
		S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 2500}
	return dlschedLP("fig10 binomial p=2 h=10 n=5", p, 5, 200)
}

// fig6LP is the star of the paper's Fig. 6 with five stages (README's
// worked example: m = 10, D = 1e4, V = 5e3).
func fig6LP() (lpCase, error) {
	p := &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e4, V: 5e3}
	return dlschedLP("fig6 star m=10 n=5", p, 5, 100)
}

// benchStar is the star of lp-speed.sh and pipeline's star benchmarks:
// m = 10, S = 1e-3, C = 1e-6, A = 1e-3, V = 5e6, D = V/n.
func benchStar(n int) *problem.Problem {
	return &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: 5e6 / float64(n)}
}

// starLP is dlsched's compact LP of benchStar(n).
func starLP(n int) (lpCase, error) {
	return dlschedLP(fmt.Sprintf("star m=10 n=%d (dlsched's LP)", n), benchStar(n), n, 1)
}

// treeLP is lp-speed.sh's tree: TreeNLF-1, p = 2, h levels, n = 100 =
// 2·n_min, S = 1e-3, C = 1e-6, A = 1e-3, D = 1e2, V = p·h·D·n/2.
func treeLP(h int) (lpCase, error) {
	const n = 100
	p := &problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: h,
		S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2}
	p.V = float64(p.P*p.H) * p.D * n / 2
	return dlschedLP(fmt.Sprintf("tree NLF-1 p=2 h=%d n=%d", h, n), p, n, 1)
}

// plainStar is the plain compact LP of an m-processor star with n stages
// in the user's units (seconds and bytes, unscaled), the baseline
// that benchmarks/lpbench plainlp writes as CPLEX-LP text: the same
// variables (a_ik, t_ik, R_ik, Cmax) and rows, built as an lp.Model so
// that both solvers read the same numbers.
//
//	t_{i+1,k} − t_ik − C·a_ik ≥ S,  t_{1,k+1} − t_{m,k} − C·a_{m,k} ≥ S
//	t_ik + C·a_ik + A·R_ik − Cmax ≤ −S
//	R_ik − a_ik − R_{i,k+1} = 0  (R_{i,n} − a_{i,n} = 0)
//	Σ a_ik = V,  0 ≤ a_ik ≤ D,  minimise Cmax
func plainStar(m, n int, s, c, a, v, d float64) *lp.Model {
	md := lp.New(fmt.Sprintf("plain star m=%d n=%d", m, n), lp.Minimize)
	inf := posInf()
	idx := func(i, k int) int { return k*m + i } // i, k from 0
	cmax := md.AddVar("Cmax", 0, inf, 1)
	av := make([]int, m*n)
	tv := make([]int, m*n)
	rv := make([]int, m*n)
	for k := 0; k < n; k++ {
		for i := 0; i < m; i++ {
			av[idx(i, k)] = md.AddVar(fmt.Sprintf("a_%d_%d", i+1, k+1), 0, d, 0)
			tv[idx(i, k)] = md.AddVar(fmt.Sprintf("t_%d_%d", i+1, k+1), 0, inf, 0)
			rv[idx(i, k)] = md.AddVar(fmt.Sprintf("R_%d_%d", i+1, k+1), 0, inf, 0)
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < m; i++ {
			ni, nk := i+1, k
			if i == m-1 {
				ni, nk = 0, k+1
			}
			q := idx(i, k)
			if nk < n {
				md.AddRow(fmt.Sprintf("s_%d_%d", i+1, k+1), s, inf,
					[]int{tv[idx(ni, nk)], tv[q], av[q]}, []float64{1, -1, -c})
			}
			md.AddRow(fmt.Sprintf("c_%d_%d", i+1, k+1), -inf, -s,
				[]int{tv[q], av[q], rv[q], cmax}, []float64{1, c, a, -1})
			if k < n-1 {
				md.AddRow(fmt.Sprintf("r_%d_%d", i+1, k+1), 0, 0,
					[]int{rv[q], av[q], rv[idx(i, k+1)]}, []float64{1, -1, -1})
			} else {
				md.AddRow(fmt.Sprintf("r_%d_%d", i+1, k+1), 0, 0, []int{rv[q], av[q]}, []float64{1, -1})
			}
		}
	}
	ones := make([]float64, len(av))
	for q := range ones {
		ones[q] = 1
	}
	md.AddRow("load", v, v, av, ones)
	return md
}

// plainStarLP is the plain LP of benchStar(n).
func plainStarLP(n int) lpCase {
	p := benchStar(n)
	return lpCase{name: fmt.Sprintf("star m=10 n=%d (plain LP)", n), model: plainStar(p.M, n, p.S, p.C, p.A, p.V, p.D), repeat: 1}
}

// milpCase is one pattern MILP of the exact pattern search
// (formulations.Network.BuildPatternMILP, one binary per message).
type milpCase struct {
	name    string
	model   *lp.Model
	integer []int
}

// patternMILP builds the pattern MILP of p with n stages, as
// pattern.Exact does.
func patternMILP(name string, p *problem.Problem, n int) (milpCase, error) {
	if err := p.Validate(); err != nil {
		return milpCase{}, err
	}
	nw, err := formulations.NewNetwork(p, formulations.FullPattern(p, n))
	if err != nil {
		return milpCase{}, err
	}
	m, lay := nw.BuildPatternMILP(formulations.NewScale(p))
	return milpCase{name: name, model: m, integer: lay.Exist}, nil
}

// milpCases are pattern MILPs of 16 and 20 messages — the Fig. 6 star, a
// smaller star, a binomial tree and a 1-buffer ordinary tree — and the
// Fig. 6 star at the exact search's limit of 40 messages
// (pattern.MaxExactMessages), the last only when big is set: on the
// loaded 2-core machine neither Cbc nor HiGHS finished it within 50
// minutes.
func milpCases(big bool) ([]milpCase, error) {
	star := &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e4, V: 5e3}
	star4 := &problem.Problem{Kind: topology.Star, M: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e3, V: 5e3}
	bin := &problem.Problem{Kind: topology.Binomial, Order: topology.NLF, P: 2, H: 5,
		S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 5e3}
	tree := &problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 4,
		S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 2e3}
	specs := []struct {
		name string
		p    *problem.Problem
		n    int
	}{
		{"star m=10 n=2 (20 messages)", star, 2},
		{"star m=4 n=4 (16 messages)", star4, 4},
		{"binomial NLF p=2 h=5 n=4 (20 messages)", bin, 4},
		{"tree NLF-1 p=2 h=4 n=5 (20 messages)", tree, 5},
	}
	if big {
		specs = append(specs, struct {
			name string
			p    *problem.Problem
			n    int
		}{"star m=10 n=4 (40 messages)", star, 4})
	}
	var out []milpCase
	for _, s := range specs {
		if nmin := s.p.NMin(); s.n < nmin {
			return nil, fmt.Errorf("%s: n = %d below n_min = %d", s.name, s.n, nmin)
		}
		c, err := patternMILP(s.name, s.p, s.n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		out = append(out, c)
	}
	return out, nil
}
