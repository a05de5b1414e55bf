package validate

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/trace"
)

// Every embedded schema compiles, and each pins its format: the file
// <kind>.schema.json has "format": {"const": "dlsched.<kind>/N"}.
func TestSchemasCompile(t *testing.T) {
	names, err := Schemas()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no schemas")
	}
	for _, n := range names {
		b, _ := schema.Files.ReadFile(n)
		kind := strings.TrimSuffix(n, ".schema.json")
		if !bytes.Contains(b, []byte(`"format": {"const": "dlsched.`+kind+`/`)) {
			t.Errorf("%s does not pin its format to dlsched.%s/N", n, kind)
		}
	}
}

// A trace written by package trace validates; one with a wrong format or
// a complete event without a duration does not.
func TestTrace(t *testing.T) {
	tr := trace.New("s")
	tr.Span("node 1", "cpu", "compute", 0, 1, map[string]any{"load": 2.0})
	tr.Instant("node 1", "cpu", "crash", 1, nil)
	var b bytes.Buffer
	if err := tr.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := Document(b.Bytes(), schema.Trace); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(b.String(), `"dur":1000000,`, "", 1)
	if err := Document([]byte(bad), schema.Trace); err == nil {
		t.Error("a complete event without dur validated")
	}
	other := strings.Replace(b.String(), "dlsched.trace/1", "dlsched.trace/2", 1)
	if err := Document([]byte(other), ""); err == nil {
		t.Error("an unknown major version validated")
	}
}

// Check refuses another kind or another major version, with a message
// that says which, and accepts a document that declares none.
func TestCheck(t *testing.T) {
	if err := schema.Check([]byte(`{"format":"dlsched.schedule/2"}`), schema.Schedule); err == nil || !strings.Contains(err.Error(), "major version 2") {
		t.Errorf("major 2: %v", err)
	}
	if err := schema.Check([]byte(`{"format":"dlsched.verify/1"}`), schema.Schedule); err == nil || !strings.Contains(err.Error(), "kind verify") {
		t.Errorf("other kind: %v", err)
	}
	if err := schema.Check([]byte(`{"status":"optimal"}`), schema.Schedule); err != nil {
		t.Errorf("no format: %v", err)
	}
	if err := schema.Check([]byte(`{"format":"x"}`), schema.Schedule); err == nil {
		t.Error("malformed format accepted")
	}
	for _, doc := range []string{`{"format":1}`, `{"format":null}`, `{"format":["dlsched.schedule/1"]}`} {
		if err := schema.Check([]byte(doc), schema.Schedule); err == nil || !strings.Contains(err.Error(), "is not a string; want dlsched.schedule/1") {
			t.Errorf("%s: %v", doc, err)
		}
	}
}
