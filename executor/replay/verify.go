package replay

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// Kinds of violations reported by Timed and Verify.
const (
	// KindLinkBusy: a transfer starts while the sender's link or ports
	// still carry an earlier transfer (including the sender's earlier
	// relay, and messages sent out of FIFO order).
	KindLinkBusy = "link_busy"
	// KindNotReceived: a node starts relaying a message it has not fully
	// received (store and forward).
	KindNotReceived = "not_received"
	// KindBufferFull: a message starts arriving at a node whose buffer
	// for it is still occupied (1-buffer rule, or the 2-buffer rule:
	// message j waits for message j−2).
	KindBufferFull = "buffer_full"
	// KindTooLarge: a link carries more than D units in one message.
	KindTooLarge = "too_large"
	// KindLate: a computation ends after the schedule's Cmax.
	KindLate = "late"
	// KindLoad: the loads do not add up to V (Σ load × processors of the
	// destination), or load is addressed to a relay-only layer.
	KindLoad = "load"
	// KindNegative: a negative load or start time.
	KindNegative = "negative"
	// KindStatedTimes: a time or load the schedule states (hop end and
	// load, chunk start, arrival, computing interval) differs from the
	// replay.
	KindStatedTimes = "stated_times"
)

// Earliest replays s in earliest mode: the schedule's message order and
// loads, every transfer as early as the physical model allows; the stated
// times are ignored (hops need not be filled). Its Makespan is the true
// makespan of the loads. Negative loads are an error here.
func Earliest(s *schedule.Schedule, opt Options) (Result, error) {
	pl, err := newCheckedPlan(s, false, &opt)
	if err != nil {
		return Result{}, err
	}
	if len(opt.Faults) > 0 && len(pl.rets) > 0 {
		return Result{}, errors.New("executor: faults are not replayed with result messages")
	}
	for i := range pl.ch {
		if pl.ch[i].load < 0 {
			return Result{}, fmt.Errorf("executor: %s: negative load %g", chunkName(pl, i), pl.ch[i].load)
		}
	}
	return runEarliest(pl, &opt)
}

// Timed replays s in timed mode: every transfer starts exactly at the hop
// start the schedule states, on every node of the layer, and computations
// follow arrivals in arrival order. Result.Violations lists every breach
// of the physical model (see the Kind constants); Result.Makespan is the
// makespan of the replay. Negative loads are replayed as 0 (and reported).
func Timed(s *schedule.Schedule, opt Options) (Result, error) {
	if len(opt.Faults) > 0 {
		return Result{}, errors.New("executor: faults are replayed in earliest mode only")
	}
	pl, err := newCheckedPlan(s, true, &opt)
	if err != nil {
		return Result{}, err
	}
	res, ts, err := runTimed(pl, &opt)
	if err != nil {
		return Result{}, err
	}
	res.Violations = check(pl, ts, &res, &opt, math.Max(math.Abs(s.Cmax), res.Makespan))
	return res, nil
}

// Verify replays s in both modes and returns the verdict: OK when the
// timed replay finds no violation; Makespan from the timed replay,
// EarliestMakespan from the earliest one, Events of both runs together.
// An error means the schedule could not be replayed at all (malformed
// problem or chunks, cancelled context).
//
// A schedule may state its hops (as dlsched writes them) or only the
// contract fields of each chunk: stage, destination, load and start. In
// the second case the first hop of each chunk starts at its stated start
// and every further hop of a tree message as early as the physical model
// allows (store and forward, link and buffer free) — what a relay without
// a timetable does; the timed replay then checks the stated starts and
// every other stated time against that. A schedule that states hops for
// some chunks and not for others is refused.
func Verify(s *schedule.Schedule, opt Options) (*schedule.Verification, error) {
	if len(opt.Faults) > 0 {
		return nil, errors.New("executor: faults are replayed in earliest mode only")
	}
	if err := checkLimit(s, &opt); err != nil {
		return nil, err
	}
	derive, err := needsHops(s)
	if err != nil {
		return nil, err
	}
	quiet := opt
	quiet.Recorder = nil // the trace is the timed run's
	if derive {
		if s, err = deriveHops(s, &quiet); err != nil {
			return nil, err
		}
	}
	pl, err := newCheckedPlan(s, true, &opt)
	if err != nil {
		return nil, err
	}
	er, err := runEarliest(pl, &quiet)
	if err != nil {
		return nil, err
	}
	tr, ts, err := runTimed(pl, &opt)
	if err != nil {
		return nil, err
	}
	scale := math.Max(math.Abs(s.Cmax), math.Max(tr.Makespan, er.Makespan))
	v := check(pl, ts, &tr, &opt, scale)
	return &schedule.Verification{
		OK:               len(v) == 0,
		Makespan:         tr.Makespan,
		EarliestMakespan: er.Makespan,
		Events:           int(er.Events + tr.Events),
		Processors:       pl.computing,
		Violations:       v,
	}, nil
}

// needsHops reports whether no chunk of s states its hops (and every chunk
// states its start); a mix is an error.
func needsHops(s *schedule.Schedule) (bool, error) {
	if s == nil {
		return false, nil
	}
	with := 0
	for i := range s.Chunks {
		if s.Chunks[i].Has(schedule.FieldHops) {
			with++
		}
	}
	switch {
	case with == len(s.Chunks):
		return false, nil
	case with > 0:
		return false, fmt.Errorf("executor: %d of %d chunks state their hops: state them for every chunk or for none", with, len(s.Chunks))
	}
	for i := range s.Chunks {
		if c := &s.Chunks[i]; c.FromJSON() && !c.Has(schedule.FieldStart) {
			return false, fmt.Errorf("executor: chunk %d (stage %d) states neither hops nor start", i+1, s.Chunks[i].Stage)
		}
	}
	return true, nil
}

// deriveHops returns a copy of s with the hops of every chunk filled in:
// the first starts at the chunk's stated start, the others as early as the
// model allows after it (an earliest replay with the stated starts as
// release times). The stated arrival, computing times and Cmax are kept
// for the checks.
func deriveHops(s *schedule.Schedule, opt *Options) (*schedule.Schedule, error) {
	pl, err := newCheckedPlan(s, false, opt)
	if err != nil {
		return nil, err
	}
	pl.release = make([]float64, len(s.Chunks))
	for i := range s.Chunks {
		pl.release[i] = s.Chunks[i].Start
	}
	res, err := runEarliest(pl, opt)
	if err != nil {
		return nil, err
	}
	out := *s
	out.Chunks = append([]schedule.Chunk(nil), s.Chunks...)
	out.Returns = slices.Clone(s.Returns)
	if err := res.Apply(&out); err != nil {
		return nil, err
	}
	out.Returns = s.Returns // the stated result messages are checked as stated
	for i := range out.Chunks {
		c, st := &out.Chunks[i], &s.Chunks[i]
		if h := &c.Hops[0]; h.Start != st.Start {
			// The link was busy at the stated start: keep the stated
			// start so that the timed replay reports it.
			h.End += st.Start - h.Start
			h.Start = st.Start
		}
		c.Start, c.Arrival, c.ComputeStart, c.ComputeEnd = st.Start, st.Arrival, st.ComputeStart, st.ComputeEnd
		c.KeepStated(st)
	}
	out.Cmax = s.Cmax
	out.KeepStated(s)
	return &out, nil
}

type vkey struct {
	kind string
	c    int32
	hop  int16
}

type vagg struct {
	v     schedule.Violation
	nodes int
	seq   int
}

// checker collects violations, one per (kind, chunk, hop): the first node
// found is described, the others only counted.
type checker struct {
	pl   *plan
	tolT float64
	idx  map[vkey]int
	list []vagg
}

func (ck *checker) add(kind string, c int32, hop int16, t float64, msg func() string) {
	k := vkey{kind, c, hop}
	if i, ok := ck.idx[k]; ok {
		ck.list[i].nodes++
		return
	}
	ck.idx[k] = len(ck.list)
	ck.list = append(ck.list, vagg{v: schedule.Violation{Kind: kind, Time: t, Message: msg()}, nodes: 1, seq: len(ck.list)})
}

func (ck *checker) result() []schedule.Violation {
	sort.SliceStable(ck.list, func(a, b int) bool { return ck.list[a].v.Time < ck.list[b].v.Time })
	var out []schedule.Violation
	for _, a := range ck.list {
		if a.nodes > 1 {
			a.v.Message += " (and " + strconv.Itoa(a.nodes-1) + " more nodes alike)"
		}
		out = append(out, a.v)
	}
	return out
}

func g(x float64) string { return strconv.FormatFloat(x, 'g', 12, 64) }

// check runs the checks of the timed mode on its records. scale is the
// time scale of the tolerance.
func check(pl *plan, ts *timedState, res *Result, opt *Options, scale float64) []schedule.Violation {
	tol := opt.tolerance()
	ck := &checker{pl: pl, tolT: tol * math.Max(scale, 1e-300), idx: map[vkey]int{}}
	ck.loads(tol)
	for l := 0; l < len(pl.sends); l++ {
		if len(pl.sends[l]) == 0 {
			continue
		}
		for _, id := range pl.g.ByLayer[l] {
			ck.transfers(ts, l, id)
		}
	}
	ck.late(ts)
	ck.checkResults(ts, res, !opt.SkipStatedTimes)
	if !opt.SkipStatedTimes {
		checkStated(ck, res, tol)
	}
	return ck.result()
}

// loads checks the loads: sign, size against D per link, destination,
// and conservation (Σ load × processors of the destination = V).
func (ck *checker) loads(tol float64) {
	pl := ck.pl
	s := pl.s
	pr := &s.Problem
	D := float64(pr.D)
	sum := 0.0
	for i := range pl.ch {
		pc := &pl.ch[i]
		c := int32(i)
		if pc.load < 0 {
			ck.add(KindNegative, c, -1, 0, func() string {
				return chunkName(pl, i) + ": negative load " + g(pc.load)
			})
		}
		for h, hp := range s.Chunks[i].Hops {
			if hp.Start < 0 {
				ck.add(KindNegative, c, int16(h), hp.Start, func() string {
					return chunkName(pl, i) + ": " + hopName(pl, i, h) + " starts at negative time " + g(hp.Start)
				})
			}
		}
		if !math.IsInf(D, 1) {
			big, bh := math.Inf(-1), 0
			for h, x := range pc.linkLoad {
				if x > big {
					big, bh = x, h
				}
			}
			if big > D+tol*math.Abs(D) {
				ck.add(KindTooLarge, c, int16(bh), 0, func() string {
					return chunkName(pl, i) + ": " + hopName(pl, i, bh) + " carries " + g(big) + " units per link, more than D = " + g(D)
				})
			}
		}
		if !pc.computed {
			ck.add(KindLoad, c, -1, 0, func() string {
				return chunkName(pl, i) + ": load " + g(pc.load) + " addressed to relay-only layer " + strconv.Itoa(pc.dest)
			})
			continue
		}
		sum += pc.load * topology.LayerSize(pl.kind, pl.p, pc.dest)
	}
	if math.Abs(sum-pr.V) > tol*math.Max(math.Abs(pr.V), 1e-300) {
		ck.add(KindLoad, -1, -1, 0, func() string {
			return "the loads add up to " + g(sum) + " (Σ load × processors of the destination), want V = " + g(pr.V)
		})
	}
}

// transfers checks the sends of node id of layer l: one message at a time
// on its ports, only what has fully arrived, and (trees) only into a free
// buffer.
func (ck *checker) transfers(ts *timedState, l int, id int) {
	pl, tolT := ck.pl, ck.tolT
	sends := pl.sends[l]
	base := ts.sendOff[id]
	for k, sd := range sends {
		st := ts.sStart[base+k]
		ci := int(sd.c)
		if k > 0 {
			if pe := ts.sEnd[base+k-1]; st < pe-tolT {
				prev := sends[k-1]
				ck.add(KindLinkBusy, sd.c, sd.hop, st, func() string {
					return chunkName(pl, ci) + ": " + hopName(pl, ci, int(sd.hop)) + " starts at " + g(st) + " on node " +
						nodeName(id) + ", whose ports still carry " + chunkName(pl, int(prev.c)) + " " +
						hopName(pl, int(prev.c), int(prev.hop)) + " until " + g(pe)
				})
			}
		}
		if id != 0 {
			if a := ts.arr[ts.recvOff[id]+int(sd.pos)]; !(st >= a-tolT) {
				ck.add(KindNotReceived, sd.c, sd.hop, st, func() string {
					return chunkName(pl, ci) + ": " + hopName(pl, ci, int(sd.hop)) + " starts at " + g(st) + " on node " +
						nodeName(id) + ", but the message has fully arrived there only at " + g(a)
				})
			}
		}
		if pl.kind != topology.Star {
			ck.buffers(ts, id, sd, st)
		}
	}
}

// buffers checks that send sd of node id, starting at st, goes into free
// buffers of its targets (the 1- or 2-buffer rule).
func (ck *checker) buffers(ts *timedState, id int, sd sendRef, st float64) {
	pl := ck.pl
	ci := int(sd.c)
	for _, y := range pl.targets(id, sd) {
		j := int(pl.ch[ci].pos[pl.g.Nodes[y].Layer])
		if j < pl.nbuf {
			continue
		}
		if lv := ts.leave[ts.recvOff[y]+j-pl.nbuf]; !(st >= lv-ck.tolT) {
			prev := int(pl.recv[pl.g.Nodes[y].Layer][j-pl.nbuf])
			ck.add(KindBufferFull, sd.c, sd.hop, st, func() string {
				rule := "1-buffer rule: a node holds one message at a time"
				if pl.nbuf == 2 {
					rule = "2-buffer rule: the j-th message reuses the buffer of message j−2"
				}
				return chunkName(pl, ci) + ": " + hopName(pl, ci, int(sd.hop)) + " into node " + nodeName(y) +
					" starts at " + g(st) + ", but its buffer still holds " + chunkName(pl, prev) +
					" until " + g(lv) + " (" + rule + ")"
			})
		}
	}
}

// late checks that no computation ends after the schedule's Cmax (when
// the schedule states one).
func (ck *checker) late(ts *timedState) {
	pl := ck.pl
	s := pl.s
	for id := 1; id < len(pl.g.Nodes) && s.Has(schedule.FieldCmax); id++ {
		grp := pl.group(id)
		off := ts.recvOff[id]
		for j, c := range pl.recv[grp] {
			if pl.ch[c].dest != grp || !pl.ch[c].computed {
				continue
			}
			if en := ts.cend[off+j]; en > s.Cmax+ck.tolT {
				ci := int(c)
				ck.add(KindLate, c, -1, en, func() string {
					return chunkName(pl, ci) + ": the computation on node " + nodeName(id) + " ends at " + g(en) +
						", after the schedule's Cmax = " + g(s.Cmax)
				})
			}
		}
	}
}

// checkStated compares the times and loads a schedule states with the
// timed replay; fields the schedule leaves out (schedule.Field) are not
// compared. Computing intervals are compared for positive loads only. A
// stated Cmax must equal the replay's makespan.
func checkStated(ck *checker, res *Result, tol float64) {
	pl := ck.pl
	tolT := ck.tolT
	differ := func(stated, got float64) bool {
		return math.Abs(stated-got) > tolT
	}
	// A Cmax below the makespan is reported as late computations.
	if s := pl.s; s.Has(schedule.FieldCmax) && s.Cmax > res.Makespan+tolT {
		ck.add(KindStatedTimes, -1, -2, res.Makespan, func() string {
			return "stated cmax " + g(s.Cmax) + ", but the schedule ends at " + g(res.Makespan)
		})
	}
	for i := range pl.s.Chunks {
		c := &pl.s.Chunks[i]
		rt := &res.Chunks[i]
		ci := int32(i)
		for h := range c.Hops {
			hp := &c.Hops[h]
			if hp.Has(schedule.FieldHopEnd) && differ(hp.End, rt.HopEnd[h]) {
				ck.add(KindStatedTimes, ci, int16(h), rt.HopEnd[h], func() string {
					return chunkName(pl, i) + ": " + hopName(pl, i, h) + " is stated to end at " + g(hp.End) +
						", but it lasts until " + g(rt.HopEnd[h]) + " (start + S + C·load)"
				})
			}
			if hp.Has(schedule.FieldHopLoad) && math.Abs(hp.Load-rt.HopLoad[h]) > tol*math.Max(math.Abs(hp.Load), math.Abs(rt.HopLoad[h])) {
				ck.add(KindStatedTimes, ci, int16(h), hp.Start, func() string {
					return chunkName(pl, i) + ": " + hopName(pl, i, h) + " is stated to carry " + g(hp.Load) +
						" per link, but carries " + g(rt.HopLoad[h])
				})
			}
		}
		what := ""
		var stated, got float64
		switch {
		case c.Has(schedule.FieldStart) && len(c.Hops) > 0 && differ(c.Start, c.Hops[0].Start):
			what, stated, got = "start", c.Start, c.Hops[0].Start
		case c.Has(schedule.FieldArrival) && differ(c.Arrival, rt.Arrival):
			what, stated, got = "arrival", c.Arrival, rt.Arrival
		case c.Load > 0 && c.Has(schedule.FieldComputeStart) && differ(c.ComputeStart, rt.ComputeStart):
			what, stated, got = "compute_start", c.ComputeStart, rt.ComputeStart
		case c.Load > 0 && c.Has(schedule.FieldComputeEnd) && differ(c.ComputeEnd, rt.ComputeEnd):
			what, stated, got = "compute_end", c.ComputeEnd, rt.ComputeEnd
		}
		if what != "" {
			ck.add(KindStatedTimes, ci, -2, got, func() string {
				if what == "start" {
					return chunkName(pl, i) + ": stated start " + g(stated) + ", but its first hop starts at " + g(got)
				}
				return chunkName(pl, i) + ": stated " + what + " " + g(stated) + ", replayed " + g(got)
			})
		}
	}
}

// VerifyInput verifies a schedule given by a user (a JSON file): after the
// memory estimate, its problem must pass problem.FromSchedule, the one
// validator of every entry point (an error names the field as a
// *problem.FieldError); then it is verified as by Verify. Verify itself
// accepts any problem it can replay (zero rates, V = 0), as the farms and
// tests build them.
func VerifyInput(s *schedule.Schedule, opt Options) (*schedule.Verification, error) {
	if err := checkLimit(s, &opt); err != nil {
		return nil, err
	}
	if s != nil {
		if _, err := problem.FromSchedule(s); err != nil {
			return nil, fmt.Errorf("problem: %w", err)
		}
	}
	return Verify(s, opt)
}
