package engine

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
	"pgregory.net/rapid"
)

// The chain form has the optimum of the paper form and of the compact form
// (docs/formulations.md, the chain form): on random problems of every
// topology — heterogeneous stars, relay-only layers, 1- and 2-buffer
// trees, finite and infinite D, S = 0 — the full n-stage LP solved in each
// of the three forms is certified within the tolerance, so the three
// makespans agree within twice it; and the chain form's own certificate
// (its dual repair) reaches the tolerance without another form's help.
func TestChainFormMatchesPaperAndCompact(t *testing.T) {
	s := newClp(t)
	rapid.Check(t, func(t *rapid.T) {
		kind := rapid.SampledFrom([]topology.Kind{topology.Star, topology.Tree, topology.Binomial}).Draw(t, "kind")
		p := &problem.Problem{Kind: kind,
			S: rapid.SampledFrom([]float64{0, 1e-4, 1e-3, 1e-2}).Draw(t, "S"),
			C: rapid.SampledFrom([]float64{1e-7, 1e-6, 1e-5}).Draw(t, "C"),
			A: rapid.SampledFrom([]float64{1e-4, 1e-3, 1e-2}).Draw(t, "A"),
			V: rapid.SampledFrom([]float64{10, 1e3, 1e5}).Draw(t, "V"),
			M: rapid.IntRange(1, 6).Draw(t, "m"), P: rapid.IntRange(1, 3).Draw(t, "p"), H: rapid.IntRange(1, 4).Draw(t, "h"),
			Buffers: rapid.IntRange(1, 2).Draw(t, "buffers"),
			Order:   rapid.SampledFrom([]topology.Order{topology.NLF, topology.LLF}).Draw(t, "order")}
		p.D = p.V / rapid.SampledFrom([]float64{0.5, 2, 7, 20}).Draw(t, "V/D")
		if rapid.Bool().Draw(t, "D=inf") {
			p.D = math.Inf(1)
		}
		if kind == topology.Star && rapid.Bool().Draw(t, "heterogeneous") {
			for i := 0; i < p.M; i++ {
				p.Procs = append(p.Procs, schedule.Proc{
					S: p.S * rapid.Float64Range(0.5, 2).Draw(t, "Si"),
					C: p.C * rapid.Float64Range(0.5, 2).Draw(t, "Ci"),
					A: p.A * rapid.Float64Range(0.5, 2).Draw(t, "Ai")})
			}
		}
		if kind != topology.Star && p.H > 1 {
			if l := rapid.IntRange(0, p.H).Draw(t, "relay"); l > 0 && l < p.H {
				p.Relay = []int{l}
			}
		}
		if err := p.Validate(); err != nil {
			t.Skip(err)
		}
		n := p.NMin() + rapid.IntRange(0, 4).Draw(t, "extra stages")
		if n > 40 {
			t.Skip("n above 40")
		}
		var cmax [3]float64
		for q, f := range []formulations.Form{formulations.FormCompact, formulations.FormPaper, formulations.FormChain} {
			sc, err := Solve(p, n, Options{Solver: s, Form: f, Auto: true, NoPrune: true})
			if err != nil {
				t.Fatalf("%s form: %v", f, err)
			}
			if !sc.Solve.Certified {
				t.Fatalf("%s form: gap %.3g not certified (%s)", f, sc.Gap, sc.Solve.Note)
			}
			if f == formulations.FormChain && sc.Solve.Attempts[len(sc.Solve.Attempts)-1].Gap > DefaultTolerance {
				t.Fatalf("chain form: last attempt's gap %.3g", sc.Solve.Attempts[len(sc.Solve.Attempts)-1].Gap)
			}
			cmax[q] = sc.Cmax
		}
		for q, name := range []string{"paper", "chain"} {
			if d := relDiff(cmax[0], cmax[q+1]); d > 2*DefaultTolerance {
				t.Fatalf("Cmax compact %.15g, %s %.15g: relative difference %.3g", cmax[0], name, cmax[q+1], d)
			}
		}
	})
}
