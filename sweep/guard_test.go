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
