package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/optimize"
	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// The default limits of a run (Options): together they keep a comparison
// within about two minutes and 2 GB on a small machine (2 cores shared):
// the kernel does 0.8 to 1.2 million events a second in these models
// (Day's harness on a chain of 100: 17.9 million events in 21 s; Pfarm on
// a chain of 100, S = 0: 9.9 million in 12 s), and the LP estimate of
// lpSeconds is conservative by a factor of about 2 (docs/compare.md).
const (
	DefaultMaxBytes     = 1 << 30
	DefaultMaxEvents    = 50_000_000
	DefaultMaxLPSeconds = 60
)

// The measured constants of the estimates (docs/compare.md, Limits).
const (
	// A replay costs about 9 kernel events per message passage (one chunk
	// received by one node) over the three replays of a planned strategy
	// (the timed and earliest replays of the verification, the earliest
	// one on the real platform): stars 9.0, trees 5.2 to 7.4; and a few
	// per run and per fault.
	eventsPerPassage, eventsPerReplay = 10, 50
	// NEPP on a star: 6 to 7 events per task (request, assignment,
	// result) and up to 13 per node for start-up and replication.
	neppPerTask, neppPerNode = 8, 16
	// Pfarm and Day's harness: about 9 events per message (8.5 to 9.5
	// measured), and 7 per node to set a node up.
	farmPerMessage, farmPerNode = 10, 10
	// Day's harness D: every job and result crosses the line, 14 to 18
	// events per task and worker (a chain of 100, 10,000 tasks: 17.9
	// million), and up to 170 per worker with few tasks.
	harnessPerHop, harnessPerNode = 20, 30
	// Memory: about 40 bytes per task and 7 KB per NEPP node, 25 KB per
	// Pfarm or Day node (their processes and channels) measured.
	bytesPerTask, bytesPerNeppNode, bytesPerFarmNode = 64, 8 << 10, 32 << 10
	// A trace (Options.Trace) keeps every span of every run: at most one
	// per kernel event, and a span costs 760 to 850 bytes of peak memory
	// (pfarm's measurement, docs/pfarm.md; Day's 800 bytes an event).
	traceBytesPerEvent = 1 << 10
)

// Cost is what one strategy run is estimated to need, from the inputs.
type Cost struct {
	Strategy string
	// Tasks is the task count of a farm (0 for the planned strategies).
	Tasks int
	// Bytes is the peak memory of the run's largest model (the LP, or the
	// simulation), Events its kernel events, LPSeconds the Clp time of
	// its search over n (planned strategies).
	Bytes     int64
	Events    float64
	LPSeconds float64
	// What describes the run for messages ("the LP of n_min = 500 stages
	// (2000 messages)").
	What string
}

// SizeError is a run estimated to exceed a limit of Options. It is
// returned before anything in proportion to the inputs is built, and it
// names the limit's field (FieldMaxBytes, FieldMaxEvents,
// FieldMaxLPSeconds) and, in Hint, the inputs that would help ({D}, ...).
type SizeError struct {
	Cost
	Field           string
	Estimate, Limit string
	Hint            string
}

// Error implements error.
func (e *SizeError) Error() string { return e.Format(func(f string) string { return f }) }

// Format implements platform.Named: the limit and the hint's fields are
// rendered by name.
func (e *SizeError) Format(name func(string) string) string {
	who := e.Strategy
	if e.Tasks > 0 {
		who = fmt.Sprintf("%s with %d tasks", e.Strategy, e.Tasks)
	}
	return fmt.Sprintf("compare: %s: %s needs about %s, more than the limit of %s (%s); %s",
		who, e.What, e.Estimate, e.Limit, name(e.Field), platform.Expand(e.Hint, name))
}

// Check validates the platform and the options and refuses a run whose
// estimate (Estimate) exceeds a limit of the options; it allocates nothing
// in proportion to the inputs.
func Check(p *platform.Platform, o Options) error {
	o = o.withDefaults()
	if err := Validate(p); err != nil {
		return err
	}
	if err := o.validate(); err != nil {
		return err
	}
	costs, err := Estimate(p, o)
	if err != nil {
		return err
	}
	return o.within(costs)
}

// within checks the costs against the limits: memory run by run (with
// the trace recorded so far, which every run adds to), LP time and events
// summed over the runs (they follow each other).
func (o Options) within(costs []Cost) error {
	var events, lp, traced float64
	for i, c := range costs {
		if o.Trace != nil {
			traced += traceBytesPerEvent * c.Events
		}
		if need := float64(c.Bytes) + traced; need > float64(o.MaxBytes) {
			est, h := fmt.Sprintf("%d MB", c.Bytes>>20), hint(c)
			if traced > 0 {
				c.What = withBefore(c, i > 0, i)
				est = fmt.Sprintf("%.0f MB with the trace", math.Ceil(need/(1<<20)))
				h += ", or record no trace ({Trace})"
			}
			return &SizeError{Cost: c, Field: FieldMaxBytes, Estimate: est, Limit: fmt.Sprintf("%d MB", o.MaxBytes>>20), Hint: h}
		}
		events += c.Events
		lp += c.LPSeconds
		if lp > o.MaxLPSeconds {
			c.What = withBefore(c, lp > c.LPSeconds, i)
			return &SizeError{Cost: c, Field: FieldMaxLPSeconds, Estimate: fmt.Sprintf("%.3g s of LP solving", lp),
				Limit: fmt.Sprintf("%g s", o.MaxLPSeconds), Hint: hint(c)}
		}
		if events > float64(o.MaxEvents) {
			c.What = withBefore(c, events > c.Events, i)
			return &SizeError{Cost: c, Field: FieldMaxEvents, Estimate: fmt.Sprintf("%.3g simulation events", events),
				Limit: fmt.Sprintf("%.3g", float64(o.MaxEvents)), Hint: hint(c)}
		}
	}
	return nil
}

// withBefore is a run's description, with the runs before it when they
// count towards the total.
func withBefore(c Cost, before bool, i int) string {
	if !before {
		return c.What
	}
	return fmt.Sprintf("%s, with the %s before it,", c.What, plural(i, "run"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// hint says which inputs make a run smaller.
func hint(c Cost) string {
	switch c.Strategy {
	case "dls", "dls-known":
		return "a larger {D} needs fewer stages and a smaller {NMax} stops the search sooner; or leave the planned strategies out ({Strategies})"
	case "harness":
		return "every result crosses the whole line: use fewer {Tasks} or fewer workers ({m})"
	}
	return "use fewer {Tasks}, or leave the strategy out ({Strategies})"
}

// Estimate returns the estimated cost of every run of Run, in Run's
// order, from the inputs alone; its errors are *platform.FieldError (a
// search over n that cannot reach n_min).
func Estimate(p *platform.Platform, o Options) ([]Cost, error) {
	o = o.withDefaults()
	use := o.uses()
	var out []Cost
	if use("dls") || use("dls-known") {
		c, err := planCost(nominal(p), o, "dls")
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if use("dls-known") && p.Perturbed() && p.Kind == platform.Star {
		if q, _ := known(p); q != nil {
			c, err := planCost(q, o, "dls-known")
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	for i := range out { // the faults' events in the replays
		out[i].Events += eventsPerReplay * float64(len(p.Slows)+len(p.Crashes))
	}
	for _, m := range o.Tasks {
		for _, s := range farms {
			if use(s) && skip(p, s) == "" {
				out = append(out, farmCost(p, o, s, m))
			}
		}
	}
	return out, nil
}

// planCost estimates a planned strategy: its search over n from n_min
// (optimize.OverN), the final solve at the best n, and the replays.
func planCost(p *platform.Platform, o Options, strategy string) (Cost, error) {
	c := Cost{Strategy: strategy}
	pr, err := problem.FromPlatform(p)
	if err != nil {
		return c, err
	}
	nmin, nmax, err := stageRange(pr, o)
	if err != nil {
		return c, err
	}
	dests := len(pr.Dests())
	c.What = fmt.Sprintf("the LP of n_min = %d stages (%d messages)", nmin, nmin*dests)
	// The LP of n_min must fit; OverN stops before a larger n that does
	// not (solve.SizeError). The LP time is optimize's estimate of OverN.
	est, err := optimize.EstimateOverN(pr, optimize.Options{NMax: nmax})
	if err != nil {
		return c, err
	}
	c.Bytes = est.First.Bytes
	end := est.End
	c.LPSeconds = est.LPSeconds
	if end > nmin {
		c.What = fmt.Sprintf("the search over n = %d..%d (LPs of %d to %d messages)", nmin, end, nmin*dests, end*dests)
	}
	passages, deliveries := stageTraffic(pr)
	c.Events = eventsPerPassage*float64(end)*passages + eventsPerReplay
	if rb := replay.EstimateBytes(pr.Kind, pr.M, pr.P, pr.H, float64(end)*deliveries); rb > c.Bytes {
		c.Bytes = rb
	}
	return c, nil
}

// stageRange is the range of n the search may evaluate: n_min to NMax
// (or n_min + optimize.DefaultSpan).
func stageRange(pr *problem.Problem, o Options) (int, int, error) {
	nmin := pr.NMin()
	if nmin >= math.MaxInt32 {
		return 0, 0, fieldErr(FieldD, gs(pr.D), "a buffer large enough for fewer than 2^31 stages (V/D is %.3g)", pr.V/pr.D)
	}
	nmax := o.NMax
	if nmax == 0 {
		nmax = nmin + optimize.DefaultSpan
	}
	if nmax < nmin {
		return 0, 0, fieldErr(FieldNMax, nmax, "at least n_min = %d, the fewest stages that carry V = %s with buffers of {D} = %s; raise {NMax} or {D}",
			nmin, gs(pr.V), gs(pr.D))
	}
	return nmin, nmax, nil
}

// stageTraffic counts the message passages of one stage — the nodes that
// receive each stage's messages (a star: one per processor; a tree: the
// message to layer l is received by every node of layers 1..l) — and its
// deliveries (the processors of each message's destination).
func stageTraffic(pr *problem.Problem) (passages, deliveries float64) {
	if pr.Kind == topology.Star {
		d := float64(len(pr.Dests()))
		return d, d
	}
	// below[l] = Σ_{j<=l} (nodes of layer j), built once (h may be 10^4)
	below := make([]float64, pr.H+1)
	size := 1.0
	for j := 1; j <= pr.H; j++ {
		size *= float64(pr.P) // topology.LayerSize of an ordinary tree
		below[j] = below[j-1] + size
	}
	for _, l := range pr.Dests() {
		deliveries += below[l] - below[l-1]
		passages += below[l]
	}
	return passages, deliveries
}

// farmCost estimates one farming run with m tasks.
func farmCost(p *platform.Platform, o Options, strategy string, m int) Cost {
	w := float64(p.Workers())
	c := Cost{Strategy: strategy, Tasks: m, What: fmt.Sprintf("the simulation of %d tasks on %d workers", m, int(w))}
	tasks := float64(m)
	switch {
	case p.Kind == platform.Star:
		c.Events = neppPerTask*tasks + neppPerNode*w*float64(o.Queue)
		c.Bytes = int64(bytesPerTask*tasks + bytesPerNeppNode*w)
	case strategy == "harness":
		// every job and result crosses the line to the harvester
		c.Events = harnessPerHop*tasks*(w+1) + harnessPerNode*w
		c.Bytes = int64(bytesPerTask*tasks + bytesPerFarmNode*w)
	default:
		c.Events = farmPerMessage*2*tasks*(pfarmDepth(p, m)+1) + farmPerNode*w
		c.Bytes = int64(bytesPerTask*tasks + bytesPerFarmNode*w)
	}
	return c
}

// pfarmDepth bounds how deep Pfarm's tasks travel: a k-ary tree's depth;
// on a chain, the workers the master's link can keep busy, A·x/(S + C·x)
// (tasks of x units, at the slowest speed factor), and two more for the
// tasks the buffers hold, at most the chain.
func pfarmDepth(p *platform.Platform, m int) float64 {
	if p.Kind != platform.Chain {
		return float64(p.Depth)
	}
	x := p.V / float64(m)
	f := 1.0
	for _, s := range p.Slows {
		f = math.Min(f, s.Factor)
	}
	link := p.S + p.C*x
	d := float64(p.M)
	if link > 0 {
		d = math.Min(d, math.Ceil(p.A*x/f/link)+2)
	}
	return d
}

// Seconds is a rough estimate of a run's time: its LP seconds and a
// microsecond per simulation event (0 when the inputs are invalid).
func Seconds(p *platform.Platform, o Options) float64 {
	costs, err := Estimate(p, o)
	if err != nil {
		return 0
	}
	t := 0.0
	for _, c := range costs {
		t += c.LPSeconds + c.Events*1e-6
	}
	return t
}

// String renders a cost in one line (for tests and messages).
func (c Cost) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", c.Strategy)
	if c.Tasks > 0 {
		fmt.Fprintf(&b, "/%d", c.Tasks)
	}
	fmt.Fprintf(&b, ": %d MB, %.3g events, %.3g s of LP", c.Bytes>>20, c.Events, c.LPSeconds)
	return b.String()
}
