package pattern

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/dlsched/dlsched/formulations"
)

// seqKey identifies the LP of a pattern: the SHA-256 of its destinations
// in send order. The LP of a pattern depends on nothing else — the
// network of formulations.NewNetwork is built from the order of the
// messages and their destinations, and the stage numbers are labels — so
// two patterns with the same key are the same LP, whatever their stage
// numbers or the stage count they are solved at (a pattern of k stages is
// a pattern of every larger count).
type seqKey [sha256.Size]byte

// keyOf returns the key of pat.
func keyOf(pat formulations.Pattern) seqKey {
	buf := make([]byte, 0, 2*len(pat)+8)
	buf = binary.AppendUvarint(buf, uint64(len(pat)))
	for _, m := range pat {
		buf = binary.AppendUvarint(buf, uint64(m.Dest))
	}
	return sha256.Sum256(buf)
}

// seen is the record of the patterns a chain of Search has solved, with
// the makespan each led to (its pruned schedule's; +Inf when infeasible),
// one node per stage count: a count's node adds to the node of the count
// below, which it does not change, so that a cached count keeps the
// record it was computed with (Cache). A pattern in the record cannot
// improve on the chain's best schedule: when it was solved its schedule
// either became the best or was not shorter than the best by more than
// tieTol, and the best has only become shorter since (each count starts
// from the one below). Solving it again would solve the same LP again.
type seen struct {
	parent *seen
	keys   map[seqKey]float64
	// known and reused count, over the chain up to this node, the
	// candidates skipped because they were solved before and the stage
	// counts whose greedy prune was that of the top count (topReuse).
	known, reused int
}

// child returns an empty record on top of s (s may be nil).
func (s *seen) child() *seen {
	c := &seen{parent: s, keys: map[seqKey]float64{}}
	if s != nil {
		c.known, c.reused = s.known, s.reused
	}
	return c
}

// get returns the makespan the pattern with key k led to, if the chain
// has solved it.
func (s *seen) get(k seqKey) (float64, bool) {
	for n := s; n != nil; n = n.parent {
		if c, ok := n.keys[k]; ok {
			return c, true
		}
	}
	return 0, false
}

// put records that the pattern with key k led to makespan c.
func (s *seen) put(k seqKey, c float64) { s.keys[k] = c }
