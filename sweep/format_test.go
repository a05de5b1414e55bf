package sweep

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schema"
)

// Rows are written with "format": "dlsched.sweep-row/1" first; ReadRows
// reads rows with and without it (older results files) alike, and refuses
// a row of another major version with a *schema.FormatError naming the
// file and line, the format found and the one wanted.
func TestRowFormat(t *testing.T) {
	rows := []Row{{Key: "a", Index: 0, StagesPolicy: "min", Status: StatusInvalid, Error: "x"},
		{Key: "b", Index: 1, StagesPolicy: "min", Status: StatusSkipped}}
	var b bytes.Buffer
	if err := WriteJSONL(&b, rows); err != nil {
		t.Fatal(err)
	}
	if strings.Count(b.String(), "{\"format\":\"dlsched.sweep-row/1\",\"key\":") != 2 {
		t.Fatalf("rows do not start with their format:\n%s", b.String())
	}
	old := strings.Replace(b.String(), `"format":"dlsched.sweep-row/1",`, "", 1) // one row of each
	got, _, err := ReadRows("r.jsonl", strings.NewReader(old))
	if err != nil || len(got) != 2 || got[0].Key != "a" || got[1].Status != StatusSkipped {
		t.Errorf("rows with and without a format: %v %+v", err, got)
	}
	v2 := strings.Replace(old, "sweep-row/1", "sweep-row/2", 1) // the second row
	_, _, err = ReadRows("r.jsonl", strings.NewReader(v2))
	var fe *schema.FormatError
	want := `r.jsonl line 2: format "dlsched.sweep-row/2" is major version 2 of sweep-row, which this dlsched does not read; want dlsched.sweep-row/1`
	if !errors.As(err, &fe) || err.Error() != want {
		t.Errorf("row of version 2: %v, want %q", err, want)
	}
}
