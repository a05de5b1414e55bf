//go:build cgo && highs && (linux || darwin) && (amd64 || arm64)

// Command highs measures HiGHS (github.com/bartolsthoorn/gohighs, a static
// HiGHS 1.12) against Clp and Cbc on dlsched's LPs and pattern MILPs, in
// one process, in alternating rounds, and prints Markdown tables of the
// medians (issue 32, item 3):
//
//	go run -tags highs ./benchmarks/highs         small LPs, the figure set, the tree, the MILPs
//	go run -tags highs ./benchmarks/highs -cases star3000 -rounds 3
//	go run -tags highs ./benchmarks/highs -cases star10000 -rounds 1 -cap 1200 \
//		-only 'clp dlsched$|highs simplex dlsched$|highs ipm, no crossover'
//
// Cases (-cases, comma-separated):
//
//	small      Fig. 10's LP (binomial NLF p=2 h=10 n=5, 140 rows) and the
//	           Fig. 6 star with 5 stages; time per LP over repeated solves
//	figures    the figure set as benchmarks/paper/greedy-set.sh runs it
//	           (-paper names the specs' directory), swept with Clp and
//	           with HiGHS as the backend on one worker; every point's Cmax
//	           compared
//	tree       TreeNLF-1, p = 2, h = 8, n = 100 (lp-speed.sh's tree)
//	star3000   star m = 10, S = 1e-3, C = 1e-6, A = 1e-3, V = 5e6,
//	star10000  D = V/n: dlsched's compact LP and the plain LP (unscaled,
//	           benchmarks/lpbench plainlp's rows)
//	milp       pattern MILPs of the exact search (16 and 20 messages; 40
//	           with -big-milp): Cbc against HiGHS's MIP solver
//
// Every LP is solved by each configuration of lpConfigs once per round
// (a small LP -repeat times), the configurations taking turns solve by
// solve in a rotated order, so that the load of the shared machine falls
// on all of them alike; -only keeps the configurations (or MILPs) whose
// name matches; -cap bounds each solve (seconds; Clp and Cbc count CPU
// time, HiGHS wall time). The table gives
// the median and range of the wall times, the median CPU time of the
// process (HiGHS's worker threads included), the iterations, the objective,
// its relative distance to Clp's with dlsched's settings, the gap that the
// solve's duals certify as dlsched certifies them (solver.SafeLowerBound
// after formulations' dual repair, time columns bounded by the objective;
// dlsched's own LPs only) and the time relative to Clp with dlsched's
// settings.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/dlsched/dlsched/solver"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "highs:", err)
		os.Exit(1)
	}
}

// settings are the command's flags.
type settings struct {
	cases   []string
	rounds  int
	repeat  int // solves per timed run of a small LP (0: the case's own)
	capSecs float64
	only    *regexp.Regexp
	paper   string // the directory of the figure specs
	pattern string // the figure set's pattern choice
	bigMILP bool   // add the 40-message MILP
}

func parse(args []string) (settings, error) {
	fs := flag.NewFlagSet("highs", flag.ContinueOnError)
	cases := fs.String("cases", "small,figures,tree,milp", "comma-separated cases: small, figures, tree, star3000, star10000, milp")
	rounds := fs.Int("rounds", 3, "alternating rounds (solves per configuration and LP)")
	capSecs := fs.Float64("cap", 600, "seconds allowed per solve")
	repeat := fs.Int("repeat", 0, "solves per timed run of a small LP (0: 200 for Fig. 10's, 100 for Fig. 6's)")
	only := fs.String("only", "", "regular expression: run only the LP configurations, or the MILPs, whose name matches")
	paper := fs.String("paper", "benchmarks/paper", "directory of the figure specs fig6.toml ... fig13.toml")
	bigMILP := fs.Bool("big-milp", false, "add the 40-message pattern MILP (hours on a loaded machine)")
	pattern := fs.String("pattern", "greedy", "the figure set's pattern choice: greedy (greedy-set.sh's) or search (dlsched's default)")
	if err := fs.Parse(args); err != nil {
		return settings{}, err
	}
	if *pattern != "greedy" && *pattern != "search" {
		return settings{}, fmt.Errorf("-pattern %q: want greedy or search", *pattern)
	}
	if *rounds < 1 || *repeat < 0 || !(*capSecs > 0) {
		return settings{}, fmt.Errorf("-rounds must be at least 1, -repeat at least 0 and -cap positive (got %d, %d and %g)", *rounds, *repeat, *capSecs)
	}
	re, err := regexp.Compile(*only)
	if err != nil {
		return settings{}, fmt.Errorf("-only: %w", err)
	}
	return settings{cases: strings.Split(*cases, ","), rounds: *rounds, repeat: *repeat, capSecs: *capSecs, only: re, paper: *paper, pattern: *pattern, bigMILP: *bigMILP}, nil
}

func run(args []string, w io.Writer) error {
	st, err := parse(args)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "HiGHS %s against Clp %s and Cbc; %d round(s), at most %g s per solve\n\n", highsVersion(), clpVersion(), st.rounds, st.capSecs)
	for _, name := range st.cases {
		switch name {
		case "milp":
			if err := runMILPs(w, st); err != nil {
				return err
			}
			continue
		case "figures":
			if err := runFigures(w, st); err != nil {
				return err
			}
			continue
		}
		lps, err := lpCases(name)
		if err != nil {
			return err
		}
		for _, c := range lps {
			if st.repeat > 0 && c.repeat > 1 {
				c.repeat = st.repeat
			}
			if err := runLP(w, c, st); err != nil {
				return err
			}
		}
	}
	return nil
}

// lpCases returns the LPs of a case name.
func lpCases(name string) ([]lpCase, error) {
	switch name {
	case "small":
		f10, err := fig10LP()
		if err != nil {
			return nil, err
		}
		f6, err := fig6LP()
		return []lpCase{f10, f6}, err
	case "tree":
		c, err := treeLP(8)
		return []lpCase{c}, err
	case "star3000", "star10000":
		n := 3000
		if name == "star10000" {
			n = 10000
		}
		c, err := starLP(n)
		return []lpCase{c, plainStarLP(n)}, err
	}
	return nil, fmt.Errorf("unknown case %q (want small, figures, tree, star3000, star10000 or milp)", name)
}

// record collects one configuration's runs on one case: wall and CPU
// seconds per LP, one entry per round.
type record struct {
	name      string
	secs, cpu []float64
	last      outcome
	fails     string
}

// cpuSeconds is the process's user and system CPU time so far (all
// threads: HiGHS's worker threads included).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// runLP times every configuration on c in alternating rounds and writes
// the table. Within a round each configuration solves c.repeat times,
// the configurations taking turns solve by solve (in an order rotated
// from one solve to the next), so that the load of the shared machine
// falls on all of them alike.
func runLP(w io.Writer, c lpCase, st settings) error {
	cfgs, err := lpConfigs()
	if err != nil {
		return err
	}
	defer func() {
		for _, cf := range cfgs {
			cf.close()
		}
	}()
	var kept []lpConfig
	for _, cf := range cfgs {
		if st.only.MatchString(cf.name) {
			kept = append(kept, cf)
		}
	}
	recs := make([]record, len(kept))
	for i, cf := range kept {
		recs[i].name = cf.name
	}
	for r := 0; r < st.rounds; r++ {
		wall := make([]float64, len(kept))
		cpu := make([]float64, len(kept))
		for q := 0; q < c.repeat; q++ {
			for k := range kept {
				i := (k + q + r) % len(kept)
				if recs[i].fails != "" {
					continue
				}
				t0, c0 := time.Now(), cpuSeconds()
				out, err := kept[i].solve(c, st.capSecs)
				wall[i] += time.Since(t0).Seconds()
				cpu[i] += cpuSeconds() - c0
				if err != nil {
					recs[i].fails = err.Error()
					continue
				}
				recs[i].last = out
			}
		}
		for i := range recs {
			if recs[i].fails == "" {
				recs[i].secs = append(recs[i].secs, wall[i]/float64(c.repeat))
				recs[i].cpu = append(recs[i].cpu, cpu[i]/float64(c.repeat))
			}
		}
	}
	writeLPTable(w, c, recs)
	return nil
}

// median returns the median of v (the mean of the middle two for an even
// count) and its least and greatest values.
func median(v []float64) (med, lo, hi float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	k := len(s) / 2
	med = s[k]
	if len(s)%2 == 0 {
		med = (s[k-1] + s[k]) / 2
	}
	return med, s[0], s[len(s)-1]
}

// writeLPTable writes one LP's table; the reference is Clp with dlsched's
// settings.
func writeLPTable(w io.Writer, c lpCase, recs []record) {
	m := c.model
	fmt.Fprintf(w, "### %s: %d columns, %d rows, %d nonzeros\n\n", c.name, m.NumVars(), m.NumRows(), m.NumNonzeros())
	if c.repeat > 1 {
		fmt.Fprintf(w, "(time per LP over %d solves per round)\n\n", c.repeat)
	}
	fmt.Fprintln(w, "| solver | median s | range s | CPU s | iterations | status | objective | rel. to clp dlsched | certified gap | time / clp dlsched |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	ref := -1
	for i, r := range recs {
		if r.name == "clp dlsched" && len(r.secs) > 0 {
			ref = i
		}
	}
	refMed := math.NaN()
	if ref >= 0 {
		refMed, _, _ = median(recs[ref].secs)
	}
	for _, r := range recs {
		if len(r.secs) == 0 {
			fmt.Fprintf(w, "| %s | failed: %s | | | | | | | | |\n", r.name, r.fails)
			continue
		}
		med, lo, hi := median(r.secs)
		cpu, _, _ := median(r.cpu)
		rel := math.NaN()
		if ref >= 0 {
			o := recs[ref].last.objective
			rel = (r.last.objective - o) / math.Abs(o)
		}
		fmt.Fprintf(w, "| %s | %.4g | %.4g–%.4g | %.4g | %d | %s | %.13g | %.2g | %.2g | %.3g |\n", r.name, med, lo, hi, cpu,
			r.last.iterations, r.last.status, r.last.objective, rel, certifiedGap(c, r.last), med/refMed)
	}
	fmt.Fprintln(w)
}

// certifiedGap is the relative gap between out's objective and the safe
// lower bound its duals give, computed as dlsched's pipeline computes it:
// the time columns bounded above by the objective (enlarged by 1e-9), the
// better of the duals as returned and as repaired by the layout. NaN for
// LPs that are not dlsched's own, or a solve without duals.
func certifiedGap(c lpCase, out outcome) float64 {
	if c.lay == nil || out.duals == nil || out.status != "optimal" && out.status != "Optimal" {
		return math.NaN()
	}
	m := c.model.Clone()
	ub := out.objective * (1 + 1e-9)
	for _, col := range c.lay.TimeCols {
		m.ColUpper[col] = ub
	}
	rep := c.lay.RepairDuals(m, c.nw, out.duals)
	lb := math.Max(solver.SafeLowerBound(m, out.duals), solver.SafeLowerBound(m, rep))
	return math.Max(0, (out.objective-lb)/out.objective)
}

// runMILPs times Cbc and HiGHS on every pattern MILP and writes the table.
func runMILPs(w io.Writer, st settings) error {
	cases, err := milpCases(st.bigMILP)
	if err != nil {
		return err
	}
	cfgs := milpConfigs()
	fmt.Fprintln(w, "### pattern MILPs (pattern.Exact's model)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| MILP | solver | median s | range s | nodes | status | objective | bound |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, c := range cases {
		if !st.only.MatchString(c.name) {
			continue
		}
		recs := make([]record, len(cfgs))
		for r := 0; r < st.rounds; r++ {
			for k := range cfgs {
				i := (k + r) % len(cfgs)
				recs[i].name = cfgs[i].name
				t0 := time.Now()
				out, err := cfgs[i].solve(c, st.capSecs)
				if err != nil {
					recs[i].fails = err.Error()
					continue
				}
				recs[i].secs = append(recs[i].secs, time.Since(t0).Seconds())
				recs[i].last = out
			}
		}
		for _, r := range recs {
			if len(r.secs) == 0 {
				fmt.Fprintf(w, "| %s | %s | failed: %s | | | | | |\n", c.name, r.name, r.fails)
				continue
			}
			med, lo, hi := median(r.secs)
			fmt.Fprintf(w, "| %s | %s | %.4g | %.4g–%.4g | %d | %s | %.13g | %.13g |\n", c.name, r.name, med, lo, hi,
				r.last.nodes, r.last.status, r.last.objective, r.last.bound)
		}
	}
	fmt.Fprintln(w)
	return nil
}
