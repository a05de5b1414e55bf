package graph

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestReadJSONAndValidation(t *testing.T) {
	g, err := ReadJSON(strings.NewReader(`{"nodes": [{"id": 0, "kind": "op", "time": 2}, {"id": 1}, {"id": 2, "kind": "write", "loc": "a"}],
		"edges": [[0, 1], [1, 2]]}`))
	if err != nil {
		t.Fatal(err)
	}
	if g.Nodes[1].Time != 1 || g.Nodes[1].Kind != Op || g.CriticalPath() != 4 || g.TotalWork() != 4 {
		t.Fatalf("%+v", g)
	}
	var buf bytes.Buffer
	if err := g.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if g2, err := ReadJSON(&buf); err != nil || len(g2.Edges) != 2 {
		t.Fatalf("round trip: %v", err)
	}
	bad := map[string]string{
		`{"nodes": [{"id": 0}], "edges": [[0, 5]]}`:                    "unknown node",
		`{"nodes": [{"id": 0}, {"id": 1}], "edges": [[0, 1], [1, 0]]}`: "cycle without a back edge",
		`{"nodes": [{"id": 0}, {"id": 1}], "edges": [[0, 1], [1, 0, {"back": true}]], "loops": [{"id": 0, "nodes": [0, 1], "iterations": 2, "control": 7, "parent": null}]}`: "control node",
		`{"nodes": [{"id": 0, "kind": "write", "loc": "x"}, {"id": 1}], "edges": [[0, 1]]}`:                                                                                  "write has successors",
		`{"nodes": [{"id": 0, "kind": "jump"}], "edges": []}`:                                                                                                                "unknown kind",
		`{"nodes": [{"id": 1}], "edges": []}`:                                                                                                                                "ids 0..0",
		`{"nodes": [{"id": 0}, {"id": 1}], "edges": [[1, 0, {"back": true}]]}`:                                                                                               "not inside a loop",
		`{"nodes": [{"id": 0, "time": -1}], "edges": []}`:                                                                                                                    "time -1",
		`{"nodes": [{"id": 0, "kind": "read"}], "edges": []}`:                                                                                                                "without a loc",
		`{"nodes": [], "edges": []}`:                                                                                                                                         "no nodes",
		`{"nodes": [{"id": 0}], "edges": [], "extra": 1}`:                                                                                                                    "unknown field",
		`{"nodes": [{"id": 0, "kind": "read", "loc": 1.5}], "edges": []}`:                                                                                                    "node 0: loc 1.5: want a string or an integer address",
		`{"nodes": [{"id": 0, "kind": "write", "loc": true}], "edges": []}`:                                                                                                  "loc true",
		`{"nodes": [{"id": 0}, {"id": 1, "kind": "merge"}], "edges": [[0, 1]]}`:                                                                                              "node 1: a merge that no conditional lists",
		`{"nodes": [{"id": 0, "kind": "decision"}, {"id": 1}, {"id": 2}, {"id": 3, "kind": "merge"}], "edges": [[0, 1], [1, 2], [1, 3]], "conds": [{"decision": 0, "then": [1], "else": [], "merge": [3]}]}`: "edge [1, 2] leaves the then branch",
		`{"nodes": [{"id": 0, "kind": "decision"}, {"id": 1}, {"id": 2, "kind": "merge"}], "edges": [[0, 1], [1, 2]], "conds": [{"decision": 0, "then": [1], "else": [1], "merge": [2]}]}`:                   "node 1 is in both branches",
		`{"nodes": [{"id": 0, "data": -1}], "edges": []}`: "data -1",
	}
	for js, want := range bad {
		if _, err := ReadJSON(strings.NewReader(js)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", js, err, want)
		}
	}
}

// An I-structure location is a name or an integer address (issue 28):
// 12, 12.0 and 1.2e1 name the same location, written back as "12".
func TestLocNumberOrString(t *testing.T) {
	g, err := ReadJSON(strings.NewReader(`{"nodes": [{"id": 0, "kind": "write", "loc": 12}, {"id": 1, "kind": "read", "loc": 1.2e1},
		{"id": 2, "kind": "read", "loc": "12"}, {"id": 3, "kind": "read", "loc": "a"}], "edges": []}`))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"12", "12", "12", "a"} {
		if g.Nodes[i].Loc != want {
			t.Errorf("node %d: loc %q, want %q", i, g.Nodes[i].Loc, want)
		}
	}
}

func TestLevelled(t *testing.T) {
	g, err := Levelled([]int{5, 3, 8}, 1)
	if err != nil {
		t.Fatal(err)
	}
	lv := g.Levels()
	if len(g.Nodes) != 16 || len(g.Edges) != 15+24 || lv[0] != 0 || lv[5] != 1 || lv[15] != 2 || g.CriticalPath() != 3 {
		t.Fatalf("%d nodes %d edges levels %v", len(g.Nodes), len(g.Edges), lv)
	}
}

// The random program keeps its total work for every grain; a coarser
// grain has fewer nodes.
func TestRandomGrain(t *testing.T) {
	var prev int
	for _, grain := range []int{1, 2, 4, 8} {
		g, err := Random(900, grain, 7)
		if err != nil {
			t.Fatal(err)
		}
		if g.TotalWork() != 900 {
			t.Errorf("grain %d: work %g", grain, g.TotalWork())
		}
		if grain > 1 && len(g.Nodes) >= prev {
			t.Errorf("grain %d: %d nodes, not fewer than %d", grain, len(g.Nodes), prev)
		}
		prev = len(g.Nodes)
	}
	a, _ := Random(300, 3, 11)
	b, _ := Random(300, 3, 11)
	var ba, bb bytes.Buffer
	a.WriteJSON(&ba)
	b.WriteJSON(&bb)
	if ba.String() != bb.String() {
		t.Error("same seed, different graphs")
	}
}

// The four Standard Task Graph examples read as graphs whose work is the
// sum of the task times in the file.
func TestReadSTGFiles(t *testing.T) {
	want := map[string]int{"sample04.stg": 52, "rand0000.stg": 52, "proto151.stg": 81, "proto000.stg": 453}
	for name, n := range want {
		f, err := os.Open("../../../testdata/stg/" + name)
		if err != nil {
			t.Fatal(err)
		}
		g, err := ReadSTG(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(g.Nodes) != n {
			t.Errorf("%s: %d nodes, want %d (the tasks, the dummy exit, and the entry where the file has one)", name, len(g.Nodes), n)
		}
	}
	// A tiny file, ids out of topological order, a wrapped record, a
	// comment after the exit task.
	g, err := ReadSTG(strings.NewReader("3\n0 0 0\n2 5 1\n 3\n3 4 1 0\n1 2 1 0\n4 0 1 2\nthis is a comment\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 5 || g.CriticalPath() != 9 || g.TotalWork() != 11 {
		t.Fatalf("%+v cp %g", g, g.CriticalPath())
	}
	for _, bad := range []string{"", "x\n", "2\n0 0 0\n1 1 1 7\n", "2\n0 0 0\n0 1 0\n", "2\n1 1 1 2\n2 1 1 1\n3 0 1 2\n"} {
		if _, err := ReadSTG(strings.NewReader(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestReadDOT(t *testing.T) {
	g, err := ReadDOT([]byte(`digraph { a [time=2]; b [size=3]; c; a -> b; a -> c; b -> c }`))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 3 || g.CriticalPath() != 6 || g.TotalWork() != 6 {
		t.Fatalf("%+v", g)
	}
	for _, bad := range []string{`digraph { a -> b; b -> a }`, `digraph { a [time=x] }`, `not dot`} {
		if _, err := ReadDOT([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzReadJSON(f *testing.F) {
	f.Add(`{"nodes": [{"id": 0}], "edges": []}`)
	f.Add(`{"nodes": [{"id": 0}, {"id": 1}], "edges": [[0, 1], [1, 0, {"back": true}]], "loops": [{"id": 0, "nodes": [0, 1], "iterations": 2, "control": 1, "parent": null}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ReadJSON(strings.NewReader(s))
		if err == nil {
			g.Levels()
			g.CriticalPath()
		}
	})
}

func FuzzReadSTG(f *testing.F) {
	f.Add("3\n0 0 0\n2 5 1 3\n3 4 1 0\n1 2 1 0\n4 0 1 2\n")
	f.Add("1 5\n1 1 0\n2 0 1 1\n")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ReadSTG(strings.NewReader(s))
		if err == nil {
			g.CriticalPath()
		}
	})
}

func FuzzReadDOT(f *testing.F) {
	f.Add(`digraph { a [time=2]; a -> b }`)
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ReadDOT([]byte(s))
		if err == nil {
			g.CriticalPath()
		}
	})
}

// The four WfCommons instances of testdata/wfcommons: one node per task of
// workflow.specification.tasks, an edge per parent (the children lists say
// the same), and the data of a result is the size of its output files
// (chain: each task writes one file; testdata/README.md).
func TestReadWfFormatFiles(t *testing.T) {
	want := map[string][2]int{ // tasks, distinct dependencies
		"helloworld-chain-5-chameleon.json":     {5, 4},
		"helloworld-forkjoin-10-chameleon.json": {10, 16},
		"blast-chameleon-small-001.json":        {43, 120},
		"srasearch-chameleon-10a-001.json":      {22, 30},
	}
	for name, w := range want {
		b, err := os.ReadFile("../../../testdata/wfcommons/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if !IsWfFormat(b) {
			t.Errorf("%s: not recognised as WfFormat", name)
		}
		g, info, err := ReadWfFormat(b, 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(g.Nodes) != w[0] || len(g.Edges) != w[1] || len(info.Tasks) != w[0] {
			t.Errorf("%s: %d nodes, %d edges, want %d and %d", name, len(g.Nodes), len(g.Edges), w[0], w[1])
		}
	}
	b, _ := os.ReadFile("../../../testdata/wfcommons/helloworld-chain-5-chameleon.json")
	g, info, _ := ReadWfFormat(b, 100) // time unit 100 s
	// cpuhog_chain_00000001: 100.376 s, writes chain_00000001_output.txt
	if info.Tasks[0] != "cpuhog_chain_00000001" || g.Nodes[0].Time != 1.00376 {
		t.Errorf("first task %s, time %g, want cpuhog_chain_00000001 and 1.00376", info.Tasks[0], g.Nodes[0].Time)
	}
	if g.Nodes[0].Data <= 0 {
		t.Errorf("first task carries %g bytes, want its output file's size", g.Nodes[0].Data)
	}
}

// Malformed WfFormat instances are refused with the task named; schema 1.4
// (everything on workflow.tasks) is read as well.
func TestReadWfFormatErrors(t *testing.T) {
	spec := func(tasks, runs string) string {
		return `{"name": "w", "schemaVersion": "1.5", "workflow": {"specification": {"tasks": [` + tasks + `], "files": [{"id": "f", "sizeInBytes": 10}]},
 "execution": {"tasks": [` + runs + `]}}}`
	}
	ok := spec(`{"id": "a", "parents": [], "children": ["b"], "outputFiles": ["f"]}, {"id": "b", "parents": ["a"], "children": []}`,
		`{"id": "a", "runtimeInSeconds": 2}, {"id": "b", "runtimeInSeconds": 3}`)
	g, _, err := ReadWfFormat([]byte(ok), 1)
	if err != nil || g.CriticalPath() != 5 || g.Nodes[0].Data != 10 {
		t.Fatalf("%v %+v", err, g)
	}
	bad := map[string]string{
		spec(`{"id": "a", "parents": ["zz"]}`, `{"id": "a", "runtimeInSeconds": 1}`):                                                                   "task a: parent zz is not a task",
		spec(`{"id": "a", "parents": ["b"]}, {"id": "b", "parents": ["a"]}`, `{"id": "a", "runtimeInSeconds": 1}, {"id": "b", "runtimeInSeconds": 1}`): "the tasks [a b] depend on each other in a cycle",
		spec(`{"id": "a", "parents": []}`, `{"id": "a", "runtimeInSeconds": -4}`):                                                                      "task a: runtimeInSeconds -4",
		spec(`{"id": "a", "parents": []}`, ``):                                                                                                         "task a: no runtimeInSeconds",
		spec(`{"id": "a", "parents": ["a"]}`, `{"id": "a", "runtimeInSeconds": 1}`):                                                                    "task a depends on itself",
		spec(`{"id": "a", "outputFiles": ["g"]}`, `{"id": "a", "runtimeInSeconds": 1}`):                                                                "task a: output file g has no size",
		spec(`{"id": "a"}, {"id": "a"}`, `{"id": "a", "runtimeInSeconds": 1}`):                                                                         "task a: id given twice",
		spec(``, ``):      "no tasks",
		`{"workflow": 3}`: "WfFormat",
	}
	for in, want := range bad {
		if _, _, err := ReadWfFormat([]byte(in), 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", in, err, want)
		}
	}
	v14 := `{"name": "old", "schemaVersion": "1.4", "workflow": {"tasks": [
 {"name": "a", "id": "a", "parents": [], "children": ["b"], "runtimeInSeconds": 4, "files": [{"link": "output", "name": "x", "sizeInBytes": 7}]},
 {"name": "b", "parents": ["a"], "runtimeInSeconds": 1, "files": [{"link": "input", "name": "x", "sizeInBytes": 7}]}]}}`
	g, info, err := ReadWfFormat([]byte(v14), 1)
	if err != nil || g.CriticalPath() != 5 || g.Nodes[0].Data != 7 || g.Nodes[1].Data != 0 || info.Tasks[1] != "b" {
		t.Fatalf("schema 1.4: %v %+v %+v", err, g, info)
	}
}

// Issue 27: a DOT self-loop said "panic setting edge", an undirected graph
// was read as directed, an STG task depending on itself said "predecessor
// 1, want 0..3".
func TestReaderMessages(t *testing.T) {
	for in, want := range map[string]string{
		`digraph { a -> b; b -> b }`: "self-loop on node b",
		`graph { a -- b }`:           "an undirected graph",
	} {
		if _, err := ReadDOT([]byte(in)); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "panic") {
			t.Errorf("%s: error %v, want one containing %q", in, err, want)
		}
	}
	if _, err := ReadSTG(strings.NewReader("2\n0 0 0\n1 1 1 1\n2 1 1 0\n3 0 1 2\n")); err == nil || !strings.Contains(err.Error(), "task 1 depends on itself") {
		t.Errorf("STG self-dependency: %v", err)
	}
}

func FuzzReadWfFormat(f *testing.F) {
	f.Add(`{"workflow": {"specification": {"tasks": [{"id": "a", "children": ["b"], "outputFiles": ["f"]}, {"id": "b", "parents": ["a"]}], "files": [{"id": "f", "sizeInBytes": 3}]}, "execution": {"tasks": [{"id": "a", "runtimeInSeconds": 1}, {"id": "b", "runtimeInSeconds": 2}]}}}`)
	f.Add(`{"workflow": {"tasks": [{"name": "a", "runtimeInSeconds": 1, "files": [{"link": "output", "name": "x", "sizeInBytes": 1}]}]}}`)
	f.Fuzz(func(t *testing.T, s string) {
		g, info, err := ReadWfFormat([]byte(s), 1)
		if err == nil {
			if len(info.Tasks) != len(g.Nodes) {
				t.Fatalf("%d task ids for %d nodes", len(info.Tasks), len(g.Nodes))
			}
			g.CriticalPath()
		}
	})
}
