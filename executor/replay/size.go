package replay

import (
	"fmt"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// DefaultMaxBytes is the memory limit of one replay when Options.MaxBytes
// is 0 (4 GiB).
const DefaultMaxBytes = 4 << 30

// Measured peak memory of Verify (both runs) above the process's own, on
// this project's benchmark machine (README, Reliability): about 4.5 KB per
// node of a tree or binomial tree (a relaying process, a computing process
// and their channels per node), 1.5 KB per star processor (no relay), and
// 50 bytes for each time a message passes a node (kernel events and the
// recorder's arrays).
const (
	bytesPerTreeNode = 4500
	bytesPerStarNode = 1500
	bytesPerPassage  = 50
)

// bytesPerTraceEvent is the memory of one event of a replay's trace
// (Options.Recorder with a *trace.Trace): 510 bytes live (the event and
// its args; the verification of the p = 2, h = 10 tree with 4 stages,
// 24,472 events, 11 MB), and 845 bytes of peak resident memory with the
// garbage collector's slack (dlsched solve of that tree with D = 1,
// V = 1,000, 60 stages: 364 MB with --trace, 348,352 events, 70 MB
// without), rounded up.
const bytesPerTraceEvent = 900

// TraceBytes predicts the memory of the trace of one replay (the events
// Options.Recorder receives) on a platform of the given kind with
// deliveries chunk-to-processor deliveries: a transfer and a computation
// per delivery of a star, and in a tree a computation per delivery and
// about two transfers (EstimateBytes' passages).
func TraceBytes(kind topology.Kind, deliveries float64) int64 {
	events := 3 * deliveries
	if kind == topology.Star {
		events = 2 * deliveries
	}
	b := bytesPerTraceEvent * events
	const max = 1 << 62
	if !(b < max) {
		return max
	}
	return int64(b)
}

// EstimateBytes predicts the peak memory of Verify for a platform of the
// given kind (m processors of a star, or out-degree p and height h of a
// tree) on which deliveries chunk-to-processor deliveries take place (Σ
// over the chunks of the processors of their destination). Callers check
// it before solving, when deliveries is known only as an upper bound (n
// stages times the computing processors).
func EstimateBytes(kind topology.Kind, m, p, h int, deliveries float64) int64 {
	nodes := topology.TotalNodes(kind, m, p, h)
	per, passages := float64(bytesPerTreeNode), 2*deliveries
	if kind == topology.Star {
		per, passages = bytesPerStarNode, deliveries
	}
	b := per*nodes + bytesPerPassage*passages
	const max = 1 << 62
	if !(b < max) {
		return max
	}
	return int64(b)
}

// CheckPlatform returns a *SizeError if EstimateBytes of the platform and
// deliveries exceeds limit. Solvers call it before solving, with
// deliveries = n stages times the computing processors, so that a
// schedule is never solved only to be too large to verify.
func CheckPlatform(kind topology.Kind, m, p, h int, deliveries float64, limit int64) error {
	return checkPlatform(kind, m, p, h, deliveries, limit, false)
}

// CheckTracedPlatform is CheckPlatform for a replay that also records its
// trace: EstimateBytes plus TraceBytes.
func CheckTracedPlatform(kind topology.Kind, m, p, h int, deliveries float64, limit int64) error {
	return checkPlatform(kind, m, p, h, deliveries, limit, true)
}

func checkPlatform(kind topology.Kind, m, p, h int, deliveries float64, limit int64, traced bool) error {
	b := EstimateBytes(kind, m, p, h, deliveries)
	if traced {
		b = min(b+TraceBytes(kind, deliveries), 1<<62)
	}
	if b > limit {
		return &SizeError{Nodes: topology.TotalNodes(kind, m, p, h), Bytes: b, Limit: limit, Traced: traced}
	}
	return nil
}

// SizeError reports a replay whose estimated memory exceeds the limit; it
// is returned before anything in proportion to the platform is allocated.
type SizeError struct {
	// Nodes is the platform's node count, Bytes the estimate, Limit the
	// limit it exceeds.
	Nodes        float64
	Bytes, Limit int64
	// Traced: the estimate includes the replay's trace (TraceBytes).
	Traced bool
}

// Error implements error.
func (e *SizeError) Error() string {
	what := "replaying"
	if e.Traced {
		what = "replaying and tracing"
	}
	return fmt.Sprintf("%s the schedule on its platform of %.4g nodes needs about %d MB, more than the limit of %d MB",
		what, e.Nodes, e.Bytes>>20, e.Limit>>20)
}

// newCheckedPlan is newPlan after the size check of opt.MaxBytes.
func newCheckedPlan(s *schedule.Schedule, needHops bool, opt *Options) (*plan, error) {
	if err := checkLimit(s, opt); err != nil {
		return nil, err
	}
	return newPlan(s, needHops)
}

// checkLimit refuses a replay of s whose estimate exceeds opt.MaxBytes.
func checkLimit(s *schedule.Schedule, opt *Options) error {
	if s == nil {
		return nil
	}
	kind, err := topology.ParseKind(s.Problem.Topology)
	if err != nil {
		return nil // newPlan reports it
	}
	limit := opt.MaxBytes
	if limit == 0 {
		limit = DefaultMaxBytes
	}
	if limit > 0 {
		if err := checkSize(s, kind, limit, opt.Recorder != nil); err != nil {
			return fmt.Errorf("executor: %w", err)
		}
	}
	return nil
}

// checkSize refuses a replay of s (traced: with its trace) estimated to
// need more than limit bytes.
func checkSize(s *schedule.Schedule, kind topology.Kind, limit int64, traced bool) error {
	pr := &s.Problem
	m := pr.M
	if kind == topology.Star && m == 0 {
		m = len(pr.Procs)
	}
	if kind != topology.Star && (pr.P < 1 || pr.H < 1 || pr.H > 64) {
		return nil // newPlan reports the bad shape
	}
	deliveries := 0.0
	for i := range s.Chunks {
		if d := s.Chunks[i].Dest(); kind != topology.Star && d >= 1 && d <= pr.H {
			deliveries += topology.LayerSize(kind, pr.P, d)
		} else {
			deliveries++
		}
	}
	return checkPlatform(kind, m, pr.P, pr.H, deliveries, limit, traced)
}
