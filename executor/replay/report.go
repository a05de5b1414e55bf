package replay

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schema"
)

// Report is the verdict of `dlsched verify --format json` on a schedule,
// as programs read it: "format": "dlsched.verify/1" (schema.Verify) first,
// every field described by schema/verify.schema.json. Times are in the
// schedule's seconds.
type Report struct {
	// Format is schema.Verify.
	Format string `json:"format"`
	// OK is true when the timed replay found no violation.
	OK bool `json:"ok"`
	// Chunks is the number of messages of the schedule, Processors the
	// physical processors replayed.
	Chunks     int `json:"chunks"`
	Processors int `json:"processors"`
	// Cmax is the makespan the schedule states (absent when it states
	// none).
	Cmax *float64 `json:"cmax,omitempty"`
	// Makespan is the timed replay's, EarliestMakespan the makespan with
	// every transfer as early as the model allows (schedule.Verification).
	Makespan         float64 `json:"makespan"`
	EarliestMakespan float64 `json:"earliest_makespan"`
	// Events counts the kernel's events.
	Events int `json:"events"`
	// ViolationCount is the number of violations found; Violations lists
	// the earliest of them (all of them unless a limit was given).
	ViolationCount int                  `json:"violation_count"`
	Violations     []schedule.Violation `json:"violations"`
}

// NewReport builds the report of verification v of schedule s, listing at
// most limit violations (0: all), the earliest first as v holds them.
func NewReport(s *schedule.Schedule, v *schedule.Verification, limit int) *Report {
	r := &Report{Format: schema.Verify, OK: v.OK, Chunks: len(s.Chunks), Processors: v.Processors,
		Makespan: v.Makespan, EarliestMakespan: v.EarliestMakespan, Events: v.Events,
		ViolationCount: len(v.Violations), Violations: v.Violations}
	if limit > 0 && len(r.Violations) > limit {
		r.Violations = r.Violations[:limit]
	}
	if r.Violations == nil {
		r.Violations = []schedule.Violation{}
	}
	if s.Has(schedule.FieldCmax) {
		c := s.Cmax
		r.Cmax = &c
	}
	return r
}

// WriteJSON writes the report as indented JSON; same verdict, same bytes.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
