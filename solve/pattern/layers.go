package pattern

import (
	"fmt"
	"math"
	"sort"

	"github.com/dlsched/dlsched/closedform"
)

// layerSearch tries subsets of a tree's computing layers (the others only
// relay), each once, in the problem's order.
type layerSearch struct {
	sr    *searcher
	tried map[string]float64 // makespan per subset, +Inf when ruled out
}

// layers tries every non-empty proper subset of the layers when h is at
// most opt.Exhaustive (DefaultExhaustive), else every single layer and a
// greedy extension of the best.
func (sr *searcher) layers() error {
	ex := sr.opt.Exhaustive
	if ex == 0 {
		ex = DefaultExhaustive
	}
	ls := &layerSearch{sr: sr, tried: map[string]float64{}}
	if h := sr.p.H; h <= ex {
		for mask := 1; mask < 1<<h; mask++ {
			set := map[int]bool{}
			for l := 1; l <= h; l++ {
				if mask&(1<<(l-1)) != 0 {
					set[l] = true
				}
			}
			if _, err := ls.eval(set); err != nil {
				return err
			}
		}
		return nil
	}
	cur, curC, err := ls.singles()
	if err != nil {
		return err
	}
	return ls.extend(cur, curC)
}

// eval solves the pattern computing on the layers of set (once per set),
// ruled out by closedform.SubsetBound, and returns its makespan. The empty
// set and the set of every layer (the greedy prune's) count as +Inf.
func (ls *layerSearch) eval(set map[int]bool) (float64, error) {
	var s []int
	for _, d := range ls.sr.all {
		if set[d] {
			s = append(s, d)
		}
	}
	if len(s) == 0 || len(s) == len(ls.sr.all) {
		return math.Inf(1), nil
	}
	key := fmt.Sprint(s)
	if c, ok := ls.tried[key]; ok {
		return c, nil
	}
	c, err := ls.sr.try(s, closedform.SubsetBound(ls.sr.p, s))
	ls.tried[key] = c
	return c, err
}

// singles tries every single layer, most promising (least trivial bound)
// first, so that hopeless ones are ruled out by their bound, and returns
// the best as a set with its makespan (empty when none was feasible).
func (ls *layerSearch) singles() (map[int]bool, float64, error) {
	p := ls.sr.p
	singles := append([]int(nil), ls.sr.all...)
	sort.SliceStable(singles, func(a, b int) bool {
		return closedform.SubsetBound(p, []int{singles[a]}) < closedform.SubsetBound(p, []int{singles[b]})
	})
	cur, curC := map[int]bool{}, math.Inf(1)
	for _, l := range singles {
		c, err := ls.eval(map[int]bool{l: true})
		if err != nil {
			return nil, 0, err
		}
		if c < curC {
			cur, curC = map[int]bool{l: true}, c
		}
	}
	return cur, curC, nil
}

// extend adds to the layers of cur (makespan curC) the layer that helps
// most, while one helps.
func (ls *layerSearch) extend(cur map[int]bool, curC float64) error {
	for len(cur) > 0 {
		var add int
		addC := curC
		for _, l := range ls.sr.all {
			if cur[l] {
				continue
			}
			next := map[int]bool{l: true}
			for k := range cur {
				next[k] = true
			}
			c, err := ls.eval(next)
			if err != nil {
				return err
			}
			if c < addC*(1-tieTol) {
				add, addC = l, c
			}
		}
		if add == 0 {
			return nil
		}
		cur[add], curC = true, addC
	}
	return nil
}
