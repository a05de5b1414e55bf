// Package executor is dlsched's independent judge: a deterministic
// virtual-time discrete-event simulator, and on top of it the replay and
// verification of divisible-load schedules on every physical processor of a
// star, an ordinary tree or a binomial tree, following the physical model of
// docs/semantics.md (Drozdowski & Wolniewicz 2004, Sections 2 and 3).
//
// The package imports only schedule and topology (and the standard
// library): never the LP formulations or the solvers, whose claims it
// checks.
//
// # Kernel
//
// A Sim runs processes (Sim.Spawn): plain func(p *Proc) goroutines of which
// exactly one runs at a time. The kernel loop (in the goroutine calling
// Run) resumes them one by one; they are coroutines (iter.Pull), so a
// resumption is a direct goroutine handoff, several times cheaper than a
// handoff through channels. A process blocks on
//
//   - timeouts: Proc.Wait, Proc.WaitUntil;
//   - mailboxes (Mailbox): occam-like rendezvous, bounded or unbounded
//     buffers, at no time cost;
//   - channels (Channel): links with a transfer cost function (a message of
//     x units takes S + C·x and occupies the link), rendezvous or with
//     receive buffers (alternating buffers, manual release, interception
//     of messages on arrival), and SendAll for parallel ports;
//   - resources (Resource): exclusive or counted, FIFO;
//   - CPUs (CPU) with two priorities, High preempting Low as in transputer
//     processor farms, with blocking (Compute) or asynchronous (Submit)
//     computations.
//
// Events are ordered by (time, sequence number): the same program gives the
// same trace bit for bit (Sim.TraceHash). When every live process is
// blocked and nothing is pending, Run returns a *DeadlockError naming the
// processes and what they wait for. No goroutine outlives Run, whatever the
// outcome (normal end, deadlock, panic, event limit, cancelled context).
//
// # Replay and verification
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
package executor
