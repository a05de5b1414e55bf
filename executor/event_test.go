package executor

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/internal/leakcheck"
)

// Waiters of an event resume at the trigger's time, in the order they
// began to wait; a process that waits after the trigger passes at once;
// a second Trigger changes nothing.
func TestEventWaitAndTrigger(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		ev := NewEvent(s, "ready")
		var order []string
		var at []float64
		for _, name := range []string{"a", "b"} {
			s.Spawn(name, func(p *Proc) {
				ev.Wait(p)
				order = append(order, p.Name())
				at = append(at, p.Now())
			})
		}
		s.Spawn("trigger", func(p *Proc) {
			p.Wait(3)
			ev.Trigger()
			p.Wait(1)
			ev.Trigger()
		})
		s.Spawn("late", func(p *Proc) {
			p.Wait(5)
			ev.Wait(p)
			order = append(order, p.Name())
			at = append(at, p.Now())
		})
		run(t, s)
		if strings.Join(order, ",") != "a,b,late" || at[0] != 3 || at[1] != 3 || at[2] != 5 {
			t.Errorf("order %v at %v; want a,b at 3 and late at 5", order, at)
		}
		if !ev.Triggered() || ev.Time() != 3 {
			t.Errorf("triggered %v at %g; want true at 3", ev.Triggered(), ev.Time())
		}
	})
}

// An event is an Alt case: the Alt takes the event when it happens before
// the timeout, and the timeout when it does not.
func TestEventInAlt(t *testing.T) {
	for _, c := range []struct {
		trigger, timeout float64
		want             int
		end              float64
	}{{2, 5, 0, 2}, {7, 5, 1, 5}} {
		s := NewSim(SimConfig{})
		ev := NewEvent(s, "e")
		got, end := -1, 0.0
		s.Spawn("alt", func(p *Proc) {
			got = p.PriAlt(ev.Case(nil), p.Timeout(c.timeout))
			end = p.Now()
		})
		s.Spawn("trigger", func(p *Proc) { p.Wait(c.trigger); ev.Trigger() })
		run(t, s)
		if got != c.want || end != c.end {
			t.Errorf("trigger at %g, timeout %g: case %d at %g; want %d at %g", c.trigger, c.timeout, got, end, c.want, c.end)
		}
	}
}

// A condition wakes its waiters on Notify; each re-checks its predicate
// and waits again until it holds. Here a one-slot buffer: the consumer
// waits for a full slot, the producer for an empty one (the condition
// variable Day's harness kept by hand).
func TestConditionOneSlot(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		cond := NewCondition(s, "slot")
		full, item := false, 0
		var got []int
		var times []float64
		s.Spawn("producer", func(p *Proc) {
			for i := 1; i <= 3; i++ {
				p.Wait(1)
				cond.WaitFor(p, func() bool { return !full })
				full, item = true, i
				cond.Notify()
			}
		})
		s.Spawn("consumer", func(p *Proc) {
			for i := 0; i < 3; i++ {
				cond.WaitFor(p, func() bool { return full })
				got = append(got, item)
				times = append(times, p.Now())
				full = false
				cond.Notify()
				p.Wait(2) // slower than the producer: it waits for the slot
			}
		})
		run(t, s)
		// Items at 1, 3 (slot freed at 1, second item ready at 2 but
		// consumer back at 3), 5.
		if len(got) != 3 || got[0] != 1 || got[2] != 3 || times[0] != 1 || times[1] != 3 || times[2] != 5 {
			t.Errorf("got %v at %v; want 1,2,3 at 1,3,5", got, times)
		}
	})
}

// A process left waiting on a condition nobody notifies is a deadlock that
// names the condition; an interrupt takes a waiter off the condition.
func TestConditionDeadlockAndInterrupt(t *testing.T) {
	s := NewSim(SimConfig{})
	cond := NewCondition(s, "never")
	s.Spawn("stuck", func(p *Proc) { cond.WaitFor(p, func() bool { return false }) })
	var d *DeadlockError
	if err := s.Run(context.Background()); !errors.As(err, &d) || !strings.Contains(err.Error(), "condition never") {
		t.Fatalf("got %v, want a deadlock naming condition never", err)
	}

	s = NewSim(SimConfig{})
	cond = NewCondition(s, "c")
	var caught error
	w := s.Spawn("waiter", func(p *Proc) {
		caught = Catch(func() { cond.WaitFor(p, func() bool { return false }) })
	})
	s.Spawn("interrupter", func(p *Proc) { p.Wait(1); s.Interrupt(w, errors.New("stop")) })
	run(t, s)
	if caught == nil || cond.Waiting() != 0 {
		t.Errorf("interrupt: caught %v, %d waiting; want an error and none waiting", caught, cond.Waiting())
	}
}
