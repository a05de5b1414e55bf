package replay

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// pchunk is a message of the schedule with everything the replay derives
// from the Problem: link loads and durations per hop, computing time.
type pchunk struct {
	idx  int
	dest int     // processor (star) or layer (trees)
	load float64 // as stated
	sim  float64 // as simulated: max(load, 0)
	// linkLoad[h] and dur[h]: what one link carries in hop h and how long
	// the hop lasts (S + C·linkLoad).
	linkLoad []float64
	dur      []float64
	work     float64 // computing time on one destination processor
	computed bool    // false if the destination is a relay-only layer
	// pos[l] is the chunk's index in the receive list of layer l (trees,
	// l = 1..dest) or of its processor (star, pos[0]).
	pos []int32
}

// sendRef is one send of a sender layer: hop hop of chunk c.
type sendRef struct {
	c    int32
	hop  int16
	last bool  // the last send of c at this node: its buffer frees at the end
	pos  int32 // receive index of c at the sender's layer (-1 at the originator)
}

// plan is the validated, expanded form of a schedule.
type plan struct {
	s       *schedule.Schedule
	kind    topology.Kind
	p, h, m int
	nbuf    int // receive buffers of a node (1 or 2)
	g       *topology.Graph
	relay   []bool // per layer: relay-only
	ch      []pchunk
	// recv[group] lists the chunks received by the nodes of a group (a
	// layer, or a star processor) in list order; sends[layer] the sends
	// of the nodes of a layer (star: layer 0 only).
	recv  [][]int32
	sends [][]sendRef
	// posInLayer[id] is the index of node id in g.ByLayer[its layer].
	posInLayer []int32
	computing  int
	starTarget []int // starTarget[i] = i, sliced by targets
	// release[c], if not nil, is the earliest time the originator may
	// start sending chunk c (its stated start, for schedules that state
	// no hops).
	release []float64
	// rets are the result messages of a star, in the order listed
	// (results.go).
	rets []pret
}

// group returns the receive group of node id: its layer for trees, its
// processor number for a star.
func (pl *plan) group(id int) int {
	if pl.kind == topology.Star {
		return id
	}
	return pl.g.Nodes[id].Layer
}

// hopOf returns the hop by which a node of group grp receives a chunk.
func (pl *plan) hopOf(grp int) int {
	if pl.kind == topology.Star {
		return 0
	}
	return grp - 1
}

// targets returns the nodes a send of node id goes to.
func (pl *plan) targets(id int, sd sendRef) []int {
	n := &pl.g.Nodes[id]
	switch pl.kind {
	case topology.Star:
		return pl.starTarget[pl.ch[sd.c].dest : pl.ch[sd.c].dest+1]
	case topology.Binomial:
		return n.ChildrenByLayer[int(sd.hop)+1]
	}
	return n.Children
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// newPlan validates s and expands it. needHops requires every chunk to
// state its hops (timed mode). The problem is validated by package
// problem's one validator under the replay's rules
// (problem.FromScheduleRelaxed: zero rates and V = 0 replay too); what is
// left here is what only a replay asks of a schedule: its buffer reuse,
// and chunks that fit the platform.
func newPlan(s *schedule.Schedule, needHops bool) (*plan, error) {
	if s == nil {
		return nil, fmt.Errorf("executor: nil schedule")
	}
	pr := &s.Problem
	if pr.Topology == "star" && len(pr.Relay) > 0 {
		return nil, fmt.Errorf("executor: star: relay-only layers %v make no sense", pr.Relay)
	}
	prob, err := problem.FromScheduleRelaxed(s)
	if err != nil {
		return nil, fmt.Errorf("executor: problem: %w", err)
	}
	pl := &plan{s: s, kind: prob.Kind, p: prob.P, h: prob.H, m: prob.M, nbuf: 1}
	if err := pl.platform(prob); err != nil {
		return nil, err
	}
	if err := pl.chunks(prob, needHops); err != nil {
		return nil, err
	}
	if err := pl.results(prob); err != nil {
		return nil, err
	}
	pl.sendLists()
	return pl, nil
}

// platform builds the graph, the per-processor parameters of a star, the
// relay-only layers and the node indexes.
func (pl *plan) platform(prob *problem.Problem) error {
	var err error
	switch pl.kind {
	case topology.Star:
		pl.g, err = topology.Build(pl.kind, pl.m, 0, 0)
		pl.h = 1
		pl.starTarget = make([]int, pl.m+1)
		for i := range pl.starTarget {
			pl.starTarget[i] = i
		}
	default:
		if pl.kind == topology.Tree {
			pl.nbuf = prob.Buffers
			if r := pl.s.Problem.BufferReuse; pl.nbuf == 2 && r != "" && r != "alternate" {
				return fmt.Errorf("executor: tree: buffer_reuse %q is not supported (only \"alternate\")", r)
			}
		}
		pl.g, err = topology.Build(pl.kind, 0, pl.p, pl.h)
	}
	if err != nil {
		return fmt.Errorf("executor: %w", err)
	}
	pl.relay = make([]bool, pl.h+1)
	for _, l := range prob.Relay {
		pl.relay[l] = true
	}
	pl.posInLayer = make([]int32, len(pl.g.Nodes))
	for _, ids := range pl.g.ByLayer {
		for k, id := range ids {
			pl.posInLayer[id] = int32(k)
		}
	}
	for l := 1; l <= pl.h; l++ {
		if pl.kind == topology.Star || !pl.relay[l] {
			pl.computing += len(pl.g.ByLayer[l])
		}
	}
	return nil
}

// chunks checks the schedule's chunks against the platform and expands
// each: link loads and durations per hop, computing time, receive lists.
func (pl *plan) chunks(prob *problem.Problem, needHops bool) error {
	ngroups, maxDest := pl.h+1, pl.h
	if pl.kind == topology.Star {
		ngroups, maxDest = pl.m+1, pl.m
	}
	pl.ch = make([]pchunk, len(pl.s.Chunks))
	pl.recv = make([][]int32, ngroups)
	for ci := range pl.s.Chunks {
		c := &pl.s.Chunks[ci]
		pc := &pl.ch[ci]
		pc.idx, pc.dest, pc.load = ci, c.Dest(), c.Load
		where := func() string { return chunkName(pl, ci) }
		if err := checkStage(pl.s, ci); err != nil {
			return err
		}
		if c.Has(schedule.FieldStart) && !finite(c.Start) {
			return fmt.Errorf("executor: %s: start %g", where(), c.Start)
		}
		if !finite(c.Load) {
			return fmt.Errorf("executor: %s: load %g", where(), c.Load)
		}
		if pc.dest < 1 || pc.dest > maxDest {
			return fmt.Errorf("executor: chunk %d (stage %d): destination %d outside 1..%d", ci+1, c.Stage, pc.dest, maxDest)
		}
		nh := 1
		if pl.kind != topology.Star {
			nh = pc.dest
		}
		if needHops && len(c.Hops) != nh {
			return fmt.Errorf("executor: %s: %d hops stated, want %d", where(), len(c.Hops), nh)
		}
		for hi := range c.Hops {
			if !finite(c.Hops[hi].Start) {
				return fmt.Errorf("executor: %s: hop %d starts at %g", where(), hi, c.Hops[hi].Start)
			}
		}
		pl.expand(prob, pc, nh)
	}
	return nil
}

// expand fills a checked chunk with nh hops: its link loads and durations
// (S + C·load per hop), its computing time and its receive positions.
func (pl *plan) expand(prob *problem.Problem, pc *pchunk, nh int) {
	pc.sim = math.Max(pc.load, 0)
	pc.linkLoad = make([]float64, nh)
	pc.dur = make([]float64, nh)
	sp, cp, ap := prob.Params(pc.dest)
	for hi := 0; hi < nh; hi++ {
		f := 1.0
		switch pl.kind {
		case topology.Tree:
			f = topology.TreeHopLoad(pl.p, pc.dest, hi)
		case topology.Binomial:
			f = topology.BinomialStepLoad(pl.p, pc.dest, hi+1)
		}
		pc.linkLoad[hi] = f * pc.load
		pc.dur[hi] = sp + cp*f*pc.sim
	}
	pc.work = ap * pc.sim
	pc.computed = pl.kind == topology.Star || !pl.relay[pc.dest]
	ci := int32(pc.idx)
	if pl.kind == topology.Star {
		pc.pos = []int32{int32(len(pl.recv[pc.dest]))}
		pl.recv[pc.dest] = append(pl.recv[pc.dest], ci)
		return
	}
	pc.pos = make([]int32, pc.dest+1)
	pc.pos[0] = -1
	for l := 1; l <= pc.dest; l++ {
		pc.pos[l] = int32(len(pl.recv[l]))
		pl.recv[l] = append(pl.recv[l], ci)
	}
}

// sendLists lists the sends of every sender layer in list order.
func (pl *plan) sendLists() {
	pl.sends = make([][]sendRef, pl.h)
	if pl.kind == topology.Star {
		for ci := range pl.ch {
			pl.sends[0] = append(pl.sends[0], sendRef{c: int32(ci), hop: 0, last: true, pos: -1})
		}
		return
	}
	for l := 0; l < pl.h; l++ {
		for ci := range pl.ch {
			pc := &pl.ch[ci]
			if pc.dest <= l {
				continue
			}
			pos := int32(-1)
			if l > 0 {
				pos = pc.pos[l]
			}
			if pl.kind == topology.Tree {
				pl.sends[l] = append(pl.sends[l], sendRef{c: int32(ci), hop: int16(l), last: true, pos: pos})
				continue
			}
			for t := l + 1; t <= pc.dest; t++ {
				pl.sends[l] = append(pl.sends[l], sendRef{c: int32(ci), hop: int16(t - 1), last: t == pc.dest, pos: pos})
			}
		}
	}
}

// chunkName describes chunk ci for messages: "stage 2, layer 3 (chunk 7)".
func chunkName(pl *plan, ci int) string {
	c := &pl.s.Chunks[ci]
	what := "layer"
	if pl.kind == topology.Star {
		what = "processor"
	}
	return "stage " + strconv.Itoa(c.Stage) + ", " + what + " " + strconv.Itoa(c.Dest()) + " (chunk " + strconv.Itoa(ci+1) + ")"
}

// hopName describes hop hi of chunk ci: "hop 2 (layer 2→3)".
func hopName(pl *plan, ci, hi int) string {
	switch pl.kind {
	case topology.Star:
		return "the transfer P0→P" + strconv.Itoa(pl.ch[ci].dest)
	case topology.Binomial:
		return "step " + strconv.Itoa(hi+1) + " (layers 0.." + strconv.Itoa(hi) + "→" + strconv.Itoa(hi+1) + ")"
	}
	return "hop " + strconv.Itoa(hi) + " (layer " + strconv.Itoa(hi) + "→" + strconv.Itoa(hi+1) + ")"
}

// checkStage checks the stage of chunk ci: at least 1, and at most the
// stage count of the schedule's problem when the schedule states one (a
// chunk of stage 10^12 in a 2-stage schedule is refused).
func checkStage(s *schedule.Schedule, ci int) error {
	st, n := s.Chunks[ci].Stage, s.Problem.Stages
	if s.Has(schedule.FieldProblemStages) && n >= 1 && (st < 1 || st > n) {
		return fmt.Errorf("executor: chunk %d: stage %d, want 1..%d (the stages of the schedule's problem)", ci+1, st, n)
	}
	if st < 1 {
		return fmt.Errorf("executor: chunk %d: stage %d, want an integer >= 1", ci+1, st)
	}
	return nil
}
