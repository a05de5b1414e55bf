// Package replay is dlsched's independent judge of divisible-load schedules:
// it replays a schedule.Schedule on the executor kernel, on every physical
// processor of a star, an ordinary tree or a binomial tree, following the
// physical model of docs/semantics.md (Drozdowski & Wolniewicz 2004,
// Sections 2 and 3).
//
// The package imports the kernel (executor), schedule, topology and
// problem (VerifyInput checks a user's schedule with the one validator of
// problem parameters), and never the LP formulations, the solvers or the
// solve engine, whose claims it checks.
//
// Verify replays a schedule.Schedule in two modes and fills a
// schedule.Verification:
//
//   - Timed (Timed): every transfer starts exactly at the hop start the
//     schedule states, on every node of the layer; the executor reports
//     each breach of the physical model as a schedule.Violation of kind
//     link_busy, not_received, buffer_full, too_large, late, load,
//     negative or stated_times.
//   - Earliest (Earliest): same message order and sizes, every transfer as
//     early as the model allows (store and forward, exclusive links and
//     ports, FIFO relaying, 1-buffer or alternating 2-buffer rule). Its
//     makespan is the true makespan of the schedule's loads.
//
// Durations are always computed from the Problem (S, C, A or Procs, p, h);
// the End, Arrival and Compute* fields of a schedule are never trusted, only
// compared (kind stated_times).
//
// The replay expands trees to every physical node with topology.Build: one
// Channel per link into a node (holding the node's receive buffers), one
// CPU per computing node, and in earliest mode one process per sending
// node (the originator and the inner nodes), which receives, relays in FIFO
// order and frees its buffers. Leaves need no process: their channels
// intercept their own load on arrival and hand it to their CPU. In timed
// mode the nodes decide nothing (the schedule states one start per hop for
// a whole layer), so one clock process per layer starts every node's
// transfers at the stated times; transfers, arrivals, buffers and CPUs are
// still simulated and checked node by node.
package replay
