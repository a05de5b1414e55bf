// Package dataflow models the dataflow multiprocessor of Narayan and
// Rajaraman, "A Method to Evaluate the Performance of a Multiprocessor
// Machine based on Data Flow Principles" (Indian Institute of Science): a bank of
// p processing elements, a scheduler with a constant delay, and three
// FIFO single-server buses (result, acknowledgement/allocation,
// I-structure) executing dataflow graphs (package graph).
//
// Run(ctx, Config, platform.RunOptions) simulates the machine on the
// executor kernel under dynamic, static or quasi-dynamic scheduling, with
// conditionals ("disregard" tokens for the failed branch), loops (PEs stay
// with a loop; same-loop reallocation avoids the one-PE deadlock),
// I-structure reads and writes (write-once, "not-available" readers served
// after the write) and an optional level barrier, and evaluates the
// paper's analytic model (Predict: T_av, E_m, the two readings of %PE
// utilisation) beside it; with RunOptions.NoSim the model alone. The PEs,
// the I-structure PE serving waiting reads and the scheduler's runs are
// named process functions (peLoop, execute, read, compute, broadcast,
// serveReads; schedule). Study runs the paper's Section 4 grid.
//
// Input that cannot run is a *platform.FieldError naming the field
// (Machine.PEs, Config.Graph, ...); EstimateRun, CheckRun and CheckRead
// refuse, before anything in proportion to it is built, a run estimated
// to exceed RunOptions.Limits with a *platform.LimitError. With
// RunOptions.Trace set the run is recorded (one process per PE, the
// scheduler and the buses; trace.go), at no cost otherwise. Reports are
// JSON documents of format Format and StudyFormat (schema/dataflow*.json).
// docs/dataflow.md records every definition the paper leaves open.
package dataflow
