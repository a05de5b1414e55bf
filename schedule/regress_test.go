package schedule

import (
	"encoding/json"
	"strings"
	"testing"
)

// Regression: "D": null used to set D to 0; it now leaves the value alone.
func TestFloatNullKeepsValue(t *testing.T) {
	v := struct{ D Float }{D: 7}
	if err := json.Unmarshal([]byte(`{"D": null}`), &v); err != nil || v.D != 7 {
		t.Errorf("D = %v, err %v; want 7", v.D, err)
	}
}

// Regression: data after the schedule used to be ignored silently.
func TestReadJSONRejectsTrailingData(t *testing.T) {
	if _, err := ReadJSON(strings.NewReader(`{"status":"optimal"} {"status":"x"}`)); err == nil {
		t.Errorf("trailing data accepted")
	}
}
