// Package executor is dlsched's simulation kernel: a deterministic
// virtual-time discrete-event simulator on which every machine model of
// dlsched runs — the replay of divisible-load schedules (executor/replay),
// the processor farms (executor/farm/...) and the dataflow machine
// (executor/dataflow). It imports no dlsched package: it knows nothing of
// schedules, topologies or papers, only of processes, time, messages,
// links, CPUs and resources.
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
package executor
