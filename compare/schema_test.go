package compare

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/trace"
)

// randomPlatform draws a small platform of every shape, with per-worker A,
// results, slowdowns and crashes, from the seeded generator.
func randomPlatform(rng *rand.Rand) platform.Platform {
	kinds := []platform.Kind{platform.Star, platform.Star, platform.Chain, platform.KAry}
	p := platform.Platform{Topology: platform.Topology{Kind: kinds[rng.IntN(len(kinds))]},
		S: []float64{0, 1e-3, 0.01}[rng.IntN(3)], C: []float64{1e-6, 1e-4, 0.01}[rng.IntN(3)], A: []float64{1e-3, 0.01}[rng.IntN(2)],
		D: schedule.Float([]float64{math.Inf(1), 1e4, 1000}[rng.IntN(3)]), V: []float64{100, 500, 5e3}[rng.IntN(3)]}
	if p.Kind == platform.KAry {
		p.K, p.Depth = 2+rng.IntN(2), 1+rng.IntN(2)
	} else {
		p.M = 2 + rng.IntN(4)
	}
	if p.Kind == platform.Star && rng.IntN(3) == 0 {
		for i := 0; i < p.M; i++ {
			p.PerWorkerA = append(p.PerWorkerA, []float64{0.01, 0.02, 0.05}[rng.IntN(3)])
		}
	}
	if rng.IntN(3) == 0 {
		p.ResultPerUnit = []float64{0.1, 1}[rng.IntN(2)]
	}
	w := p.Workers()
	if rng.IntN(5) < 2 {
		p.Slows = []platform.Slow{{Worker: 1 + rng.IntN(w), At: []float64{0, 0.1}[rng.IntN(2)], Factor: []float64{0.2, 0.5, 2}[rng.IntN(3)]}}
	}
	if rng.IntN(10) < 3 {
		p.Crashes = []platform.Crash{{Worker: 1 + rng.IntN(w), At: []float64{0, 0.05}[rng.IntN(2)]}}
	}
	return p
}

// The report declares its format, and its JSON and its trace validate
// against schema/compare.schema.json and schema/trace.schema.json on 20
// seeded random platforms (stars, heterogeneous stars, chains, k-ary
// trees; results, slowdowns, crashes). The trace has one process per row
// of the report, named after the row (RowName), in the report's order, and
// the last end of a completed row's process is its makespan: the trace
// shows the run the row reports.
func TestSchemaAndTrace(t *testing.T) {
	if Format != schema.Compare {
		t.Fatalf("Format %q, schema's %q", Format, schema.Compare)
	}
	s := newClp(t)
	rng := rand.New(rand.NewPCG(29, 3))
	for i := 0; i < 20; i++ {
		p := randomPlatform(rng)
		tr := trace.New("s")
		r, err := Run(context.Background(), p, Options{Solver: s, NMax: 8, Tasks: []int{10, 40}, Trace: tr})
		if err != nil {
			t.Fatalf("%s: %v", Describe(&p), err)
		}
		var doc, td bytes.Buffer
		if err := r.WriteJSON(&doc); err != nil {
			t.Fatal(err)
		}
		if err := validate.Document(doc.Bytes(), schema.Compare); err != nil {
			t.Errorf("%s: %v\n%s", Describe(&p), err, doc.Bytes())
		}
		if err := tr.WriteJSON(&td); err != nil {
			t.Fatal(err)
		}
		if err := validate.Document(td.Bytes(), schema.Trace); err != nil {
			t.Errorf("%s: trace: %v", Describe(&p), err)
		}
		checkTrace(t, r, td.Bytes())
	}
}

// checkTrace checks the processes of a comparison's trace against its
// rows: one per row in order, named after it, a completed row's last end
// at its makespan.
func checkTrace(t *testing.T, r *Report, doc []byte) {
	t.Helper()
	d, err := trace.Read(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	names, ends := map[int]string{}, map[int]float64{}
	for i, pid := range d.PIDs {
		names[pid], ends[pid] = d.Processes[i], d.EndOf(pid)
	}
	if len(names) != len(r.Rows) {
		t.Errorf("%s: %d processes for %d rows", Describe(&r.Platform), len(names), len(r.Rows))
	}
	for i := range r.Rows {
		x := &r.Rows[i]
		if names[i+1] != RowName(x) {
			t.Errorf("%s: process %d is %q, row %q", Describe(&r.Platform), i+1, names[i+1], RowName(x))
		}
		if x.Completed && math.Abs(ends[i+1]-*x.Makespan) > 1e-12*(*x.Makespan) {
			t.Errorf("%s: %s ends at %.17g in the trace, makespan %.17g", Describe(&r.Platform), RowName(x), ends[i+1], *x.Makespan)
		}
	}
}

// A trace keeps every span of every run: Check counts about 1 KB per
// kernel event of the runs so far against MaxBytes. NEPP with 100,000
// tasks on four workers (q = 4) is estimated at 8·100,000 + 16·4·4 =
// 800,256 events: 781.5 MB of trace beside the run's 6.1 MB (64 bytes a
// task, 8 KB a node), 788 MB, refused under a limit of 256 MB, and
// accepted without the trace.
func TestTraceMemory(t *testing.T) {
	p := fig6(4)
	o := Options{Tasks: []int{100_000}, Strategies: []string{"demand"}, MaxBytes: 256 << 20}
	if err := Check(&p, o); err != nil {
		t.Fatalf("without a trace: %v", err)
	}
	o.Trace = trace.New("s")
	var se *SizeError
	if err := Check(&p, o); !errors.As(err, &se) || se.Field != FieldMaxBytes || se.Estimate != "788 MB with the trace" ||
		!strings.Contains(se.Error(), "or record no trace (Trace)") {
		t.Fatalf("with a trace: %v", err)
	}
}
