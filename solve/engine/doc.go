// Package engine solves the LP of one message pattern of one problem and
// stage count, the part of `dlsched solve` between the problem and the
// pattern search: formulation (scaled units) → lp.Model → solver → decode
// → repair (loads exactly feasible, start times earliest possible) →
// certify (a safe lower bound from the duals, and the gap) → retry with
// other algorithms while the gap exceeds the tolerance → prune loop (drop
// empty messages, stages and processors, rebuild, re-solve, until every
// load is positive; Cmax never increases). Sequence is its warm-start
// option (the unpruned LPs of a run of stage counts or loads from one
// basis), Starts hands one solve's final basis to the next.
//
// It returns a schedule.Schedule. The pattern search (solve/pattern) calls
// it once per candidate pattern; package solve is the door the command,
// sweep, optimize and compare use. Verification on the executor is
// solve's step, so that this package does not share the executor's code.
package engine
