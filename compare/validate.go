package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/topology"
)

// The names of the inputs in errors (*platform.FieldError and *SizeError,
// which implement platform.Named): the platform's by their JSON names (the
// paper's symbols S, C, A, D, V, m), the options' by their names in
// Options. The command line maps each to its flag.
const (
	FieldTopology      = "topology"
	FieldM             = "m"
	FieldK             = "k"
	FieldDepth         = "depth"
	FieldS             = "S"
	FieldC             = "C"
	FieldA             = "A"
	FieldD             = "D"
	FieldV             = "V"
	FieldProcs         = "procs"
	FieldResultPerUnit = "result_per_unit"
	FieldSlows         = "slows"
	FieldCrashes       = "crashes"
	FieldTasks         = "Tasks"
	FieldQueue         = "Queue"
	FieldStrategies    = "Strategies"
	FieldNMax          = "NMax"
	FieldMaxBytes      = "MaxBytes"
	FieldMaxEvents     = "MaxEvents"
	FieldMaxLPSeconds  = "MaxLPSeconds"
	FieldTrace         = "Trace"
)

// MaxWorkers bounds the platform; MaxTasks a task count.
const (
	MaxWorkers = 10_000
	MaxTasks   = 1_000_000
)

func fieldErr(field string, value any, want string, args ...any) error {
	return platform.Bad("compare", field, value, fmt.Sprintf(want, args...))
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func gs(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Validate checks the platform in compare's words: errors are
// *platform.FieldError naming the field by its JSON name (FieldM, FieldS,
// ...), which the command line maps to its flags. It accepts what
// platform's Validate accepts, which the models' FromPlatform call again.
func Validate(p *platform.Platform) error {
	if err := validateShape(p); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{FieldS, p.S}, {FieldC, p.C}, {FieldResultPerUnit, p.ResultPerUnit}} {
		if !(f.v >= 0) || !finite(f.v) {
			return fieldErr(f.name, gs(f.v), "a finite number >= 0")
		}
	}
	if !(p.A > 0) || !finite(p.A) {
		return fieldErr(FieldA, gs(p.A), "a finite number > 0")
	}
	if !(p.V > 0) || !finite(p.V) {
		return fieldErr(FieldV, gs(p.V), "a finite number > 0")
	}
	if d := float64(p.D); !(d > 0) {
		return fieldErr(FieldD, gs(d), "a number > 0 or inf")
	}
	if err := validateProcs(p); err != nil {
		return err
	}
	return validateFaults(p)
}

func validateShape(p *platform.Platform) error {
	switch p.Kind {
	case platform.Star, platform.Chain:
		if p.M < 1 || p.M > MaxWorkers {
			return fieldErr(FieldM, p.M, "1..%d workers", MaxWorkers)
		}
	case platform.KAry:
		if p.K < 1 || p.K > MaxWorkers {
			return fieldErr(FieldK, p.K, "1..%d", MaxWorkers)
		}
		if n := topology.KAryNodes(p.K, p.Depth+1); p.Depth < 1 || n < 0 || n > MaxWorkers+1 {
			return fieldErr(FieldDepth, p.Depth, "at least 1 and at most %d workers in all ({k}^1 + ... + {k}^depth with {k} = %d)", MaxWorkers, p.K)
		}
	default:
		return fieldErr(FieldTopology, strconv.Quote(string(p.Kind)), "star, chain or kary")
	}
	return nil
}

func validateProcs(p *platform.Platform) error {
	if len(p.PerWorkerA) == 0 {
		return nil
	}
	if p.Kind != platform.Star || len(p.PerWorkerA) != p.M {
		return fieldErr(FieldProcs, fmt.Sprintf("(%d values)", len(p.PerWorkerA)), "one A per worker of a star ({m} = %d)", p.M)
	}
	for i, a := range p.PerWorkerA {
		if !(a > 0) || !finite(a) {
			return fieldErr(FieldProcs, gs(a), "every A > 0 and finite (worker %d)", i+1)
		}
	}
	return nil
}

func validateFaults(p *platform.Platform) error {
	w := p.Workers()
	for i, s := range p.Slows {
		if s.Worker < 1 || s.Worker > w || !(s.At >= 0) || !finite(s.At) || !(s.Factor > 0) || !finite(s.Factor) {
			return fieldErr(FieldSlows, fmt.Sprintf("%d@%s=%s", s.Worker, gs(s.At), gs(s.Factor)),
				"worker 1..%d, a time >= 0 and a finite speed factor > 0 (slow %d)", w, i+1)
		}
	}
	for i, c := range p.Crashes {
		if c.Worker < 1 || c.Worker > w || !(c.At >= 0) || !finite(c.At) {
			return fieldErr(FieldCrashes, fmt.Sprintf("%d@%s", c.Worker, gs(c.At)), "worker 1..%d and a finite time >= 0 (crash %d)", w, i+1)
		}
	}
	return nil
}

// withDefaults fills the options' zero values.
func (o Options) withDefaults() Options {
	if len(o.Tasks) == 0 {
		o.Tasks = []int{10, 100, 1000}
	}
	if o.Queue == 0 {
		o.Queue = 4
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxEvents == 0 {
		o.MaxEvents = DefaultMaxEvents
	}
	if o.MaxLPSeconds == 0 {
		o.MaxLPSeconds = DefaultMaxLPSeconds
	}
	return o
}

// validate checks the options (after withDefaults).
func (o Options) validate() error {
	for _, m := range o.Tasks {
		if m < 1 || m > MaxTasks {
			return fieldErr(FieldTasks, m, "task counts 1..%d", MaxTasks)
		}
	}
	if o.Queue < 1 {
		return fieldErr(FieldQueue, o.Queue, "an integer >= 1")
	}
	if o.NMax < 0 {
		return fieldErr(FieldNMax, o.NMax, "an integer >= 0 (0: n_min + 200)")
	}
	for _, s := range o.Strategies {
		if !slices.Contains(Strategies, s) {
			return fieldErr(FieldStrategies, strconv.Quote(s), "one of %s", strings.Join(Strategies, ", "))
		}
	}
	for _, l := range []struct {
		field string
		v     float64
	}{{FieldMaxBytes, float64(o.MaxBytes)}, {FieldMaxEvents, float64(o.MaxEvents)}, {FieldMaxLPSeconds, o.MaxLPSeconds}} {
		if !(l.v >= 0) || math.IsInf(l.v, 0) {
			return fieldErr(l.field, gs(l.v), "a finite limit >= 0 (0: the default)")
		}
	}
	return nil
}

// uses returns whether a strategy is selected.
func (o Options) uses() func(string) bool {
	return func(s string) bool { return len(o.Strategies) == 0 || slices.Contains(o.Strategies, s) }
}

// Runs counts the strategy runs of Run (its progress steps): the planned
// strategies, and each farming strategy at each task count.
func (o Options) Runs() int {
	o = o.withDefaults()
	use := o.uses()
	n := 0
	if use("dls") || use("dls-known") {
		n++
	}
	if use("dls-known") {
		n++
	}
	for _, s := range farms {
		if use(s) {
			n += len(o.Tasks)
		}
	}
	return n
}
