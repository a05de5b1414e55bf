// Package schedule holds the Schedule type, the currency that the
// formulations produce, the executor verifies and the CLI prints: the
// problem's inputs, every message (chunk) in send order with its load, its
// hops and their start times, the processors' computing intervals, Cmax and
// its certificate. It encodes schedules as JSON (the field names of the CLI
// contract, "format": "dlsched.schedule/1" first: schema/schedule.schema.json),
// CSV and a text table; its Gantt chart is plotting.WriteGantt, so that
// schedule, and everything built on it, imports no plotting library.
//
// Indices are 1-based as in the paper: processor i, layer i, stage k.
package schedule
