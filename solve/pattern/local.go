package pattern

import (
	"fmt"
	"iter"
	"slices"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
)

// local is the local search: drop one message of the best pattern, add
// one of the full pattern's, or move one, while that helps (first
// improvement; drops first, last message first), within MaxLocalSolves
// moves and on patterns of at most MaxLocalMessages messages. It reaches
// patterns that leave a destination out of some stages only, which
// neither the prune nor the destination subsets do. A move to a pattern
// the chain has solved (seen) takes its place in the budget but no LP
// solve: it cannot improve the best.
func (sr *searcher) local() error {
	budget := MaxLocalSolves
	if len(sr.best.Chunks) > MaxLocalMessages {
		budget = 0
		sr.info.Note = joinNote(sr.info.Note, fmt.Sprintf("no local search: more than %d messages", MaxLocalMessages))
	}
	for improved := true; improved && budget > 0; {
		var err error
		improved, err = sr.improve(&budget)
		if err != nil {
			return err
		}
	}
	if budget == 0 && len(sr.best.Chunks) <= MaxLocalMessages {
		sr.info.Note = joinNote(sr.info.Note, fmt.Sprintf("local search stopped after %d LP solves", MaxLocalSolves))
	}
	return nil
}

// improve solves the moves of the best pattern in turn, each taking one
// of *budget, and reports whether one was better (it is then the best,
// and the search starts over from it).
func (sr *searcher) improve(budget *int) (bool, error) {
	for cand := range moves(sr.p, sr.n, patternOf(sr.best)) {
		if *budget <= 0 {
			break
		}
		*budget--
		if err := stopped(sr.opt); err != nil {
			return false, err
		}
		s, _, err := sr.solve(cand, nil, true)
		if err != nil {
			if cerr := stopped(sr.opt); cerr != nil {
				return false, cerr
			}
			continue // infeasible without it (buffer capacity)
		}
		if s == nil {
			continue // solved before in the chain
		}
		sr.info.Candidates++
		if s.Cmax < sr.best.Cmax*(1-tieTol) {
			sr.best = s
			sr.info.Moves++
			return true, nil
		}
	}
	return false, nil
}

// moves yields the neighbours of pattern pat in the order the local
// search tries them: pat less one message (the last first), pat plus one
// message of the full n-stage pattern, and pat with one message moved to
// a place of the full pattern it does not hold (another stage or
// destination) — for each added message in turn, the messages of pat in
// order. They are built one at a time: the search stops after
// MaxLocalSolves of them, and a large n has far more.
func moves(p *problem.Problem, n int, pat formulations.Pattern) iter.Seq[formulations.Pattern] {
	return func(yield func(formulations.Pattern) bool) {
		for j := len(pat) - 1; j >= 0 && len(pat) > 1; j-- {
			if !yield(slices.Delete(slices.Clone(pat), j, j+1)) {
				return
			}
		}
		adds := additions(p, n, pat)
		for add := range adds {
			if !yield(add) {
				return
			}
		}
		for add := range adds {
			for j := range add {
				if !slices.Contains(pat, add[j]) {
					continue
				}
				if !yield(slices.Delete(slices.Clone(add), j, j+1)) {
					return
				}
			}
		}
	}
}

// additions yields the patterns with one message of the full n-stage
// pattern added to pat, in the full pattern's order, each in that order
// too (pat's messages are messages of the full pattern, in its order).
func additions(p *problem.Problem, n int, pat formulations.Pattern) iter.Seq[formulations.Pattern] {
	return func(yield func(formulations.Pattern) bool) {
		have := make(map[formulations.Msg]bool, len(pat))
		for _, m := range pat {
			have[m] = true
		}
		at := 0 // messages of pat before the current place in the full pattern
		for _, m := range formulations.FullPattern(p, n) {
			if have[m] {
				at++
				continue
			}
			if !yield(slices.Insert(slices.Clone(pat), at, m)) {
				return
			}
		}
	}
}
