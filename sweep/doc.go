// Package sweep runs parameter grids of divisible-load problems: it parses
// a TOML spec, expands it into points, solves each point with package solve
// (and checks it on the executor), and appends one JSON line per point to a
// results file that survives being killed at any moment. Each line starts
// with "format": "dlsched.sweep-row/1" (schema/sweep-row.schema.json); the
// readers (a resumed Run, Merge, LoadRecords) refuse a row of another
// major version and read a row without a format as version 1.
//
// # Spec
//
// A spec has one [problem] table, or a [[problem]] array of tables (each its
// own Cartesian product, expanded one after the other), an optional [run]
// table, and an optional title:
//
//	title = "Fig. 7"
//	[problem]
//	topology = ["star"]
//	m = [10]
//	S = [1e-3]
//	C = [1e-6]
//	A = [1e-3]
//	D = [1e2, 1e4, inf]        # or "inf"
//	V = { from = 1e2, to = 1e6, points = 9, scale = "log" }
//	stages = ["min"]           # "min", "opt", integers, or a range
//	[run]
//	verify = true              # executor check of every schedule
//	prune = true               # false: the paper's model (empty messages kept)
//	solver = "clp"
//	max_stages = 0             # > 0: points with more stages become "skipped" rows
//	pattern = "search"         # as solve: the pattern search; "greedy": only the paper's prune
//	form = "compact"           # or "paper", "chain" (docs/formulations.md)
//	stage_generation = true    # false: every LP solved whole (solve.Options.NoStageGeneration)
//	warm = true                # unpruned points differing in V and n only: each from the basis of the one before
//	worker_order = "search"    # heterogeneous stars: "search" (default when procs differ) or "given"
//
// A star may be heterogeneous — procs = ["S:C:A", ...], one entry per
// processor, instead of m, S, C and A — and return results —
// result_ratio (β, default 0) and return ("fifo" or "lifo") are axes; and
// any grid may ask the deadline form — deadline, an axis, instead of V:
// each point is the largest load that finishes by it (solve.MaxLoad; with
// finite D the stages must be numbers). Their rows carry worker_order,
// worker_order_method, worker_order_gap, deadline and max_load
// (docs/heterogeneous.md).
//
// Each parameter is a single value, a list, or a range {from, to, points,
// scale = "lin" | "log"} (integer parameters round range points and drop
// repeats). Defaults: order = "nlf", buffers = 1, stages = "min". A
// [problem] table may carry a label, which names its rows (and is part of
// their keys) so that grids can be told apart in plots.
//
// Parameters apply per topology and do not multiply the rows of the others:
// a star takes m; an ordinary tree order, buffers, p, h; a binomial tree
// order, p, h (its nodes have one buffer). A parameter that no listed
// topology uses is an error (a typo is not silently ignored); so is an
// unknown key, and every error names the field (*SpecError). Each value is
// checked by package problem (CheckInt, CheckFloat), the validator of every
// entry point, and a SpecError about a value unwraps to its
// *problem.FieldError.
//
// # Points and keys
//
// Points expands the grids in the fixed axis order topology, order,
// buffers, m, p, h, S, C, A, D, V (or deadline), result_ratio, return,
// stages (stages varies fastest). Each
// point has an Index (its position in the full grid) and a Key: a canonical
// text of its inputs, for example
//
//	topology=star m=10 S=0.001 C=1e-06 A=0.001 D=100 V=1000 stages=min
//
// with numbers written as the shortest decimal that reads back exactly, so
// that keys do not depend on how the spec spells a value.
//
// # Runs, resumption, shards
//
// Run solves the points with a pool of workers, one LP solver each, and
// appends each row to the results file with one write call (O_APPEND). A
// run killed at any moment (even SIGKILL) can be started again: the rows in
// the file are skipped by key, and a torn last line is cut off first, so
// the file ends with each point exactly once. A point that cannot be solved
// is a row with its status (invalid, infeasible, failed, skipped,
// unsupported) and error message.
//
// A Shard i/N takes the points whose Index mod N is i−1; ShardFromEnv maps
// Slurm job arrays and Kubernetes Indexed Jobs to shards, and Merge
// combines the shards' files, reporting missing and duplicate points.
//
// # Plots
//
// LoadRecords reads a results file (or a schedule JSON from `dlsched
// solve`, one record per chunk) as table.Records (RowRecords), and
// table.Chart builds a plotting.Chart from them: x and y columns, series,
// filters, differences to a baseline, and reference lines. The lb_layer
// column is closedform.LBLine, the LB strategy optimize reports too.
package sweep
