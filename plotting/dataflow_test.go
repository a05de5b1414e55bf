package plotting

import (
	"bytes"
	"context"
	"testing"

	"github.com/dlsched/dlsched/executor/dataflow"
	"github.com/dlsched/dlsched/platform"
)

// The dataflow study's four findings (docs/dataflow.md, the Section 4
// study) on a small grid: time against bus time (one series per PE
// count, one point per bus time), against scheduler delay (one point per
// delay), speedup against PEs (one series per grain, 1 on one PE), the
// best grain against PEs (simulated and model per delay); they draw.
func TestDataflowStudy(t *testing.T) {
	c := dataflow.StudyConfig{Nodes: []int{60}, Grains: []int{1, 3, 6}, PEs: []int{1, 2, 4}, Delays: []float64{1, 10}, Buses: []float64{1, 5}, Seed: 1}
	r, err := dataflow.Study(context.Background(), c, platform.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	charts := DataflowStudy(r)
	if len(charts) != 4 {
		t.Fatalf("%d charts, want 4", len(charts))
	}
	for i, want := range []struct{ series, points int }{{3, 2}, {3, 2}, {3, 3}, {4, 3}} {
		ch := charts[i]
		if len(ch.Series) != want.series {
			t.Errorf("%s: %d series, want %d", ch.Title, len(ch.Series), want.series)
			continue
		}
		for _, s := range ch.Series {
			if len(s.X) != want.points {
				t.Errorf("%s, %s: %d points, want %d", ch.Title, s.Name, len(s.X), want.points)
			}
		}
	}
	for _, s := range charts[2].Series {
		if s.X[0] != 1 || s.Y[0] != 1 {
			t.Errorf("speedup %s on %g PEs: %g, want 1 on 1", s.Name, s.X[0], s.Y[0])
		}
	}
	var b bytes.Buffer
	if err := WritePanels(&b, "svg", charts, 2); err != nil || b.Len() == 0 {
		t.Errorf("drawing: %v", err)
	}
	if DataflowStudy(&dataflow.StudyReport{}) != nil {
		t.Error("charts of an empty study")
	}
}
