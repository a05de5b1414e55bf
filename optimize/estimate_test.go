package optimize

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/topology"
)

// Issue 27 item 2: a search over n that would run for hours is refused
// before anything is solved. On the star m = 10, S = 1e-3, C = 1e-6,
// A = 1e-3, D = 1e4, V = 1e6 (n_min = V/(mD) = 10) with the guard raised
// to 1e9, the stopping rule cannot fire before n = 9,912. By hand: the
// round-robin schedule of n_min = 10 stages sends chunks of x = V/(n·m) =
// 1e4, a round lasts R = m(S + Cx) = 0.11, and the last processor ends at
// a_1 + n·A·x = 0.11 + 100 = U = 100.11 (RoundRobin); L(n) = n·m·S + C·V =
// 0.01n + 1 (FullPatternBound) passes U first at n = 9,912, so SearchEnd
// is 9,911 and 9,902 LPs of up to 300,000 rows lie ahead.
func TestLPSecondsRefusedBeforeSolving(t *testing.T) {
	p := &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e4, V: 1e6}
	if u := RoundRobin(p, 10); math.Abs(u-100.11) > 1e-9 {
		t.Errorf("RoundRobin %.12g, want 100.11 by hand", u)
	}
	if got := SearchEnd(p, 10, 1e9); got != 9911 {
		t.Errorf("SearchEnd %d, want 9911 (FullPatternBound first above RoundRobin %g)", got, RoundRobin(p, 10))
	}
	opt := Options{Solve: popts(newClp(t), false), NMax: 1e9, MaxLPSeconds: DefaultMaxLPSeconds}
	calls := 0
	opt.Progress = func(Point) { calls++ }
	_, err := OverN(p, opt)
	var le *LPSecondsError
	if !errors.As(err, &le) || le.Estimate.NMin != 10 || le.Estimate.End != 9911 || le.Estimate.LPSeconds < 1e6 || calls != 0 {
		t.Fatalf("OverN: %v (%d points solved), want an *LPSecondsError over n = 10..9911 before any point", err, calls)
	}
	if want := "more than MaxLPSeconds 3600: raise it, or lower NMax, or use larger buffers (D)"; !strings.Contains(err.Error(), want) {
		t.Errorf("message %q lacks %q", err, want)
	}
	// Without a limit (the library's zero value) nothing is refused: the
	// guard at n_min + 2 ends the same search after three points.
	opt.MaxLPSeconds, opt.NMax = 0, 12
	if r, err := OverN(p, opt); err != nil || r.Last != 12 {
		t.Errorf("without a limit: %v, last n %v", err, r)
	}
}

// A tree has no such bound before its first LP: the LP of n_min is checked
// alone, then the rest up to where the stopping rule must fire after it
// (checkRest). The tree p = 2, h = 8, D = 100, V = 8e4 (n_min = 50) with
// n_max = 1e5 is refused after exactly one point; its best at n = 50
// puts the rule's end at n = 619.
func TestLPSecondsTreeAfterFirstLP(t *testing.T) {
	p := &problem.Problem{Kind: topology.Tree, P: 2, H: 8, Buffers: 1, S: 1e-3, C: 1e-6, A: 1e-3, D: 100, V: 8e4}
	calls := 0
	opt := Options{Solve: popts(newClp(t), false), NMax: 1e5, MaxLPSeconds: DefaultMaxLPSeconds, Progress: func(Point) { calls++ }}
	_, err := OverN(p, opt)
	var le *LPSecondsError
	if !errors.As(err, &le) || calls != 1 || le.Estimate.NMin != 51 || le.Estimate.End >= 1e5 {
		t.Fatalf("OverN: %v after %d points, want an *LPSecondsError from n = 51 after one point", err, calls)
	}
}

// lpSeconds is the closed form of Σ c·rows(n)² over n plus the final
// search: summed term by term on a random line of rows it agrees to 1e-9.
func TestLPSecondsClosedForm(t *testing.T) {
	p := &problem.Problem{Kind: topology.Tree, P: 2, H: 3, Buffers: 1, S: 1e-3, C: 1e-6, A: 1e-3, D: 100, V: 8e3}
	e, err := EstimateOverN(p, Options{Solve: popts(newClp(t), false), NMax: 40})
	if err != nil {
		t.Fatal(err)
	}
	e1, err := solve.EstimateModel(p, e.NMin+1, solve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	slope := float64(e1.Rows - e.First.Rows)
	sum := 0.0
	for n := e.NMin; n <= e.End; n++ {
		r := float64(e.First.Rows) + slope*float64(n-e.NMin)
		sum += lpSecondsWhole * r * r
	}
	rEnd := float64(e.First.Rows) + slope*float64(e.End-e.NMin)
	sum += finalTree * lpSecondsWhole * rEnd * rEnd
	if math.Abs(sum-e.LPSeconds) > 1e-9*sum {
		t.Errorf("LPSeconds %g, term by term %g", e.LPSeconds, sum)
	}
}
