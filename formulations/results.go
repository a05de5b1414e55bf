package formulations

import (
	"math"
	"slices"
	"strconv"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// Result collection on a star (Problem.ResultRatio = β > 0,
// docs/heterogeneous.md): after the distribution, every destination of the
// pattern sends β times its total load L_d back to the originator over its
// own link, S_d + C_d·β·L_d, through the originator's one port, in the
// activation order of the destinations (FIFO: increasing processor number
// of the problem) or its reverse (LIFO). The result message of d starts no
// earlier than
//
//	(a) the end of the last distribution message (an arc from it to the
//	    first result message),
//	(b) the end of d's computing (its computing rows end at the result
//	    message's start instead of at Cmax), and
//	(c) the end of the result message before it on the port (an arc),
//
// and Cmax is at least the end of the last result message (a final row).
// A destination that carries no load in the LP still sends its (empty)
// result message, paying S_d, as its empty chunks pay their startups; the
// prune loop removes both together.

// addResults appends the result messages of the network's destinations in
// port order, each a hop of level −1 whose duration is S_d + C_d·β·L_d
// (Hop.Total), chained on the port after the last distribution hop.
func (nw *Network) addResults() {
	p := nw.Prob
	order := slices.Clone(nw.Dests)
	if p.Return == problem.ReturnLIFO {
		slices.Reverse(order)
	}
	prev := len(nw.Hops) - 1
	nw.ResultHop = make(map[int]int, len(order))
	for _, d := range order {
		s, c, _ := p.Params(d)
		h := len(nw.Hops)
		nw.Hops = append(nw.Hops, Hop{Msg: nw.DestMsgs[d][0], Level: -1, Const: s, Coef: c * p.ResultRatio, Total: true})
		nw.ResultHop[d] = h
		nw.arc(prev, h, ArcLink)
		prev = h
	}
	nw.Final = []int{prev}
}

// resultsOn reports whether the network's problem returns results: a star
// with β > 0.
func (nw *Network) resultsOn() bool {
	return nw.Prob.Kind == topology.Star && nw.Prob.Returns()
}

// HasResults reports whether the network has result messages (or other
// hops whose start waits for a destination's computing).
func (nw *Network) HasResults() bool { return len(nw.ResultHop) > 0 }

// waiter returns the destination whose computing hop h waits for (its
// result message), or 0.
func (nw *Network) waiter(h int) int {
	if len(nw.ResultHop) == 0 || nw.Hops[h].Level >= 0 {
		return 0
	}
	for d, rh := range nw.ResultHop {
		if rh == h {
			return d
		}
	}
	return 0
}

// HopLoad returns the load that hop h's duration depends on: the load of
// its message, or for a hop of a result message (Hop.Total) the total load
// of its destination.
func (nw *Network) HopLoad(h int, alpha []float64) float64 {
	hop := nw.Hops[h]
	if !hop.Total {
		return alpha[hop.Msg]
	}
	sum := 0.0
	for _, j := range nw.DestMsgs[nw.Pattern[hop.Msg].Dest] {
		sum += alpha[j]
	}
	return sum
}

// target returns the column the computing rows of destination d end at:
// the start of d's result message, or Cmax.
func (lay *Layout) target(nw *Network, d int) int {
	if h, ok := nw.ResultHop[d]; ok {
		return lay.Time[h]
	}
	return lay.Cmax
}

// finalRows adds, for every hop of nw.Final, the row Cmax ≥ its end:
// Cmax − start − Coef·(load) ≥ Const.
func (b *builder) finalRows() {
	lay, nw := b.lay, b.nw
	lay.FinRow = make([]int, len(nw.Final))
	for q, h := range nw.Final {
		hop := nw.Hops[h]
		b.cols = append(b.cols[:0], lay.Cmax, lay.Time[h])
		b.vals = append(b.vals[:0], 1, -1)
		b.loadTerms(h, -hop.Coef*b.lscale)
		lay.FinRow[q] = b.m.AddRow("final_"+strconv.Itoa(h), hop.Const*b.tscale, math.Inf(1), b.cols, b.vals)
	}
}

// loadTerms appends to the row buffer coef times the load hop h's
// duration depends on: its message's load column, or every load column of
// its destination (Hop.Total).
func (b *builder) loadTerms(h int, coef float64) {
	hop := b.nw.Hops[h]
	msgs := []int{hop.Msg}
	if hop.Total {
		msgs = b.nw.DestMsgs[b.nw.Pattern[hop.Msg].Dest]
	}
	for _, j := range msgs {
		if c := b.lay.Alpha[j]; c >= 0 && coef != 0 {
			b.cols = append(b.cols, c)
			b.vals = append(b.vals, coef)
		}
	}
}

// scheduleResults adds the result messages of the timing to s in port
// order.
func (nw *Network) scheduleResults(t *Timing, s *schedule.Schedule) {
	if len(nw.ResultHop) == 0 {
		return
	}
	hops := make([]int, 0, len(nw.ResultHop))
	for _, h := range nw.ResultHop {
		hops = append(hops, h)
	}
	slices.Sort(hops)
	for _, h := range hops {
		d := nw.Pattern[nw.Hops[h].Msg].Dest
		s.Returns = append(s.Returns, schedule.Return{Processor: d, Load: nw.Prob.ResultRatio * nw.HopLoad(h, t.Alpha),
			Start: t.Start[h], End: t.End[h]})
	}
}
