package schedule

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// twoWorkers is the FIFO example as solved (docs/heterogeneous.md):
// two identical workers, β = 0.5, the results back by 115/7.
func twoWorkers() *Schedule {
	return &Schedule{Status: "optimal", Cmax: 115.0 / 7, Stages: 1,
		Problem: Problem{Topology: "star", M: 2, Procs: []Proc{{C: 1, A: 1}, {C: 1, A: 1}}, D: Float(math.Inf(1)), V: 10,
			Stages: 1, ResultRatio: 0.5, Return: "fifo"},
		Chunks: []Chunk{
			{Stage: 1, Processor: 1, Load: 40.0 / 7, Arrival: 40.0 / 7, ComputeStart: 40.0 / 7, ComputeEnd: 80.0 / 7,
				Hops: []Hop{{From: 0, To: 1, Load: 40.0 / 7, End: 40.0 / 7}}},
			{Stage: 1, Processor: 2, Load: 30.0 / 7, Start: 40.0 / 7, Arrival: 10, ComputeStart: 10, ComputeEnd: 100.0 / 7,
				Hops: []Hop{{From: 0, To: 2, Load: 30.0 / 7, Start: 40.0 / 7, End: 10}}},
		},
		Returns:           []Return{{Processor: 1, Load: 20.0 / 7, Start: 80.0 / 7, End: 100.0 / 7}, {Processor: 2, Load: 15.0 / 7, Start: 100.0 / 7, End: 115.0 / 7}},
		WorkerOrder:       []int{1, 2},
		WorkerOrderMethod: "given",
	}
}

// The table lists the result messages; the JSON round-trips them (the
// Gantt chart's are in plotting's tests).
func TestResultsOutput(t *testing.T) {
	s := twoWorkers()
	var tab bytes.Buffer
	if err := s.WriteTable(&tab); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"results β=0.5 fifo", "worker order: 1 2 (given)", "results returned (fifo, β=0.5)", "       2     2  2.14286  14.2857  16.4286"} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
	var js bytes.Buffer
	if err := s.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(&js)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Returns) != 2 || back.Returns[1] != s.Returns[1] || back.Problem.ResultRatio != 0.5 || back.WorkerOrderMethod != "given" {
		t.Errorf("round trip: %+v", back)
	}
}
