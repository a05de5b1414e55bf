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
	ex := opt.Exhaustive
	if ex == 0 {
		ex = DefaultExhaustive
	}
	t0 := time.Now()
	res := &SplitResult{Stages: opt.Stages}
	var notes []string
	if p.Kind == topology.Binomial {
		lb, pick, err := closedform.LBStrategy(&base)
		if err != nil {
			return nil, err
		}
		res.LB, res.LBPick, res.LBTrue = lb, pick, closedform.LBBest(lb)
	}
	for _, o := range []topology.Order{topology.NLF, topology.LLF} {
		q := base
		q.Order = o
		s, note, err := evalSplit(&q, allLayers(p.H), opt, &res.Stats)
		if err != nil {
			return nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
		res.Classic = append(res.Classic, s)
	}
	best := math.Inf(1)
	for _, c := range res.Classic {
		best = math.Min(best, float64(c.Cmax))
	}
	tried := map[string]bool{}
	try := func(set []int) (Split, error) {
		sort.Ints(set)
		key := ints(set)
		tried[key] = true
		s := newSplit(&base, set)
		if s.Trivial >= best*(1-tieTol) {
			s.Skipped = fmt.Sprintf("trivial bound %.6g is not below the best %.6g", s.Trivial, best)
			res.Candidates = append(res.Candidates, s)
			return s, nil
		}
		s, note, err := evalSplit(&base, set, opt, &res.Stats)
		if err != nil {
			return s, err
		}
		if note != "" {
			notes = append(notes, note)
		}
		res.Candidates = append(res.Candidates, s)
		best = math.Min(best, float64(s.Cmax))
		return s, nil
	}
	// Single layers, most promising (smallest trivial bound) first, so
	// that hopeless ones are skipped.
	singles := allLayers(p.H)
	sort.SliceStable(singles, func(a, b int) bool {
		return newSplit(&base, []int{singles[a]}).Trivial < newSplit(&base, []int{singles[b]}).Trivial
	})
	var bestSingle Split
	bestSingle.Cmax = schedule.Float(math.Inf(1))
	for _, i := range singles {
		s, err := try([]int{i})
		if err != nil {
			return nil, err
		}
		if s.Skipped == "" && float64(s.Cmax) < float64(bestSingle.Cmax)*(1-tieTol) {
			bestSingle = s
		}
	}
	if p.H <= ex {
		for mask := 1; mask < 1<<p.H; mask++ {
			var set []int
			for l := 1; l <= p.H; l++ {
				if mask&(1<<(l-1)) != 0 {
					set = append(set, l)
				}
			}
			if len(set) < 2 || len(set) == p.H {
				continue // singles done; all layers is Classic
			}
			if _, err := try(set); err != nil {
				return nil, err
			}
		}
	} else if bestSingle.Compute != nil {
		cur := bestSingle
		for {
			next := cur
			for l := 1; l <= p.H; l++ {
				if contains(cur.Compute, l) {
					continue
				}
				set := append(append([]int(nil), cur.Compute...), l)
				if len(set) == p.H || tried[ints(sortedCopy(set))] {
					continue
				}
				s, err := try(set)
				if err != nil {
					return nil, err
				}
				if s.Skipped == "" && float64(s.Cmax) < float64(next.Cmax)*(1-tieTol) {
					next = s
				}
			}
			if ints(next.Compute) == ints(cur.Compute) {
				break
			}
			cur = next
		}
	}
	res.Best.Cmax = schedule.Float(math.Inf(1))
	for _, s := range append(append([]Split(nil), res.Candidates...), res.Classic...) {
		if s.Skipped == "" && float64(s.Cmax) < float64(res.Best.Cmax)*(1-tieTol) {
			res.Best = s
		}
	}
	res.Note = strings.Join(notes, "; ")
	if !opt.NoTimings {
		res.Stats.Seconds = time.Since(t0).Seconds()
	}
	return res, nil
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
