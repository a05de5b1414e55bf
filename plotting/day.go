package plotting

import (
	"fmt"
	"strconv"

	"github.com/dlsched/dlsched/executor/farm/day"
)

// DayGranularity draws Day's granularity study (Section 4.10 of Day,
// "Farming Out: A Study", 1996): the simulated makespan against the job
// time, and the simulated efficiency beside the model's ceiling, both on a
// logarithmic job-time axis (`dlsched farm day --granularity --plot`).
func DayGranularity(r *day.GranularityReport) []Chart {
	p := r.Parameters
	note := fmt.Sprintf("%s of %d workers, harness %s, %s s of work", p.Layout, p.Workers, p.Harness, g6(r.TotalWork))
	mk := Series{Name: "simulated makespan"}
	ef := Series{Name: "simulated efficiency"}
	ce := Series{Name: "model ceiling", Style: Line}
	for _, x := range r.Rows {
		mk.X, mk.Y = append(mk.X, x.JobTime), append(mk.Y, x.Makespan)
		ef.X, ef.Y = append(ef.X, x.JobTime), append(ef.Y, x.Efficiency)
		ce.X, ce.Y = append(ce.X, x.JobTime), append(ce.Y, x.Ceiling)
	}
	return []Chart{
		{Title: "Makespan against job size (Section 4.10)", Note: note, XLabel: "job time j (s)", YLabel: "makespan (s)", LogX: true, Series: []Series{mk}},
		{Title: "Efficiency against job size", Note: note, XLabel: "job time j (s)", YLabel: "efficiency", LogX: true, Series: []Series{ef, ce}},
	}
}

// g6 formats a number with six significant digits, as day's reports do.
func g6(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
