package sweep

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/table"
	"github.com/dlsched/dlsched/topology"
)

// procs reads the optional per-processor parameters of a heterogeneous
// star: a list of "S:C:A" strings, checked by problem.New. The grid's
// topology must then be star alone, and m is their number.
func (gp *gridParser) procs() error {
	v, ok := gp.t["procs"]
	if !ok {
		return nil
	}
	field := gp.field("procs")
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return &SpecError{File: gp.file, Field: field, Msg: `want a list of "S:C:A" strings, one per processor`}
	}
	if len(gp.g.Topology) != 1 || gp.g.Topology[0] != topology.Star {
		return &SpecError{File: gp.file, Field: field, Msg: "per-processor parameters need topology star alone"}
	}
	if _, ok := gp.t["m"]; ok {
		return &SpecError{File: gp.file, Field: gp.field("m"), Msg: "not used with procs (m is the number of processors listed)"}
	}
	for i, x := range list {
		q, err := parseProc(x)
		if err != nil {
			return &SpecError{File: gp.file, Field: fmt.Sprintf("%s[%d]", field, i+1), Msg: fmt.Sprintf("value %v: want \"S:C:A\" numbers", x)}
		}
		gp.g.Procs = append(gp.g.Procs, q)
	}
	_, err := problem.New(problem.Input{Topology: "star", M: len(gp.g.Procs), Procs: gp.g.Procs, D: 1, V: 1})
	if err != nil {
		return fieldSpecError(gp.file, field, procsString(gp.g.Procs), err)
	}
	gp.g.M = []int{len(gp.g.Procs)}
	return nil
}

// parseProc reads one "S:C:A".
func parseProc(x any) (schedule.Proc, error) {
	s, ok := x.(string)
	parts := strings.Split(s, ":")
	if !ok || len(parts) != 3 {
		return schedule.Proc{}, fmt.Errorf("not S:C:A")
	}
	var v [3]float64
	for k, f := range parts {
		var err error
		if v[k], err = strconv.ParseFloat(strings.TrimSpace(f), 64); err != nil {
			return schedule.Proc{}, err
		}
	}
	return schedule.Proc{S: v[0], C: v[1], A: v[2]}, nil
}

// procsString writes processors as "S:C:A,S:C:A" with the shortest exact
// numbers (the form of keys and CSV cells).
func procsString(procs []schedule.Proc) string {
	parts := make([]string, len(procs))
	for i, q := range procs {
		parts[i] = table.FormatFloat(q.S) + ":" + table.FormatFloat(q.C) + ":" + table.FormatFloat(q.A)
	}
	return strings.Join(parts, ",")
}

// results reads the result axes: result_ratio (finite, >= 0; only stars
// return results) and return (fifo or lifo), defaults [0] and [fifo].
func (gp *gridParser) results() error {
	v, _ := gp.get("result_ratio", int64(0))
	it, err := items(gp.file, gp.field("result_ratio"), v)
	if err != nil {
		return err
	}
	seen := map[float64]bool{}
	for _, x := range it {
		f, ok := toFloat(x)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return fieldSpecError(gp.file, gp.field("result_ratio"), x,
				&problem.FieldError{Field: problem.FieldResultRatio, Value: fmt.Sprint(x), Want: "a finite number >= 0"})
		}
		if f > 0 && (len(gp.g.Topology) != 1 || gp.g.Topology[0] != topology.Star) {
			return fieldSpecError(gp.file, gp.field("result_ratio"), x,
				&problem.FieldError{Field: problem.FieldResultRatio, Value: fmt.Sprint(x), Want: "0 for a tree (results are returned on stars only)"})
		}
		if !seen[f] {
			seen[f] = true
			gp.g.ResultRatio = append(gp.g.ResultRatio, f)
		}
	}
	rv, _ := gp.get("return", "fifo")
	rets, err := stringAxis(gp.file, gp.field("return"), rv, "fifo", "lifo")
	if err != nil {
		return err
	}
	for _, r := range rets {
		o, _ := problem.ParseReturn(r)
		gp.g.Return = append(gp.g.Return, o)
	}
	return nil
}

// deadlines reads the optional deadline axis (finite times > 0), which
// replaces V.
func (gp *gridParser) deadlines() error {
	v, ok := gp.t["deadline"]
	if !ok {
		return nil
	}
	it, err := items(gp.file, gp.field("deadline"), v)
	if err != nil {
		return err
	}
	seen := map[float64]bool{}
	for _, x := range it {
		f, ok := toFloat(x)
		if !ok || !(f > 0) || math.IsInf(f, 0) {
			return &SpecError{File: gp.file, Field: gp.field("deadline"), Msg: fmt.Sprintf("value %v: want a finite time > 0", x)}
		}
		if !seen[f] {
			seen[f] = true
			gp.g.Deadline = append(gp.g.Deadline, f)
		}
	}
	return nil
}

// deadlineStages refuses the stage policies a deadline point cannot have:
// "opt" (unsupported) and "min" with finite buffers (n_min depends on the
// load, the answer). ok false when the row is final.
func deadlineStages(pt Point, row *Row) bool {
	switch {
	case pt.Stages.Policy == StagesOpt:
		row.Status, row.Error = StatusUnsupported, `stages = "opt" with a deadline: give the number of stages`
		return false
	case pt.Stages.Policy == StagesMin && !math.IsInf(pt.Problem.D, 1):
		row.Status, row.Error = StatusInvalid, `stages = "min" with a deadline and finite D: n_min depends on the load, give the number of stages`
		return false
	}
	return true
}

// fillHetero records what a heterogeneous star, results and the deadline
// form add to a row: the worker order and its gap, the deadline and the
// largest load that finishes by it.
func fillHetero(row *Row, sch *schedule.Schedule) {
	row.WorkerOrder, row.WorkerOrderMethod = sch.WorkerOrder, sch.WorkerOrderMethod
	if sch.WorkerOrderGap != nil {
		g := schedule.Float(*sch.WorkerOrderGap)
		row.WorkerOrderGap = &g
	}
	if sch.Deadline > 0 {
		d, v := schedule.Float(sch.Deadline), schedule.Float(sch.MaxLoad)
		row.Deadline, row.MaxLoad = &d, &v
	}
}

// heteroCells returns the CSV cells of the columns heteroHeader names.
func heteroCells(r *Row) []string {
	p := &r.Problem
	beta, ret := "", "" // no results: the columns do not apply
	if p.ResultRatio > 0 {
		beta, ret = table.FormatFloat(p.ResultRatio), p.Return
		if ret == "" {
			ret = "fifo"
		}
	}
	order := make([]string, len(r.WorkerOrder))
	for i, d := range r.WorkerOrder {
		order[i] = strconv.Itoa(d)
	}
	return []string{procsString(p.Procs), beta, ret, optF(r.Deadline), optF(r.MaxLoad),
		strings.Join(order, " "), r.WorkerOrderMethod, optF(r.WorkerOrderGap)}
}
