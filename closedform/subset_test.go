package closedform

import (
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// TestSubsetBound checks i_min·S + AV/P by hand. A binomial tree p = 2
// has p(p+1)^(i−1) = 2, 6, 18 processors in layers 1–3 (Section 3.3); an
// ordinary tree p = 2 has p^i = 2, 4, 8.
func TestSubsetBound(t *testing.T) {
	bin := &problem.Problem{Kind: topology.Binomial, P: 2, H: 3, S: 1e-3, A: 1e-3, V: 48}
	tree := &problem.Problem{Kind: topology.Tree, P: 2, H: 3, S: 1e-3, A: 1e-3, V: 48}
	cases := []struct {
		name string
		p    *problem.Problem
		set  []int
		want float64
	}{
		{"binomial {2,3}", bin, []int{2, 3}, 2e-3 + 1e-3*48/24},
		{"binomial {3,2} unsorted", bin, []int{3, 2}, 2e-3 + 1e-3*48/24},
		{"binomial {1}", bin, []int{1}, 1e-3 + 1e-3*48/2},
		{"tree {1,2,3}", tree, []int{1, 2, 3}, 1e-3 + 1e-3*48/14},
		{"tree {3}", tree, []int{3}, 3e-3 + 1e-3*48/8},
	}
	for _, c := range cases {
		if got := SubsetBound(c.p, c.set); relDiff(got, c.want) > 1e-15 {
			t.Errorf("%s: %.17g, want %.17g", c.name, got, c.want)
		}
	}
}
