package pattern

import (
	"fmt"
	"slices"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solve/engine"
)

// local is the local search: drop one message of the best pattern, add
// one of the full pattern's, or move one, while that helps (first
// improvement; drops first, last message first), within MaxLocalSolves LP
// solves and on patterns of at most MaxLocalMessages messages. It reaches
// patterns that leave a destination out of some stages only, which
// neither the prune nor the destination subsets do.
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
// LP solve of *budget, and reports whether one was better (it is then the
// best, and the search starts over from it).
func (sr *searcher) improve(budget *int) (bool, error) {
	for _, cand := range moves(sr.p, sr.n, patternOf(sr.best)) {
		if *budget <= 0 {
			break
		}
		*budget--
		if err := stopped(sr.opt); err != nil {
			return false, err
		}
		s, err := engine.SolveFrom(sr.p, sr.n, cand, sr.opt.Engine)
		if err != nil {
			if cerr := stopped(sr.opt); cerr != nil {
				return false, cerr
			}
			continue // infeasible without it (buffer capacity)
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

// moves returns the neighbours of pattern pat in the order the local
// search tries them: pat less one message (the last first), pat plus one
// message of the full n-stage pattern, and pat with one message moved to
// a place of the full pattern it does not hold (another stage or
// destination).
func moves(p *problem.Problem, n int, pat formulations.Pattern) []formulations.Pattern {
	var out []formulations.Pattern
	for j := len(pat) - 1; j >= 0 && len(pat) > 1; j-- {
		out = append(out, slices.Delete(slices.Clone(pat), j, j+1))
	}
	adds := additions(p, n, pat)
	out = append(out, adds...)
	for _, add := range adds {
		for j := range add {
			if !slices.Contains(pat, add[j]) {
				continue
			}
			swapped := slices.Delete(slices.Clone(add), j, j+1)
			if !slices.Equal(swapped, pat) {
				out = append(out, swapped)
			}
		}
	}
	return out
}

// additions returns the patterns with one message of the full n-stage
// pattern added to pat, each in the full pattern's order.
func additions(p *problem.Problem, n int, pat formulations.Pattern) []formulations.Pattern {
	have := map[formulations.Msg]bool{}
	for _, m := range pat {
		have[m] = true
	}
	full := formulations.FullPattern(p, n)
	var out []formulations.Pattern
	for _, m := range full {
		if have[m] {
			continue
		}
		var cand formulations.Pattern
		for _, f := range full {
			if have[f] || f == m {
				cand = append(cand, f)
			}
		}
		out = append(out, cand)
	}
	return out
}
