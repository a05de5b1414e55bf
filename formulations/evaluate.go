package formulations

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// Timing is a Network evaluated for given loads with every hop starting as
// early as its arcs allow: the earliest-start schedule of the physical
// model, in the user's units.
type Timing struct {
	// Alpha is the load per destination processor of every message.
	Alpha []float64
	// Start and End of every hop.
	Start, End []float64
	// ComputeStart and ComputeEnd of every message on its destination.
	ComputeStart, ComputeEnd []float64
	// Cmax is the makespan: the last computation's end (or arrival).
	Cmax float64
}

// Evaluate computes the earliest-start timing of the network for the loads
// alpha (one per message). This is the longest-path computation the LP's
// time variables encode: with the loads fixed, the LP's optimal Cmax equals
// Evaluate's.
func (nw *Network) Evaluate(alpha []float64) *Timing {
	t := &Timing{
		Alpha: alpha,
		Start: make([]float64, len(nw.Hops)), End: make([]float64, len(nw.Hops)),
		ComputeStart: make([]float64, len(nw.Pattern)), ComputeEnd: make([]float64, len(nw.Pattern)),
	}
	var finish map[int]float64 // per destination, the end of its computing
	for h, hop := range nw.Hops {
		if hop.Level < 0 && finish == nil {
			// Result messages come after every delivery.
			finish = nw.evalComputing(t, alpha)
		}
		s := 0.0
		for _, a := range nw.In[h] {
			s = math.Max(s, t.End[nw.Arcs[a].From])
		}
		if d := nw.waiter(h); d > 0 {
			s = math.Max(s, finish[d])
		}
		t.Start[h] = s
		t.End[h] = s + hop.Const + hop.Coef*nw.HopLoad(h, alpha)
	}
	if finish == nil {
		nw.evalComputing(t, alpha)
	}
	for _, h := range nw.Final {
		t.Cmax = math.Max(t.Cmax, t.End[h])
	}
	return t
}

// evalComputing times every destination's computing, chunk after chunk in
// arrival order, raises t.Cmax to each end and returns the end of each
// destination's computing (its arrival for chunks without load).
func (nw *Network) evalComputing(t *Timing, alpha []float64) map[int]float64 {
	finish := make(map[int]float64, len(nw.Dests))
	for _, d := range nw.Dests {
		_, _, a := nw.Prob.Params(d)
		free := 0.0
		for _, j := range nw.DestMsgs[d] {
			arr := t.End[nw.MsgHops[j][len(nw.MsgHops[j])-1]]
			cs := math.Max(arr, free)
			t.ComputeStart[j] = cs
			free = cs + a*alpha[j]
			t.ComputeEnd[j] = free
			t.Cmax = math.Max(t.Cmax, free)
		}
		finish[d] = free
	}
	return finish
}

// RepairLoads returns loads that are exactly feasible: each within
// [0, MaxLoad(dest)] and Σ DestSize·α = V up to rounding of the last bit.
// Negative values become 0, values above the bound are cut to it, and the
// difference to V is spread over the messages in proportion to their loads
// (water-filling below the bounds). It fails only if V cannot be placed.
func (nw *Network) RepairLoads(raw []float64) ([]float64, error) {
	p := nw.Prob
	n := len(nw.Pattern)
	alpha := make([]float64, n)
	w := make([]float64, n)
	hi := make([]float64, n)
	for j, m := range nw.Pattern {
		w[j] = p.DestSize(m.Dest)
		hi[j] = p.MaxLoad(m.Dest)
		v := raw[j]
		if math.IsNaN(v) || v < 0 {
			v = 0
		}
		alpha[j] = math.Min(v, hi[j])
	}
	for iter := 0; iter < 100; iter++ {
		sum := 0.0
		for j := range alpha {
			sum += w[j] * alpha[j]
		}
		diff := p.V - sum
		if math.Abs(diff) <= 4e-16*p.V {
			return alpha, nil
		}
		if diff < 0 {
			f := p.V / sum
			for j := range alpha {
				alpha[j] *= f
			}
			continue
		}
		// Spread the deficit over messages with room, in proportion to
		// their loads (or evenly when all are zero).
		room, base := 0.0, 0.0
		for j := range alpha {
			if alpha[j] < hi[j] {
				room += w[j] * (hi[j] - alpha[j])
				base += w[j] * alpha[j]
			}
		}
		if room < diff*(1-1e-12) {
			// When V equals the capacity of the messages (every load at
			// its bound, e.g. D = V/(number of messages)), the sum can
			// miss V by its own rounding, up to about n ulps of V.
			if diff <= float64(n+1)*0x1p-52*p.V {
				return alpha, nil
			}
			return nil, fmt.Errorf("formulations: loads cannot hold V=%g: %g missing", p.V, diff-room)
		}
		for j := range alpha {
			if alpha[j] >= hi[j] {
				continue
			}
			var add float64
			if base > 0 {
				add = diff * alpha[j] / base
			} else {
				add = diff * (hi[j] - alpha[j]) / room
			}
			alpha[j] = math.Min(hi[j], alpha[j]+add)
		}
	}
	return alpha, nil
}

// Schedule converts a timing into a schedule.Schedule (chunks in send order
// with their hops; binomial scatters expanded into their steps). n is the
// number of stages the LP was built with.
func (nw *Network) Schedule(t *Timing, n int) *schedule.Schedule {
	p := nw.Prob
	s := &schedule.Schedule{
		Cmax:    t.Cmax,
		NMin:    p.NMin(),
		Problem: p.ScheduleProblem(n),
		Chunks:  make([]schedule.Chunk, len(nw.Pattern)),
	}
	stages := map[int]bool{}
	for j, m := range nw.Pattern {
		a := t.Alpha[j]
		c := schedule.Chunk{Stage: m.Stage, Load: a, ComputeStart: t.ComputeStart[j], ComputeEnd: t.ComputeEnd[j]}
		if a > 0 {
			stages[m.Stage] = true
		}
		if p.Kind == topology.Star {
			c.Processor = m.Dest
		} else {
			c.Layer = m.Dest
		}
		for _, h := range nw.MsgHops[j] {
			hop := nw.Hops[h]
			switch {
			case hop.Steps > 0:
				start := t.Start[h]
				for st := 1; st <= hop.Steps; st++ {
					load := topology.BinomialStepLoad(p.P, m.Dest, st) * a
					end := start + p.S + p.C*load
					c.Hops = append(c.Hops, schedule.Hop{From: st - 1, To: st, Load: load, Start: start, End: end})
					start = end
				}
			case p.Kind == topology.Star:
				c.Hops = append(c.Hops, schedule.Hop{From: 0, To: m.Dest, Load: a, Start: t.Start[h], End: t.End[h]})
			default:
				load := topology.TreeHopLoad(p.P, m.Dest, hop.Level) * a
				c.Hops = append(c.Hops, schedule.Hop{From: hop.Level, To: hop.Level + 1, Load: load, Start: t.Start[h], End: t.End[h]})
			}
		}
		c.Start = c.Hops[0].Start
		c.Arrival = c.Hops[len(c.Hops)-1].End
		s.Chunks[j] = c
	}
	s.Stages = len(stages)
	nw.scheduleResults(t, s)
	return s
}
