// Package problem holds the typed parameters of a divisible-load problem
// (Drozdowski & Wolniewicz 2004): the topology (star, ordinary tree,
// binomial tree), m or p and h, the layer order, 1 or 2 buffers per tree
// node, relay-only layers, the startup time S, the transfer and computing
// rates C and A (per processor for a heterogeneous star), the buffer size
// D (math.Inf(1) for unlimited buffers) and the load V, with the closed
// quantities every package needs (the destinations of a stage, n_min,
// the trivial bound S + VA/P).
//
// It has one constructor and one validator that every entry point uses:
// command-line flags, sweep specs, schedule JSON (FromSchedule) and library
// callers (New, Validate). Errors are values: a *FieldError{Field, Value,
// Want} names the field in the library's words (FieldS, FieldM, ...) and
// implements Named, so that the command line alone turns a field into its
// flag ("--S") with Format. The stage count is checked by CheckStages
// (StagesError below n_min). The schedule replay, which runs schedules no
// LP solve made, validates with the same rules relaxed where a replay
// needs it (FromScheduleRelaxed, ValidateRelaxed: C, A and V may be 0).
package problem
