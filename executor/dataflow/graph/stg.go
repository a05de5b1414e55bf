package graph

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// ReadSTG reads a task graph in the Standard Task Graph Set's text format
// (Kasahara and Narita, Waseda University; testdata/README.md): a
// first line with the number of tasks N (and possibly a second number,
// not part of the graph), then one record per task — id, processing time,
// number of predecessors, the predecessors' ids — for tasks 0 (the dummy
// entry, sometimes omitted) to N+1 (the dummy exit); a record may wrap
// across lines, and lines after the exit task are comments. Task ids need
// not be in topological order. Every task becomes an op node (the dummies
// with time 0), renumbered 0.. in increasing task id.
func ReadSTG(r io.Reader) (*Graph, error) {
	sc := bufio.NewScanner(io.LimitReader(r, 1<<30))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	var toks []int
	line := 0
	n := -1
	type rec struct {
		id, time int
		preds    []int
	}
	var recs []rec
	seen := map[int]bool{}
	// next returns the next integer, reading lines as needed.
	next := func() (int, bool, error) {
		for len(toks) == 0 {
			if !sc.Scan() {
				return 0, false, sc.Err()
			}
			line++
			for _, f := range strings.Fields(sc.Text()) {
				v, err := strconv.Atoi(f)
				if err != nil {
					return 0, false, fmt.Errorf("graph: STG line %d: %q is not an integer", line, f)
				}
				toks = append(toks, v)
			}
			if n < 0 && len(toks) > 0 { // header: N [extra]
				n = toks[0]
				if n < 1 || n > MaxNodes-2 {
					return 0, false, fmt.Errorf("graph: STG line %d: %d tasks, want 1..%d", line, n, MaxNodes-2)
				}
				toks = nil
			}
		}
		v := toks[0]
		toks = toks[1:]
		return v, true, nil
	}
	for {
		id, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		t, ok1, err1 := next()
		np, ok2, err2 := next()
		if err1 != nil || err2 != nil || !ok1 || !ok2 {
			return nil, fmt.Errorf("graph: STG line %d: task %d: incomplete record", line, id)
		}
		if id < 0 || id > n+1 || seen[id] {
			return nil, fmt.Errorf("graph: STG line %d: task id %d: want a new id in 0..%d", line, id, n+1)
		}
		if t < 0 || np < 0 || np > n+1 {
			return nil, fmt.Errorf("graph: STG line %d: task %d: time %d, %d predecessors", line, id, t, np)
		}
		rc := rec{id: id, time: t}
		for k := 0; k < np; k++ {
			p, ok, err := next()
			if err != nil || !ok {
				return nil, fmt.Errorf("graph: STG line %d: task %d: %d predecessors announced, %d found", line, id, np, k)
			}
			if p < 0 || p > n+1 || p == id {
				return nil, fmt.Errorf("graph: STG line %d: task %d: predecessor %d, want 0..%d", line, id, p, n+1)
			}
			rc.preds = append(rc.preds, p)
		}
		seen[id] = true
		recs = append(recs, rc)
		if id == n+1 {
			break // the exit task: what follows is comments
		}
	}
	if n < 0 || len(recs) == 0 {
		return nil, fmt.Errorf("graph: STG: no tasks")
	}
	// A predecessor 0 may be named when the entry's record is omitted.
	for _, rc := range recs {
		for _, p := range rc.preds {
			if !seen[p] {
				if p != 0 {
					return nil, fmt.Errorf("graph: STG: task %d: predecessor %d has no record", rc.id, p)
				}
				seen[0] = true
				recs = append(recs, rec{id: 0})
			}
		}
	}
	sort.Slice(recs, func(a, b int) bool { return recs[a].id < recs[b].id })
	index := map[int]int{}
	g := &Graph{}
	for i, rc := range recs {
		index[rc.id] = i
		g.Nodes = append(g.Nodes, Node{ID: i, Kind: Op, Time: float64(rc.time)})
	}
	for _, rc := range recs {
		for _, p := range rc.preds {
			g.Edges = append(g.Edges, Edge{From: index[p], To: index[rc.id]})
		}
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("graph: STG: %w", err)
	}
	return g, nil
}
