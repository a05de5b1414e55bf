package sweep

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/solve"
)

// figureSpec reads the paper's figure spec benchmarks/paper/figN.toml
// ("Nmin": its first grid only),
// with its V grids thinned to points ("": as they are).
func figureSpec(t testing.TB, n string, points string) *Spec {
	t.Helper()
	name, nMinOnly := strings.CutSuffix(n, "min")
	b, err := os.ReadFile(filepath.Join("..", "benchmarks", "paper", "fig"+name+".toml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if nMinOnly {
		// The first grid (the n_min line) and the run table only.
		first := strings.Index(text, "[[problem]]")
		second := first + len("[[problem]]") + strings.Index(text[first+len("[[problem]]"):], "[[problem]]")
		text = text[:second] + text[strings.Index(text, "[run]"):]
	}
	if points != "" {
		vGrid := regexp.MustCompile(`(?m)^(V = \{[^}]*points = )\d+`)
		text = vGrid.ReplaceAllString(text, "${1}"+points)
	}
	return mustParse(t, text)
}

// figPoints is the V grid of each figure in the tests ("": the spec's),
// and figMaxStages caps the stage count where the spec's cap makes the
// test slow (Fig. 13's unpruned h = 10 trees with up to 300 stages take a
// minute; up to 40 they take seconds).
var (
	figPoints    = map[string]string{"10": "16", "11": "12", "12": "12", "13": "12"}
	figMaxStages = map[string]int{"13": 40}
)

// figCache holds the figure sweeps already run (tests of a package run
// one after the other).
var figCache = map[string][]Row{}

// sweepFig runs the figure's spec (V grids thinned to points) without
// verification, once per test binary, and returns every row.
func sweepFig(t *testing.T, fig, points string) []Row {
	t.Helper()
	key := fig + "/" + points
	if rows, ok := figCache[key]; ok {
		return rows
	}
	sp := figureSpec(t, fig, points)
	sp.Run.Verify = false
	if n := figMaxStages[fig]; n > 0 {
		sp.Run.MaxStages = n
	}
	path := filepath.Join(t.TempDir(), "fig"+fig+".jsonl")
	if _, err := Run(context.Background(), sp, path, Options{Workers: 2, Run: sp.Run}); err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, path)
	figCache[key] = rows
	return rows
}

// monotoneViolations returns the rows whose Cmax exceeds (by more than
// 1e-9 relative) that of a row of the same problem with a smaller value
// of the axis ("D" or "n"): a schedule feasible with buffers D is
// feasible with larger ones, and with pruning a schedule with n stages is
// one with n+1 stages whose last stage is empty.
func monotoneViolations(rows []Row, axis string) (pairs int, bad []string) {
	type group struct {
		x    []float64
		cmax []float64
		keys []string
	}
	groups := map[string]*group{}
	for _, r := range rows {
		if r.Status != StatusOptimal || r.Cmax == nil {
			continue
		}
		p := r.Problem
		x := float64(p.Stages)
		if axis == "D" {
			x = float64(p.D)
			p.D = 0
		} else {
			p.Stages = 0
		}
		kb, _ := json.Marshal(p)
		k := string(kb)
		g := groups[k]
		if g == nil {
			g = &group{}
			groups[k] = g
		}
		g.x, g.cmax, g.keys = append(g.x, x), append(g.cmax, float64(*r.Cmax)), append(g.keys, r.Key)
	}
	for _, g := range groups {
		for i := range g.x {
			for j := range g.x {
				if g.x[j] < g.x[i] {
					pairs++
					if g.cmax[i] > g.cmax[j]*(1+1e-9) {
						bad = append(bad, g.keys[i]+" above "+g.keys[j])
					}
				}
			}
		}
	}
	return pairs, bad
}

// TestFigureGridsMonotone runs the paper's figure sweeps (Figs. 7–11 and
// 13; the V grids of Figs. 10, 11 and 13 thinned as figPoints says, the
// full grids in docs/figures.md) and checks issue 19's acceptance: Cmax
// non-increasing in D at every (V, n), and in n at every (V, D) where the
// sweep prunes (Figs. 9 and 13 keep every message, the paper's model). Then every row is re-solved from its stored inputs as `dlsched
// solve` solves it and must give the same Cmax.
func TestFigureGridsMonotone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs six of the paper's figure sweeps")
	}
	s := newClp(t)
	warmRows := 0
	defer func() {
		if warmRows == 0 {
			t.Error("no warm row was re-solved: the unpruned figures (9, 13) are solved warm by default")
		}
	}()
	for _, fig := range []string{"7", "8", "9", "10", "11", "13"} {
		sp := figureSpec(t, fig, figPoints[fig])
		rows := sweepFig(t, fig, figPoints[fig])
		for _, axis := range []string{"D", "n"} {
			if axis == "n" && !sp.Run.Prune {
				continue // every message sent: more stages, more startups
			}
			pairs, bad := monotoneViolations(rows, axis)
			t.Logf("fig %s: %d pairs along %s, %d violations", fig, pairs, axis, len(bad))
			for i, b := range bad {
				if i == 3 {
					t.Errorf("fig %s: ... %d violations along %s", fig, len(bad), axis)
					break
				}
				t.Errorf("fig %s: Cmax grows with %s: %s", fig, axis, b)
			}
		}
		points := map[string]Point{}
		for _, pt := range sp.Points() {
			points[pt.Key] = pt
		}
		// A fifth of the rows (the same code path), the same fifth in every
		// run: the file is in completion order, so take them by grid index.
		byIndex := append([]Row(nil), rows...)
		sort.Slice(byIndex, func(a, b int) bool { return byIndex[a].Index < byIndex[b].Index })
		for i, r := range byIndex {
			if r.Status != StatusOptimal || i%5 != 0 {
				continue
			}
			pt := points[r.Key]
			// The stored inputs are the solved ones, bit for bit.
			if float64(r.Problem.V) != pt.Problem.V || float64(r.Problem.D) != pt.Problem.D && !math.IsInf(pt.Problem.D, 1) {
				t.Errorf("%s: stored V=%v D=%v, solved V=%v D=%v", r.Key, r.Problem.V, r.Problem.D, pt.Problem.V, pt.Problem.D)
			}
			po := solve.Options{Solver: s, Algorithm: "auto", NoPrune: !sp.Run.Prune}
			res, err := solve.Schedule(&pt.Problem, r.Problem.Stages, po)
			if err != nil {
				t.Fatalf("%s: %v", r.Key, err)
			}
			b := res.Schedule
			// A cold re-solve repeats a pruned row bit for bit. Unpruned
			// rows are solved by the warm-start engine (run.warm): from the
			// basis of the row before them in their chain ("warm"), or from
			// scratch on its model with room for more stages; either may
			// end at another optimal vertex than a cold solve. Both are
			// certified, so each makespan is at least the other's bound and
			// they agree within the certified tolerance.
			tol := 1e-12
			if !sp.Run.Prune && !sp.Run.NoWarm {
				tol = 2 * solve.DefaultTolerance
				if r.Warm {
					warmRows++
				}
				if b.Cmax < float64(*r.LowerBound)*(1-1e-12) || float64(*r.Cmax) < b.LowerBound*(1-1e-12) {
					t.Errorf("%s: warm row [%.17g, %.17g] and cold re-solve [%.17g, %.17g] do not overlap",
						r.Key, float64(*r.LowerBound), float64(*r.Cmax), b.LowerBound, b.Cmax)
				}
			}
			if math.Abs(b.Cmax-float64(*r.Cmax)) > tol*b.Cmax {
				t.Errorf("%s: re-solved Cmax %.17g, row %.17g (warm %v)", r.Key, b.Cmax, float64(*r.Cmax), r.Warm)
			}
		}
	}
}
