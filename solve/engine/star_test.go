package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlsched/dlsched/closedform"
	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solver/gonumlp"
	"github.com/dlsched/dlsched/topology"
)

// The example of Section 4.1: m=3, A=C=1, S=0, V=3, n=1.
func TestPaperExampleSection41(t *testing.T) {
	s := newClp(t)
	cases := []struct {
		D     float64
		cmax  float64
		loads []float64
		src   string
	}{
		{1, 4, []float64{1, 1, 1}, "paper: D=1 gives 3 units of communication, the last processor ends at 4"},
		{1.5, 3.5, []float64{1.5, 1, 0.5}, "paper: D>=1.5 allows (1.5, 1, 0.5), all stop at 3.5"},
		{math.Inf(1), 24.0 / 7, []float64{12.0 / 7, 6.0 / 7, 3.0 / 7}, "closed form: equal finishing, α halves each step"},
	}
	for _, f := range []formulations.Form{formulations.FormCompact, formulations.FormPaper} {
		for _, c := range cases {
			p := &problem.Problem{Kind: topology.Star, M: 3, A: 1, C: 1, S: 0, V: 3, D: c.D}
			sc, err := Solve(p, 1, Options{Solver: s, Form: f, NoPrune: true})
			if err != nil {
				t.Fatal(err)
			}
			if relDiff(sc.Cmax, c.cmax) > 1e-12 {
				t.Errorf("%s D=%g: Cmax %.15g, want %.15g (%s)", f, c.D, sc.Cmax, c.cmax, c.src)
			}
			for i, want := range c.loads {
				if math.Abs(sc.Chunks[i].Load-want) > 1e-12 {
					t.Errorf("%s D=%g: α_%d1 = %.15g, want %.15g (%s)", f, c.D, i+1, sc.Chunks[i].Load, want, c.src)
				}
			}
			if sc.Gap > 1e-9 || sc.LowerBound > sc.Cmax {
				t.Errorf("%s D=%g: gap %g, lower bound %g, Cmax %g", f, c.D, sc.Gap, sc.LowerBound, sc.Cmax)
			}
			checkAgainstLP(t, p, sc, 1e-9)
		}
	}
}

// With D = ∞ and n = 1 the LP optimum is the equal-finishing closed form
// (closedform.StarEqualFinish) whenever that form gives every processor a
// positive load.
func TestStarUnlimitedBufferClosedForm(t *testing.T) {
	s := newClp(t)
	r := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for checked < 60 {
		m := 1 + r.IntN(12)
		p := &problem.Problem{Kind: topology.Star, M: m, D: math.Inf(1),
			S: math.Pow(10, -4+3*r.Float64()), C: math.Pow(10, -7+3*r.Float64()),
			A: math.Pow(10, -4+2*r.Float64()), V: math.Pow(10, 5*r.Float64())}
		alpha, cmax, ok := closedform.StarEqualFinish(m, p.S, p.C, p.A, p.V)
		if !ok {
			continue
		}
		checked++
		sc, err := Solve(p, 1, Options{Solver: s, NoPrune: true})
		if err != nil {
			t.Fatal(err)
		}
		if relDiff(sc.Cmax, cmax) > 1e-9 {
			t.Errorf("m=%d S=%g C=%g A=%g V=%g: LP Cmax %.15g, closed form %.15g", m, p.S, p.C, p.A, p.V, sc.Cmax, cmax)
		}
		for i := range alpha {
			if math.Abs(sc.Chunks[i].Load-alpha[i]) > 1e-8*p.V {
				t.Errorf("m=%d: α_%d = %.12g, closed form %.12g", m, i+1, sc.Chunks[i].Load, alpha[i])
			}
		}
	}
}

func randomStar(r *rand.Rand, maxM, maxN int) (*problem.Problem, int) {
	m := 1 + r.IntN(maxM)
	p := &problem.Problem{Kind: topology.Star, M: m,
		S: math.Pow(10, -4+3*r.Float64()), C: math.Pow(10, -7+3*r.Float64()),
		A: math.Pow(10, -4+2*r.Float64()), V: math.Pow(10, 5*r.Float64())}
	if r.IntN(4) == 0 {
		p.D = math.Inf(1)
	} else {
		p.D = p.V / float64(m) * math.Pow(10, -1+1.5*r.Float64())
	}
	if r.IntN(3) == 0 {
		for i := 0; i < m; i++ {
			p.Procs = append(p.Procs, randomProc(r))
		}
	}
	n := p.NMin() + r.IntN(maxN)
	return p, n
}

// Paper form and compact form are the same LP written two ways: same
// optimum on random instances (1e-9 relative).
func TestPaperAndCompactFormsAgree(t *testing.T) {
	s := newClp(t)
	r := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 60; k++ {
		p, n := randomStar(r, 8, 6)
		if p.NMin() > 30 {
			k--
			continue
		}
		a, err := Solve(p, n, Options{Solver: s, Form: formulations.FormCompact, NoPrune: true})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Solve(p, n, Options{Solver: s, Form: formulations.FormPaper, NoPrune: true})
		if err != nil {
			t.Fatal(err)
		}
		if relDiff(a.Cmax, b.Cmax) > 1e-9 {
			t.Errorf("instance %d (%+v, n=%d): compact %.15g, paper %.15g", k, p, n, a.Cmax, b.Cmax)
		}
	}
}

// Clp and gonum's simplex agree on small instances (1e-7 relative).
func TestClpAndGonumAgree(t *testing.T) {
	s := newClp(t)
	g := gonumlp.New()
	r := rand.New(rand.NewPCG(5, 6))
	for k := 0; k < 60; k++ {
		p, _ := randomStar(r, 4, 2)
		if p.NMin() > 3 {
			k--
			continue
		}
		n := p.NMin() + r.IntN(2)
		a, err := Solve(p, n, Options{Solver: s, NoPrune: true})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Solve(p, n, Options{Solver: g, NoPrune: true})
		if err != nil {
			t.Fatalf("gonum: %v", err)
		}
		if relDiff(a.Cmax, b.Cmax) > 1e-7 {
			t.Errorf("instance %d (%+v, n=%d): clp %.15g, gonum %.15g", k, p, n, a.Cmax, b.Cmax)
		}
	}
}
