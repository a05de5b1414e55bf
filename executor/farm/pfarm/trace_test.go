package pfarm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/topology"
	"github.com/dlsched/dlsched/trace"
)

// tb is what the checks need of a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

// traced runs cfg with a trace and without one, and returns the report of
// the traced run and its trace as written (JSON) and read back. The two
// runs must agree in every number, kernel events included: recording
// schedules nothing.
func traced(t tb, cfg Config) (*Report, []byte, *trace.Document) {
	t.Helper()
	plain, err := Run(context.Background(), cfg, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tr := trace.New("s")
	r, err := Run(context.Background(), cfg, platform.RunOptions{Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plain, r) {
		t.Fatalf("%s: the traced run differs from the plain one:\n%+v\n%+v", r.Tree, plain.Simulated, r.Simulated)
	}
	tr.Makespan = r.Simulated.Makespan
	var b bytes.Buffer
	if err := tr.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	doc, err := trace.Read(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return r, b.Bytes(), doc
}

// checkTrace checks a trace against its run: no two spans of a track
// overlap (a CPU, a link direction: one thing at a time), the last span
// ends at the makespan, the spans of each processor's CPU add up to its
// busy time (the kernel's count: the worker's slices and the High
// computations cover every moment the CPU held a computation, once), each
// processor's "execute" spans name as many tasks as it executed, and
// every transfer that costs time is a span.
func checkTrace(t tb, r *Report, doc *trace.Document, costly bool) {
	t.Helper()
	s := r.Simulated
	if o := doc.Overlap(1e-9 * s.Makespan); o != "" {
		t.Fatalf("%s: %s", r.Tree, o)
	}
	if end := doc.End(); math.Abs(end-s.Makespan) > 1e-9*s.Makespan {
		t.Fatalf("%s: the trace ends at %.12g, the makespan is %.12g", r.Tree, end, s.Makespan)
	}
	busy, tasks, transfers := map[string]float64{}, map[string]map[any]bool{}, int64(0)
	for _, e := range doc.Spans {
		switch {
		case e.Track == "cpu":
			busy[e.Process] += e.End - e.Start
			if e.Name == "execute" {
				if tasks[e.Process] == nil {
					tasks[e.Process] = map[any]bool{}
				}
				tasks[e.Process][e.Args["task"]] = true
			}
		case e.Name == "task" || e.Name == "result":
			transfers++
		}
	}
	for v := range s.Busy {
		name := fmt.Sprintf("processor %d", v+1)
		if math.Abs(busy[name]-s.Busy[v]) > 1e-9*s.Makespan {
			t.Errorf("%s: %s's CPU spans add up to %.12g s, its busy time is %.12g s", r.Tree, name, busy[name], s.Busy[v])
		}
		if int64(len(tasks[name])) != s.TasksPerWorker[v] {
			t.Errorf("%s: %s executes %d tasks in the trace, %d in the run", r.Tree, name, len(tasks[name]), s.TasksPerWorker[v])
		}
	}
	if costly && transfers != s.Messages {
		t.Errorf("%s: %d transfers in the trace, %d messages in the run", r.Tree, transfers, s.Messages)
	}
}

// Table 3's binary tree of 7 at 10 ms (M = 200): the trace has a process
// per processor and the host, a CPU track on each processor and a track
// per link direction; it validates against schema/trace.schema.json and
// agrees with the run (checkTrace).
func TestTraceBinaryTree(t *testing.T) {
	cfg := Config{Topology: topology.FarmSpec{Kind: "kary", K: 2, Depth: 3}, Params: *paper(200, 0.010)}
	r, raw, doc := traced(t, cfg)
	checkTrace(t, r, doc, true)
	if err := validate.Document(raw, schema.Trace); err != nil {
		t.Fatal(err)
	}
	tracks := map[string]bool{}
	for _, e := range doc.Spans {
		tracks[e.Process+"/"+e.Track] = true
	}
	for _, want := range []string{"host/link to 1", "processor 1/cpu", "processor 1/link to 2", "processor 1/link to 3",
		"processor 1/link to host", "processor 2/link to 1", "processor 2/link to 4", "processor 7/cpu", "processor 7/link to 3"} {
		if !tracks[want] {
			t.Errorf("no track %s", want)
		}
	}
	if len(tracks) != 1+7+6+6+1 { // the host's link, 7 CPUs, 6 links down, 6 up, the root's to the host
		t.Errorf("%d tracks, want 21", len(tracks))
	}
	if doc.Unit != "s" || doc.Makespan != r.Simulated.Makespan {
		t.Errorf("unit %q, makespan %g", doc.Unit, doc.Makespan)
	}
}

// A slowdown is an instant on the slowed processor's CPU at its time; one
// after the makespan never happens and is not recorded.
func TestTraceSlowdown(t *testing.T) {
	cfg := Config{Topology: topology.FarmSpec{Kind: "chain", N: 2}, Params: *paper(100, 0.010),
		Slowdowns: []Slowdown{{Node: 2, At: 0.2, Factor: 0.5}, {Node: 1, At: 100, Factor: 2}}}
	r, _, doc := traced(t, cfg)
	checkTrace(t, r, doc, true)
	if len(doc.Instants) != 1 {
		t.Fatalf("%d instants, want 1: %+v", len(doc.Instants), doc.Instants)
	}
	if e := doc.Instants[0]; e.Process != "processor 2" || e.Track != "cpu" || e.Name != "slowdown" || e.Start != 0.2 || e.Args["factor"] != 0.5 {
		t.Errorf("instant %+v", e)
	}
}

// On random farms, with or without overheads, link costs, slowdowns, a
// root worker and a host link, the trace agrees with its run
// (checkTrace) and the traced run is the plain one (traced).
func TestTraceProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg := Config{Topology: randomSpec(rt)}
		n := nodes(rt, cfg.Topology)
		cfg.Params = Params{M: rapid.IntRange(1, 300).Draw(rt, "M"), Te: math.Pow(10, rapid.Float64Range(-4, -2).Draw(rt, "log10 Te")),
			BetaE: rapid.SampledFrom([]float64{0, DefaultBetaE}).Draw(rt, "betaE"), BetaF: rapid.SampledFrom([]float64{0, 1e-4, DefaultBetaF}).Draw(rt, "betaF"),
			Tau: rapid.SampledFrom([]float64{0, DefaultTau}).Draw(rt, "tau"), Startup: rapid.SampledFrom([]float64{0, 1e-5}).Draw(rt, "startup"),
			Dt: rapid.Float64Range(0, 2000).Draw(rt, "Dt"), Dr: rapid.Float64Range(0, 2000).Draw(rt, "Dr"), Seed: rapid.Uint64().Draw(rt, "seed")}
		if rapid.Bool().Draw(rt, "uniform") {
			cfg.Params.Tasks = Uniform{cfg.Params.Te / 2, cfg.Params.Te * 3 / 2}
		}
		cfg.NoRootWorker = n > 1 && rapid.Bool().Draw(rt, "no root worker")
		cfg.FreeHostLink = rapid.Bool().Draw(rt, "free host link")
		for i := rapid.IntRange(0, 2).Draw(rt, "slowdowns"); i > 0; i-- {
			cfg.Slowdowns = append(cfg.Slowdowns, Slowdown{Node: rapid.IntRange(1, n).Draw(rt, "node"),
				At: rapid.Float64Range(0, 0.5).Draw(rt, "at"), Factor: rapid.Float64Range(0.2, 3).Draw(rt, "factor")})
		}
		r, _, doc := traced(rt, cfg)
		p := cfg.Params
		checkTrace(rt, r, doc, p.Startup+p.Tau*math.Min(p.Dt, p.Dr) > 1e-9 && !cfg.FreeHostLink)
	})
}

// nodes returns the number of processors of a spec.
func nodes(rt *rapid.T, spec topology.FarmSpec) int {
	sh, err := checkSpec(spec)
	if err != nil {
		rt.Fatal(err)
	}
	return sh.n
}

// A trace needs a simulation: with NoSim the recorder is refused, naming
// RunOptions.Trace, before anything is built.
func TestTraceNeedsSimulation(t *testing.T) {
	cfg := Config{Topology: topology.FarmSpec{Kind: "chain", N: 2}, Params: *paper(10, 0.01)}
	var fe *platform.FieldError
	if _, err := Run(context.Background(), cfg, platform.RunOptions{NoSim: true, Trace: trace.New("s")}); !errors.As(err, &fe) || fe.Field != "RunOptions.Trace" {
		t.Fatalf("NoSim with a trace: %v", err)
	}
}

// With a trace the estimate adds its spans and their memory: about 7.2
// spans a visit of a task to a processor (measured 6.4 to 7.4 on the
// paper's farms; here Table 3's binary tree of 7 at 10 ms, M = 2,000,
// within 15% of the spans recorded).
func TestEstimateTrace(t *testing.T) {
	cfg := Config{Topology: topology.FarmSpec{Kind: "kary", K: 2, Depth: 3}, Params: *paper(2000, 0.010)}
	plain, _ := Estimate(cfg, platform.RunOptions{})
	tr := trace.New("s")
	est, err := Estimate(cfg, platform.RunOptions{Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	if est.Events != plain.Events || est.Bytes-plain.Bytes != int64(math.Ceil(traceBytesPerVisit*est.Visits)) {
		t.Fatalf("estimate with a trace %+v, without %+v", est, plain)
	}
	if _, err := Run(context.Background(), cfg, platform.RunOptions{Trace: tr}); err != nil {
		t.Fatal(err)
	}
	if ratio := float64(est.Spans) / float64(tr.Len()); ratio < 0.85 || ratio > 1.15 {
		t.Errorf("estimated %d spans, recorded %d (ratio %.3f)", est.Spans, tr.Len(), ratio)
	}
}
