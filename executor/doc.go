// Package executor is dlsched's simulation kernel: a deterministic
// virtual-time discrete-event simulator on which every machine model of
// dlsched runs. It imports no dlsched package: it knows nothing of
// schedules, topologies or papers, only of processes, time, messages,
// links, CPUs and resources.
//
//	executor/             the kernel (this package)
//	executor/replay/      replay and verification of divisible-load schedules (paper 003)
//	executor/farm/pfarm/  the Pfarm processor farm (paper 000)
//	executor/farm/nepp/   NEPP's Simple/Multiple/Fault-Tolerant allocation (paper 001)
//	executor/farm/day/    Day's farm harnesses on lines and trees (paper 002)
//	executor/dataflow/    the dataflow machine (paper 004)
//
// The models import the kernel and never each other.
//
// # Processes
//
// A Sim runs processes (Sim.Spawn): plain func(p *Proc) functions that wait
// on events, as in SimPy. Exactly one runs at a time; the kernel loop (in
// the goroutine calling Run) resumes them one by one. They are coroutines
// (iter.Pull), so a resumption is a direct goroutine handoff, several times
// cheaper than a handoff through channels. A process blocks on
//
//   - timeouts: Proc.Wait, Proc.WaitUntil;
//   - mailboxes (Mailbox): occam-like rendezvous, bounded or unbounded
//     buffers, at no time cost;
//   - channels (Channel): links with a transfer cost function (a message of
//     x units takes S + C·x and occupies the link), rendezvous or with
//     receive buffers (alternating buffers, manual release, interception
//     of messages on arrival), and SendAll for parallel ports;
//   - resources (Resource): exclusive or counted, FIFO;
//   - CPUs (CPU) with any number of priority levels, a higher one
//     preempting a lower one (High and Low as in transputer farms), a
//     speed that may change during a computation (SetSpeed re-times it),
//     blocking (Compute) or asynchronous (Submit) computations;
//   - events (Event: one-shot, SimPy's Event, also an Alt case) and
//     conditions (Condition: wait until a predicate over the model's state
//     holds, re-checked at each Notify);
//   - a choice between several of the above (Proc.Alt, Proc.PriAlt: occam's
//     ALT and PRI ALT over mailbox and channel receives, timeouts, SKIP and
//     boolean guards; PRI order and the fair order are deterministic).
//
// Kernel callbacks (Sim.At, Sim.After) run in the kernel loop without a
// process switch.
//
// # Faults
//
// Sim.Interrupt makes a blocked process give up what it waits for; the
// primitive panics with *Interrupted, which Catch turns into an error
// value. Sim.Kill ends a process and breaks what it owns (Proc.Own): its
// mailboxes and channels lose their messages and discard later ones, its
// CPU drops its computations, a transfer it was sending is aborted. A
// crashed node of a farm is a killed process with its objects owned.
//
// # Running
//
// Run runs until nothing is left to do; RunUntil stops at a horizon; Stop
// (from a process or callback) ends the run when a model decides it is
// over (e.g. the last result of an endless farm has arrived).
// SimConfig.Progress reports progress every so many events, and a
// cancelled context stops the run within 256 events. SimConfig.MaxEvents
// bounds a run.
//
// Events are ordered by (time, sequence number): the same program gives the
// same trace bit for bit (Sim.TraceHash). Random numbers come from named
// streams (Sim.Rand), seeded from SimConfig.Seed and the stream's name
// only, so that adding a stream or a process does not change the numbers
// of another. When every live process is blocked and nothing is pending,
// Run returns a *DeadlockError naming the processes and what they wait for
// (for an Alt, every source). No goroutine outlives Run, whatever the
// outcome (normal end, Stop, horizon, deadlock, panic, event limit,
// cancelled context).
//
// # Statistics
//
// Every CPU, Channel, Mailbox and Resource keeps statistics (Stats: busy
// time, utilisation, completed operations, units carried, time-weighted
// mean and maximum queue, preemptions, messages lost); Sim.Stats lists
// them all in creation order.
package executor
