package nepp

import (
	"context"
	"github.com/dlsched/dlsched/platform"
	"testing"
)

// benchRun simulates cfg b.N times and reports kernel events and replica
// search steps per run.
func benchRun(b *testing.B, cfg *Config) {
	var r *Result
	for b.Loop() {
		var err error
		if r, err = simulate(context.Background(), cfg, platform.RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.Events), "events/run")
	b.ReportMetric(float64(r.steps), "steps/run")
	b.ReportMetric(float64(r.Events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

func ones(p int) []float64 {
	s := make([]float64, p)
	for i := range s {
		s[i] = 1
	}
	return s
}

// FT on 10,000 nodes with 100 jobs: nearly every node asks for replicas
// (docs/nepp.md: 15.4 s of CPU before MinReplicas was counted instead of
// walked, 0.3 s after).
func BenchmarkFTManyNodes(b *testing.B) {
	benchRun(b, &Config{Algorithm: FaultTolerant, Speeds: ones(10_000), Queue: 6, Jobs: 100, Work: 1,
		Setup: DefaultSetup, PerByte: DefaultPerByte, JobBytes: DefaultJobBytes, ResultBytes: DefaultResultBytes})
}

// FT in the report's setting: 32 nodes, one slow, exponential work.
func BenchmarkFTReport(b *testing.B) {
	s := ones(32)
	s[0] = 0.2
	benchRun(b, &Config{Algorithm: FaultTolerant, Speeds: s, Queue: 6, Jobs: 10_000, Work: 1, WorkDist: "exp",
		Setup: DefaultSetup, PerByte: DefaultPerByte, JobBytes: DefaultJobBytes, ResultBytes: DefaultResultBytes})
}

// MD with 100,000 jobs on 10 nodes: the kernel's events per second.
func BenchmarkMD(b *testing.B) {
	benchRun(b, &Config{Algorithm: Multiple, Speeds: ones(10), Queue: 6, Jobs: 100_000, Work: 1,
		Setup: DefaultSetup, PerByte: DefaultPerByte, JobBytes: DefaultJobBytes, ResultBytes: DefaultResultBytes})
}
