package compare

import (
	"fmt"
	"slices"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/trace"
)

// RowName names a row as the report's Best does: the strategy, and its
// task count for a farm ("demand (M = 100)"). It is the name of the row's
// process in a trace (Options.Trace).
func RowName(x *Row) string {
	if x.Tasks > 0 {
		return fmt.Sprintf("%s (M = %d)", x.Strategy, x.Tasks)
	}
	return x.Strategy
}

// rowTrace records one row's run into rec as one process named after the
// row: the model's processes and tracks become the tracks of that process
// ("node 3 · cpu"), so that a trace of a comparison has one process per
// row, in the report's order.
type rowTrace struct {
	rec  trace.Recorder
	name string
}

func (r rowTrace) track(process, track string) string {
	if track == "" {
		return process
	}
	return process + " · " + track
}

// Span implements trace.Recorder.
func (r rowTrace) Span(process, track, name string, start, end float64, args map[string]any) {
	r.rec.Span(r.name, r.track(process, track), name, start, end, args)
}

// Instant implements trace.Recorder.
func (r rowTrace) Instant(process, track, name string, at float64, args map[string]any) {
	r.rec.Instant(r.name, r.track(process, track), name, at, args)
}

// recorder returns the recorder of row x, or nil when the run records no
// trace.
func (o Options) recorder(x *Row) trace.Recorder {
	if o.Trace == nil {
		return nil
	}
	return rowTrace{o.Trace, RowName(x)}
}

// traceSkipped marks a skipped row in the trace by an instant at 0 with
// the reason, so that every row of the report has its process.
func (o Options) traceSkipped(x *Row) {
	if rec := o.recorder(x); rec != nil {
		rec.Instant("skipped", "", "skipped", 0, map[string]any{"reason": x.Note})
	}
}

// ran is a planned schedule as it ran on the real platform: the
// schedule with the replay's times (replay.Result.Apply) and the chunks a
// crash left unfinished.
type ran struct {
	s          *schedule.Schedule
	incomplete []int
}

// ranOf applies the replay's times to a copy of s.
func ranOf(s *schedule.Schedule, res *replay.Result) (*ran, error) {
	c := *s
	c.Chunks = slices.Clone(s.Chunks)
	c.Returns = slices.Clone(s.Returns)
	if err := res.Apply(&c); err != nil {
		return nil, err
	}
	return &ran{s: &c, incomplete: res.Incomplete}, nil
}

// record writes the planned schedule's run as row x's process: every
// transfer on the track of its link (the master's port on a star, the
// links of a level on a tree) and every finished computation on the
// track of its processor (star) or layer (tree). A chunk a crash cut
// short has its transfers and no computation. The last end is the
// replay's makespan.
func (r *ran) record(rec trace.Recorder) {
	if rec == nil || r == nil {
		return
	}
	star := r.s.Problem.Topology == "star"
	for i, c := range r.s.Chunks {
		d := c.Dest()
		args := map[string]any{"chunk": i + 1, "stage": c.Stage, "load": c.Load}
		for _, h := range c.Hops {
			track := fmt.Sprintf("links %d→%d", h.From, h.To)
			if star {
				track = "P0 port"
			}
			rec.Span("transfers", track, fmt.Sprintf("chunk %d to %s", i+1, destName(star, d)), h.Start, h.End, args)
		}
		if !slices.Contains(r.incomplete, i) && c.ComputeEnd > c.ComputeStart {
			rec.Span("computing", destName(star, d), fmt.Sprintf("stage %d", c.Stage), c.ComputeStart, c.ComputeEnd, args)
		}
	}
}

func destName(star bool, d int) string {
	if star {
		return fmt.Sprintf("P%d", d)
	}
	return fmt.Sprintf("layer %d", d)
}
