package trace

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
)

// Document is a trace read back (Read): its events by process and track
// name, for checks and for tools that convert a trace.
type Document struct {
	// Unit and MicrosPerUnit are the model's time unit and its length in
	// microseconds; Makespan is the makespan the writer stated.
	Unit          string
	MicrosPerUnit float64
	Makespan      float64
	// Processes are the process names in increasing process id, and PIDs
	// those ids (Event.PID; WriteJSON numbers processes 1, 2, ... in order
	// of first use).
	Processes []string
	PIDs      []int
	// Spans and Instants hold the events in document order, times in
	// model units.
	Spans    []Event
	Instants []Event
}

// Event is one span or instant of a Document.
type Event struct {
	Process, Track, Name string
	PID                  int
	Start, End           float64
	Args                 map[string]any
}

// Read parses a Chrome Trace Event Format document written by WriteJSON
// (or any document of the format's object form whose tracks are named by
// thread_name metadata).
func Read(r io.Reader) (*Document, error) {
	var raw struct {
		Other struct {
			Unit     string  `json:"time_unit"`
			Micros   float64 `json:"microseconds_per_unit"`
			Makespan float64 `json:"makespan"`
		} `json:"otherData"`
		Events []struct {
			Name string         `json:"name"`
			Ph   string         `json:"ph"`
			Ts   float64        `json:"ts"`
			Dur  float64        `json:"dur"`
			Pid  int            `json:"pid"`
			Tid  int            `json:"tid"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	d := &Document{Unit: raw.Other.Unit, MicrosPerUnit: raw.Other.Micros, Makespan: raw.Other.Makespan}
	if d.MicrosPerUnit == 0 {
		d.MicrosPerUnit = MicrosPerUnit
	}
	procs, tracks := map[int]string{}, map[[2]int]string{}
	for _, e := range raw.Events {
		if e.Ph != "M" {
			continue
		}
		name, _ := e.Args["name"].(string)
		switch e.Name {
		case "process_name":
			procs[e.Pid] = name
		case "thread_name":
			tracks[[2]int{e.Pid, e.Tid}] = name
		}
	}
	for pid := range procs {
		d.PIDs = append(d.PIDs, pid)
	}
	sort.Ints(d.PIDs)
	for _, pid := range d.PIDs {
		d.Processes = append(d.Processes, procs[pid])
	}
	for _, e := range raw.Events {
		ev := Event{Process: procs[e.Pid], Track: tracks[[2]int{e.Pid, e.Tid}], Name: e.Name, PID: e.Pid,
			Start: e.Ts / d.MicrosPerUnit, End: (e.Ts + e.Dur) / d.MicrosPerUnit, Args: e.Args}
		switch e.Ph {
		case "X":
			d.Spans = append(d.Spans, ev)
		case "i", "I":
			d.Instants = append(d.Instants, ev)
		}
	}
	return d, nil
}

// End returns the latest end of any span or instant.
func (d *Document) End() float64 {
	end := 0.0
	for _, e := range d.Spans {
		end = math.Max(end, e.End)
	}
	for _, e := range d.Instants {
		end = math.Max(end, e.End)
	}
	return end
}

// EndOf returns the latest end of any span or instant of the process
// with id pid (0 when it has none).
func (d *Document) EndOf(pid int) float64 {
	end := 0.0
	for _, es := range [][]Event{d.Spans, d.Instants} {
		for _, e := range es {
			if e.PID == pid {
				end = math.Max(end, e.End)
			}
		}
	}
	return end
}

// Overlap returns a description of the first two spans of one track that
// overlap by more than tol (model units), or "" when none do: a track is
// one resource, busy with one thing at a time.
func (d *Document) Overlap(tol float64) string {
	by := map[[2]string][]Event{}
	var keys [][2]string
	for _, e := range d.Spans {
		k := [2]string{e.Process, e.Track}
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
		}
		by[k] = append(by[k], e)
	}
	for _, k := range keys {
		es := by[k]
		sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
		for i := 1; i < len(es); i++ {
			if es[i].Start < es[i-1].End-tol {
				return fmt.Sprintf("%s/%s: %q [%g, %g] overlaps %q [%g, %g]", k[0], k[1],
					es[i-1].Name, es[i-1].Start, es[i-1].End, es[i].Name, es[i].Start, es[i].End)
			}
		}
	}
	return ""
}
