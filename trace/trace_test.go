package trace

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// A trace written and read back keeps its processes, tracks, times (in
// model units: µs divided by 1e6) and args; metadata names every track.
func TestRoundTrip(t *testing.T) {
	tr := New("s")
	tr.Span("node 1", "cpu", "compute", 0.5, 1.5, map[string]any{"load": 2.0, "stage": 1})
	tr.Span("node 1", "link in", "receive", 0, 0.5, map[string]any{"load": 2.0})
	tr.Instant("node 2", "cpu", "crash", 1.25, nil)
	tr.Makespan = 1.5
	var b bytes.Buffer
	if err := tr.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{`"ph":"X"`, `"ts":500000`, `"dur":1000000`, `"name":"thread_name"`, `"time_unit":"s"`, `"ph":"i"`, `"s":"t"`} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %s:\n%s", want, s)
		}
	}
	d, err := Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Spans) != 2 || len(d.Instants) != 1 || d.Unit != "s" || d.Makespan != 1.5 {
		t.Fatalf("read %+v", d)
	}
	if e := d.Spans[0]; e.Process != "node 1" || e.Track != "cpu" || e.Start != 0.5 || e.End != 1.5 || e.Args["stage"] != 1.0 {
		t.Errorf("first span %+v", e)
	}
	if d.End() != 1.5 || tr.End() != 1.5 {
		t.Errorf("end %g / %g, want 1.5", d.End(), tr.End())
	}
	if got := tr.Tracks("node 1"); strings.Join(got, ",") != "cpu,link in" {
		t.Errorf("tracks %v", got)
	}
	if got := tr.Processes(); strings.Join(got, ",") != "node 1,node 2" {
		t.Errorf("processes %v", got)
	}
	// Read back: the processes in id order, node 1's last end that of its
	// compute span (1.5), node 2's its crash instant (1.25).
	if strings.Join(d.Processes, ",") != "node 1,node 2" || len(d.PIDs) != 2 {
		t.Fatalf("read processes %v, ids %v", d.Processes, d.PIDs)
	}
	if a, b := d.EndOf(d.PIDs[0]), d.EndOf(d.PIDs[1]); a != 1.5 || b != 1.25 {
		t.Errorf("ends by process %g, %g, want 1.5, 1.25", a, b)
	}
}

// Overlap finds two spans of one track that overlap, and ignores spans
// of different tracks and spans that only touch.
func TestOverlap(t *testing.T) {
	tr := New("s")
	tr.Span("n", "cpu", "a", 0, 1, nil)
	tr.Span("n", "cpu", "b", 1, 2, nil)  // touches a
	tr.Span("n", "link", "c", 0, 2, nil) // another track
	var b bytes.Buffer
	tr.WriteJSON(&b)
	d, _ := Read(&b)
	if o := d.Overlap(1e-12); o != "" {
		t.Errorf("overlap reported: %s", o)
	}
	tr.Span("n", "cpu", "d", 1.5, 3, nil)
	b.Reset()
	tr.WriteJSON(&b)
	d, _ = Read(&b)
	if o := d.Overlap(1e-12); !strings.Contains(o, `"b"`) || !strings.Contains(o, `"d"`) {
		t.Errorf("overlap of b and d not reported: %q", o)
	}
}

// The same recording gives the same bytes.
func TestDeterministic(t *testing.T) {
	write := func() string {
		tr := New("s")
		for i := 0; i < 50; i++ {
			tr.Span("p", "cpu", "x", float64(i), float64(i+1), map[string]any{"b": i, "a": "z"})
		}
		var b bytes.Buffer
		tr.WriteJSON(&b)
		return b.String()
	}
	if write() != write() {
		t.Error("two writes differ")
	}
}

// A span that starts where the previous one ends does not overlap it in
// the document: the reader's ts + dur is never after the end in µs (dur
// is the end in µs less ts, one ulp less where the sum rounds up). The
// length times 1e6 overshot by rounding errors, and the difference alone
// still does where ts is far below the end (a sum that ties rounds to
// even); viewers draw such spans as one nested in the other.
func TestTouchingSpans(t *testing.T) {
	tr := New("s")
	x := 0.0
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 10000; i++ {
		next := x + rng.Float64()*math.Pow(10, float64(rng.IntN(6)-3))
		tr.Span("p", "port", "x", x, next, nil)
		x = next
	}
	for i := 0; i < 20000; i++ { // spans after long ones: ts ≪ end
		a := rng.Float64() * 10
		b := a + 1 + rng.Float64()*100
		tr.Span("r"+strconv.Itoa(i), "cpu", "long", a, b, nil)
		tr.Span("r"+strconv.Itoa(i), "cpu", "next", b, b+1, nil)
	}
	tr.Span("q", "port", "a", 0.1, 0.3, nil)
	tr.Span("q", "port", "b", 0.3, 0.7, nil)
	var b bytes.Buffer
	if err := tr.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Events []struct {
			Ph      string
			Ts, Dur float64
			Pid     int
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var prev []float64
	for _, e := range doc.Events {
		if e.Ph != "X" {
			continue
		}
		if len(prev) > 0 && prev[0] == float64(e.Pid) && prev[1] > e.Ts {
			t.Fatalf("a span ends at %.17g µs, after the next starts at %.17g µs", prev[1], e.Ts)
		}
		prev = []float64{float64(e.Pid), e.Ts + e.Dur}
	}
}
