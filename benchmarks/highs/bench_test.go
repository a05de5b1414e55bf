//go:build cgo && highs && (linux || darwin) && (amd64 || arm64)

package main

import (
	"testing"

	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/clp"
	"github.com/dlsched/dlsched/solver/gonumlp"
	"github.com/dlsched/dlsched/solver/highs"
)

// BenchmarkSmallLP times one solve of Fig. 10's and Fig. 6's small LPs
// (140 rows, 141 columns) with dlsched's first-attempt settings, by Clp
// and by HiGHS, with presolve as dlsched asks (Clp: on; HiGHS: its
// "choose") and off, and by gonum (the backend "auto" falls back to
// without Clp and HiGHS) — the per-LP cost that a sweep of small LPs
// pays:
//
//	go test -tags highs ./benchmarks/highs -run '^$' -bench SmallLP
func BenchmarkSmallLP(b *testing.B) {
	if !clp.Available() {
		b.Skip("needs Clp")
	}
	c, err := clp.New()
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	h, err := highs.New()
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	for _, mk := range []func() (lpCase, error){fig10LP, fig6LP} {
		lc, err := mk()
		if err != nil {
			b.Fatal(err)
		}
		for _, cfg := range []struct {
			name string
			s    solver.Solver
			pre  solver.Presolve
		}{
			{"clp", c, solver.PresolveAuto}, {"clp-nopresolve", c, solver.PresolveOff},
			{"highs", h, solver.PresolveAuto}, {"highs-nopresolve", h, solver.PresolveOff},
			{"gonum", gonumlp.New(), solver.PresolveAuto},
		} {
			b.Run(lc.name[:5]+"/"+cfg.name, func(b *testing.B) {
				o := dlschedOptions(lc)
				o.Presolve = cfg.pre
				for i := 0; i < b.N; i++ {
					if _, err := cfg.s.Solve(lc.model, o); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
