package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
)

// WfInfo describes a workflow read from the WfCommons format.
type WfInfo struct {
	// Name is the instance's name; Tasks the task ids in node order.
	Name  string
	Tasks []string
}

// wfFile is the part of a WfCommons WfFormat instance that ReadWfFormat
// uses: schema 1.5 (workflow.specification and workflow.execution) or
// 1.4 (workflow.tasks with their run times and files).
type wfFile struct {
	Name          string `json:"name"`
	SchemaVersion string `json:"schemaVersion"`
	Workflow      *struct {
		Specification *struct {
			Tasks []wfTask `json:"tasks"`
			Files []wfSize `json:"files"`
		} `json:"specification"`
		Execution *struct {
			Tasks []wfRun `json:"tasks"`
		} `json:"execution"`
		Tasks []wfTask `json:"tasks"` // schema 1.4
	} `json:"workflow"`
}

type wfTask struct {
	Name        string   `json:"name"`
	ID          string   `json:"id"`
	Parents     []string `json:"parents"`
	Children    []string `json:"children"`
	OutputFiles []string `json:"outputFiles"`
	// schema 1.4
	Runtime *float64 `json:"runtimeInSeconds"`
	Files   []struct {
		Link string   `json:"link"`
		Name string   `json:"name"`
		ID   string   `json:"id"`
		Size *float64 `json:"sizeInBytes"`
	} `json:"files"`
}

type wfRun struct {
	ID      string   `json:"id"`
	Runtime *float64 `json:"runtimeInSeconds"`
}

type wfSize struct {
	ID   string   `json:"id"`
	Size *float64 `json:"sizeInBytes"`
}

// IsWfFormat reports whether data is a JSON object with a "workflow" key:
// a WfCommons instance rather than dlsched's graph format.
func IsWfFormat(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, ok := top["workflow"]
	return ok
}

// ReadWfFormat reads a WfCommons workflow instance (WfFormat, schema 1.4
// or 1.5): every task becomes an op node, in the file's order; a parent or
// child relation becomes an edge; a task's runtimeInSeconds (1.5: from
// workflow.execution.tasks) divided by secondsPerUnit is its time; the
// sizes of its output files are the data its result carries. A task id
// that is missing, repeated or unknown as a parent or child, a missing,
// negative or non-finite run time or file size, and a cycle are refused
// with the task named.
func ReadWfFormat(data []byte, secondsPerUnit float64) (*Graph, *WfInfo, error) {
	if !(secondsPerUnit > 0) || math.IsInf(secondsPerUnit, 0) {
		return nil, nil, fmt.Errorf("graph: WfFormat: seconds per time unit %g, want a finite number > 0", secondsPerUnit)
	}
	var f wfFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return nil, nil, fmt.Errorf("graph: WfFormat: %w", err)
	}
	if f.Workflow == nil {
		return nil, nil, fmt.Errorf("graph: WfFormat: no workflow object")
	}
	tasks, times, sizes, err := f.flatten()
	if err != nil {
		return nil, nil, err
	}
	if len(tasks) == 0 {
		return nil, nil, fmt.Errorf("graph: WfFormat: the workflow has no tasks")
	}
	if len(tasks) > MaxNodes {
		return nil, nil, fmt.Errorf("graph: WfFormat: %d tasks, more than %d", len(tasks), MaxNodes)
	}
	g, info, err := wfGraph(tasks, times, sizes, secondsPerUnit)
	if err != nil {
		return nil, nil, err
	}
	info.Name = f.Name
	return g, info, nil
}

// flatten returns the tasks, each task's run time by id and each file's
// size by id, from either schema.
func (f *wfFile) flatten() (tasks []wfTask, times, sizes map[string]*float64, err error) {
	w := f.Workflow
	times, sizes = map[string]*float64{}, map[string]*float64{}
	if w.Specification == nil { // schema 1.4: everything on the task
		for i := range w.Tasks {
			t := &w.Tasks[i]
			if t.ID == "" {
				t.ID = t.Name
			}
			times[t.ID] = t.Runtime
			for _, fl := range t.Files {
				if fl.Link == "output" {
					id := fl.ID + fl.Name
					t.OutputFiles = append(t.OutputFiles, id)
					sizes[id] = fl.Size
				}
			}
		}
		return w.Tasks, times, sizes, nil
	}
	if w.Execution == nil {
		return nil, nil, nil, fmt.Errorf("graph: WfFormat: workflow.execution is missing (the tasks' run times)")
	}
	for _, r := range w.Execution.Tasks {
		times[r.ID] = r.Runtime
	}
	for _, s := range w.Specification.Files {
		sizes[s.ID] = s.Size
	}
	return w.Specification.Tasks, times, sizes, nil
}

// wfGraph builds the graph: nodes in task order, edges from parents and
// children (each once, sorted).
func wfGraph(tasks []wfTask, times, sizes map[string]*float64, unit float64) (*Graph, *WfInfo, error) {
	index := map[string]int{}
	info := &WfInfo{}
	g := &Graph{}
	for i, t := range tasks {
		if t.ID == "" {
			return nil, nil, fmt.Errorf("graph: WfFormat: task %d (name %q) has no id", i, t.Name)
		}
		if _, dup := index[t.ID]; dup {
			return nil, nil, fmt.Errorf("graph: WfFormat: task %s: id given twice", t.ID)
		}
		index[t.ID] = i
		info.Tasks = append(info.Tasks, t.ID)
		rt, ok := times[t.ID]
		if !ok || rt == nil {
			return nil, nil, fmt.Errorf("graph: WfFormat: task %s: no runtimeInSeconds", t.ID)
		}
		if !(*rt >= 0) || math.IsInf(*rt, 0) {
			return nil, nil, fmt.Errorf("graph: WfFormat: task %s: runtimeInSeconds %g, want a finite time >= 0", t.ID, *rt)
		}
		data := 0.0
		for _, fid := range t.OutputFiles {
			sz, ok := sizes[fid]
			if !ok || sz == nil || !(*sz >= 0) || math.IsInf(*sz, 0) {
				return nil, nil, fmt.Errorf("graph: WfFormat: task %s: output file %s has no size >= 0", t.ID, fid)
			}
			data += *sz
		}
		g.Nodes = append(g.Nodes, Node{ID: i, Kind: Op, Time: *rt / unit, Data: data})
	}
	if err := wfEdges(g, tasks, index); err != nil {
		return nil, nil, err
	}
	if _, err := g.forwardOrder(); err != nil {
		return nil, nil, wfCycle(g, info)
	}
	if err := g.Validate(); err != nil {
		return nil, nil, fmt.Errorf("graph: WfFormat: %w", err)
	}
	return g, info, nil
}

// wfEdges adds an edge per parent and per child, each once.
func wfEdges(g *Graph, tasks []wfTask, index map[string]int) error {
	seen := map[[2]int]bool{}
	add := func(u, v int, t wfTask) error {
		if u == v {
			return fmt.Errorf("graph: WfFormat: task %s depends on itself", t.ID)
		}
		if !seen[[2]int{u, v}] {
			seen[[2]int{u, v}] = true
			g.Edges = append(g.Edges, Edge{From: u, To: v})
		}
		return nil
	}
	for i, t := range tasks {
		for _, p := range t.Parents {
			u, ok := index[p]
			if !ok {
				return fmt.Errorf("graph: WfFormat: task %s: parent %s is not a task", t.ID, p)
			}
			if err := add(u, i, t); err != nil {
				return err
			}
		}
		for _, c := range t.Children {
			v, ok := index[c]
			if !ok {
				return fmt.Errorf("graph: WfFormat: task %s: child %s is not a task", t.ID, c)
			}
			if err := add(i, v, t); err != nil {
				return err
			}
		}
	}
	sort.Slice(g.Edges, func(a, b int) bool {
		if g.Edges[a].From != g.Edges[b].From {
			return g.Edges[a].From < g.Edges[b].From
		}
		return g.Edges[a].To < g.Edges[b].To
	})
	return nil
}

// wfCycle names the tasks of a dependency cycle.
func wfCycle(g *Graph, info *WfInfo) error {
	_, err := g.forwardOrder()
	var ids []string
	if ce, ok := err.(*CycleError); ok {
		for _, v := range ce.Nodes {
			ids = append(ids, info.Tasks[v])
		}
	}
	return fmt.Errorf("graph: WfFormat: the tasks %v depend on each other in a cycle", ids)
}
