// Package formulations turns a divisible-load problem into the linear
// programs of Drozdowski & Wolniewicz (2004) and turns LP solutions back
// into schedules.
//
// The physical model (docs/semantics.md) is captured once, as a Network: the
// transfers (hops) of every message, each lasting Const + Coef·α, and the
// precedence arcs "hop b starts after hop a ends" that the model's rules
// imply (store-and-forward, one message per link, FIFO relaying, 1- or
// 2-buffer reuse). Three LP forms are generated from it:
//
//   - FormPaper: the paper's constraint families as printed (LoadDirect
//     (1)–(5), TreeNLF-1 (6)–(12), ..., BinomialTreeLLF (34)–(35); see
//     paper.go), with the damage of the printed text repaired by deriving
//     each family from the physical model, rows named after their equation
//     numbers, and the computing constraints (3)/(10)/(30) written with
//     their explicit sums Σ_{l≥k} α_il, O(n) terms per row. The printed
//     families exist for the full n-stage pattern only; on a pruned
//     pattern (or with relay-only layers) the paper form uses the
//     Network's arcs with the explicit sums.
//   - FormCompact (default): the Network's arcs plus suffix-sum variables
//     β_ik = α_ik + β_i(k+1), so every row has at most four terms and the
//     matrix has O(mn) nonzeros.
//   - FormChain: the Network's arcs plus a chain of compute-start columns
//     per destination, so that Cmax appears in one row per destination
//     (docs/formulations.md gives the equivalence with the other two).
//
// BuildRestricted writes the compact LP restricted to some messages, the
// restricted LP of the engine's stage generation (solve/engine).
//
// All are built in scaled units (loads in units of L0, times in units of
// T0, see Scale) for numerical stability; decoding reports the user's
// units. Decoding never trusts the raw solver vector: Repair makes the loads
// exactly feasible and recomputes every start time as early as the Network
// allows, so the returned Cmax is the makespan of a feasible schedule.
//
// The paper's closed forms, which need no LP, are package closedform's;
// n_min is package problem's (Problem.NMin).
package formulations
