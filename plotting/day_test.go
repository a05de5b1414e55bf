package plotting

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/executor/farm/day"
)

// Day's granularity charts carry the study's rows as they are: makespan
// against the job time, and efficiency beside the model's ceiling, on a
// logarithmic job-time axis; they draw as two panels of one SVG.
func TestDayGranularity(t *testing.T) {
	r := &day.GranularityReport{TotalWork: 8, Parameters: day.Parameters{Layout: "line", Workers: 4, Harness: "A"},
		Rows: []day.GranularityRow{{JobTime: 0.01, Makespan: 2.0085, Efficiency: 0.9926, Ceiling: 1},
			{JobTime: 0.1, Makespan: 2.1532, Efficiency: 0.9257, Ceiling: 0.8}}}
	cs := DayGranularity(r)
	if len(cs) != 2 || !cs[0].LogX || !cs[1].LogX || cs[0].Note != "line of 4 workers, harness A, 8 s of work" {
		t.Fatalf("charts %+v", cs)
	}
	mk, ef, ce := cs[0].Series[0], cs[1].Series[0], cs[1].Series[1]
	x := []float64{0.01, 0.1}
	if !reflect.DeepEqual(mk.X, x) || !reflect.DeepEqual(mk.Y, []float64{2.0085, 2.1532}) ||
		!reflect.DeepEqual(ef.Y, []float64{0.9926, 0.9257}) || !reflect.DeepEqual(ce.Y, []float64{1, 0.8}) || ce.Style != Line {
		t.Errorf("series %+v %+v %+v", mk, ef, ce)
	}
	var b bytes.Buffer
	if err := WritePanels(&b, "svg", cs, 1); err != nil || !strings.Contains(b.String(), "model ceiling") {
		t.Errorf("SVG: %v", err)
	}
}
