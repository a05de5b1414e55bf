package pfarm

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
	"github.com/dlsched/dlsched/topology"
)

// The report declares the format schema/format.go lists for farm pfarm.
func TestFormat(t *testing.T) {
	if Format != schema.Pfarm {
		t.Fatalf("pfarm.Format %q, schema.Pfarm %q", Format, schema.Pfarm)
	}
}

// randomConfig draws a small valid farm: any topology, task distribution,
// overheads and links, with or without FindOptTree, the model alone, a
// root without a worker, a free host link and slowdowns.
func randomConfig(r *rand.Rand) (Config, platform.RunOptions) {
	var cfg Config
	switch r.IntN(3) {
	case 0:
		cfg.Topology = topology.FarmSpec{Kind: "chain", N: 1 + r.IntN(12)}
	case 1:
		cfg.Topology = topology.FarmSpec{Kind: "kary", K: 1 + r.IntN(3), Depth: 1 + r.IntN(3)}
	default:
		rows, cols := 1+r.IntN(4), 1+r.IntN(4)
		cfg.Topology = topology.FarmSpec{Kind: "mesh", Rows: rows, Cols: cols, Row: r.IntN(rows), Col: r.IntN(cols),
			BFS: []string{"first", "last", "random"}[r.IntN(3)], Seed: r.Uint64()}
	}
	n, _ := checkSpec(cfg.Topology)
	m := 1 + r.IntN(400)
	cfg.Params = Params{M: m, Te: math.Pow(10, -4+2*r.Float64()), BetaE: 1e-3 * r.Float64(), BetaF: 1e-3 * r.Float64(),
		Tau: 1e-6 * r.Float64(), Startup: []float64{0, 1e-5}[r.IntN(2)], Dt: 2000 * r.Float64(), Dr: 2000 * r.Float64(), Seed: r.Uint64()}
	switch r.IntN(4) {
	case 1:
		cfg.Params.Tasks = Uniform{1e-3, 1e-3 + 1e-2*r.Float64()}
	case 2:
		n1 := r.IntN(m + 1)
		cfg.Params.Tasks = Bimodal{T1: 1e-3, N1: n1, T2: 2e-2, N2: m - n1, Arrive: 1 + r.IntN(4)}
	}
	cfg.FindOpt = cfg.Params.Alpha() >= cfg.Params.BetaF && r.IntN(2) == 0
	cfg.NoRootWorker = n.n > 1 && r.IntN(4) == 0
	cfg.FreeHostLink = r.IntN(4) == 0
	for i := r.IntN(3); i > 0; i-- {
		cfg.Slowdowns = append(cfg.Slowdowns, Slowdown{Node: 1 + r.IntN(n.n), At: r.Float64(), Factor: 0.2 + 2*r.Float64()})
	}
	return cfg, platform.RunOptions{NoSim: r.IntN(5) == 0}
}

// Every report is a dlsched.pfarm/1 document, its format first, that
// validates against schema/pfarm.schema.json: 40 random small farms drawn
// with a fixed seed (randomConfig), and Table 3's binary tree of 7.
func TestReportValidates(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	cfgs := []Config{{Topology: topology.FarmSpec{Kind: "kary", K: 2, Depth: 3}, Params: *paper(1000, 0.01), FindOpt: true}}
	opts := []platform.RunOptions{{}}
	for range 40 {
		cfg, opt := randomConfig(r)
		cfgs, opts = append(cfgs, cfg), append(opts, opt)
	}
	var docs [][]byte
	for i, cfg := range cfgs {
		rep, err := Run(context.Background(), cfg, opts[i])
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		var b bytes.Buffer
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b.Bytes(), []byte("{\n  \"format\": \"dlsched.pfarm/1\",")) {
			t.Fatalf("%s: the report does not start with its format: %.60s", rep.Tree, b.String())
		}
		if err := validate.Document(b.Bytes(), schema.Pfarm); err != nil {
			t.Errorf("%s (%+v): %v", rep.Tree, cfg, err)
		}
		docs = append(docs, b.Bytes())
	}
	// The schema has teeth: a simulation without its makespan, a negative
	// steady state or a processor 0 do not validate.
	for _, edit := range [][2]string{{`"makespan": `, `"end": `}, {`"steady_state": 1`, `"steady_state": -1`}, {`"kept": [`, `"kept": [0, `}} {
		if bad := bytes.Replace(docs[0], []byte(edit[0]), []byte(edit[1]), 1); bytes.Equal(bad, docs[0]) || validate.Document(bad, schema.Pfarm) == nil {
			t.Errorf("%s -> %s: validates", edit[0], edit[1])
		}
	}
}
