// Package order chooses which processors of a heterogeneous star carry
// load and in which order every stage activates them — the step of
// `dlsched solve` before the message pattern (solve/pattern) on stars whose
// processors differ. The LP of a star (LoadDirect, Drozdowski &
// Wolniewicz 2004, Section 3.1) sends each stage to the processors in one
// fixed order; which order, and which processors at all, is the question
// the field's tools ask of a heterogeneous platform (docs/heterogeneous.md).
//
// The value of an order π (a sequence of distinct processors) is F(π), the
// optimum of the LP of the full n-stage pattern on the processors of π in
// that order (every message paying its startup; with result messages,
// every processor of π returning its results). Search minimises F over
// every order of every non-empty subset:
//
//   - exactly for m <= Options.MaxExact (DefaultMaxExact): a depth-first
//     branch and bound over prefixes of the order. The bound of a prefix P
//     is the certified optimum of the LP of formulations.NewOrderRelaxation
//     (P in its order, the other processors unordered and without
//     startups), which is at most F of every completion of P, stopping at
//     P included; at a leaf it is F itself. A node whose bound is not below
//     the best F found (less the tolerance) is cut. Identical processors
//     (same S, C, A) are interchangeable: only one of them is branched on.
//     The search is seeded with the heuristic's order.
//   - heuristically beyond that, or when the node budget runs out: the
//     classical rule — processors by non-decreasing C_i, which is optimal
//     for one installment without startups (Bharadwaj, Ghose, Mani and
//     Robertazzi, Scheduling Divisible Loads in Parallel and Distributed
//     Systems, 1996) — then processors without load dropped and a local
//     search by swaps, drops and re-insertions, with the bound over every
//     order taken from the relaxations of every one-processor prefix.
//
// Permute and Remap translate between the user's processor numbers and a
// problem whose processors stand in the chosen order (whose LP is the LP
// of that order).
package order
