package formulations

import (
	"math"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
	"pgregory.net/rapid"
)

// EstimateFull, computed from the parameters alone, equals the estimate of
// the network it predicts (compact form), which bounds the built model on random problems of every
// topology, with relay-only layers, both buffer counts and, on stars,
// result messages.
func TestEstimateFullMatchesNetwork(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kind := rapid.SampledFrom([]topology.Kind{topology.Star, topology.Tree, topology.Binomial}).Draw(t, "kind")
		p := &problem.Problem{Kind: kind, S: 1, C: 1, A: 1, D: math.Inf(1), V: 10,
			M: rapid.IntRange(1, 6).Draw(t, "m"), P: rapid.IntRange(1, 3).Draw(t, "p"), H: rapid.IntRange(1, 5).Draw(t, "h"),
			Buffers: rapid.IntRange(1, 2).Draw(t, "buffers"),
			Order:   rapid.SampledFrom([]topology.Order{topology.NLF, topology.LLF}).Draw(t, "order")}
		if kind == topology.Star && rapid.Bool().Draw(t, "results") {
			p.ResultRatio = 0.5
			p.Return = rapid.SampledFrom([]problem.ReturnOrder{problem.ReturnFIFO, problem.ReturnLIFO}).Draw(t, "return")
		}
		if kind != topology.Star && p.H > 1 {
			if l := rapid.IntRange(0, p.H).Draw(t, "relay"); l > 0 && l < p.H {
				p.Relay = []int{l}
			}
		}
		n := rapid.IntRange(1, 6).Draw(t, "n")
		nw, err := NewNetwork(p, FullPattern(p, n))
		if err != nil {
			t.Fatal(err)
		}
		e := nw.Estimate(FormCompact)
		if got := EstimateFull(p, n, FormCompact); got != e {
			t.Fatalf("EstimateFull %+v, network %+v", got, e)
		}
		// Build reserves the estimate at once (lp.Model.Grow): it bounds
		// the compact model's columns, rows and nonzeros.
		m, _ := nw.Build(FormCompact, NewScale(p))
		if int64(m.NumVars()) > e.Vars || int64(m.NumRows()) > e.Rows || int64(m.NumNonzeros()) > e.Nonzeros {
			t.Fatalf("built %d columns, %d rows, %d nonzeros; estimate %+v", m.NumVars(), m.NumRows(), m.NumNonzeros(), e)
		}
	})
}

// Sizes far beyond memory saturate instead of overflowing.
func TestEstimateFullSaturates(t *testing.T) {
	p := &problem.Problem{Kind: topology.Star, M: 100000, S: 1, C: 1, A: 1, D: 1, V: 1}
	if b := EstimateFull(p, math.MaxInt32, FormPaper).Bytes(); b < 1<<60 {
		t.Errorf("Bytes = %d, want a saturated estimate above 2^60", b)
	}
}
