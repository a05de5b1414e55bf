package day

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/schema/validate"
)

// checkDoc checks that doc declares format as its first field and
// validates against the format's schema.
func checkDoc(t *testing.T, what string, doc []byte, format string) {
	t.Helper()
	if !bytes.HasPrefix(doc, []byte("{\n  \"format\": \""+format+"\",\n")) {
		t.Errorf("%s: the document does not begin with its format %s:\n%.80s", what, format, doc)
	}
	if err := validate.Document(doc, format); err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

func reportJSON(t *testing.T, c *Config, opt platform.RunOptions) []byte {
	t.Helper()
	r, err := Run(context.Background(), *c, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func studyJSON(t *testing.T, c *Config, s Study) []byte {
	t.Helper()
	r, err := Granularity(context.Background(), *c, s, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The formats are the ones package schema declares, and the documented
// runs validate: docs/day.md's line of 8 at 62.5 ms; Section 4.9.3's
// communication-bound point (fill time null); the model alone of a line of
// 100,000 (no simulated part); a tree in the delay-loop form with costs;
// a granularity study. A document the schema must refuse is refused.
func TestDocumentedJSONValidates(t *testing.T) {
	if Format != schema.Day || StudyFormat != schema.DayStudy {
		t.Fatalf("formats %s, %s; package schema declares %s, %s", Format, StudyFormat, schema.Day, schema.DayStudy)
	}
	tree := &Config{Layout: Tree, Harness: HarnessD, Workers: 12, MessageBytes: 1024, DelayLoop: 500, Bandwidth: 1.51 * MiB,
		SetupTime: 3e-6, FarmerCost: 1e-4, CPUPerMessage: 2e-5, DistantFirst: true}
	runs := []struct {
		what string
		c    *Config
		opt  platform.RunOptions
	}{
		{"line of 8 at 62.5 ms", line(HarnessD, 8, 0.0625), platform.RunOptions{}},
		{"line of 8 at 15.625 ms", line(HarnessD, 8, 0.015625), platform.RunOptions{}},
		{"line of 100,000, model only", line(HarnessD, 100_000, 0.0625), platform.RunOptions{NoSim: true}},
		{"tree of 12, delay loop, costs", tree, platform.RunOptions{}},
	}
	for _, r := range runs {
		checkDoc(t, r.what, reportJSON(t, r.c, r.opt), Format)
	}
	s := Study{TotalWork: 8, BytesPerSecond: 3125, JobTimes: []float64{0.01, 0.1, 0.5}}
	checkDoc(t, "granularity study", studyJSON(t, line(HarnessA, 4, 0), s), StudyFormat)
	doc := reportJSON(t, line(HarnessD, 8, 0.015625), platform.RunOptions{})
	if !bytes.Contains(doc, []byte(`"fill_time": null`)) {
		t.Errorf("a communication-bound farm's fill time is not null")
	}
	for _, bad := range []struct{ from, to string }{{`"layout": "line"`, `"layout": "ring"`}, {`"workers": 8`, `"workers": 0`},
		{`"format": "dlsched.day/1"`, `"format": "dlsched.day/2"`}, {`"compute_bound": false`, `"compute_bound": "no"`}} {
		if err := validate.Document([]byte(strings.Replace(string(doc), bad.from, bad.to, 1)), ""); err == nil {
			t.Errorf("%s validated", bad.to)
		}
	}
}

// A seeded sample of random valid farms (lines and trees, harnesses,
// sizes, costs, priorities, the delay-loop form, the model alone) and of
// random granularity studies: every document validates.
func TestRandomJSONValidates(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 10))
	for i := 0; i < 30; i++ {
		c := randomConfig(rng)
		checkDoc(t, "random farm", reportJSON(t, c, platform.RunOptions{NoSim: i%6 == 5}), Format)
	}
	for i := 0; i < 5; i++ {
		c := randomConfig(rng)
		w := float64(c.Workers)
		s := Study{TotalWork: w * (0.1 + rng.Float64()), BytesPerSecond: 100 + 1e4*rng.Float64(),
			JobTimes: []float64{0.01 + 0.02*rng.Float64(), 0.05 + 0.05*rng.Float64()}}
		checkDoc(t, "random study", studyJSON(t, c, s), StudyFormat)
	}
}

// randomConfig draws a small valid farm from rng.
func randomConfig(rng *rand.Rand) *Config {
	c := &Config{Harness: []Harness{HarnessA, HarnessB, HarnessD}[rng.IntN(3)],
		MessageBytes: math.Floor(math.Exp2(13 * rng.Float64())), Bandwidth: 1e5 + 1e7*rng.Float64(),
		BidirectionalFactor: 0.3 + 0.7*rng.Float64(), DistantFirst: rng.IntN(2) == 0, JobsPerWorker: 1 + rng.IntN(20)}
	if rng.IntN(2) == 0 {
		c.SetupBytes = 50 * rng.Float64()
	} else {
		c.SetupTime = 1e-5 * rng.Float64()
	}
	if rng.IntN(3) == 0 {
		c.ResultBytes, c.ExplicitResult = []float64{0, 64, 4096}[rng.IntN(3)], true
	}
	if rng.IntN(2) == 0 {
		c.Layout, c.Workers = Tree, []int{3, 12}[rng.IntN(2)]
	} else {
		c.Layout, c.Workers = Line, 1+rng.IntN(8)
	}
	cj := (c.MessageBytes + c.setupBytes()) / c.Bandwidth
	if rng.IntN(4) == 0 {
		c.DelayLoop = 1 + rng.IntN(2000)
	} else {
		c.JobTime = float64(c.Workers) * cj * (0.25 + 4*rng.Float64())
	}
	if rng.IntN(2) == 0 {
		c.FarmerCost, c.CPUPerMessage = cj*rng.Float64(), cj*rng.Float64()/2
	}
	return c
}
