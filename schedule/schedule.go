package schedule

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Float is a float64 that encodes +Inf as the JSON string "inf" (JSON has
// no infinity) and decodes "inf", "+inf" and "Infinity" back.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsInf(v, 1):
		return []byte(`"inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-inf"`), nil
	case math.IsNaN(v):
		return []byte(`"nan"`), nil
	}
	return []byte(strconv.FormatFloat(v, 'g', -1, 64)), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil // like encoding/json for numbers: null leaves the value alone
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		switch s {
		case "inf", "+inf", "Inf", "Infinity", "+Infinity":
			*f = Float(math.Inf(1))
		case "-inf", "-Infinity":
			*f = Float(math.Inf(-1))
		case "nan", "NaN":
			*f = Float(math.NaN())
		default:
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return fmt.Errorf("schedule: bad number %q", s)
			}
			*f = Float(v)
		}
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Float(v)
	return nil
}

// Proc holds per-processor parameters of a heterogeneous star.
type Proc struct {
	S float64 `json:"S"`
	C float64 `json:"C"`
	A float64 `json:"A"`
}

// Problem is the input of a schedule, as given by the user.
type Problem struct {
	// Topology is "star", "tree" or "binomial".
	Topology string `json:"topology"`
	// Order is the layer activation order of trees: "nlf" or "llf".
	Order string `json:"order,omitempty"`
	// Buffers is 1 or 2 for ordinary trees.
	Buffers int `json:"buffers,omitempty"`
	// BufferReuse is "alternate" (the paper's rule) for 2-buffer trees.
	BufferReuse string `json:"buffer_reuse,omitempty"`
	// M is the number of processors of a star.
	M int `json:"m,omitempty"`
	// P and H are the out-degree and height of a tree.
	P int `json:"p,omitempty"`
	H int `json:"h,omitempty"`
	// S, C and A are the startup time, per-unit transfer time and per-unit
	// computing time (homogeneous case).
	S float64 `json:"S"`
	C float64 `json:"C"`
	A float64 `json:"A"`
	// Procs, when set, gives per-processor S, C, A of a heterogeneous
	// star (len Procs == M); S, C, A above are then ignored.
	Procs []Proc `json:"procs,omitempty"`
	// D is the buffer size (may be +Inf), V the total load.
	D Float   `json:"D"`
	V float64 `json:"V"`
	// Stages is the number of stages n the LP was built with (before
	// pruning).
	Stages int `json:"stages"`
	// Relay lists layers that only relay and never compute (relay-only
	// variants); empty for the paper's classic algorithms.
	Relay []int `json:"relay,omitempty"`
	// ResultRatio is β: every star processor returns β times its total
	// load to the originator after the distribution (absent or 0: no
	// results are returned). Return is their order on the originator's
	// port: "fifo" (activation order) or "lifo" (its reverse).
	ResultRatio float64 `json:"result_ratio,omitempty"`
	Return      string  `json:"return,omitempty"`
}

// ProcParams returns S, C, A of star processor i (1-based), honouring Procs.
func (p *Problem) ProcParams(i int) (s, c, a float64) {
	if len(p.Procs) > 0 {
		q := p.Procs[i-1]
		return q.S, q.C, q.A
	}
	return p.S, p.C, p.A
}

// Hop is one transfer step of a message. For a star there is one hop from
// the originator (layer 0) to the processor. For an ordinary tree hop l goes
// from layer l to layer l+1 over every link between them. For a binomial
// tree, hop s−1 is step s of the scatter: every node of layers 0..s−1 sends
// to its p children in layer s.
type Hop struct {
	// From and To are the sender and receiver layers.
	From int `json:"from"`
	To   int `json:"to"`
	// Load is the amount carried by one link in this hop.
	Load float64 `json:"load"`
	// Start and End delimit the transfer: End = Start + S + C·Load.
	Start float64 `json:"start"`
	End   float64 `json:"end"`

	stated Field // fields present in the JSON it was read from
}

// Chunk is one message of the schedule: the load sent in one stage to one
// processor (star) or to every processor of one layer (trees).
type Chunk struct {
	Stage int `json:"stage"`
	// Processor (star) or Layer (trees) is the destination, 1-based.
	Processor int `json:"processor,omitempty"`
	Layer     int `json:"layer,omitempty"`
	// Load is the amount each destination processor receives.
	Load float64 `json:"load"`
	// Start is when the first hop starts; Arrival when the last ends.
	Start   float64 `json:"start"`
	Arrival float64 `json:"arrival"`
	// Hops lists the transfer steps (one for a star).
	Hops []Hop `json:"hops"`
	// ComputeStart and ComputeEnd delimit the computation of this chunk
	// on each destination processor.
	ComputeStart float64 `json:"compute_start"`
	ComputeEnd   float64 `json:"compute_end"`

	stated Field // fields present in the JSON it was read from
}

// Return is the message that carries one processor's results back to the
// originator of a star (Problem.ResultRatio > 0): Load = β × the
// processor's total load, lasting S + C·Load on its link, through the
// originator's one port.
type Return struct {
	// Processor is the sender, 1-based.
	Processor int `json:"processor"`
	// Load is the amount of results (result units).
	Load float64 `json:"load"`
	// Start and End delimit the transfer: End = Start + S + C·Load.
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// Dest returns the chunk's destination: the processor for a star, the layer
// for trees.
func (c *Chunk) Dest() int {
	if c.Layer > 0 {
		return c.Layer
	}
	return c.Processor
}

// PatternInfo describes how the message pattern of a schedule was chosen.
type PatternInfo struct {
	// Method is "greedy" (the paper's prune loop from the full n-stage
	// pattern), "search" (the best of several candidate patterns, each
	// pruned greedily), "exact" (the pattern MILP) or "full" (no pruning:
	// every message of the n-stage pattern is sent).
	Method string `json:"method"`
	// Destinations are the processors (star) or layers (trees) the
	// returned pattern was built on; empty means all.
	Destinations []int `json:"destinations,omitempty"`
	// Candidates is the number of patterns solved (1 for greedy) and
	// Skipped the number ruled out by a bound without solving.
	Candidates int `json:"candidates"`
	Skipped    int `json:"skipped,omitempty"`
	// Moves counts the single-message changes (one dropped or added) by
	// which the local search improved the pattern after the destination
	// search.
	Moves int `json:"moves,omitempty"`
	// Chain is the number of stage counts the search ran at, each seeded
	// with the one below (zero: only n), so that the result does not
	// grow with n.
	Chain int `json:"chain,omitempty"`
	// Bound names the pattern lower bound.
	Bound string `json:"bound"`
	// Note adds what the search did not cover.
	Note string `json:"note,omitempty"`
}

// Removed records what pruning took away.
type Removed struct {
	// Messages lists removed (stage, destination) pairs.
	Messages [][2]int `json:"messages,omitempty"`
	// Stages and Destinations list stages and processors/layers that lost
	// all their messages.
	Stages       []int `json:"stages,omitempty"`
	Destinations []int `json:"destinations,omitempty"`
	// Rounds is the number of prune-and-resolve rounds.
	Rounds int `json:"rounds"`
	// CmaxBefore and CmaxAfter are the makespans of the first LP solution
	// and of the pruned one.
	CmaxBefore float64 `json:"cmax_before"`
	CmaxAfter  float64 `json:"cmax_after"`
}

// Attempt records one solve of the certification loop.
type Attempt struct {
	Algorithm  string  `json:"algorithm"`
	Presolve   string  `json:"presolve"`
	Scaling    string  `json:"scaling,omitempty"`
	Status     string  `json:"status"`
	Cmax       float64 `json:"cmax,omitempty"`
	LowerBound float64 `json:"lower_bound,omitempty"`
	Gap        float64 `json:"gap,omitempty"`
	Iterations int     `json:"iterations"`
	// Messages is the number of messages whose loads the LP of this
	// attempt had as columns when it was a restricted LP of stage
	// generation; 0 for an LP of the whole pattern.
	Messages int `json:"messages,omitempty"`
	// Seconds is wall-clock time: the one output that differs between
	// runs (DropTimings removes it).
	Seconds float64 `json:"seconds,omitempty"`
}

// SolveInfo describes how the LP was solved.
type SolveInfo struct {
	Solver      string    `json:"solver"`
	Form        string    `json:"form"`
	Variables   int       `json:"variables"`
	Constraints int       `json:"constraints"`
	Nonzeros    int       `json:"nonzeros"`
	Attempts    []Attempt `json:"attempts,omitempty"`
	Tolerance   float64   `json:"tolerance"`
	Certified   bool      `json:"certified"`
	// Warm is true when the LP was solved from the basis of the previous
	// stage count's LP (engine.Sequence), certified like a cold solve.
	Warm bool   `json:"warm,omitempty"`
	Note string `json:"note,omitempty"`
	// Seconds is wall-clock time (DropTimings removes it).
	Seconds float64 `json:"seconds,omitempty"`
}

// DropTimings removes the wall-clock times, so that the same input gives
// the same bytes.
func (s *Schedule) DropTimings() {
	if s.Solve == nil {
		return
	}
	s.Solve.Seconds = 0
	for i := range s.Solve.Attempts {
		s.Solve.Attempts[i].Seconds = 0
	}
}

// Violation is one breach of the physical model found by the executor.
type Violation struct {
	Kind    string  `json:"kind"`
	Time    float64 `json:"time"`
	Message string  `json:"message"`
}

// Verification is the executor's verdict on a schedule.
type Verification struct {
	OK bool `json:"ok"`
	// Makespan is the executor's makespan in timed mode (replaying the
	// schedule's start times).
	Makespan float64 `json:"makespan"`
	// EarliestMakespan is the makespan when every transfer starts as
	// early as the physical model allows, in the same order and sizes.
	EarliestMakespan float64     `json:"earliest_makespan"`
	Events           int         `json:"events"`
	Processors       int         `json:"processors"`
	Violations       []Violation `json:"violations,omitempty"`
}

// Schedule is a solved divisible-load schedule.
type Schedule struct {
	// Status is "optimal" or another solver status word.
	Status string `json:"status"`
	// Cmax is the makespan of the (repaired, feasible) schedule.
	Cmax float64 `json:"cmax"`
	// LowerBound is a certified lower bound on the LP optimum and Gap =
	// (Cmax − LowerBound)/Cmax.
	LowerBound float64 `json:"lower_bound"`
	Gap        float64 `json:"gap"`
	// Stages is the number of stages that carry load after pruning.
	Stages int `json:"stages"`
	// NMin is the minimum feasible number of stages.
	NMin    int     `json:"n_min"`
	Problem Problem `json:"problem"`
	// Chunks are the messages in send order.
	Chunks  []Chunk  `json:"chunks"`
	Pruning *Removed `json:"pruning,omitempty"`
	// Pattern says how the message pattern was chosen; PatternLowerBound
	// is a lower bound valid for every pattern of the problem (not only
	// the returned one, unlike LowerBound) and PatternGap = (Cmax −
	// PatternLowerBound)/Cmax.
	Pattern           *PatternInfo `json:"pattern,omitempty"`
	PatternLowerBound float64      `json:"pattern_lower_bound,omitempty"`
	PatternGap        float64      `json:"pattern_gap,omitempty"`
	// Returns are the result messages in the order the originator's port
	// receives them (Problem.ResultRatio > 0; Cmax ends with the last).
	Returns []Return `json:"returns,omitempty"`
	// WorkerOrder lists the processors of a heterogeneous star that carry
	// load (1-based, the user's numbers) in the order every stage
	// activates them; WorkerOrderMethod says how it was chosen: "exact"
	// (proved best over every order and subset), "heuristic" or "given".
	// WorkerOrderBound is a lower bound on the LP of the full n-stage
	// pattern of every order of every subset of the processors and
	// WorkerOrderGap the relative distance of the chosen order's LP to it.
	WorkerOrder       []int    `json:"worker_order,omitempty"`
	WorkerOrderMethod string   `json:"worker_order_method,omitempty"`
	WorkerOrderBound  *float64 `json:"worker_order_bound,omitempty"`
	WorkerOrderGap    *float64 `json:"worker_order_gap,omitempty"`
	// Deadline and MaxLoad are the deadline form's question and answer:
	// the largest load (Problem.V = MaxLoad) that finishes by Deadline.
	Deadline     float64       `json:"deadline,omitempty"`
	MaxLoad      float64       `json:"max_load,omitempty"`
	Solve        *SolveInfo    `json:"solve,omitempty"`
	Verification *Verification `json:"verification,omitempty"`

	stated Field // fields present in the JSON it was read from
}

// ProcessorsUsed returns the distinct destinations that receive positive
// load, in increasing order.
func (s *Schedule) ProcessorsUsed() []int {
	seen := map[int]bool{}
	var out []int
	for _, c := range s.Chunks {
		if c.Load > 0 && !seen[c.Dest()] {
			seen[c.Dest()] = true
			out = append(out, c.Dest())
		}
	}
	sort.Ints(out)
	return out
}
