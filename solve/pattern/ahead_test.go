package pattern

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/backends"
	"github.com/dlsched/dlsched/topology"
)

// TestSearchAheadSameSchedule: Search with greedy prunes solved ahead on
// further solvers (Options.Parallel) returns the schedule it returns
// solving one LP at a time — the same bytes, timings apart — on trees
// (1- and 2-buffer), a binomial tree (Fig. 10's) and a star whose greedy
// prunes are not taken from the top count; and the prunes solved ahead
// were used, or redone where the chain's record says the search would
// have stopped them.
func TestSearchAheadSameSchedule(t *testing.T) {
	s := newClp(t)
	cases := []struct {
		name string
		p    *problem.Problem
		n    int
	}{
		{"tree nlf 1-buffer p=2 h=4", &problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 4e3}, 14},
		{"tree llf 2-buffer p=3 h=3", &problem.Problem{Kind: topology.Tree, Order: topology.LLF, Buffers: 2, P: 3, H: 3, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 6e3}, 12},
		{"binomial fig. 10", fig11(topology.NLF, 1e2, 2500), 8},
		{"star m=4", &problem.Problem{Kind: topology.Star, M: 4, S: 1e-2, C: 1e-3, A: 1e-3, D: 50, V: 1e3}, 12},
	}
	var mu sync.Mutex
	taken := map[bool]int{}
	aheadHook = func(k int, used bool) {
		mu.Lock()
		defer mu.Unlock()
		taken[used]++
	}
	t.Cleanup(func() { aheadHook = func(int, bool) {} })
	for _, c := range cases {
		var want string
		for _, par := range []int{1, 3} {
			sc, err := Search(c.p, c.n, Options{Engine: popts(s, true), Parallel: par, NewSolver: newSolver})
			if err != nil {
				t.Fatalf("%s, parallel %d: %v", c.name, par, err)
			}
			sc.DropTimings()
			b, err := json.Marshal(sc)
			if err != nil {
				t.Fatal(err)
			}
			if par == 1 {
				want = string(b)
				t.Logf("%s: Cmax %.12g, %s", c.name, sc.Cmax, fmt.Sprint(sc.Pattern.Destinations))
				continue
			}
			if string(b) != want {
				t.Errorf("%s: parallel %d gives another schedule:\n%s\nwant\n%s", c.name, par, b, want)
			}
		}
	}
	t.Logf("greedy prunes solved ahead: %d used, %d redone", taken[true], taken[false])
	if taken[true] == 0 {
		t.Errorf("no greedy prune solved ahead was used (%v)", taken)
	}
}

// TestSearchAheadCancel: cancelling the search while greedy prunes are
// solved ahead returns the context's error once every worker has stopped
// (Search waits for them).
func TestSearchAheadCancel(t *testing.T) {
	s := newClp(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	aheadHook = func(int, bool) { cancel() } // the first prune taken up
	t.Cleanup(func() { aheadHook = func(int, bool) {} })
	o := popts(s, true)
	o.Base.Context = ctx
	p := &problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 4e3}
	_, err := Search(p, 14, Options{Engine: o, Parallel: 3, NewSolver: newSolver})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled search: %v, want context.Canceled", err)
	}
}

// newSolver is Options.NewSolver for Clp, as package solve builds it.
func newSolver() (solver.Solver, func(), error) {
	ls, err := backends.New("clp")
	if err != nil {
		return nil, nil, err
	}
	return ls, func() { backends.Close(ls) }, nil
}

// TestSearchAheadSharesMemory: the LPs held at once share the memory
// limit (engine.Fits): with room for one LP of the full pattern and a
// half, no greedy prune is solved ahead, whatever Options.Parallel says;
// with room for three, some are.
func TestSearchAheadSharesMemory(t *testing.T) {
	s := newClp(t)
	p := &problem.Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 2, H: 4, S: 1e-3, C: 1e-6, A: 1e-3, D: 1e2, V: 4e3}
	one := formulations.EstimateFull(p, 14, formulations.FormCompact).Bytes()
	var mu sync.Mutex
	ahead := 0
	aheadHook = func(int, bool) {
		mu.Lock()
		defer mu.Unlock()
		ahead++
	}
	t.Cleanup(func() { aheadHook = func(int, bool) {} })
	for _, c := range []struct {
		limit int64
		any   bool
	}{{one * 3 / 2, false}, {one * 3, true}} {
		ahead = 0
		o := popts(s, true)
		o.MaxModelBytes = c.limit
		if _, err := Search(p, 14, Options{Engine: o, Parallel: 4, NewSolver: newSolver}); err != nil {
			t.Fatal(err)
		}
		if (ahead > 0) != c.any {
			t.Errorf("memory for %.1f LPs: %d greedy prunes solved ahead", float64(c.limit)/float64(one), ahead)
		}
	}
}
