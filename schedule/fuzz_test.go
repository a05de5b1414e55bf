package schedule_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schedule/scheduletest"
)

// FuzzReadJSON: the schedule reader never panics, and what it accepts
// writes back to JSON that reads to the same values.
func FuzzReadJSON(f *testing.F) {
	for _, s := range []*schedule.Schedule{scheduletest.Star(), scheduletest.Tree(), scheduletest.Binomial()} {
		var b bytes.Buffer
		s.WriteJSON(&b)
		f.Add(b.Bytes())
	}
	f.Add([]byte(`{"problem":{"topology":"star","m":1,"S":0,"C":1,"A":1,"D":"-inf","V":1},"chunks":[{"stage":1,"processor":1,"load":1,"start":0}]}`))
	f.Add([]byte(`{"chunks":[{"hops":[{"start":1e400}]}]}`))
	f.Add([]byte(`{"cmax":"inf"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := schedule.ReadJSON(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := s.WriteJSON(&out); err != nil {
			return // values JSON cannot carry (NaN loads) are refused on writing
		}
		again, err := schedule.ReadJSON(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("written schedule does not read back: %v\n%s", err, out.Bytes())
		}
		if !reflect.DeepEqual(schedule.WithoutPresence(again), schedule.WithoutPresence(s)) {
			t.Fatalf("round trip changed the schedule:\n%+v\n%+v", s, again)
		}
	})
}
