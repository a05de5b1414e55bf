// Package nepp models the job allocation of Distributed NEPP (Cours, NASA
// CR-194475, 1994, chapters 3 and 4): a host farms
// J jobs out to p workstations of different speeds with Simple
// Distribution (one job per request), Multiple Distribution (a queue of q
// jobs per node, refilled below q_min) or Fault-Tolerant Distribution
// (Multiple Distribution, then replicas of unfinished jobs to nodes that
// ask, chosen by the report's NextJobToReplicate with its search position
// and threshold kept for the whole run; the first result wins).
//
// Model evaluates the report's equations 4.1–4.42 (T_simp, T_mult,
// T_fault with its three phases, work, speedup, efficiency, corrected
// efficiency, overhead A(J)); Simulate runs the algorithms on the executor
// kernel, with nodes that slow down (a factor of the nominal speed; the
// running job is re-timed) or crash (the node's process is killed with its
// queue and inbox: messages to it vanish, the host is not told). Scan
// reproduces the report's Figures 4.1–4.5 over p. Config.Estimate and
// ScanSpec.Estimate bound the kernel events and estimate the memory of a
// run from its inputs; Limits refuse a run beyond them (*LimitError)
// before it is built. Errors name the fields (FieldQueue, ...) and count
// nodes from 1. docs/nepp.md records each decision on the damaged
// pseudocode with the sentence it rests on.
package nepp
