package day

import "github.com/dlsched/dlsched/executor"

// signal and waiter are a small condition primitive (a broadcast
// condition variable) that the kernel does not have yet: a process blocks
// until a predicate over the harness state holds, and whoever changes that
// state notifies the signals of the processors involved. They stay in
// this package until the kernel offers one.

// signal wakes the processes that wait for a change of a processor's
// state: each subscriber has a one-slot mailbox that a notification fills
// (and leaves full if it already is).
type signal struct{ subs []*executor.Mailbox[struct{}] }

// notify wakes every subscriber (at most one pending wake-up each).
func (s *signal) notify() {
	for _, m := range s.subs {
		m.Put(struct{}{})
	}
}

// waiter is one process's wake-up mailbox, subscribed to some signals.
type waiter struct{ kick *executor.Mailbox[struct{}] }

// newWaiter subscribes a new waiter to sigs, in order (the order in which
// a notification wakes subscribers is the order of subscription).
func newWaiter(sim *executor.Sim, name string, sigs ...*signal) *waiter {
	w := &waiter{kick: executor.NewMailbox[struct{}](sim, name, 1)}
	for _, s := range sigs {
		s.subs = append(s.subs, w.kick)
	}
	return w
}

// until blocks p until cond holds, re-checking after every notification.
func (w *waiter) until(p *executor.Proc, cond func() bool) {
	for !cond() {
		w.kick.Recv(p)
	}
}
