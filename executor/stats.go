package executor

import (
	"hash/fnv"
	"math/rand/v2"
)

// Stats are the statistics of one kernel object (a CPU, a Channel, a
// Mailbox or a Resource) from its creation to the current time. Fields that
// do not apply to a kind are zero.
type Stats struct {
	// Name and Kind ("cpu", "channel", "mailbox", "resource") identify
	// the object.
	Name string
	Kind string
	// Elapsed is the time since the object was created.
	Elapsed float64
	// Busy is the time the object worked: a CPU computing (a stalled CPU
	// holding a computation counts as busy), a channel carrying a
	// message, a resource's units held (unit-time: two units held for 3
	// count 6).
	Busy float64
	// Utilisation is Busy / Elapsed (for a resource, divided by its
	// capacity too), 0 when Elapsed is 0.
	Utilisation float64
	// Count is the number of completed computations (CPU), transfers
	// (channel), delivered messages (mailbox) or acquisitions (resource).
	Count int64
	// Units is the total size of the messages a channel carried, as
	// measured by ChannelConfig.Size.
	Units float64
	// MeanQueue and MaxQueue are the time-weighted mean and the maximum
	// of the queue: computations waiting for a CPU, senders waiting for
	// a channel, messages queued in a mailbox, processes waiting for a
	// resource.
	MeanQueue float64
	MaxQueue  float64
	// Preemptions counts the computations a CPU suspended for a higher
	// priority.
	Preemptions int64
	// Lost counts messages discarded by a broken mailbox or channel and
	// computations dropped by a broken CPU.
	Lost int64
}

// statser is an object that reports Stats.
type statser interface{ Stats() Stats }

// register records an object for Sim.Stats.
func (s *Sim) register(o statser) { s.objects = append(s.objects, o) }

// Stats returns the statistics of every CPU, Channel, Mailbox and Resource
// of the simulation, in creation order, up to the current time. Call it
// after Run (or from a process) to report utilisation and traffic.
func (s *Sim) Stats() []Stats {
	out := make([]Stats, len(s.objects))
	for i, o := range s.objects {
		out[i] = o.Stats()
	}
	return out
}

// level integrates a piecewise-constant quantity over time (a queue
// length, units in use) for its time-weighted mean and its maximum.
type level struct {
	t0, t, v, area, max float64
}

func (l *level) start(t float64) { l.t0, l.t = t, t }

func (l *level) set(t, v float64) {
	l.area += l.v * (t - l.t)
	l.t, l.v = t, v
	if v > l.max {
		l.max = v
	}
}

// integral returns the integral of the quantity from its start to now.
func (l *level) integral(now float64) float64 { return l.area + l.v*(now-l.t) }

func (l *level) mean(now float64) float64 {
	if now <= l.t0 {
		return l.v
	}
	return l.integral(now) / (now - l.t0)
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// Rand returns the random stream called name: a math/rand/v2 generator
// seeded from (SimConfig.Seed, name) alone, so that a model's task times do
// not change when another stream is added or drawn from in a different
// order. The same name returns the same stream.
func (s *Sim) Rand(name string) *rand.Rand {
	if r, ok := s.rngs[name]; ok {
		return r
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	r := rand.New(rand.NewPCG(s.seed, h.Sum64()))
	if s.rngs == nil {
		s.rngs = map[string]*rand.Rand{}
	}
	s.rngs[name] = r
	return r
}
