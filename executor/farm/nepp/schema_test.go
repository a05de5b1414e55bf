package nepp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
)

// The package's formats are the ones schema declares.
func TestFormats(t *testing.T) {
	if FormatRun != schema.Nepp || FormatScan != schema.NeppScan {
		t.Errorf("formats %q, %q; schema declares %q, %q", FormatRun, FormatScan, schema.Nepp, schema.NeppScan)
	}
}

// sampleConfig draws a small valid run from rng: every algorithm, speeds
// and shares, queue and threshold, every work distribution, host overhead,
// message costs, crashes and speed changes.
func sampleConfig(rng *rand.Rand) Config {
	p := 1 + rng.IntN(5)
	cfg := Config{Algorithm: Algorithm(rng.IntN(3)), Queue: 1 + rng.IntN(4), Jobs: 1 + rng.IntN(30),
		Work: 0.1 + 3*rng.Float64(), WorkDist: []string{"", "const", "exp", "uniform"}[rng.IntN(4)],
		HostOverhead: []float64{0, 0.01, 0.3}[rng.IntN(3)], Setup: []float64{0, DefaultSetup, 0.2}[rng.IntN(3)],
		PerByte: []float64{0, DefaultPerByte, 1e-3}[rng.IntN(3)], JobBytes: 100 * rng.Float64(), ResultBytes: 100 * rng.Float64(),
		Seed: rng.Uint64()}
	cfg.QMin = rng.IntN(cfg.Queue + 1)
	if rng.IntN(2) == 0 {
		cfg.Useful = cfg.Work * rng.Float64()
	}
	for range p {
		cfg.Speeds = append(cfg.Speeds, 0.05+3*rng.Float64())
	}
	if rng.IntN(2) == 0 {
		for range p {
			cfg.Shares = append(cfg.Shares, 0.1+0.9*rng.Float64())
		}
	}
	for range rng.IntN(3) {
		cfg.Crashes = append(cfg.Crashes, Crash{Node: 1 + rng.IntN(p), At: 20 * rng.Float64()})
	}
	for range rng.IntN(3) {
		cfg.Slows = append(cfg.Slows, Slow{Node: 1 + rng.IntN(p), At: 20 * rng.Float64(), Factor: 0.1 + 3*rng.Float64()})
	}
	return cfg
}

// jsonOf returns what write writes (a report's WriteJSON).
func jsonOf(t *testing.T, write func(io.Writer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A seeded sample of 40 random runs (a quarter of them the model alone)
// and 12 random scans write documents that start with their format and
// validate against schema/nepp.schema.json and nepp-scan.schema.json.
func TestDocumentsValidate(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 1))
	for k := range 40 {
		cfg := sampleConfig(rng)
		r, err := Run(context.Background(), cfg, platform.RunOptions{NoSim: k%4 == 3})
		if err != nil {
			t.Fatalf("run %d %+v: %v", k, cfg, err)
		}
		doc := jsonOf(t, r.WriteJSON)
		if !bytes.HasPrefix(doc, []byte("{\n  \"format\": \"dlsched.nepp/1\",\n")) {
			t.Fatalf("run %d: the document does not start with its format: %.80s", k, doc)
		}
		if err := validate.Document(doc, schema.Nepp); err != nil {
			t.Fatalf("run %d %+v: %v", k, cfg, err)
		}
	}
	for k := range 12 {
		base := sampleConfig(rng)
		from := 1 + rng.IntN(4)
		sp := ScanSpec{From: from, To: from + rng.IntN(4), Slow: 0.03 + rng.Float64()}
		r, err := Scan(context.Background(), base, sp, platform.RunOptions{NoSim: k%3 == 2})
		if err != nil {
			t.Fatalf("scan %d: %v", k, err)
		}
		doc := jsonOf(t, r.WriteJSON)
		if !bytes.HasPrefix(doc, []byte("{\n  \"format\": \"dlsched.nepp-scan/1\",\n")) {
			t.Fatalf("scan %d: the document does not start with its format: %.80s", k, doc)
		}
		if err := validate.Document(doc, schema.NeppScan); err != nil {
			t.Fatalf("scan %d: %v", k, err)
		}
	}
}

// The schema is not vacuous: a document without its predicted part, with
// an unknown algorithm, a node counted from 0 or a negative busy time is
// refused.
func TestSchemaRefuses(t *testing.T) {
	cfg := Config{Algorithm: FaultTolerant, Speeds: []float64{1, 0.5}, Queue: 2, Jobs: 5, Work: 1, Crashes: []Crash{{2, 1}}}
	r, err := Run(context.Background(), cfg, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	good := jsonOf(t, r.WriteJSON)
	if err := validate.Document(good, schema.Nepp); err != nil {
		t.Fatal(err)
	}
	for _, edit := range []func(m map[string]any){
		func(m map[string]any) { delete(m, "predicted") },
		func(m map[string]any) { m["algorithm"] = "xx" },
		func(m map[string]any) {
			m["parameters"].(map[string]any)["crashes"].([]any)[0].(map[string]any)["Node"] = 0
		},
		func(m map[string]any) { m["simulated"].(map[string]any)["busy"].([]any)[0] = -1 },
	} {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		bad, _ := json.Marshal(m)
		if err := validate.Document(bad, schema.Nepp); err == nil || !strings.Contains(err.Error(), "dlsched.nepp/1") {
			t.Errorf("accepted %s (%v)", bad, err)
		}
	}
}
