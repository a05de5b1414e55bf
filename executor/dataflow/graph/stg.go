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
	tk := &stgTokens{sc: sc, n: -1}
	var recs []stgRecord
	seen := map[int]bool{}
	for {
		rc, ok, err := tk.record(seen)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		seen[rc.id] = true
		recs = append(recs, rc)
		if rc.id == tk.n+1 {
			break // the exit task: what follows is comments
		}
	}
	if tk.n < 0 || len(recs) == 0 {
		return nil, fmt.Errorf("graph: STG: no tasks")
	}
	return stgGraph(recs, seen)
}

// stgRecord is one task: id, processing time, predecessors.
type stgRecord struct {
	id, time int
	preds    []int
}

// stgTokens reads the integers of an STG file, line by line; the first
// line is the header (N, and possibly a number that is not part of the
// graph).
type stgTokens struct {
	sc   *bufio.Scanner
	toks []int
	line int
	n    int // the number of tasks, -1 before the header
}

// next returns the next integer, reading lines as needed.
func (tk *stgTokens) next() (int, bool, error) {
	for len(tk.toks) == 0 {
		if !tk.sc.Scan() {
			return 0, false, tk.sc.Err()
		}
		tk.line++
		for _, f := range strings.Fields(tk.sc.Text()) {
			v, err := strconv.Atoi(f)
			if err != nil {
				return 0, false, fmt.Errorf("graph: STG line %d: %q is not an integer", tk.line, f)
			}
			tk.toks = append(tk.toks, v)
		}
		if tk.n < 0 && len(tk.toks) > 0 { // header: N [extra]
			tk.n = tk.toks[0]
			if tk.n < 1 || tk.n > MaxNodes-2 {
				return 0, false, fmt.Errorf("graph: STG line %d: %d tasks, want 1..%d", tk.line, tk.n, MaxNodes-2)
			}
			tk.toks = nil
		}
	}
	v := tk.toks[0]
	tk.toks = tk.toks[1:]
	return v, true, nil
}

// record reads one task's record (ok false at the end of the file).
func (tk *stgTokens) record(seen map[int]bool) (stgRecord, bool, error) {
	id, ok, err := tk.next()
	if err != nil || !ok {
		return stgRecord{}, false, err
	}
	t, ok1, err1 := tk.next()
	np, ok2, err2 := tk.next()
	if err1 != nil || err2 != nil || !ok1 || !ok2 {
		return stgRecord{}, false, fmt.Errorf("graph: STG line %d: task %d: incomplete record", tk.line, id)
	}
	n := tk.n
	if id < 0 || id > n+1 || seen[id] {
		return stgRecord{}, false, fmt.Errorf("graph: STG line %d: task id %d: want a new id in 0..%d", tk.line, id, n+1)
	}
	if t < 0 || np < 0 || np > n+1 {
		return stgRecord{}, false, fmt.Errorf("graph: STG line %d: task %d: time %d, %d predecessors", tk.line, id, t, np)
	}
	rc := stgRecord{id: id, time: t}
	for k := 0; k < np; k++ {
		p, ok, err := tk.next()
		if err != nil || !ok {
			return stgRecord{}, false, fmt.Errorf("graph: STG line %d: task %d: %d predecessors announced, %d found", tk.line, id, np, k)
		}
		if p == id {
			return stgRecord{}, false, fmt.Errorf("graph: STG line %d: task %d depends on itself", tk.line, id)
		}
		if p < 0 || p > n+1 {
			return stgRecord{}, false, fmt.Errorf("graph: STG line %d: task %d: predecessor %d, want 0..%d", tk.line, id, p, n+1)
		}
		rc.preds = append(rc.preds, p)
	}
	return rc, true, nil
}

// stgGraph renumbers the tasks 0.. in increasing id (adding the entry
// task 0 when a record names it without defining it) and validates.
func stgGraph(recs []stgRecord, seen map[int]bool) (*Graph, error) {
	for _, rc := range recs {
		for _, p := range rc.preds {
			if !seen[p] {
				if p != 0 {
					return nil, fmt.Errorf("graph: STG: task %d: predecessor %d has no record", rc.id, p)
				}
				seen[0] = true
				recs = append(recs, stgRecord{id: 0})
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
