package executor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dlsched/dlsched/internal/leakcheck"
)

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// Wake-ups at equal times follow the order the events were scheduled.
func TestWaitOrderAndTies(t *testing.T) {
	s := NewSim(SimConfig{})
	var log []string
	for i, d := range []float64{3, 1, 2, 1, 0} {
		name := fmt.Sprintf("p%d", i)
		s.Spawn(name, func(p *Proc) {
			p.Wait(d)
			log = append(log, fmt.Sprintf("%s@%g", name, p.Now()))
			p.WaitUntil(5)
			log = append(log, fmt.Sprintf("%s@%g", name, p.Now()))
		})
	}
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := "p4@0 p1@1 p3@1 p2@2 p0@3 p1@5 p3@5 p2@5 p0@5 p4@5"
	// p4 (Wait(0)) scheduled its WaitUntil(5) first, but at t=5 the order
	// is the order in which the WaitUntil events were scheduled: p4 at
	// t=0, p1 and p3 at t=1, p2 at 2, p0 at 3.
	want = "p4@0 p1@1 p3@1 p2@2 p0@3 p4@5 p1@5 p3@5 p2@5 p0@5"
	if got := strings.Join(log, " "); got != want {
		t.Fatalf("order\n got %s\nwant %s", got, want)
	}
	if s.Now() != 5 {
		t.Fatalf("end time %g, want 5", s.Now())
	}
}

func TestMailboxRendezvousAndBuffer(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		rv := NewMailbox[int](s, "rv", 0)
		bf := NewMailbox[int](s, "bf", 2)
		var sendDone, recvAt []float64
		s.Spawn("sender", func(p *Proc) {
			rv.Send(p, 1) // receiver arrives at t=2: sender waits until then
			sendDone = append(sendDone, p.Now())
			for i := 0; i < 3; i++ { // the third send waits for room (t=4)
				bf.Send(p, 10+i)
			}
			sendDone = append(sendDone, p.Now())
		})
		s.Spawn("receiver", func(p *Proc) {
			p.Wait(2)
			if v := rv.Recv(p); v != 1 {
				t.Errorf("rv got %d", v)
			}
			recvAt = append(recvAt, p.Now())
			p.Wait(2)
			for i := 0; i < 3; i++ {
				if v := bf.Recv(p); v != 10+i {
					t.Errorf("bf got %d, want %d", v, 10+i)
				}
			}
			bf.Close()
			if _, ok := bf.RecvOK(p); ok {
				t.Errorf("closed mailbox returned ok")
			}
		})
		if err := s.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(sendDone) != "[2 4]" || fmt.Sprint(recvAt) != "[2]" {
			t.Fatalf("sendDone %v recvAt %v", sendDone, recvAt)
		}
	})
}

// A link with cost S + C·x: two senders share it in FIFO order.
func TestChannelCostAndLinkOccupancy(t *testing.T) {
	s := NewSim(SimConfig{})
	const S, C = 0.5, 2.0
	ch := NewChannel(s, ChannelConfig[float64]{Name: "link", Buffers: 1,
		Cost: func(x float64) float64 { return S + C*x }})
	var done []string
	for i, x := range []float64{1, 3} {
		s.Spawn(fmt.Sprintf("s%d", i), func(p *Proc) {
			ch.Send(p, x)
			done = append(done, fmt.Sprintf("s%d@%g", i, p.Now()))
		})
	}
	s.Spawn("r", func(p *Proc) {
		for i := 0; i < 2; i++ {
			x := ch.Recv(p)
			done = append(done, fmt.Sprintf("r%g@%g", x, p.Now()))
		}
	})
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// s0: 0..2.5 (0.5+2·1). The single buffer is freed by the receiver at
	// 2.5, so s1 transfers 2.5..9 (0.5+2·3).
	want := "r1@2.5 s0@2.5 r3@9 s1@9" // the receiver is woken before the sender
	if got := strings.Join(done, " "); got != want {
		t.Fatalf("got %s want %s", got, want)
	}
	if ch.Transfers() != 2 || !approx(ch.BusyTime(), 9) {
		t.Fatalf("transfers %d busy %g", ch.Transfers(), ch.BusyTime())
	}
}

// Rendezvous channel: the transfer starts when the receiver is ready, and
// both resume at its end (occam).
func TestChannelRendezvous(t *testing.T) {
	s := NewSim(SimConfig{})
	ch := NewChannel(s, ChannelConfig[int]{Name: "c", Cost: func(x int) float64 { return float64(x) }})
	var got []float64
	s.Spawn("tx", func(p *Proc) { ch.Send(p, 3); got = append(got, p.Now()) })
	s.Spawn("rx", func(p *Proc) { p.Wait(1); ch.Recv(p); got = append(got, p.Now()) })
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[4 4]" {
		t.Fatalf("got %v, want [4 4]", got)
	}
}

// Alternating buffers with manual release and interception: message j uses
// buffer j mod 2 and waits for it even if the other buffer is free.
func TestChannelAlternateBuffers(t *testing.T) {
	s := NewSim(SimConfig{})
	var intercepted []float64
	ch := NewChannel(s, ChannelConfig[int]{Name: "in", Buffers: 2, Alternate: true, ManualRelease: true,
		Cost: func(int) float64 { return 1 },
		Intercept: func(v int) bool {
			if v < 0 {
				intercepted = append(intercepted, s.Now())
				return true
			}
			return false
		}})
	var starts []float64
	ch2 := ch
	s.Spawn("tx", func(p *Proc) {
		for _, v := range []int{1, -1, 2, 3} {
			starts = append(starts, p.Now())
			ch2.Send(p, v)
		}
	})
	s.Spawn("relay", func(p *Proc) {
		for i := 0; i < 3; i++ {
			_, b := ch.RecvBuf(p)
			p.Wait(5) // "relaying"
			ch.Release(b)
		}
	})
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// msg0 (buf0) 0..1, held until 6. msg1 (buf1, intercepted) 1..2, buf1
	// free at 2. msg2 needs buf0: starts 6, arrives 7. msg3 needs buf1
	// (free): starts 7, arrives 8.
	if fmt.Sprint(starts) != "[0 1 2 7]" || fmt.Sprint(intercepted) != "[2]" {
		t.Fatalf("starts %v (want [0 1 2 7]; msg2 starts at 6 inside Send) intercepted %v", starts, intercepted)
	}
	if s.Now() != 17 {
		t.Fatalf("end %g want 17", s.Now())
	}
}

// SendAll uses several ports at once.
func TestSendAllParallel(t *testing.T) {
	s := NewSim(SimConfig{})
	var chs []*Channel[float64]
	for i := 0; i < 3; i++ {
		chs = append(chs, NewChannel(s, ChannelConfig[float64]{Name: fmt.Sprint("port", i), Buffers: 1,
			Cost: func(x float64) float64 { return x }, Intercept: func(float64) bool { return true }}))
	}
	var end float64
	s.Spawn("tx", func(p *Proc) {
		SendAll(p, chs, []float64{1, 4, 2})
		end = p.Now()
	})
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if end != 4 {
		t.Fatalf("SendAll ended at %g, want 4 (max of 1, 4, 2)", end)
	}
}

func TestResourceFIFO(t *testing.T) {
	s := NewSim(SimConfig{})
	r := NewResource(s, "bus", 1)
	var log []string
	for i := 0; i < 3; i++ {
		s.Spawn(fmt.Sprint("u", i), func(p *Proc) {
			p.Wait(float64(i) * 0.1)
			r.Acquire(p)
			log = append(log, fmt.Sprintf("u%d@%g", i, p.Now()))
			p.Wait(1)
			r.Release()
		})
	}
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log, " "); got != "u0@0 u1@1 u2@2" {
		t.Fatalf("got %s", got)
	}
}

// A Low computation of 10 started at 0 is suspended by a High one of 3
// arriving at 2: High runs 2..5, Low resumes and ends at 13.
func TestCPUPreemption(t *testing.T) {
	s := NewSim(SimConfig{})
	cpu := NewCPU(s, "cpu")
	var lowEnd, highEnd, asyncStart, asyncEnd float64
	s.Spawn("worker", func(p *Proc) { cpu.Compute(p, 10, Low); lowEnd = p.Now() })
	s.Spawn("router", func(p *Proc) { p.Wait(2); cpu.Compute(p, 3, High); highEnd = p.Now() })
	s.At(1, func() {
		cpu.Submit(4, Low, func(st, e float64) { asyncStart, asyncEnd = st, e })
	})
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if highEnd != 5 || lowEnd != 13 || asyncStart != 13 || asyncEnd != 17 {
		t.Fatalf("high %g (5) low %g (13) async %g..%g (13..17)", highEnd, lowEnd, asyncStart, asyncEnd)
	}
	if !approx(cpu.BusyTime(), 17) || cpu.Jobs() != 3 {
		t.Fatalf("busy %g jobs %d", cpu.BusyTime(), cpu.Jobs())
	}
}

func TestDeadlockReport(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		a := NewMailbox[int](s, "toA", 0)
		b := NewMailbox[int](s, "toB", 0)
		s.Spawn("alice", func(p *Proc) { p.Wait(1); a.Recv(p); b.Send(p, 1) })
		s.Spawn("bob", func(p *Proc) { b.Recv(p); a.Send(p, 1) })
		s.Spawn("carol", func(p *Proc) { p.Wait(7) })
		err := s.Run(context.Background())
		var d *DeadlockError
		if !errors.As(err, &d) {
			t.Fatalf("want DeadlockError, got %v", err)
		}
		if d.Time != 7 || len(d.Waiting) != 2 ||
			d.Waiting[0] != (Waiter{"alice", "receive from toA"}) ||
			d.Waiting[1] != (Waiter{"bob", "receive from toB"}) {
			t.Fatalf("report %+v", d)
		}
		if !strings.Contains(err.Error(), "alice waits for receive from toA") {
			t.Fatalf("message %q", err)
		}
	})
}

func TestPanicAndNoLeak(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		m := NewMailbox[int](s, "m", 0)
		for i := 0; i < 50; i++ {
			s.Spawn(fmt.Sprint("w", i), func(p *Proc) { m.Recv(p) })
		}
		s.Spawn("bad", func(p *Proc) { p.Wait(3); panic("boom") })
		s.Spawn("late", func(p *Proc) { p.Wait(10) }) // never started
		err := s.Run(context.Background())
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Proc != "bad" || pe.Time != 3 || pe.Value != "boom" {
			t.Fatalf("got %v", err)
		}
	})
}

func TestCallbackPanic(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		s.Spawn("w", func(p *Proc) { p.Wait(5) })
		s.At(2, func() { panic("cb") })
		err := s.Run(context.Background())
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Proc != "(kernel callback)" || pe.Time != 2 {
			t.Fatalf("got %v", err)
		}
	})
}

func TestCancelAndEventLimit(t *testing.T) {
	leakcheck.Check(t, func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := NewSim(SimConfig{})
		for i := 0; i < 10; i++ {
			s.Spawn(fmt.Sprint("loop", i), func(p *Proc) {
				for {
					p.Wait(1)
					if p.Now() == 100 && i == 0 {
						cancel()
					}
				}
			})
		}
		err := s.Run(ctx)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("want cancellation, got %v", err)
		}
	})
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{MaxEvents: 1000})
		for i := 0; i < 3; i++ {
			s.Spawn(fmt.Sprint("loop", i), func(p *Proc) {
				for {
					p.Wait(1)
				}
			})
		}
		if err := s.Run(context.Background()); !errors.Is(err, ErrEventLimit) {
			t.Fatalf("want event limit, got %v", err)
		}
	})
}

func TestDaemonsEndQuietly(t *testing.T) {
	leakcheck.Check(t, func() {
		s := NewSim(SimConfig{})
		m := NewMailbox[int](s, "req", Unbounded)
		var served int
		s.SpawnDaemon("server", func(p *Proc) {
			for {
				m.Recv(p)
				p.Wait(1)
				served++
			}
		})
		s.Spawn("client", func(p *Proc) {
			for i := 0; i < 3; i++ {
				m.Send(p, i)
			}
		})
		if err := s.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if served != 3 || s.Now() != 3 {
			t.Fatalf("served %d at %g", served, s.Now())
		}
	})
}

// randomNetwork builds a small randomized process network (seeded).
func randomNetwork(seed uint64, cfg SimConfig) *Sim {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := NewSim(cfg)
	const n = 20
	boxes := make([]*Mailbox[int], n)
	for i := range boxes {
		boxes[i] = NewMailbox[int](s, fmt.Sprint("box", i), Unbounded)
	}
	cpu := NewCPU(s, "cpu")
	bus := NewResource(s, "bus", 2)
	link := NewChannel(s, ChannelConfig[int]{Name: "link", Buffers: 3, Cost: func(x int) float64 { return 0.25 + float64(x)*0.01 }})
	delays := make([][]float64, n)
	for i := range delays {
		for k := 0; k < 30; k++ {
			delays[i] = append(delays[i], float64(rng.IntN(4))*0.5)
		}
	}
	for i := 0; i < n; i++ {
		s.Spawn(fmt.Sprint("p", i), func(p *Proc) {
			for k, d := range delays[i] {
				p.Wait(d)
				boxes[(i+k)%n].Put(k)
				if v, ok := boxes[i].TryRecv(); ok {
					p.Trace(fmt.Sprint("got ", v))
				}
				bus.Acquire(p)
				cpu.Compute(p, d/2, Priority(k%2))
				bus.Release()
				if i%4 == 0 {
					link.Send(p, k)
				}
			}
		})
	}
	s.Spawn("sink", func(p *Proc) {
		for k := 0; k < 30*5; k++ {
			link.Recv(p)
		}
	})
	return s
}

func TestDeterministicTrace(t *testing.T) {
	var hashes [][32]byte
	for run := 0; run < 3; run++ {
		s := randomNetwork(7, SimConfig{KeepTrace: true})
		if err := s.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(s.TraceRecords()) < 1000 {
			t.Fatalf("only %d trace records", len(s.TraceRecords()))
		}
		hashes = append(hashes, s.TraceHash())
	}
	if hashes[0] != hashes[1] || hashes[0] != hashes[2] {
		t.Fatal("trace hashes differ between identical runs")
	}
	s := randomNetwork(8, SimConfig{Trace: true})
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.TraceHash() == hashes[0] {
		t.Fatal("different seeds gave the same trace hash")
	}
}

// BenchmarkKernelEvents: 1000 processes each waiting 200 random timeouts
// (every event a goroutine switch), plus the same number of kernel
// callbacks. Reports events per second.
func BenchmarkKernelEvents(b *testing.B) {
	var events int64
	start := time.Now()
	for i := 0; i < b.N; i++ {
		s := NewSim(SimConfig{})
		rng := rand.New(rand.NewPCG(1, 2))
		for k := 0; k < 1000; k++ {
			d := 0.5 + rng.Float64()
			s.Spawn("p", func(p *Proc) {
				for j := 0; j < 200; j++ {
					p.Wait(d)
				}
			})
			var tick func()
			n := 0
			tick = func() {
				if n++; n < 200 {
					s.After(d, tick)
				}
			}
			s.After(d, tick)
		}
		if err := s.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
		events += s.Events()
	}
	b.ReportMetric(float64(events)/time.Since(start).Seconds(), "events/s")
}

// BenchmarkKernelPingPong: two processes exchanging messages over a
// rendezvous mailbox and waiting; every event is a switch.
func BenchmarkKernelPingPong(b *testing.B) {
	s := NewSim(SimConfig{})
	ping := NewMailbox[int](s, "ping", 0)
	pong := NewMailbox[int](s, "pong", 0)
	s.Spawn("a", func(p *Proc) {
		for i := 0; i < b.N; i++ {
			ping.Send(p, i)
			pong.Recv(p)
		}
	})
	s.Spawn("b", func(p *Proc) {
		for i := 0; i < b.N; i++ {
			ping.Recv(p)
			p.Wait(1)
			pong.Send(p, i)
		}
	})
	b.ResetTimer()
	start := time.Now()
	if err := s.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(s.Events())/time.Since(start).Seconds(), "events/s")
}

// BenchmarkKernelPreemption: a worker computing tasks of 10 time units
// at Low priority, preempted every time unit by a router's High
// computation of 0.25 on the same CPU (a transputer farm node).
func BenchmarkKernelPreemption(b *testing.B) {
	s := NewSim(SimConfig{})
	cpu := NewCPU(s, "cpu")
	s.SpawnDaemon("worker", func(p *Proc) {
		for {
			cpu.Compute(p, 10, Low)
		}
	})
	s.Spawn("router", func(p *Proc) {
		for i := 0; i < b.N; i++ {
			p.Wait(1)
			cpu.Compute(p, 0.25, High)
		}
		s.Stop()
	})
	b.ResetTimer()
	start := time.Now()
	if err := s.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(s.Events())/time.Since(start).Seconds(), "events/s")
}

// BenchmarkKernelAlt8: a multiplexer in an ALT over 8 buffered channels
// fed by 8 senders (a harness collecting results from 8 links).
func BenchmarkKernelAlt8(b *testing.B) {
	s := NewSim(SimConfig{})
	const k = 8
	chs := make([]*Channel[int], k)
	cases := make([]Case, k)
	got := 0
	for i := range chs {
		chs[i] = NewChannel(s, ChannelConfig[int]{Name: fmt.Sprint("in", i), Buffers: 1,
			Cost: func(int) float64 { return 1 }})
		cases[i] = chs[i].Case(func(int) { got++ })
		s.SpawnDaemon(fmt.Sprint("src", i), func(p *Proc) {
			for {
				chs[i].Send(p, i)
			}
		})
	}
	s.Spawn("mux", func(p *Proc) {
		for got < b.N {
			p.Alt(cases...)
		}
		s.Stop()
	})
	b.ResetTimer()
	start := time.Now()
	if err := s.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(s.Events())/time.Since(start).Seconds(), "events/s")
}
