package schedule_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schedule/scheduletest"
	"github.com/dlsched/dlsched/schema"
)

// WriteJSON declares dlsched.schedule/1 as its first field; ReadJSON reads
// that back to the same schedule, reads a schedule without a format (an
// older dlsched's) the same way, and refuses another major version or
// kind naming the format found and the one wanted, before the fields it
// may not know are read.
func TestScheduleFormat(t *testing.T) {
	s := scheduletest.Tree()
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "{\n  \"format\": \"dlsched.schedule/1\",\n") {
		t.Fatalf("first field is not the format:\n%.80s", b.String())
	}
	got, err := schedule.ReadJSON(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(b.String(), "  \"format\": \"dlsched.schedule/1\",\n", "", 1)
	back, err := schedule.ReadJSON(strings.NewReader(old))
	if err != nil || !reflect.DeepEqual(got, back) {
		t.Errorf("unversioned schedule: %v, same as the versioned one: %v", err, reflect.DeepEqual(got, back))
	}
	for _, c := range []struct{ format, extra string }{
		{"dlsched.schedule/2", `"new_field": 1,`},
		{"dlsched.verify/1", ""},
	} {
		doc := strings.Replace(b.String(), `"dlsched.schedule/1",`, `"`+c.format+`", `+c.extra, 1)
		_, err := schedule.ReadJSON(strings.NewReader(doc))
		want := `schedule: format "` + c.format + `"; want dlsched.schedule/1`
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", c.format, err, want)
		}
	}
}

// The package's Format is the one package schema declares and the
// schedule schema pins.
func TestFormatIsTheSchemas(t *testing.T) {
	if schedule.Format != schema.Schedule {
		t.Errorf("schedule.Format %q, schema.Schedule %q", schedule.Format, schema.Schedule)
	}
}
