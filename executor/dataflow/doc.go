// Package dataflow models the dataflow multiprocessor of Narayan and
// Rajaraman, "A Method to Evaluate the Performance of a Multiprocessor
// Machine based on Data Flow Principles" (Indian Institute of Science): a bank of
// p processing elements, a scheduler with a constant delay, and three
// FIFO single-server buses (result, acknowledgement/allocation,
// I-structure) executing dataflow graphs (package graph).
//
// Run simulates the machine on the executor kernel under dynamic, static
// or quasi-dynamic scheduling, with conditionals ("disregard" tokens for
// the failed branch), loops (PEs stay with a loop; same-loop reallocation
// avoids the one-PE deadlock), I-structure reads and writes
// (write-once, "not-available" readers served after the write) and an
// optional level barrier. Predict evaluates the paper's analytic model
// (T_av, E_m, the two readings of %PE utilisation) beside it. EstimateRun
// and Machine.Check refuse, before anything is built, a run estimated to
// exceed the machine's memory or event limits.
// docs/dataflow.md records every definition the paper leaves open.
package dataflow
