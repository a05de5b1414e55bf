// Package pipeline runs the whole solve of DESIGN.md for one problem and
// stage count: formulation (scaled units) → lp.Model → solver → decode →
// repair (loads exactly feasible, start times earliest possible) → certify
// (a safe lower bound from the duals, and the gap) → retry with other
// algorithms while the gap exceeds the tolerance → prune loop (drop empty
// messages, stages and processors, rebuild, re-solve, until every load is
// positive; Cmax never increases).
//
// It returns a schedule.Schedule. Verification by the executor is the
// caller's choice (the CLI runs it by default), so that this package does not
// share the executor's code.
package pipeline
