package formulations

import (
	"math"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// EstimateFull predicts the size of the LP of the full n-stage pattern of p
// from the parameters alone, without building the network: callers check
// it against a memory limit before anything in proportion to n is
// allocated. For the compact form the counts are exact (they equal
// NewNetwork(p, FullPattern(p, n)).Estimate(FormCompact)); for the paper
// form the precedence rows are counted as in the compact form and the
// prefix-sum load rows (k(k+1)/2 nonzeros for k messages to a
// destination) are added. Counts saturate at math.MaxInt64/1024 so that
// Bytes never overflows.
func EstimateFull(p *problem.Problem, n int, f Form) SizeEstimate {
	fn := float64(n)
	dests := p.Dests()
	nm := fn * float64(len(dests))
	var nh, na float64
	switch p.Kind {
	case topology.Tree:
		b := p.Buffers
		if b < 1 {
			b = 1
		}
		for _, d := range dests {
			nh += fn * float64(d)
		}
		// Store-and-forward arcs: one per hop after the first of a message.
		na = nh - nm
		// Link arcs: hops on the link out of layer l follow each other;
		// buffer arcs: the q-th message into layer r waits for the
		// (q−b)-th to leave.
		for l := 0; l < p.H; l++ {
			cnt := 0.0
			for _, d := range dests {
				if d > l {
					cnt += fn
				}
			}
			na += math.Max(cnt-1, 0) + math.Max(cnt-float64(b), 0)
		}
	default: // star and binomial: one hop per message on one port
		nh = nm
		na = math.Max(nm-1, 0)
	}
	perDest := make([]float64, len(dests))
	for i := range perDest {
		perDest[i] = fn
	}
	results := p.Kind == topology.Star && p.Returns() && nm > 0
	if results {
		// One result message per destination, chained on the port after
		// the last distribution message (results.go).
		m := float64(len(dests))
		nh += m
		na += m
	}
	e := estimate(nm, nh, na, perDest, f)
	if results {
		// The arcs out of the result messages but the last have a term
		// per load of their destination (n) instead of one; the final
		// row has 2 + n.
		m := float64(len(dests))
		e.Rows++
		e.Nonzeros = satInt(float64(e.Nonzeros) + (m-1)*(fn-1) + 2 + fn)
	}
	e.Generated = GeneratedByDefault(p.Kind, f, int(math.Min(nm, math.MaxInt32))) && !results
	return e
}

func satInt(x float64) int64 {
	const max = math.MaxInt64 / 1024
	if !(x < max) {
		return max
	}
	return int64(x)
}
