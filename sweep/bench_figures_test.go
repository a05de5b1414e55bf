package sweep

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkFigureSet runs issue 17's figure set in one process: the eight
// specs of benchmarks/paper with the paper's greedy prune, Figs. 12–13
// capped at 15 stages, no verification, 2 workers — the 3,255 LPs that
// benchmarks/paper/greedy-set.sh times through the CLI. Each figure is a
// sub-benchmark, so one of them can be profiled alone:
//
//	go test ./sweep -run '^$' -bench FigureSet/fig10 -benchtime 1x -cpuprofile /tmp/cpu.out
func BenchmarkFigureSet(b *testing.B) {
	newClp(b) // skips without Clp
	for _, fig := range []string{"6", "7", "8", "9", "10", "11", "12", "13"} {
		b.Run("fig"+fig, func(b *testing.B) { benchFigure(b, fig, "greedy") })
	}
}

// BenchmarkFigureSetSearch runs the figures where the default pattern
// search runs (Figs. 10 and 11, the pruned ones) with it, as
// benchmarks/paper/greedy-set.sh does with PATTERN=search:
//
//	go test ./sweep -run '^$' -bench FigureSetSearch -benchtime 1x -cpuprofile /tmp/cpu.out
func BenchmarkFigureSetSearch(b *testing.B) {
	newClp(b) // skips without Clp
	for _, fig := range []string{"10", "11"} {
		b.Run("fig"+fig, func(b *testing.B) { benchFigure(b, fig, "search") })
	}
}

// benchFigure runs figure fig's spec with the pattern method given, no
// verification, Figs. 12–13 capped at 15 stages, b.N times.
func benchFigure(b *testing.B, fig, pattern string) {
	sp := figureSpec(b, fig, "")
	sp.Run.Pattern = pattern
	sp.Run.Verify = false
	if fig == "12" || fig == "13" {
		sp.Run.MaxStages = 15
	}
	dir := b.TempDir()
	for i := 0; i < b.N; i++ {
		path := filepath.Join(dir, fmt.Sprintf("rows%d.jsonl", i))
		sum, err := Run(context.Background(), sp, path, Options{Workers: benchWorkers, Run: sp.Run})
		if err != nil {
			b.Fatal(err)
		}
		// Points below n_min are invalid and those over the stage
		// cap skipped, as in the CLI run; nothing may fail.
		if k := sum.Status[StatusOptimal] + sum.Status[StatusInvalid] + sum.Status[StatusSkipped]; k != sum.Total {
			b.Fatalf("%d of %d points optimal, invalid or skipped: %v", k, sum.Total, sum.Status)
		}
		b.ReportMetric(float64(sum.Status[StatusOptimal]), "LPs/op")
	}
}

// benchWorkers is the sweep's worker count in BenchmarkFigureSet.
var benchWorkers = 2
