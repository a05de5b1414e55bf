package executor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/internal/leakcheck"
	"pgregory.net/rapid"
)

func run(t *testing.T, s *Sim) {
	t.Helper()
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Three priority levels, each preempting the ones below; a preempted
// computation resumes with its remaining work before the other
// computations of its level. Worked by hand:
//
//	Low A (10) runs 0..2, Mid (4) preempts at 2 and runs 2..3,
//	High (1) preempts at 3 and runs 3..4, Mid resumes 4..7 (3 left),
//	Low A resumes 7..15 (8 left), Low B (1, queued at 1) runs 15..16.
func TestPreemptionThreeLevels(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		cpu := NewCPU(s, "cpu")
		const Mid, Top Priority = 1, 2
		end := map[string]float64{}
		job := func(name string, at, work float64, prio Priority) {
			s.Spawn(name, func(p *Proc) {
				p.WaitUntil(at)
				cpu.Compute(p, work, prio)
				end[name] = p.Now()
			})
		}
		job("lowA", 0, 10, Low)
		job("lowB", 1, 1, Low)
		job("mid", 2, 4, Mid)
		job("top", 3, 1, Top)
		run(t, s)
		want := map[string]float64{"top": 4, "mid": 7, "lowA": 15, "lowB": 16}
		for k, v := range want {
			if end[k] != v {
				t.Errorf("%s ends at %g, want %g", k, end[k], v)
			}
		}
		st := cpu.Stats()
		if st.Preemptions != 2 || st.Count != 4 || st.Busy != 16 || st.Utilisation != 1 {
			t.Errorf("stats %+v: want 2 preemptions, 4 jobs, busy 16, utilisation 1", st)
		}
		// Queue: lowB waits 1..15 (14), lowA 2..7 suspended (5), mid 3..4 (1):
		// area 20 over 16.
		if !approx(st.MeanQueue, 20.0/16) || st.MaxQueue != 3 {
			t.Errorf("queue mean %g (want 1.25) max %g (want 3)", st.MeanQueue, st.MaxQueue)
		}
	})
}

// A computation of 20 work units at speed 1 whose CPU changes speed to f
// at t = 10 ends at 10 + 10/f; a stall (speed 0) from 10 to 15 delays it
// by 5.
func TestSpeedChangeRetimesComputation(t *testing.T) {
	for _, f := range []float64{4, 0.5, 1, 3} {
		s := NewSim(SimConfig{})
		cpu := NewCPU(s, "cpu")
		var end float64
		s.Spawn("w", func(p *Proc) { cpu.Compute(p, 20, Low); end = p.Now() })
		s.At(10, func() { cpu.SetSpeed(f) })
		run(t, s)
		if want := 10 + 10/f; !approx(end, want) {
			t.Errorf("f=%g: ends at %g, want %g", f, end, want)
		}
	}
	s := NewSim(SimConfig{})
	cpu := NewCPU(s, "cpu")
	var end float64
	s.Spawn("w", func(p *Proc) { cpu.Compute(p, 20, Low); end = p.Now() })
	s.At(10, func() { cpu.SetSpeed(0) })
	s.At(15, func() { cpu.SetSpeed(2) })
	run(t, s)
	if end != 20 { // 10 done by t=10, stalled to 15, 10 more at speed 2
		t.Errorf("stalled: ends at %g, want 20", end)
	}
	// A preempting High computation on a slowed CPU: Low 20 at speed 1,
	// speed 0.5 from t=4, High 1 (2 time units) at t=6: Low has 20-4-1=15
	// left at 6, resumes at 8, ends at 8 + 30 = 38.
	s = NewSim(SimConfig{})
	cpu = NewCPU(s, "cpu")
	var lowEnd, highEnd float64
	s.Spawn("low", func(p *Proc) { cpu.Compute(p, 20, Low); lowEnd = p.Now() })
	s.Spawn("high", func(p *Proc) { p.Wait(6); cpu.Compute(p, 1, High); highEnd = p.Now() })
	s.At(4, func() { cpu.SetSpeed(0.5) })
	run(t, s)
	if highEnd != 8 || lowEnd != 38 {
		t.Errorf("slowed preemption: high ends %g (8), low %g (38)", highEnd, lowEnd)
	}
}

// An Alt with a timeout: the timeout fires when nothing arrives in time,
// and the message wins when it arrives first.
func TestAltTimeout(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		m := NewMailbox[int](s, "m", 0)
		var log []string
		s.Spawn("sender", func(p *Proc) { p.WaitUntil(5); m.Send(p, 42) })
		s.Spawn("alter", func(p *Proc) {
			for k := 0; k < 2; k++ {
				var got int
				i := p.Alt(m.Case(func(v int) { got = v }), p.Timeout(3))
				log = append(log, fmt.Sprintf("case %d value %d at %g", i, got, p.Now()))
			}
		})
		run(t, s)
		want := "case 1 value 0 at 3; case 0 value 42 at 5"
		if got := strings.Join(log, "; "); got != want {
			t.Fatalf("got %s\nwant %s", got, want)
		}
	})
}

// PRI ALT takes the first ready case in argument order; ALT takes them in
// round-robin order; guards switch cases off; SKIP never blocks.
func TestAltPriorityFairnessGuards(t *testing.T) {
	s := NewSim(SimConfig{})
	a := NewMailbox[string](s, "a", Unbounded)
	b := NewMailbox[string](s, "b", Unbounded)
	for i := 0; i < 3; i++ {
		a.Put(fmt.Sprint("a", i))
		b.Put(fmt.Sprint("b", i))
	}
	var pri, fair []string
	s.Spawn("p", func(p *Proc) {
		rec := func(dst *[]string) func(string) { return func(v string) { *dst = append(*dst, v) } }
		cases := []Case{a.Case(rec(&pri)), b.Case(rec(&pri))}
		p.PriAlt(cases...)
		p.PriAlt(cases...) // a still ready: a again
		fc := []Case{a.Case(rec(&fair)), b.Case(rec(&fair))}
		p.Alt(fc...)
		p.Alt(fc...)
		p.Alt(fc...)
		if i := p.PriAlt(a.Case(nil).When(false), b.Case(nil).When(false)); i != -1 {
			t.Errorf("all guards false: got case %d, want -1", i)
		}
		if i := p.PriAlt(a.Case(nil).When(false), Skip()); i != 1 {
			t.Errorf("skip: got case %d, want 1", i)
		}
	})
	run(t, s)
	if got := strings.Join(pri, " "); got != "a0 a1" {
		t.Errorf("PriAlt took %s, want a0 a1", got)
	}
	// The fair Alt starts after the last case chosen by this process (the
	// PriAlt chose case 0): b0, then a2, then b1.
	if got := strings.Join(fair, " "); got != "b0 a2 b1" {
		t.Errorf("Alt took %s, want b0 a2 b1", got)
	}
}

// An Alt on a rendezvous channel with cost S + C·x commits when the sender
// arrives and resumes when the transfer ends; an Alt on a buffered channel
// commits when the message has arrived.
func TestAltChannels(t *testing.T) {
	s := NewSim(SimConfig{})
	cost := func(x float64) float64 { return 0.5 + 2*x }
	rv := NewChannel(s, ChannelConfig[float64]{Name: "rv", Cost: cost})
	bf := NewChannel(s, ChannelConfig[float64]{Name: "bf", Cost: cost, Buffers: 1})
	var log []string
	s.Spawn("s1", func(p *Proc) { p.WaitUntil(1); rv.Send(p, 1) })  // 1..3.5
	s.Spawn("s2", func(p *Proc) { p.WaitUntil(2); bf.Send(p, 10) }) // 2..22.5
	s.Spawn("r", func(p *Proc) {
		for k := 0; k < 2; k++ {
			p.PriAlt(
				bf.Case(func(x float64) { log = append(log, fmt.Sprintf("bf %g at %g", x, p.Now())) }),
				rv.Case(func(x float64) { log = append(log, fmt.Sprintf("rv %g at %g", x, p.Now())) }),
			)
		}
	})
	run(t, s)
	if got := strings.Join(log, "; "); got != "rv 1 at 3.5; bf 10 at 22.5" {
		t.Fatalf("got %s", got)
	}
}

// Kill loses what the victim held: its queued messages vanish, later
// messages to it are accepted and discarded (the sender still pays the
// link time), a transfer it was sending is aborted and frees the link, and
// its computation stops.
func TestKillLosesQueuedMessages(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		inbox := NewMailbox[int](s, "inbox", Unbounded)
		link := NewChannel(s, ChannelConfig[int]{Name: "toVictim", Buffers: 1,
			Cost: func(int) float64 { return 4 }})
		out := NewChannel(s, ChannelConfig[int]{Name: "fromVictim", Buffers: 1,
			Cost: func(int) float64 { return 10 }})
		cpu := NewCPU(s, "victimCPU")
		var victimDone bool
		var hostSendEnd, otherEnd float64
		victim := s.Spawn("victim", func(p *Proc) {
			p.Wait(1)
			out.Send(p, 7) // 1..11, killed at 5: aborted
			victimDone = true
		})
		victim.Own(inbox, link, cpu)
		worker := s.Spawn("worker", func(p *Proc) { cpu.Compute(p, 100, Low) })
		for i := 0; i < 3; i++ {
			inbox.Put(i)
		}
		s.Spawn("host", func(p *Proc) {
			p.WaitUntil(3)
			link.Send(p, 1) // 3..7: the victim dies at 5, the message is lost
			hostSendEnd = p.Now()
			inbox.Put(99)
		})
		s.Spawn("other", func(p *Proc) { p.WaitUntil(2); out.Send(p, 8); otherEnd = p.Now() })
		s.At(5, func() { s.Kill(victim) })
		s.Spawn("reaper", func(p *Proc) {
			p.WaitUntil(6)
			if !s.Kill(worker) { // blocked on the broken CPU
				t.Error("kill of the blocked worker returned false")
			}
		})
		run(t, s)
		if victimDone {
			t.Error("the killed victim ran on")
		}
		if hostSendEnd != 7 {
			t.Errorf("host's send to the dead node ends at %g, want 7", hostSendEnd)
		}
		// other's transfer waited for the victim's (1..11) and starts when
		// it is aborted at 5: 5..15.
		if otherEnd != 15 {
			t.Errorf("other's send ends at %g, want 15", otherEnd)
		}
		if inbox.Lost() != 4 || link.Lost() != 1 || out.Lost() != 1 {
			t.Errorf("lost: inbox %d (4), link %d (1), out %d (1)", inbox.Lost(), link.Lost(), out.Lost())
		}
		if st := cpu.Stats(); st.Lost != 1 || st.Busy != 5 {
			t.Errorf("cpu stats %+v: want 1 lost, busy 5", st)
		}
	})
}

// Interrupt makes a computation, a wait and a receive give up with an
// error value; the CPU moves on to the next computation at once.
func TestInterrupt(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		cpu := NewCPU(s, "cpu")
		m := NewMailbox[int](s, "m", 0)
		cause := errors.New("node slowed")
		var log []string
		w := s.Spawn("w", func(p *Proc) {
			err := Catch(func() { cpu.Compute(p, 10, Low) })
			log = append(log, fmt.Sprintf("compute: %v at %g", errors.Is(err, cause), p.Now()))
			err = Catch(func() { p.Wait(100) })
			log = append(log, fmt.Sprintf("wait: %v at %g", err != nil, p.Now()))
			err = Catch(func() { m.Recv(p) })
			log = append(log, fmt.Sprintf("recv: %v at %g", err != nil, p.Now()))
		})
		s.Spawn("other", func(p *Proc) {
			cpu.Compute(p, 3, Low) // queued behind w: runs 4..7
			log = append(log, fmt.Sprintf("other done at %g", p.Now()))
		})
		s.Spawn("boss", func(p *Proc) {
			for _, at := range []float64{4, 6, 9} {
				p.WaitUntil(at)
				s.Interrupt(w, cause)
			}
		})
		run(t, s)
		want := "compute: true at 4; wait: true at 6; other done at 7; recv: true at 9"
		if got := strings.Join(log, "; "); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
		if st := cpu.Stats(); st.Busy != 7 || st.Count != 1 {
			t.Errorf("cpu %+v: want busy 7 (0..4, 4..7), 1 completed", st)
		}
	})
	// Uncaught, the interrupt ends the run with a PanicError wrapping it.
	s := NewSim(SimConfig{})
	w := s.Spawn("w", func(p *Proc) { p.Wait(10) })
	s.At(1, func() { s.Interrupt(w, errors.New("boom")) })
	err := s.Run(context.Background())
	var in *Interrupted
	if !errors.As(err, &in) || in.Time != 1 || in.Proc != "w" {
		t.Fatalf("uncaught interrupt: %v", err)
	}
}

// A deadlock report names a process blocked in an Alt and every source it
// waits on.
func TestDeadlockInAlt(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		a := NewMailbox[int](s, "jobs", 0)
		c := NewChannel(s, ChannelConfig[int]{Name: "results", Buffers: 2})
		s.Spawn("mux", func(p *Proc) { p.Wait(2); p.PriAlt(a.Case(nil), c.Case(nil)) })
		err := s.Run(context.Background())
		var d *DeadlockError
		if !errors.As(err, &d) || d.Time != 2 || len(d.Waiting) != 1 ||
			d.Waiting[0] != (Waiter{"mux", "alt on mailbox jobs, channel results"}) {
			t.Fatalf("got %v", err)
		}
	})
}

// RunUntil ends at its horizon without a deadlock report; Stop ends the
// run from a process.
func TestRunUntilAndStop(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		ticks := 0
		s.Spawn("clock", func(p *Proc) {
			for {
				p.Wait(1)
				ticks++
			}
		})
		if err := s.RunUntil(context.Background(), 10.5); err != nil {
			t.Fatal(err)
		}
		if ticks != 10 || s.Now() != 10.5 || !s.Stopped() {
			t.Fatalf("ticks %d now %g", ticks, s.Now())
		}
		s = NewSim(SimConfig{})
		res := NewMailbox[int](s, "results", Unbounded)
		s.Spawn("farmer", func(p *Proc) {
			for i := 0; i < 5; i++ {
				res.Recv(p)
			}
			s.Stop()
		})
		s.Spawn("worker", func(p *Proc) { // an endless source
			for {
				p.Wait(2)
				res.Put(1)
			}
		})
		if err := s.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if s.Now() != 10 {
			t.Fatalf("stopped at %g, want 10", s.Now())
		}
	})
	// A deadlock before the horizon is still reported.
	s := NewSim(SimConfig{})
	m := NewMailbox[int](s, "m", 0)
	s.Spawn("r", func(p *Proc) { m.Recv(p) })
	var d *DeadlockError
	if err := s.RunUntil(context.Background(), 5); !errors.As(err, &d) {
		t.Fatalf("want a deadlock, got %v", err)
	}
}

// Per-object statistics: link busy time, units and queue of senders;
// resource utilisation and queue; mailbox traffic.
func TestStats(t *testing.T) {
	s := NewSim(SimConfig{})
	link := NewChannel(s, ChannelConfig[float64]{Name: "link", Buffers: 1,
		Cost: func(x float64) float64 { return 1 + 0.5*x }, Size: func(x float64) float64 { return x }})
	bus := NewResource(s, "bus", 1)
	mb := NewMailbox[int](s, "mb", Unbounded)
	for i, x := range []float64{2, 4} {
		s.Spawn(fmt.Sprint("s", i), func(p *Proc) { link.Send(p, x) }) // 0..2, 2..5
	}
	s.Spawn("r", func(p *Proc) {
		link.Recv(p)
		link.Recv(p)
		p.WaitUntil(10)
	})
	for i := 0; i < 2; i++ {
		s.Spawn(fmt.Sprint("u", i), func(p *Proc) { // 0..3, 3..6
			bus.Acquire(p)
			mb.Put(i)
			p.Wait(3)
			bus.Release()
		})
	}
	run(t, s)
	st := s.Stats()
	if len(st) != 3 || st[0].Name != "link" || st[1].Kind != "resource" || st[2].Kind != "mailbox" {
		t.Fatalf("objects %+v", st)
	}
	l, b, m := st[0], st[1], st[2]
	// link: busy 5 of 10, 2 transfers, 6 units; senders waiting or
	// transferring: 2 during 0..2, 1 during 2..5: area 7 over 10.
	if l.Busy != 5 || l.Utilisation != 0.5 || l.Count != 2 || l.Units != 6 || !approx(l.MeanQueue, 0.7) || l.MaxQueue != 2 {
		t.Errorf("link %+v", l)
	}
	// bus: held 0..6 (busy 6 of 10), 2 acquisitions, u1 waits 0..3.
	if b.Busy != 6 || b.Utilisation != 0.6 || b.Count != 2 || !approx(b.MeanQueue, 0.3) || b.MaxQueue != 1 {
		t.Errorf("bus %+v", b)
	}
	if m.Count != 2 || m.MaxQueue != 2 || !approx(m.MeanQueue, (1*3+2*7)/10.0) {
		t.Errorf("mailbox %+v", m)
	}
}

// Named random streams depend on (seed, name) only: drawing from another
// stream first, or creating it first, does not change them.
func TestRandStreams(t *testing.T) {
	draw := func(seed uint64, before string) string {
		s := NewSim(SimConfig{Seed: seed})
		if before != "" {
			s.Rand(before).Float64()
		}
		r := s.Rand("tasks")
		return fmt.Sprint(r.Float64(), r.Float64())
	}
	alone := draw(7, "")
	if got := draw(7, "other"); got != alone {
		t.Errorf("stream changed by another one: %s vs %s", got, alone)
	}
	if got := draw(8, ""); got == alone {
		t.Errorf("seeds 7 and 8 gave the same values %s", got)
	}
	s := NewSim(SimConfig{Seed: 7})
	if s.Rand("tasks") != s.Rand("tasks") {
		t.Error("the same name gave two streams")
	}
}

// Progress is reported every ProgressEvery events.
func TestProgressHook(t *testing.T) {
	var calls []int64
	s := NewSim(SimConfig{ProgressEvery: 10, Progress: func(now float64, ev int64) { calls = append(calls, ev) }})
	s.Spawn("p", func(p *Proc) {
		for i := 0; i < 35; i++ {
			p.Wait(1)
		}
	})
	run(t, s)
	if fmt.Sprint(calls) != "[10 20 30]" {
		t.Fatalf("progress at %v", calls)
	}
}

// Property: a CPU is work-conserving whatever the priorities, preemptions
// and speed changes. An independent sweep over the arrival and speed-change
// instants (the CPU works whenever work is pending, at the current speed)
// gives the time the last computation ends; every computation also ends no
// earlier than its arrival plus its work at the highest speed.
func TestCPUWorkConservingProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(rt, "jobs")
		type job struct {
			at, work float64
			prio     Priority
		}
		jobs := make([]job, n)
		for i := range jobs {
			jobs[i] = job{
				at:   float64(rapid.IntRange(0, 20).Draw(rt, "at")),
				work: float64(rapid.IntRange(0, 8).Draw(rt, "work")),
				prio: Priority(rapid.IntRange(0, 3).Draw(rt, "prio")),
			}
		}
		nsp := rapid.IntRange(0, 4).Draw(rt, "speedChanges")
		type change struct{ at, f float64 }
		changes := make([]change, nsp)
		for i := range changes {
			changes[i] = change{float64(rapid.IntRange(0, 25).Draw(rt, "sat")),
				[]float64{0.5, 1, 2, 4}[rapid.IntRange(0, 3).Draw(rt, "f")]}
		}
		s := NewSim(SimConfig{})
		cpu := NewCPU(s, "cpu")
		ends := make([]float64, n)
		for i, j := range jobs {
			s.Spawn(fmt.Sprint("j", i), func(p *Proc) {
				p.WaitUntil(j.at)
				cpu.Compute(p, j.work, j.prio)
				ends[i] = p.Now()
			})
		}
		for _, c := range changes {
			s.At(c.at, func() { cpu.SetSpeed(c.f) })
		}
		if err := s.Run(context.Background()); err != nil {
			rt.Fatal(err)
		}
		// Independent sweep: instants where arrivals or speed changes
		// happen; between them the CPU drains pending work at the speed in
		// force (changes at the same instant apply in order).
		type ev struct {
			t    float64
			work float64
			f    float64
			isF  bool
		}
		var evs []ev
		for _, j := range jobs {
			evs = append(evs, ev{t: j.at, work: j.work})
		}
		for _, c := range changes {
			evs = append(evs, ev{t: c.at, f: c.f, isF: true})
		}
		sort.SliceStable(evs, func(a, b int) bool { return evs[a].t < evs[b].t })
		speed, pending, now, last := 1.0, 0.0, 0.0, 0.0
		for _, e := range evs {
			if pending > 0 {
				if done := (e.t - now) * speed; done >= pending {
					last = now + pending/speed
					pending = 0
				} else {
					pending -= done
				}
			}
			now = e.t
			if e.isF {
				speed = e.f
			} else {
				pending += e.work
				if e.work == 0 && e.t > last {
					last = e.t
				}
			}
		}
		if pending > 0 {
			last = now + pending/speed
		}
		maxEnd := 0.0
		for i, e := range ends {
			maxEnd = math.Max(maxEnd, e)
			if e < jobs[i].at+jobs[i].work/4-1e-9 {
				rt.Fatalf("job %d ends at %g, before arrival %g + work %g / 4", i, e, jobs[i].at, jobs[i].work)
			}
		}
		if math.Abs(maxEnd-last) > 1e-9*math.Max(1, last) {
			rt.Fatalf("last computation ends at %g, the work-conserving sweep says %g", maxEnd, last)
		}
	})
}
