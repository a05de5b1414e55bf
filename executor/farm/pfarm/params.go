package pfarm

import (
	"fmt"
	"math"

	"github.com/dlsched/dlsched/platform"
)

// Params are the parameters of a Pfarm run (Section 3 of the paper). All
// times are in seconds, sizes in bytes.
type Params struct {
	// M is the number of tasks.
	M int
	// Te is the mean task execution time T_e; BetaE the overhead β_e of
	// executing a task locally (α = T_e + β_e); BetaF the CPU overhead β_f
	// of forwarding a task to a child and its result to the parent.
	Te, BetaE, BetaF float64
	// Tau is the link transfer time per byte τ (the paper's link rate
	// 1.76 Mbytes/s is τ = 1/1.76e6); Startup a fixed time per message
	// (0 on the paper's transputer links; dlsched's S).
	Tau, Startup float64
	// Dt and Dr are the sizes of a task and a result message.
	Dt, Dr float64
	// Tasks draws the task times (nil: every task takes Te).
	Tasks TaskDist
	// Seed seeds the random task times.
	Seed uint64
}

// Paper defaults (Table 3: β_e = 482 µs, β_f = 453 µs; Section 5.5: link
// rate 1.76 Mbytes/s; Table 1: the synthetic tasks carry 4 bytes each way).
const (
	DefaultBetaE = 482e-6
	DefaultBetaF = 453e-6
	DefaultTau   = 1 / 1.76e6
	DefaultDt    = 4
	DefaultDr    = 4
)

// MaxTasks bounds M (the simulation generates tasks lazily; this keeps
// counters sane; the run limits of Config refuse long simulations).
const MaxTasks = 1_000_000_000

// pkg prefixes the package's errors ("pfarm: invalid Params.Te 0: ...").
const pkg = "pfarm"

// Alpha returns α = T_e + β_e, the CPU time of a task executed locally.
// Section 5 prints "T = M(T_e − β_e)" for the one-worker calibration, but
// its own Tables 3 and 6 are reproduced only with α = T_e + β_e (e.g.
// Table 6, N = 1, T_e = 10 ms: 10,000 × 10.482 ms = 104.8 s, printed
// 104.880; with T_e − β_e it would be 95.2 s): see docs/pfarm.md.
func (p *Params) Alpha() float64 { return p.Te + p.BetaE }

// Validate checks the parameters; errors are *platform.FieldError. The task
// distribution is checked before T_e, which is its mean when it is set.
func (p *Params) Validate() error {
	if p.M < 1 || p.M > MaxTasks {
		return platform.Bad(pkg, "Params.M", p.M, fmt.Sprintf("a number of tasks from 1 to %d", MaxTasks))
	}
	if p.Tasks != nil {
		if want := p.Tasks.validate(p.M); want != "" {
			return platform.Bad(pkg, "Params.Tasks", p.Tasks.String(), want)
		}
	}
	for _, x := range []struct {
		field string
		v     float64
		want  string
		pos   bool
	}{
		{"Params.Te", p.Te, "a task time > 0 seconds", true},
		{"Params.BetaE", p.BetaE, "an overhead >= 0 seconds", false},
		{"Params.BetaF", p.BetaF, "an overhead >= 0 seconds", false},
		{"Params.Tau", p.Tau, "a time >= 0 seconds per byte", false},
		{"Params.Startup", p.Startup, "a time >= 0 seconds", false},
		{"Params.Dt", p.Dt, "a size >= 0 bytes", false},
		{"Params.Dr", p.Dr, "a size >= 0 bytes", false},
	} {
		if math.IsInf(x.v, 0) || !(x.v > 0 || !x.pos && x.v == 0) {
			return platform.Bad(pkg, x.field, g(x.v), x.want)
		}
	}
	return nil
}
