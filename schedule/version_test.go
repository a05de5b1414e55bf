package schedule_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schema"
)

// WriteJSON declares dlsched.schedule/1 as its first field; ReadJSON reads
// that back to the same schedule, reads a schedule without a format (an
// older dlsched's) the same way, and refuses another major version or
// kind with a *schema.FormatError naming the format found and the one
// wanted, before the fields it may not know are read.
func TestScheduleFormat(t *testing.T) {
	s := treeSchedule()
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
	for _, c := range []struct{ format, extra, want string }{
		{"dlsched.schedule/2", `"new_field": 1,`, `format "dlsched.schedule/2" is major version 2 of schedule, which this dlsched does not read; want dlsched.schedule/1`},
		{"dlsched.verify/1", "", `format "dlsched.verify/1" is a document of kind verify; want dlsched.schedule/1`},
	} {
		doc := strings.Replace(b.String(), `"dlsched.schedule/1",`, `"`+c.format+`", `+c.extra, 1)
		_, err := schedule.ReadJSON(strings.NewReader(doc))
		var fe *schema.FormatError
		if !errors.As(err, &fe) || fe.Got != c.format || fe.Want != schema.Schedule || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a FormatError %q", c.format, err, c.want)
		}
	}
}
