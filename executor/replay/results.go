package replay

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/dlsched/dlsched/executor"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// Result collection (docs/heterogeneous.md): a star whose problem states
// a result ratio β > 0 lists, in schedule.Schedule.Returns, one result
// message per processor: β times the processor's total load, lasting
// S_i + C_i·β·L_i on its link, through the originator's one port — after
// the last message sent, after the processor has computed everything, one
// at a time, in the order listed. Cmax ends with the last of them.

// KindNotComputed: a processor sends its results before it has computed
// all its load.
const KindNotComputed = "not_computed"

// KindResults: the result messages do not match the schedule — a loaded
// processor without one or with two, results with β = 0, or an order
// other than the activation order (fifo) or its reverse (lifo).
const KindResults = "results"

// pret is a result message of the schedule with what the replay derives
// from the problem.
type pret struct {
	proc int
	load float64 // as stated
	want float64 // β × the processor's total load
	dur  float64 // S + C·want
}

// ReturnTimes is what a replay observed of one result message.
type ReturnTimes struct {
	Start, End float64
}

// results checks the schedule's result messages against the platform and
// derives their sizes and durations from the problem.
func (pl *plan) results(prob *problem.Problem) error {
	rs := pl.s.Returns
	if len(rs) == 0 {
		return nil
	}
	if pl.kind != topology.Star {
		return fmt.Errorf("executor: %s: results are returned on stars only", pl.kind)
	}
	total := make([]float64, pl.m+1)
	for i := range pl.ch {
		total[pl.ch[i].dest] += pl.ch[i].sim
	}
	for k, r := range rs {
		if r.Processor < 1 || r.Processor > pl.m {
			return fmt.Errorf("executor: result message %d: processor %d outside 1..%d", k+1, r.Processor, pl.m)
		}
		if !finite(r.Start) || !finite(r.Load) {
			return fmt.Errorf("executor: result message %d (processor %d): start %g, load %g", k+1, r.Processor, r.Start, r.Load)
		}
		s, c, _ := prob.Params(r.Processor)
		w := prob.ResultRatio * total[r.Processor]
		pl.rets = append(pl.rets, pret{proc: r.Processor, load: r.Load, want: w, dur: s + c*w})
	}
	return nil
}

// computedEvents returns, per star processor, an event that triggers when
// the processor has computed all its chunks (nil without results).
func computedEvents(pl *plan, sim *executor.Sim, cpus []*cpuNode) []*executor.Event {
	if len(pl.rets) == 0 {
		return nil
	}
	ev := make([]*executor.Event, pl.m+1)
	left := make([]int, pl.m+1)
	for d := 1; d <= pl.m; d++ {
		ev[d] = executor.NewEvent(sim, "P"+strconv.Itoa(d)+" computed")
		if left[d] = len(pl.recv[d]); left[d] == 0 {
			ev[d].Trigger()
		}
	}
	for _, cn := range cpus {
		if cn == nil {
			continue
		}
		prev := cn.onDone
		cn.onDone = func(id int, c int32, en float64) {
			if prev != nil {
				prev(id, c, en)
			}
			if left[id]--; left[id] == 0 {
				ev[id].Trigger()
			}
		}
	}
	return ev
}

// receiveResults is the originator's port after its last send (earliest
// mode): each result message in the order listed, as soon as its
// processor has computed everything.
func receiveResults(p *executor.Proc, pl *plan, rec *recorder, tr *tracer, computed []*executor.Event) {
	for k, r := range pl.rets {
		computed[r.proc].Wait(p)
		rec.retStart[k] = p.Now()
		p.Wait(r.dur)
		rec.returned(k, p.Now())
		tr.result(k, rec.retStart[k], p.Now())
	}
}

// timedResults starts every result message at its stated start (timed
// mode); the checks come afterwards (checkResults).
func timedResults(pl *plan, sim *executor.Sim, rec *recorder, tr *tracer) {
	for k, r := range pl.rets {
		st := pl.s.Returns[k].Start
		sim.At(st, func() { rec.retStart[k] = st })
		sim.At(st+r.dur, func() {
			rec.returned(k, st+r.dur)
			tr.result(k, st, st+r.dur)
		})
	}
}

// returned records the end of result message k.
func (r *recorder) returned(k int, t float64) {
	r.retEnd[k] = t
	if t > r.makespan {
		r.makespan = t
	}
}

// returnTimes returns the observed result messages.
func (r *recorder) returnTimes() []ReturnTimes {
	if len(r.retStart) == 0 {
		return nil
	}
	out := make([]ReturnTimes, len(r.retStart))
	for k := range out {
		out[k] = ReturnTimes{Start: r.retStart[k], End: r.retEnd[k]}
	}
	return out
}

// checkResults checks the result messages of a timed replay: the port
// free (after the last send, one at a time), the processor done
// computing, the sizes (β times the load) and the stated ends, the ends
// by Cmax, one message per loaded processor, and the order.
func (ck *checker) checkResults(ts *timedState, res *Result, stated bool) {
	pl := ck.pl
	if len(pl.rets) == 0 {
		ck.coverage()
		return
	}
	portFree := math.Inf(-1)
	if sends := pl.sends[0]; len(sends) > 0 {
		portFree = ts.sEnd[ts.sendOff[0]+len(sends)-1]
	}
	done := ck.computeEnds(ts)
	for k, r := range pl.rets {
		st, en := res.Returns[k].Start, res.Returns[k].End
		name := "result message " + strconv.Itoa(k+1) + " (P" + strconv.Itoa(r.proc) + "→P0)"
		if st < portFree-ck.tolT {
			free := portFree
			ck.add(KindLinkBusy, int32(-2-k), -3, st, func() string {
				return name + " starts at " + g(st) + ", but the originator's port is busy until " + g(free)
			})
		}
		if st < done[r.proc]-ck.tolT {
			d := done[r.proc]
			ck.add(KindNotComputed, int32(-2-k), -3, st, func() string {
				return name + " starts at " + g(st) + ", but P" + strconv.Itoa(r.proc) + " computes until " + g(d)
			})
		}
		if math.Abs(r.load-r.want) > 1e-9*math.Max(math.Abs(r.want), 1e-300)+1e-300 {
			ck.add(KindStatedTimes, int32(-2-k), -3, st, func() string {
				return name + " is stated to carry " + g(r.load) + " results, but β × load = " + g(r.want)
			})
		}
		if e := pl.s.Returns[k].End; stated && math.Abs(e-en) > ck.tolT {
			ck.add(KindStatedTimes, int32(-2-k), -4, en, func() string {
				return name + " is stated to end at " + g(e) + ", but it lasts until " + g(en) + " (start + S + C·results)"
			})
		}
		if pl.s.Has(schedule.FieldCmax) && en > pl.s.Cmax+ck.tolT {
			ck.add(KindLate, int32(-2-k), -3, en, func() string {
				return name + " ends at " + g(en) + ", after the schedule's Cmax = " + g(pl.s.Cmax)
			})
		}
		portFree = math.Max(portFree, en)
	}
	ck.coverage()
	ck.returnOrder()
}

// computeEnds returns the end of every star processor's computing in the
// timed replay.
func (ck *checker) computeEnds(ts *timedState) []float64 {
	pl := ck.pl
	done := make([]float64, pl.m+1)
	for d := 1; d <= pl.m; d++ {
		done[d] = math.Inf(-1)
		for j := range pl.recv[d] {
			if e := ts.cend[ts.recvOff[d]+j]; e > done[d] {
				done[d] = e
			}
		}
	}
	return done
}

// coverage checks that every processor with load returns its results
// once when β > 0, and that none does when β = 0.
func (ck *checker) coverage() {
	pl := ck.pl
	if pl.kind != topology.Star {
		return
	}
	count := make([]int, pl.m+1)
	for _, r := range pl.rets {
		count[r.proc]++
	}
	loaded := make([]bool, pl.m+1)
	for i := range pl.ch {
		if pl.ch[i].load > 0 {
			loaded[pl.ch[i].dest] = true
		}
	}
	beta := pl.s.Problem.ResultRatio
	for d := 1; d <= pl.m; d++ {
		var msg string
		switch {
		case beta == 0 && count[d] > 0:
			msg = "P" + strconv.Itoa(d) + " returns results, but the problem's result_ratio is 0"
		case beta > 0 && loaded[d] && count[d] == 0:
			msg = "P" + strconv.Itoa(d) + " computes load but returns no results (result_ratio " + g(beta) + ")"
		case count[d] > 1:
			msg = "P" + strconv.Itoa(d) + " returns its results " + strconv.Itoa(count[d]) + " times"
		default:
			continue
		}
		ck.add(KindResults, int32(-2-d), -5, 0, func() string { return msg })
	}
}

// returnOrder checks that the loaded processors return their results in
// the activation order (fifo) or its reverse (lifo): the schedule's
// worker_order when it states one, else increasing processor numbers.
func (ck *checker) returnOrder() {
	s := ck.pl.s
	act := s.WorkerOrder
	if len(act) == 0 {
		for d := 1; d <= ck.pl.m; d++ {
			act = append(act, d)
		}
	}
	pos := map[int]int{}
	for i, d := range act {
		pos[d] = i
	}
	var seq []int
	for _, r := range ck.pl.rets {
		if _, ok := pos[r.proc]; ok && r.want > 0 {
			seq = append(seq, pos[r.proc])
		}
	}
	lifo := s.Problem.Return == "lifo"
	ok := slices.IsSorted(seq)
	if lifo {
		ok = slices.IsSortedFunc(seq, func(a, b int) int { return b - a })
	}
	if !ok {
		ret := s.Problem.Return
		if ret == "" {
			ret = "fifo"
		}
		ck.add(KindResults, -1, -6, 0, func() string {
			return "the results are not returned in " + ret + " order of the activation order " + fmt.Sprint(act)
		})
	}
}
