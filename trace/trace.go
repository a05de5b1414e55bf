package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
)

// Recorder receives what a simulation did. Times are in model units.
type Recorder interface {
	// Span records that track of process was busy with name from start
	// to end (end >= start), with optional details.
	Span(process, track, name string, start, end float64, args map[string]any)
	// Instant records a point event (a crash, a slowdown) at time at.
	Instant(process, track, name string, at float64, args map[string]any)
}

// Format is the document's declared format (schema/trace.schema.json); the
// Trace Event Format keeps unknown top-level keys as metadata.
const Format = "dlsched.trace/1"

// MicrosPerUnit is how many microseconds of the trace one model time unit
// is: the format's ts and dur are microseconds, and one model second (or
// time unit) is 1e6 µs.
const MicrosPerUnit = 1e6

// Trace is an in-memory trace that writes the Chrome Trace Event Format.
type Trace struct {
	// Unit names the model's time unit ("s", or "time unit").
	Unit string
	// Makespan, when set, is written into otherData beside the unit.
	Makespan float64

	pids   map[string]int
	tids   map[[2]string]int
	order  []key // processes and tracks in order of first use
	events []event
	end    float64
}

type key struct {
	process, track string // track "" for a process
}

type event struct {
	ph                   byte
	process, track, name string
	start, end           float64
	args                 map[string]any
}

// New returns an empty trace whose model time unit is unit.
func New(unit string) *Trace {
	return &Trace{Unit: unit, pids: map[string]int{}, tids: map[[2]string]int{}}
}

// Span implements Recorder.
func (t *Trace) Span(process, track, name string, start, end float64, args map[string]any) {
	if end < start {
		end = start
	}
	t.use(process, track)
	t.events = append(t.events, event{'X', process, track, name, start, end, args})
	t.end = math.Max(t.end, end)
}

// Instant implements Recorder.
func (t *Trace) Instant(process, track, name string, at float64, args map[string]any) {
	t.use(process, track)
	t.events = append(t.events, event{'i', process, track, name, at, at, args})
	t.end = math.Max(t.end, at)
}

// End returns the latest end of any event (0 for an empty trace).
func (t *Trace) End() float64 { return t.end }

// Len returns the number of events recorded.
func (t *Trace) Len() int { return len(t.events) }

func (t *Trace) use(process, track string) {
	if _, ok := t.pids[process]; !ok {
		t.pids[process] = len(t.pids) + 1
		t.order = append(t.order, key{process, ""})
	}
	k := [2]string{process, track}
	if _, ok := t.tids[k]; !ok {
		t.tids[k] = len(t.tids) + 1
		t.order = append(t.order, key{process, track})
	}
}

// jsonEvent is one event of the format; field order is the format's usual.
type jsonEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  *float64       `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	S    string         `json:"s,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// WriteJSON writes the trace as a Chrome Trace Event Format document: an
// object with traceEvents (metadata naming every process and track, then
// the events in recording order), displayTimeUnit and otherData (the
// model's time unit, µs per unit, the makespan).
func (t *Trace) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	other := map[string]any{"time_unit": t.Unit, "microseconds_per_unit": MicrosPerUnit, "makespan": t.Makespan}
	head, err := json.Marshal(other)
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	fmt.Fprintf(bw, "{\"format\":%q,\"displayTimeUnit\":\"ms\",\"otherData\":%s,\"traceEvents\":[\n", Format, head)
	first := true
	emit := func(e jsonEvent) error {
		b, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("trace: event %q: %w", e.Name, err)
		}
		if !first {
			bw.WriteString(",\n")
		}
		first = false
		_, err = bw.Write(b)
		return err
	}
	for _, m := range t.metadata() {
		if err := emit(m); err != nil {
			return err
		}
	}
	for _, e := range t.events {
		if err := emit(t.jsonOf(e)); err != nil {
			return err
		}
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}

// metadata names every process and track, and sorts them in the viewer in
// the order they were first used.
func (t *Trace) metadata() []jsonEvent {
	var out []jsonEvent
	for _, k := range t.order {
		pid := t.pids[k.process]
		if k.track == "" {
			out = append(out,
				jsonEvent{Name: "process_name", Ph: "M", Pid: pid, Args: map[string]any{"name": k.process}},
				jsonEvent{Name: "process_sort_index", Ph: "M", Pid: pid, Args: map[string]any{"sort_index": pid}})
			continue
		}
		tid := t.tids[[2]string{k.process, k.track}]
		out = append(out,
			jsonEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: tid, Args: map[string]any{"name": k.track}},
			jsonEvent{Name: "thread_sort_index", Ph: "M", Pid: pid, Tid: tid, Args: map[string]any{"sort_index": tid}})
	}
	return out
}

func (t *Trace) jsonOf(e event) jsonEvent {
	j := jsonEvent{Name: e.name, Cat: e.track, Ph: string(e.ph), Ts: e.start * MicrosPerUnit,
		Pid: t.pids[e.process], Tid: t.tids[[2]string{e.process, e.track}], Args: e.args}
	if e.ph == 'X' {
		// The end in µs less the start in µs, not the length times 1e6,
		// and one ulp less where the sum still rounds up: a reader's
		// ts + dur is then not after the end in µs, so that a span that
		// starts where the last one ends does not overlap it by a
		// rounding error (which viewers show as one span nested in the
		// other).
		end := e.end * MicrosPerUnit
		d := end - j.Ts
		for d > 0 && j.Ts+d > end {
			d = math.Nextafter(d, 0)
		}
		j.Dur = &d
	} else {
		j.S = "t"
	}
	return j
}

// Tracks returns the tracks of a process in order of first use.
func (t *Trace) Tracks(process string) []string {
	var out []string
	for _, k := range t.order {
		if k.process == process && k.track != "" {
			out = append(out, k.track)
		}
	}
	return out
}

// Processes returns the processes in order of first use.
func (t *Trace) Processes() []string {
	out := make([]string, 0, len(t.pids))
	for p := range t.pids {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return t.pids[out[i]] < t.pids[out[j]] })
	return out
}
