// Package trace records what a simulation did as the Chrome Trace Event
// Format, the JSON that Perfetto (ui.perfetto.dev) and chrome://tracing
// open: one process per node of the model, one track (a "thread" of the
// format) per resource of a node — its CPU, a link direction, a port, a
// bus — a complete event ("ph": "X") per transfer or computation with its
// load, stage, task or node in args, and instant events ("ph": "i") for
// crashes, slowdowns and the like.
//
// Model time is written in microseconds as the format defines ts and dur:
// one model time unit (a second, or the unit of a model without one) is
// 1e6 µs. The unit is stated in the document's otherData, with the
// makespan, so that a reader knows what a microsecond of the trace stands
// for. The output is deterministic: events in the order they were
// recorded, processes and tracks numbered in the order they were first
// used, args with sorted keys.
//
// A Recorder is what models accept; *Trace implements it, and a nil
// Recorder (Off) records nothing at no cost.
package trace
