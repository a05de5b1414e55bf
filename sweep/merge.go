package sweep

import (
	"fmt"
	"os"
	"sort"
)

// MergeReport tells what Merge found.
type MergeReport struct {
	// Rows is the number of distinct points in the output.
	Rows int
	// Duplicates lists keys met more than once (the first row is kept),
	// with the number of extra copies.
	Duplicates map[string]int
	// Missing lists the spec's points (by grid order) found in no input;
	// nil without a spec.
	Missing []Point
	// Unknown counts rows whose key is not a point of the spec (kept,
	// after the spec's points); 0 without a spec.
	Unknown int
	// Torn lists inputs whose last line was cut short (ignored).
	Torn []string
}

// DuplicateCount returns the number of extra copies dropped.
func (r *MergeReport) DuplicateCount() int {
	n := 0
	for _, c := range r.Duplicates {
		n += c
	}
	return n
}

// Merge reads results files (shards, or runs of overlapping specs) and
// returns their rows once per key, in grid order: with a spec, the
// spec's point order (rows of other keys last, by key), and the report
// lists the spec's points that no file holds; without one, by the rows'
// index and key. The inputs are not modified.
func Merge(paths []string, sp *Spec) ([]Row, MergeReport, error) {
	rep := MergeReport{Duplicates: map[string]int{}}
	var rows []Row
	seen := map[string]bool{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, rep, err
		}
		rs, torn, err := ReadRows(path, f)
		f.Close()
		if err != nil {
			return nil, rep, err
		}
		if torn {
			rep.Torn = append(rep.Torn, path)
		}
		for _, r := range rs {
			if seen[r.Key] {
				rep.Duplicates[r.Key]++
				continue
			}
			seen[r.Key] = true
			rows = append(rows, r)
		}
	}
	if sp == nil {
		SortRows(rows)
		rep.Rows = len(rows)
		return rows, rep, nil
	}
	pts := sp.Points()
	pos := make(map[string]int, len(pts))
	for _, pt := range pts {
		pos[pt.Key] = pt.Index
		if !seen[pt.Key] {
			rep.Missing = append(rep.Missing, pt)
		}
	}
	for _, r := range rows {
		if _, ok := pos[r.Key]; !ok {
			rep.Unknown++
		}
	}
	sort.SliceStable(rows, func(a, b int) bool {
		pa, oka := pos[rows[a].Key]
		pb, okb := pos[rows[b].Key]
		switch {
		case oka && okb:
			return pa < pb
		case oka != okb:
			return oka
		}
		return rows[a].Key < rows[b].Key
	})
	rep.Rows = len(rows)
	return rows, rep, nil
}

// String summarises the report in one line.
func (r *MergeReport) String() string {
	s := fmt.Sprintf("%d rows", r.Rows)
	if n := r.DuplicateCount(); n > 0 {
		s += fmt.Sprintf(", %d duplicate(s) dropped (%d key(s))", n, len(r.Duplicates))
	}
	if r.Missing != nil || r.Unknown > 0 {
		s += fmt.Sprintf(", %d missing", len(r.Missing))
	}
	if r.Unknown > 0 {
		s += fmt.Sprintf(", %d not in the spec", r.Unknown)
	}
	if len(r.Torn) > 0 {
		s += fmt.Sprintf(", torn last line ignored in %v", r.Torn)
	}
	return s
}
