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
	if b := EstimateBytes(kind, m, p, h, deliveries); b > limit {
		return &SizeError{Nodes: topology.TotalNodes(kind, m, p, h), Bytes: b, Limit: limit}
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
}

// Error implements error.
func (e *SizeError) Error() string {
	return fmt.Sprintf("replaying the schedule on its platform of %.4g nodes needs about %d MB, more than the limit of %d MB",
		e.Nodes, e.Bytes>>20, e.Limit>>20)
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
		if err := checkSize(s, kind, limit); err != nil {
			return fmt.Errorf("executor: %w", err)
		}
	}
	return nil
}

// checkSize refuses a replay of s estimated to need more than limit bytes.
func checkSize(s *schedule.Schedule, kind topology.Kind, limit int64) error {
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
	return CheckPlatform(kind, m, pr.P, pr.H, deliveries, limit)
}
