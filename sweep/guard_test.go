package sweep

import (
	"context"
	"strings"
	"testing"
)

// A point whose verification would not fit in memory is a skipped row
// that says so, decided before the solve (issue 16: a p = 2, h = 23 tree
// was solved, its row said "optimal", and verification failed).
func TestRowTooLargeToVerify(t *testing.T) {
	sp, err := Parse("big.toml", "[problem]\ntopology = [\"tree\"]\np = [2]\nh = [23]\nS = [1e-3]\nC = [1e-6]\nA = [1e-3]\nD = [\"inf\"]\nV = [1e6]\n")
	if err != nil {
		t.Fatal(err)
	}
	pts := sp.Points()
	r := SolvePoint(context.Background(), pts[0], nil, sp.Run)
	if r.Status != StatusSkipped || !strings.Contains(r.Error, "run.verify = false") || r.Cmax != nil {
		t.Fatalf("row %+v, want skipped before solving with advice", r)
	}
}

// run.pattern = "search" solves each point with the pattern search:
// issue 19's binomial example gives 0.0015005 instead of the greedy
// 0.0090 (the same as `solve --pattern search`).
func TestRunPatternSearch(t *testing.T) {
	s := newClp(t)
	text := "[problem]\ntopology = [\"binomial\"]\norder = [\"llf\"]\np = [2]\nh = [10]\nS = [1e-3]\nC = [1e-6]\nA = [1e-3]\nD = [\"inf\"]\nV = [1]\n[run]\nverify = false\n"
	for _, tc := range []struct {
		pattern string
		lo, hi  float64
	}{{"greedy", 0.008, 0.01}, {"search", 0.0015004, 0.0015006}} {
		sp, err := Parse("p.toml", text+"pattern = \""+tc.pattern+"\"\n")
		if err != nil {
			t.Fatal(err)
		}
		r := SolvePoint(context.Background(), sp.Points()[0], s, sp.Run)
		if r.Status != StatusOptimal || r.Cmax == nil || float64(*r.Cmax) < tc.lo || float64(*r.Cmax) > tc.hi {
			t.Errorf("pattern %s: row %+v, want Cmax in [%g, %g]", tc.pattern, r, tc.lo, tc.hi)
		}
		// The row says how its pattern was chosen and how far it is from
		// the bound over every pattern (S + VA/P).
		want := map[string]string{"greedy": "greedy", "search": "search 1"}[tc.pattern]
		if r.Pattern != want || r.PatternGap == nil || float64(*r.PatternGap) <= 0 || float64(*r.PatternGap) >= 1 {
			t.Errorf("pattern %s: row pattern %q gap %v, want %q and a gap in (0, 1)", tc.pattern, r.Pattern, r.PatternGap, want)
		}
	}
	if _, err := Parse("p.toml", text+"pattern = \"exact\"\n"); err == nil || !strings.Contains(err.Error(), "run.pattern") {
		t.Errorf("pattern exact in a sweep: %v", err)
	}
}
