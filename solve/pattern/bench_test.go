package pattern

import (
	"fmt"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// BenchmarkSearch times the default pattern search (MethodSearch) beside
// the paper's greedy prune (MethodGreedy) in one process, on the
// instances of issue 32's acceptance: the star of the paper's Section 4.1
// (m = 10, S = 1e-3, C = 1e-6, A = 1e-3, V = 5e6, D = V/n) at n = 1,000,
// 3,000 and 10,000, and the ordinary tree TreeNLF-1 p = 2, h = 8, n = 100
// (D = 1e2, V = p·h·D·n/2) that benchmarks/lp-speed.sh times. The goal is
// the search within 1.5x of the greedy prune for n >= 1,000 (README,
// Performance). Each reports Cmax:
//
//	go test ./solve/pattern -run '^$' -bench Search -benchtime 1x
//
// -short leaves out n = 10,000.
func BenchmarkSearch(b *testing.B) {
	s := newClp(b)
	type inst struct {
		name string
		p    *problem.Problem
		n    int
	}
	var cases []inst
	for _, n := range []int{1000, 3000, 10000} {
		if n > 3000 && testing.Short() {
			continue
		}
		p := &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 5e6, D: 5e6 / float64(n)}
		cases = append(cases, inst{fmt.Sprintf("star-n=%d", n), p, n})
	}
	tree := &problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 8,
		S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 2 * 8 * 1e2 * 100 / 2}
	cases = append(cases, inst{"tree-h=8-n=100", tree, 100})
	for _, c := range cases {
		for _, method := range []string{MethodGreedy, MethodSearch} {
			b.Run(c.name+"/"+method, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					sc, _, err := Solve(c.p, c.n, Options{Engine: popts(s, true), Method: method})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(sc.Cmax, "cmax")
				}
			})
		}
	}
}
