package dataflow

import (
	"context"
	"testing"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/trace"
)

// Speed of the simulation (docs/dataflow.md, Limits): a random program of
// 100,000 fine nodes on 4 PEs, and two dense levels of 1,000 nodes (a
// million edges).
func BenchmarkRunRandom100k(b *testing.B) {
	g, err := graph.Random(100_000, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, g, &Machine{PEs: 4})
}

func BenchmarkRunLevels1000x1000(b *testing.B) {
	g, err := graph.Levelled([]int{1000, 1000}, 1)
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, g, &Machine{PEs: 4})
}

func benchRun(b *testing.B, g *graph.Graph, m *Machine) {
	b.ReportAllocs()
	for b.Loop() {
		r, err := simulate(context.Background(), &Config{Graph: g, Machine: *m}, platform.RunOptions{})
		if err != nil || !r.Completed {
			b.Fatal(err, r)
		}
		b.ReportMetric(float64(r.Events), "events")
	}
}

func BenchmarkRunRandom100kDelays(b *testing.B) {
	g, err := graph.Random(100_000, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, g, &Machine{PEs: 16, SchedulerDelay: 1, ResultBus: 1, AckBus: 1, IStructureBus: 1})
}

func BenchmarkRunRandom1M(b *testing.B) {
	g, err := graph.Random(1_000_000, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, g, &Machine{PEs: 4})
}

func BenchmarkRunWideLevel(b *testing.B) {
	g, err := graph.Levelled([]int{500_000}, 1)
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, g, &Machine{PEs: 4})
}

// The cost of a trace in memory (trace.Trace) on the run of
// BenchmarkRunRandom100kDelays: 600,000 spans; the untraced run records
// nothing (same allocations as before the trace existed).
func BenchmarkRunRandom100kDelaysTraced(b *testing.B) {
	g, err := graph.Random(100_000, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	m := Machine{PEs: 16, SchedulerDelay: 1, ResultBus: 1, AckBus: 1, IStructureBus: 1}
	b.ReportAllocs()
	for b.Loop() {
		tr := trace.New(TimeUnit)
		r, err := simulate(context.Background(), &Config{Graph: g, Machine: m}, platform.RunOptions{Trace: tr})
		if err != nil || !r.Completed {
			b.Fatal(err, r)
		}
		b.ReportMetric(float64(tr.Len()), "spans")
	}
}
