package optimize

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/dlsched/dlsched/closedform"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/topology"
)

// DefaultExhaustive is the largest tree height for which RelaySplit tries
// every subset of computing layers.
const DefaultExhaustive = 5

// SplitOptions configure RelaySplit.
type SplitOptions struct {
	Options
	// Stages picks n for every candidate (StagesBest by default in the
	// CLI); N is the stage count of StagesFixed.
	Stages StageRule
	N      int
	// Exhaustive: every non-empty subset of layers is tried when h <=
	// Exhaustive (zero means DefaultExhaustive); otherwise the single
	// layers and a greedy extension of the best one.
	Exhaustive int
}

// Split is one compute/relay split of the layers of a tree.
type Split struct {
	// Compute lists the computing layers, Relay the relay-only ones.
	Compute []int `json:"compute"`
	Relay   []int `json:"relay"`
	// Order is the activation order of the computing layers.
	Order string `json:"order"`
	// Point is the evaluated point (Stages, Cmax, ...); Cmax is +Inf for a
	// split that was not evaluated.
	Point
	// Trivial is the bound i_min·S + AV/P that no schedule of this split
	// can beat (i_min its shallowest computing layer, P its processors).
	Trivial float64 `json:"trivial_bound"`
	// Skipped says why a split was not evaluated.
	Skipped string `json:"skipped,omitempty"`
}

// Name returns a short label: "compute 9,10" or "all layers (nlf)".
func (s *Split) Name() string {
	if len(s.Relay) == 0 {
		return "all layers (" + s.Order + ")"
	}
	return "compute " + ints(s.Compute)
}

func ints(v []int) string {
	f := make([]string, len(v))
	for i, x := range v {
		f[i] = fmt.Sprint(x)
	}
	return strings.Join(f, ",")
}

// SplitResult is the outcome of RelaySplit.
type SplitResult struct {
	// Candidates are the splits tried, in the order tried (skipped ones
	// included).
	Candidates []Split
	// Best is the best split (among Candidates and Classic).
	Best Split
	// Classic are the paper's algorithms, every layer computing: NLF and
	// LLF (with the problem's buffers for an ordinary tree).
	Classic []Split
	// LB is the closed-form LB strategy of Section 4.2 per layer (binomial
	// trees only) and LBPick the index of the paper's choice.
	LB     []closedform.LBLayer
	LBPick int
	// LBTrue is the index in LB of the layer with the least true
	// equal-chunk makespan (LBBest).
	LBTrue int
	// Stages is the rule used.
	Stages StageRule
	// Note collects remarks (searches stopped by the guard).
	Note string
	// Stats counts the work done.
	Stats Stats
}

// RelaySplit searches which layers of an ordinary or binomial tree should
// compute and which should only relay (Problem.Relay, a dlsched extension
// beyond the paper, which ends by asking for such scattering algorithms).
// Every candidate is solved with the relay-only LP under the stage rule.
// Candidates: every single computing layer, then — for h <= Exhaustive —
// every other subset, else a greedy extension (add the layer that helps
// most while one helps) of the best single layer. A candidate whose
// trivial bound i_min·S + AV/P is not below the best makespan found so far
// is skipped unsolved: it cannot win. The classic NLF and LLF with every
// layer computing are solved beside, and for binomial trees the
// closed-form LB strategy is reported too. p.Relay and p.Order's effect on
// single layers are ignored; multi-layer candidates use p.Order.
func RelaySplit(p *problem.Problem, opt SplitOptions) (*SplitResult, error) {
	base, err := checkSplit(p, opt)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	rs := &relaySearch{base: base, opt: opt, res: &SplitResult{Stages: opt.Stages}, tried: map[string]bool{}}
	if p.Kind == topology.Binomial {
		lb, pick, err := closedform.LBStrategy(base)
		if err != nil {
			return nil, err
		}
		rs.res.LB, rs.res.LBPick, rs.res.LBTrue = lb, pick, closedform.LBBest(lb)
	}
	if err := rs.classic(); err != nil {
		return nil, err
	}
	bestSingle, err := rs.singles()
	if err != nil {
		return nil, err
	}
	ex := opt.Exhaustive
	if ex == 0 {
		ex = DefaultExhaustive
	}
	if p.H <= ex {
		err = rs.subsets()
	} else if bestSingle.Compute != nil {
		err = rs.extend(bestSingle)
	}
	if err != nil {
		return nil, err
	}
	res := rs.res
	res.Best.Cmax = schedule.Float(math.Inf(1))
	for _, s := range append(append([]Split(nil), res.Candidates...), res.Classic...) {
		if s.Skipped == "" && float64(s.Cmax) < float64(res.Best.Cmax)*(1-tieTol) {
			res.Best = s
		}
	}
	res.Note = strings.Join(rs.notes, "; ")
	if !opt.NoTimings {
		res.Stats.Seconds = time.Since(t0).Seconds()
	}
	return res, nil
}

// checkSplit refuses what RelaySplit cannot search and returns p without
// its relay-only layers, validated.
func checkSplit(p *problem.Problem, opt SplitOptions) (*problem.Problem, error) {
	if p.Kind != topology.Tree && p.Kind != topology.Binomial {
		return nil, &problem.FieldError{Field: "topology", Value: p.Kind.String(), Want: "tree or binomial (relay-only layers exist only in trees)"}
	}
	base := *p
	base.Relay = nil
	if err := base.Validate(); err != nil {
		return nil, err
	}
	if opt.Solve.Solver == nil {
		return nil, errors.New("optimize: no solver")
	}
	if opt.Stages == StagesFixed && opt.N < 1 {
		return nil, &problem.FieldError{Field: "N", Value: fmt.Sprint(opt.N), Want: "an integer >= 1"}
	}
	return &base, nil
}

// relaySearch is one RelaySplit: the splits tried, the best makespan so
// far and the notes the stage searches left.
type relaySearch struct {
	base  *problem.Problem // every layer computing, the problem's order
	opt   SplitOptions
	res   *SplitResult
	best  float64
	tried map[string]bool
	notes []string
}

// classic solves the paper's NLF and LLF with every layer computing; the
// better is the first best makespan.
func (rs *relaySearch) classic() error {
	for _, o := range []topology.Order{topology.NLF, topology.LLF} {
		q := *rs.base
		q.Order = o
		s, note, err := evalSplit(&q, allLayers(q.H), rs.opt, &rs.res.Stats)
		if err != nil {
			return err
		}
		if note != "" {
			rs.notes = append(rs.notes, note)
		}
		rs.res.Classic = append(rs.res.Classic, s)
	}
	rs.best = math.Inf(1)
	for _, c := range rs.res.Classic {
		rs.best = math.Min(rs.best, float64(c.Cmax))
	}
	return nil
}

// try solves the split computing on set (sorted in place), unless its
// trivial bound is not below the best makespan, and records it.
func (rs *relaySearch) try(set []int) (Split, error) {
	sort.Ints(set)
	rs.tried[ints(set)] = true
	s := newSplit(rs.base, set)
	if s.Trivial >= rs.best*(1-tieTol) {
		s.Skipped = fmt.Sprintf("trivial bound %.6g is not below the best %.6g", s.Trivial, rs.best)
		rs.res.Candidates = append(rs.res.Candidates, s)
		return s, nil
	}
	s, note, err := evalSplit(rs.base, set, rs.opt, &rs.res.Stats)
	if err != nil {
		return s, err
	}
	if note != "" {
		rs.notes = append(rs.notes, note)
	}
	rs.res.Candidates = append(rs.res.Candidates, s)
	rs.best = math.Min(rs.best, float64(s.Cmax))
	return s, nil
}

// singles tries every single computing layer, most promising (smallest
// trivial bound) first so that hopeless ones are skipped, and returns the
// best (Compute nil when none was solved).
func (rs *relaySearch) singles() (Split, error) {
	singles := allLayers(rs.base.H)
	sort.SliceStable(singles, func(a, b int) bool {
		return newSplit(rs.base, []int{singles[a]}).Trivial < newSplit(rs.base, []int{singles[b]}).Trivial
	})
	var bestSingle Split
	bestSingle.Cmax = schedule.Float(math.Inf(1))
	for _, i := range singles {
		s, err := rs.try([]int{i})
		if err != nil {
			return bestSingle, err
		}
		if s.Skipped == "" && float64(s.Cmax) < float64(bestSingle.Cmax)*(1-tieTol) {
			bestSingle = s
		}
	}
	return bestSingle, nil
}

// subsets tries every subset of at least two layers but not all of them
// (the singles are done; all layers is Classic).
func (rs *relaySearch) subsets() error {
	h := rs.base.H
	for mask := 1; mask < 1<<h; mask++ {
		var set []int
		for l := 1; l <= h; l++ {
			if mask&(1<<(l-1)) != 0 {
				set = append(set, l)
			}
		}
		if len(set) < 2 || len(set) == h {
			continue
		}
		if _, err := rs.try(set); err != nil {
			return err
		}
	}
	return nil
}

// extend adds to the computing layers of cur the layer that helps most,
// while one helps.
func (rs *relaySearch) extend(cur Split) error {
	h := rs.base.H
	for {
		next := cur
		for l := 1; l <= h; l++ {
			if contains(cur.Compute, l) {
				continue
			}
			set := append(append([]int(nil), cur.Compute...), l)
			if len(set) == h || rs.tried[ints(sortedCopy(set))] {
				continue
			}
			s, err := rs.try(set)
			if err != nil {
				return err
			}
			if s.Skipped == "" && float64(s.Cmax) < float64(next.Cmax)*(1-tieTol) {
				next = s
			}
		}
		if ints(next.Compute) == ints(cur.Compute) {
			return nil
		}
		cur = next
	}
}

func allLayers(h int) []int {
	out := make([]int, h)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

func contains(v []int, x int) bool {
	for _, y := range v {
		if y == x {
			return true
		}
	}
	return false
}

func sortedCopy(v []int) []int {
	out := append([]int(nil), v...)
	sort.Ints(out)
	return out
}

// newSplit describes the split computing on set (sorted), unevaluated.
func newSplit(p *problem.Problem, set []int) Split {
	s := Split{Compute: append([]int(nil), set...), Order: p.Order.String()}
	for l := 1; l <= p.H; l++ {
		if !contains(set, l) {
			s.Relay = append(s.Relay, l)
		}
	}
	s.Trivial = closedform.SubsetBound(p, set)
	s.Cmax = schedule.Float(math.Inf(1))
	s.D = schedule.Float(p.D)
	return s
}

// evalSplit solves the split computing on set under the stage rule.
func evalSplit(base *problem.Problem, set []int, opt SplitOptions, st *Stats) (Split, string, error) {
	s := newSplit(base, set)
	q := *base
	q.Relay = s.Relay
	nmin := q.NMin()
	s.NMin = nmin
	label := s.Name()
	n := nmin
	switch opt.Stages {
	case StagesBest:
		r, err := OverN(&q, opt.Options)
		if err != nil {
			return s, "", fmt.Errorf("%s: %w", label, err)
		}
		st.add(r.Stats)
		s.Point = r.Best
		note := ""
		if !r.Covered {
			note = fmt.Sprintf("%s: best n over [%d, %d] only", label, r.NMin, r.Last)
		}
		return s, note, nil
	case StagesFixed:
		n = opt.N
		if n < nmin {
			s.Skipped = fmt.Sprintf("n=%d is below n_min=%d", n, nmin)
			s.Stages = n
			return s, "", nil
		}
	}
	if n > 1e7 {
		s.Skipped = fmt.Sprintf("n_min=%d stages", n)
		return s, "", nil
	}
	sc, err := solve.Greedy(&q, n, opt.Solve)
	if err != nil {
		return s, "", fmt.Errorf("%s: %w", label, err)
	}
	st.Cold++
	s.Point = pointOf(&q, n, sc)
	s.Bound = schedule.Float(FullPatternBound(&q).At(n))
	return s, "", nil
}
