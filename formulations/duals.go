package formulations

import (
	"math"
	"slices"
	"sort"

	"github.com/dlsched/dlsched/lp"
)

// RepairDuals turns an approximate dual vector y of the model built by
// Build into one that is exactly dual feasible on every column whose box is
// wide (start times, Cmax, suffix sums), and picks the load row's dual that
// maximises the Lagrangian bound. Any y gives a valid bound
// (solver.SafeLowerBound); this only makes it tight. Solvers return duals
// that are feasible to about 1e-9; over tens of thousands of time columns
// bounded only by the makespan, such small infeasibilities add up to a
// visible gap. The structure of the LP lets us remove them:
//
//  1. Sign: a ≥ row gets y ≥ 0.
//  2. Cmax: its reduced cost 1 − Σ y_comp must be ≥ 0; the computing
//     duals (in the chain form the rows to Cmax) are scaled down if they
//     sum above 1. In the chain form the compute-start columns are then
//     made dual feasible the same way, along each destination's chain.
//  3. Suffix sums (compact form): β_j appears in its own suffix row (+1),
//     the previous message's suffix row (−1) and its computing row
//     (−A); the suffix rows are equalities, so their duals are set
//     recursively to make each β's reduced cost exactly zero.
//  4. Start times: hop h's reduced cost is Σ_out y + y_comp(h) − Σ_in y
//     over its arcs — a flow balance. Hops are visited from the last to the
//     first (arcs go forward); a single in-arc (an equality) gets exactly
//     the outflow, several in-arcs (≥ rows) are scaled down to it, so every
//     start time's reduced cost is ≥ 0 and every dual keeps its sign.
//  5. Load row: with everything else fixed the bound is a concave
//     piecewise-linear function of the load row's dual λ, maximised at a
//     breakpoint r_j/w_j found by sorting.
//
// With result messages (results.go) Cmax is held by the final rows and a
// result message's start by its destination's computing rows and the arc
// from the port's previous message: step 2 scales the final rows, and the
// result hops get step 4 first (last to first), so that the computing
// duals step 4 scales there are final before step 3 reads them.
func (lay *Layout) RepairDuals(m *lp.Model, nw *Network, y []float64) []float64 {
	out := make([]float64, m.NumRows())
	copy(out, y)
	for i := range out {
		if math.IsNaN(out[i]) || math.IsInf(out[i], 0) {
			out[i] = 0
		}
		if math.IsInf(m.RowUpper[i], 1) && out[i] < 0 {
			out[i] = 0
		}
	}
	lay.repairCmax(nw, out)
	if nw.HasResults() {
		lay.repairStarts(m, nw, out, true)
	}
	if lay.Form == FormChain {
		lay.repairChainStarts(nw, out)
	}
	lay.repairSuffix(m, nw, out)
	lay.repairStarts(m, nw, out, false)
	out[lay.LoadRow] = lay.bestLoadDual(m, nw, out)
	return out
}

// repairCmax is step 2: the duals of the rows holding Cmax — the
// computing rows, or in the chain form each destination's last chain row
// — are scaled down to sum to at most 1, Cmax's objective coefficient.
func (lay *Layout) repairCmax(nw *Network, out []float64) {
	cmaxRows := lay.CompRow
	if nw.HasResults() {
		cmaxRows = slices.Clone(lay.FinRow)
		for _, d := range nw.Dests {
			if _, ok := nw.ResultHop[d]; !ok {
				for _, j := range nw.DestMsgs[d] {
					cmaxRows = append(cmaxRows, lay.CompRow[j])
				}
			}
		}
	} else if lay.Form == FormChain {
		cmaxRows = nil
		for _, d := range nw.Dests {
			msgs := nw.DestMsgs[d]
			cmaxRows = append(cmaxRows, lay.ChainRow[msgs[len(msgs)-1]])
		}
	}
	sum := 0.0
	for _, r := range cmaxRows {
		sum += out[r]
	}
	if sum > 1 {
		for _, r := range cmaxRows {
			out[r] /= sum
		}
	}
}

// repairChainStarts is step 3' (chain form): s_j's reduced cost is
// y_chain(j) − y_arr(j) − y_chain(prev), a flow balance along each
// destination's chain. From the last message back, the inflow is scaled
// down to the outflow where it exceeds it.
func (lay *Layout) repairChainStarts(nw *Network, out []float64) {
	for _, d := range nw.Dests {
		msgs := nw.DestMsgs[d]
		for q := len(msgs) - 1; q >= 0; q-- {
			j := msgs[q]
			avail := math.Max(out[lay.ChainRow[j]], 0)
			in := out[lay.CompRow[j]]
			if q > 0 {
				in += out[lay.ChainRow[msgs[q-1]]]
			}
			if in > avail && in > 0 {
				f := avail / in
				out[lay.CompRow[j]] *= f
				if q > 0 {
					out[lay.ChainRow[msgs[q-1]]] *= f
				}
			}
		}
	}
}

// repairSuffix is step 3: each suffix row's dual, in each destination's
// order, makes its β's reduced cost exactly zero:
// 0 = −(y_suf(j)·1 + y_suf(prev)·(−1) + y_comp(j)·a_comp).
func (lay *Layout) repairSuffix(m *lp.Model, nw *Network, out []float64) {
	for _, d := range nw.Dests {
		prev := -1
		for _, j := range nw.DestMsgs[d] {
			if b := lay.Beta[j]; b >= 0 {
				v := -coefOf(m, lay.CompRow[j], b) * out[lay.CompRow[j]]
				if prev >= 0 {
					v += out[lay.SufRow[prev]]
				}
				out[lay.SufRow[j]] = v
				prev = j
			}
		}
	}
}

// coefOf returns the coefficient of column c in row r of m.
func coefOf(m *lp.Model, r, c int) float64 {
	cols, vals := m.Row(r)
	for q, cc := range cols {
		if cc == c {
			return vals[q]
		}
	}
	return 0
}

// repairStarts is step 4: the start times, last hop first (only the
// result hops when results is set). A hop's outflow is its out-arcs'
// duals plus its delivery's computing row (or its final row); its inflow
// its in-arcs' duals plus, for a result message, its destination's
// computing rows. A single equality in-arc gets exactly the outflow;
// otherwise the inflow is scaled down to it.
func (lay *Layout) repairStarts(m *lp.Model, nw *Network, out []float64, results bool) {
	arcs, inArcs := lay.Arcs, lay.In
	if arcs == nil {
		arcs, inArcs = nw.Arcs, nw.In
	}
	outArcs := make([][]int, len(nw.Hops))
	for a, arc := range arcs {
		outArcs[arc.From] = append(outArcs[arc.From], a)
	}
	delivery := make([]int, len(nw.Hops))
	for h := range delivery {
		delivery[h] = -1
	}
	for j, hops := range nw.MsgHops {
		delivery[hops[len(hops)-1]] = j
	}
	final := make(map[int]int, len(nw.Final))
	for q, h := range nw.Final {
		final[h] = lay.FinRow[q]
	}
	var in []int
	for h := len(nw.Hops) - 1; h >= 0; h-- {
		if results && nw.Hops[h].Level >= 0 {
			break // result hops come last
		}
		if m.ColUpper[lay.Time[h]] == 0 {
			continue // fixed at 0: any reduced cost is harmless
		}
		avail := 0.0
		for _, a := range outArcs[h] {
			avail += out[lay.ArcRow[a]]
		}
		if j := delivery[h]; j >= 0 {
			avail += out[lay.CompRow[j]]
		}
		if r, ok := final[h]; ok {
			avail += out[r]
		}
		in = in[:0]
		for _, a := range inArcs[h] {
			in = append(in, lay.ArcRow[a])
		}
		if d := nw.waiter(h); d > 0 {
			for _, j := range nw.DestMsgs[d] {
				if r := lay.CompRow[j]; r >= 0 {
					in = append(in, r)
				}
			}
		} else if len(in) == 1 && m.RowLower[in[0]] == m.RowUpper[in[0]] {
			out[in[0]] = avail
			continue
		}
		scaleDown(out, in, avail)
	}
}

// scaleDown scales the duals of rows down so that they sum to at most
// avail (at least 0).
func scaleDown(out []float64, rows []int, avail float64) {
	inflow := 0.0
	for _, r := range rows {
		inflow += out[r]
	}
	if inflow > avail && inflow > 0 {
		f := math.Max(avail, 0) / inflow
		for _, r := range rows {
			out[r] *= f
		}
	}
}

// bestLoadDual is step 5: with every other dual fixed (out, the load
// row's taken as 0), the λ that maximises λV' + Σ_j U_j·min(0, r0_j −
// w_j λ), a breakpoint r0_j/w_j found by sorting.
func (lay *Layout) bestLoadDual(m *lp.Model, nw *Network, out []float64) float64 {
	out[lay.LoadRow] = 0
	r0 := make([]float64, len(lay.Alpha))
	for j, c := range lay.Alpha {
		r0[j] = m.Obj[c]
	}
	colPos := make(map[int]int, len(lay.Alpha))
	for j, c := range lay.Alpha {
		colPos[c] = j
	}
	for i := 0; i < m.NumRows(); i++ {
		if out[i] == 0 {
			continue
		}
		cols, vals := m.Row(i)
		for q, c := range cols {
			if j, ok := colPos[c]; ok {
				r0[j] -= vals[q] * out[i]
			}
		}
	}
	type bp struct{ lambda, weight float64 }
	bps := make([]bp, len(lay.Alpha))
	for j, c := range lay.Alpha {
		w := nw.Prob.DestSize(nw.Pattern[j].Dest)
		bps[j] = bp{r0[j] / w, w * m.ColUpper[c]}
	}
	sort.Slice(bps, func(a, b int) bool { return bps[a].lambda < bps[b].lambda })
	need := m.RowLower[lay.LoadRow]
	acc := 0.0
	for _, b := range bps {
		acc += b.weight
		if acc >= need {
			return b.lambda
		}
	}
	return 0
}
