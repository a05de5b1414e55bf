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
// efficiency, overhead A(J)). Run evaluates it for a Config and simulates
// the algorithm on the executor kernel (the one signature of the
// simulators: Run(ctx, cfg, platform.RunOptions)), with nodes that slow
// down (a factor of the nominal speed; the running job is re-timed) or
// crash (the node's process is killed with its queue and inbox: messages
// to it vanish, the host is not told); with RunOptions.Trace it records
// the run (the host and each node a process, their CPU and port or link
// tracks, a span per job and message). Scan reproduces the report's
// Figures 4.1–4.5 over p; package plotting draws them (plotting.NeppScan).
// FromPlatform builds a Config from a platform.Platform (stars only).
//
// Config.Estimate and ScanSpec.Estimate bound the kernel events and
// estimate the memory of a run from its inputs; RunOptions.Limits refuse
// a run beyond them (*platform.LimitError) before it is built. Input
// errors are *platform.FieldError naming the fields (FieldQueue, ...) and
// counting nodes from 1. Reports are versioned JSON documents (FormatRun,
// FormatScan). docs/nepp.md records each decision on the damaged
// pseudocode with the sentence it rests on.
package nepp
