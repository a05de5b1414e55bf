package replay

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
)

// jsonOf writes s as JSON and decodes it into a generic map for editing.
func jsonOf(t *testing.T, s *schedule.Schedule) map[string]any {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// readBack encodes m and reads it with schedule.ReadJSON, as verify does.
func readBack(t *testing.T, m map[string]any) *schedule.Schedule {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	s, err := schedule.ReadJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func chunks(m map[string]any) []map[string]any {
	var out []map[string]any
	for _, c := range m["chunks"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

// goodSchedules are feasible schedules with every time filled in by the
// earliest replay: a star and a two-layer tree whose second message waits
// for the link.
func goodSchedules(t *testing.T) map[string]*schedule.Schedule {
	star := newSchedule(schedule.Problem{Topology: "star", M: 2, S: 1, C: 0.5, A: 1, D: inf()}, []msg{{1, 1, 2}, {1, 2, 1}, {2, 1, 1}})
	tree := newSchedule(schedule.Problem{Topology: "tree", P: 2, H: 2, Buffers: 1, S: 1, C: 0.5, A: 1, D: inf()}, []msg{{1, 2, 1}, {1, 1, 2}, {2, 2, 0.5}})
	for _, s := range []*schedule.Schedule{star, tree} {
		fillEarliest(t, s)
	}
	return map[string]*schedule.Schedule{"star": star, "tree": tree}
}

// A schedule with only the contract fields of each chunk (stage,
// destination, load, start) is accepted and replayed (issue 16: verify
// required hops); a start earlier than the link allows is caught.
func TestContractOnlySchedule(t *testing.T) {
	for name, s := range goodSchedules(t) {
		m := jsonOf(t, s)
		for _, c := range chunks(m) {
			for _, k := range []string{"hops", "arrival", "compute_start", "compute_end"} {
				delete(c, k)
			}
		}
		delete(m, "cmax")
		v, err := Verify(readBack(t, m), Options{})
		if err != nil || !v.OK {
			t.Fatalf("%s: contract-only schedule: %v %+v", name, err, v)
		}
		if v.Makespan != s.Cmax {
			t.Errorf("%s: makespan %g, want the earliest replay's %g", name, v.Makespan, s.Cmax)
		}
		// The second chunk stated to start while the first still holds
		// the link.
		chunks(m)[1]["start"] = 0.0
		v, err = Verify(readBack(t, m), Options{})
		if err != nil || v.OK || v.Violations[0].Kind != KindLinkBusy {
			t.Errorf("%s: a start on a busy link: %v %+v, want a %s violation", name, err, v, KindLinkBusy)
		}
		// Hops for some chunks only: refused.
		chunks(m)[0]["hops"] = jsonOf(t, s)["chunks"].([]any)[0].(map[string]any)["hops"]
		if _, err := Verify(readBack(t, m), Options{}); err == nil || !strings.Contains(err.Error(), "for every chunk or for none") {
			t.Errorf("%s: hops on one chunk only: %v", name, err)
		}
	}
}

// Every stated time must agree with the others and with the replay; a
// stated zero is a statement, not an absence (issue 16).
func TestStatedTimesAreChecked(t *testing.T) {
	s := goodSchedules(t)["star"]
	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"start differs from first hop", func(m map[string]any) { chunks(m)[1]["start"] = 0.5 }, "stated start 0.5, but its first hop starts at 2"},
		{"cmax too large", func(m map[string]any) { m["cmax"] = 100.0 }, "stated cmax 100"},
		{"zero arrival", func(m map[string]any) { chunks(m)[0]["arrival"] = 0.0 }, "stated arrival 0, replayed 2"},
		{"zero compute end", func(m map[string]any) { chunks(m)[0]["compute_end"] = 0.0 }, "stated compute_end 0"},
		{"zero hop end", func(m map[string]any) {
			chunks(m)[0]["hops"].([]any)[0].(map[string]any)["end"] = 0.0
		}, "is stated to end at 0"},
	} {
		m := jsonOf(t, s)
		tc.edit(m)
		v, err := Verify(readBack(t, m), Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		found := false
		for _, x := range v.Violations {
			found = found || (x.Kind == KindStatedTimes && strings.Contains(x.Message, tc.want))
		}
		if v.OK || !found {
			t.Errorf("%s: %+v, want a stated_times violation %q", tc.name, v.Violations, tc.want)
		}
	}
	m := jsonOf(t, s)
	if v, err := Verify(readBack(t, m), Options{}); err != nil || !v.OK {
		t.Fatalf("unedited schedule rejected: %v %+v", err, v)
	}
}

// Malformed problems and chunks are errors before anything is replayed.
func TestMalformedSchedulesAreRefused(t *testing.T) {
	s := goodSchedules(t)["tree"]
	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"D -inf", func(m map[string]any) { m["problem"].(map[string]any)["D"] = "-inf" }, "invalid D -Inf"},
		{"D 0", func(m map[string]any) { m["problem"].(map[string]any)["D"] = 0.0 }, "invalid D 0"},
		{"stage 0", func(m map[string]any) { chunks(m)[0]["stage"] = 0.0 }, "stage 0"},
		{"stage -4", func(m map[string]any) { chunks(m)[2]["stage"] = -4.0 }, "stage -4"},
		// Issue 27 item 5: a stage beyond the stated stage count.
		{"stage 1e12", func(m map[string]any) {
			n := 0.0
			for _, c := range chunks(m) {
				n = math.Max(n, c["stage"].(float64))
			}
			m["problem"].(map[string]any)["stages"] = n
			chunks(m)[2]["stage"] = 1e12
		}, "chunk 3: stage 1000000000000, want 1.."},
		{"V -1", func(m map[string]any) { m["problem"].(map[string]any)["V"] = -1.0 }, "invalid V -1: want a finite number >= 0"},
	} {
		m := jsonOf(t, s)
		tc.edit(m)
		_, err := Verify(readBack(t, m), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// A platform too large for the memory limit is refused before it is built.
func TestReplaySizeLimit(t *testing.T) {
	s := newSchedule(schedule.Problem{Topology: "star", M: 4_000_000, S: 1, C: 1, A: 1, D: inf()}, []msg{{1, 1, 1}})
	_, err := Verify(s, Options{MaxBytes: 1 << 30})
	if se := (*SizeError)(nil); err == nil || !strings.Contains(err.Error(), "needs about") {
		t.Fatalf("4e6-processor star under 1 GiB: %v (%T)", err, se)
	}
	if b := EstimateBytes(0, 4_000_000, 0, 0, 1); b < 4_000_000*bytesPerStarNode {
		t.Errorf("estimate %d below the per-node cost", b)
	}
}
