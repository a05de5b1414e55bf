package dataflow

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/dlsched/dlsched/executor/dataflow/graph"
)

// wfBounds computes, straight from a WfFormat 1.5 file and without the
// graph package, the total work (Σ runtimeInSeconds of
// workflow.execution.tasks) and the critical path (the longest chain of
// run times along workflow.specification.tasks[].parents).
func wfBounds(t *testing.T, data []byte) (work, cp float64, tasks int) {
	t.Helper()
	var f struct {
		Workflow struct {
			Specification struct {
				Tasks []struct {
					ID      string   `json:"id"`
					Parents []string `json:"parents"`
				} `json:"tasks"`
			} `json:"specification"`
			Execution struct {
				Tasks []struct {
					ID      string  `json:"id"`
					Runtime float64 `json:"runtimeInSeconds"`
				} `json:"tasks"`
			} `json:"execution"`
		} `json:"workflow"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	rt := map[string]float64{}
	for _, x := range f.Workflow.Execution.Tasks {
		rt[x.ID] = x.Runtime
		work += x.Runtime
	}
	parents := map[string][]string{}
	for _, x := range f.Workflow.Specification.Tasks {
		parents[x.ID] = x.Parents
	}
	finish := map[string]float64{}
	var fin func(id string) float64
	fin = func(id string) float64 {
		if v, ok := finish[id]; ok {
			return v
		}
		start := 0.0
		for _, p := range parents[id] {
			start = math.Max(start, fin(p))
		}
		finish[id] = start + rt[id]
		return finish[id]
	}
	for id := range parents {
		cp = math.Max(cp, fin(id))
	}
	return work, cp, len(parents)
}

// Issue 31 item 3: the real WfCommons workflows, zero delays. On one PE
// the makespan is the total work; on as many PEs as tasks it is the
// critical path (Section 3.1: with unlimited PEs "the given graph will be
// executed asynchronously in minimum time"), both computed independently
// from the JSON. Carrying the output files on a result bus of 1e6 bytes
// per second only lengthens the run.
func TestWfCommonsBounds(t *testing.T) {
	for _, name := range []string{"helloworld-chain-5-chameleon.json", "helloworld-forkjoin-10-chameleon.json",
		"blast-chameleon-small-001.json", "srasearch-chameleon-10a-001.json"} {
		data, err := os.ReadFile("../../testdata/wfcommons/" + name)
		if err != nil {
			t.Fatal(err)
		}
		work, cp, tasks := wfBounds(t, data)
		g, _, err := graph.ReadWfFormat(data, 1)
		if err != nil {
			t.Fatal(err)
		}
		if r := run(t, g, &Machine{PEs: 1}); math.Abs(r.Makespan-work) > 1e-9*work {
			t.Errorf("%s, 1 PE: %.9g, want the total work %.9g", name, r.Makespan, work)
		}
		r := run(t, g, &Machine{PEs: tasks})
		if math.Abs(r.Makespan-cp) > 1e-9*cp {
			t.Errorf("%s, %d PEs: %.9g, want the critical path %.9g", name, tasks, r.Makespan, cp)
		}
		if slow := run(t, g, &Machine{PEs: tasks, BytesPerTime: 1e6}); !(slow.Makespan > r.Makespan) {
			t.Errorf("%s: with the data on the result bus %.9g, without %.9g", name, slow.Makespan, r.Makespan)
		}
	}
}
