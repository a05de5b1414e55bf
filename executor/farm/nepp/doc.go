// Package nepp models the job allocation of Distributed NEPP (Cours, NASA
// CR-194475, 1994, chapters 3 and 4): a host farms
// J jobs out to p workstations of different speeds with Simple
// Distribution (one job per request), Multiple Distribution (a queue of q
// jobs per node, refilled below q_min) or Fault-Tolerant Distribution
// (Multiple Distribution, then replicas of unfinished jobs to nodes that
// ask; the first result wins).
//
// Model evaluates the report's equations 4.1–4.42 (T_simp, T_mult,
// T_fault with its three phases, work, speedup, efficiency, corrected
// efficiency, overhead A(J)); Simulate runs the algorithms on the executor
// kernel, with nodes that slow down (CPU speed changes re-time the running
// job) or crash (the node's process is killed with its queue and inbox:
// messages to it vanish, the host is not told). Scan reproduces the
// report's Figures 4.1–4.5 over p. docs/nepp.md records each decision on
// the damaged pseudocode with the sentence it rests on.
package nepp
