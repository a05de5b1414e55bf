// Package pfarm models Pfarm, the demand-driven processor farm of Wagner,
// Sreekantaswamy & Chanson, "Performance Models for the Processor Farm
// Paradigm" (IEEE TPDS 8(5), 1997): tasks enter
// the root of a tree of processors from a host, every processor keeps a
// task for its own worker and forwards others on demand to its children,
// and results travel back to the root.
//
// Two views of the same farm sit side by side:
//
//   - Predict evaluates the paper's analytic model: the communication bound
//     (eq. 1), the steady state on any tree in O(N) (eq. 2) with the
//     saturation test (3) and the clamp at M·β_f, the k-ary closed form
//     (8), start-up (5)/(9) with Lemma 1's first-task order, wind-down
//     (6)/(10), and the total T_su + T_ss(M − 4N) + T_wd; FindOptTree
//     prunes a saturated tree (Section 3.2).
//   - Run simulates the process structure of the paper's Fig. 1 on the
//     executor kernel: InLink/OutLink processes per link, each spending
//     C_R or C_S = β_f/4 in series with its link (eq. 1), the task manager
//     with its single task buffer (a PRI ALT that serves the local worker
//     first, then the idle OutLinks round-robin), the worker at Low
//     priority, communication at High priority on one CPU per processor.
//
// Run(ctx, Config, platform.RunOptions) is the one entry: Config is the
// farm, RunOptions what every model run takes (limits, the model alone,
// progress, a trace recorder, which then receives a span per transfer and
// per computation: trace.go). Estimate tells, from the inputs alone, the
// memory and the kernel events a run needs; Run refuses a run above the
// limits before building anything. Bad input is a *platform.FieldError
// naming the field of Config, Params or RunOptions, a run over a limit a
// *platform.LimitError. FromPlatform builds the farm of a
// platform.Platform. The report is JSON of format dlsched.pfarm/1
// (schema/pfarm.schema.json) or a table.
//
// Topologies (chains, complete k-ary trees in heap order, breadth-first
// spanning trees of meshes) come from package topology. Every reading of
// the paper's damaged text is in docs/pfarm.md.
package pfarm
