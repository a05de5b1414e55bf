//go:build cgo && highs && (linux || darwin) && (amd64 || arm64)

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/dlsched/dlsched/sweep"
)

// figureNames are the paper's figures with a sweep spec in
// benchmarks/paper.
var figureNames = []string{"6", "7", "8", "9", "10", "11", "12", "13"}

// figureSpecs reads the figure specs from dir as
// benchmarks/paper/greedy-set.sh runs them (issue 17's figure set): the
// paper's greedy prune (pattern "greedy"; "search" is dlsched's default),
// no verification, Figs. 12 and 13 capped at 15 stages.
func figureSpecs(dir, pattern string) ([]*sweep.Spec, error) {
	var out []*sweep.Spec
	for _, n := range figureNames {
		sp, err := sweep.ParseFile(filepath.Join(dir, "fig"+n+".toml"))
		if err != nil {
			return nil, err
		}
		sp.Run.Pattern = pattern
		sp.Run.Verify = false
		if n == "12" || n == "13" {
			sp.Run.MaxStages = 15
		}
		out = append(out, sp)
	}
	return out, nil
}

// figureRun is one backend's pass over the figure set.
type figureRun struct {
	secs       []float64           // per figure
	lps, iters []int               // per figure: LP solves and iterations
	cmax       map[string]float64  // per figure and point key
	status     map[string]string   // per figure and point key
	points     int                 // rows written
	failed     map[string]struct{} // keys of rows not optimal, invalid or skipped
}

// sweepFigures runs every spec with the named backend on one worker,
// results in a fresh directory.
func sweepFigures(specs []*sweep.Spec, backend string) (figureRun, error) {
	dir, err := os.MkdirTemp("", "highs-figures")
	if err != nil {
		return figureRun{}, err
	}
	defer os.RemoveAll(dir)
	fr := figureRun{cmax: map[string]float64{}, status: map[string]string{}, failed: map[string]struct{}{}}
	for i, sp := range specs {
		rc := sp.Run
		rc.Solver = backend
		path := filepath.Join(dir, fmt.Sprintf("fig%s.jsonl", figureNames[i]))
		t0 := time.Now()
		if _, err := sweep.Run(context.Background(), sp, path, sweep.Options{Workers: 1, Run: rc, NoTimings: true}); err != nil {
			return fr, fmt.Errorf("fig%s with %s: %w", figureNames[i], backend, err)
		}
		fr.secs = append(fr.secs, time.Since(t0).Seconds())
		j, err := sweep.OpenJournal(path)
		if err != nil {
			return fr, err
		}
		lps, iters := 0, 0
		for _, r := range j.Rows {
			key := figureNames[i] + " " + r.Key // figures share points
			fr.points++
			lps += r.LPs
			iters += r.Iterations
			fr.status[key] = r.Status
			if r.Cmax != nil {
				fr.cmax[key] = float64(*r.Cmax)
			}
			if r.Status != sweep.StatusOptimal && r.Status != sweep.StatusInvalid && r.Status != sweep.StatusSkipped {
				fr.failed[key] = struct{}{}
			}
		}
		j.Close()
		fr.lps, fr.iters = append(fr.lps, lps), append(fr.iters, iters)
	}
	return fr, nil
}

// runFigures times the figure set with Clp and with HiGHS as the backend,
// the two taking turns round by round, and compares every point's Cmax.
func runFigures(w io.Writer, st settings) error {
	specs, err := figureSpecs(st.paper, st.pattern)
	if err != nil {
		return err
	}
	backends := []string{"clp", "highs"}
	runs := make([][]figureRun, len(backends))
	for r := 0; r < st.rounds; r++ {
		for k := range backends {
			i := (k + r) % len(backends)
			fr, err := sweepFigures(specs, backends[i])
			if err != nil {
				return err
			}
			runs[i] = append(runs[i], fr)
		}
	}
	writeFigureTable(w, st.pattern, runs[0], runs[1])
	return nil
}

// writeFigureTable writes the per-figure medians and the agreement of the
// two backends' Cmax (the last round's).
func writeFigureTable(w io.Writer, pattern string, clpRuns, highsRuns []figureRun) {
	fmt.Fprintf(w, "### the figure set (pattern %s, no verification, Figs. 12–13 at most 15 stages, 1 worker)\n", pattern)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| figure | clp median s | highs median s | highs / clp | LPs clp, highs | iterations clp, highs |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	perFig := func(runs []figureRun, f int) []float64 {
		var v []float64
		for _, fr := range runs {
			v = append(v, fr.secs[f])
		}
		return v
	}
	total := func(runs []figureRun) []float64 {
		var v []float64
		for _, fr := range runs {
			s := 0.0
			for _, x := range fr.secs {
				s += x
			}
			v = append(v, s)
		}
		return v
	}
	lc, lh := clpRuns[len(clpRuns)-1], highsRuns[len(highsRuns)-1]
	for f, name := range figureNames {
		c, _, _ := median(perFig(clpRuns, f))
		h, _, _ := median(perFig(highsRuns, f))
		fmt.Fprintf(w, "| %s | %.3g | %.3g | %.2f | %d, %d | %d, %d |\n", name, c, h, h/c, lc.lps[f], lh.lps[f], lc.iters[f], lh.iters[f])
	}
	c, clo, chi := median(total(clpRuns))
	h, hlo, hhi := median(total(highsRuns))
	fmt.Fprintf(w, "| all | %.3g (%.3g–%.3g) | %.3g (%.3g–%.3g) | %.2f | | |\n\n", c, clo, chi, h, hlo, hhi, h/c)
	var lower, higher cmaxDiff // HiGHS's Cmax below and above Clp's
	for key, cm := range lc.cmax {
		if hm, ok := lh.cmax[key]; ok {
			d := (hm - cm) / cm
			lower.add(-d)
			higher.add(d)
		}
	}
	statusDiffer := 0
	for key, s := range lc.status {
		if lh.status[key] != s {
			statusDiffer++
		}
	}
	fmt.Fprintf(w, "%d points; HiGHS's Cmax more than 1e-9 below Clp's at %d points (by up to %.2g), above at %d (by up to %.2g); %d points with another status; not optimal, invalid or skipped: clp %d, highs %d\n\n",
		lc.points, lower.n, lower.worst, higher.n, higher.worst, statusDiffer, len(lc.failed), len(lh.failed))
}

// cmaxDiff counts relative differences beyond 1e-9 and keeps the largest.
type cmaxDiff struct {
	n     int
	worst float64
}

func (c *cmaxDiff) add(d float64) {
	if d > 1e-9 {
		c.n++
		c.worst = math.Max(c.worst, d)
	}
}
