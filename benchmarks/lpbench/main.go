// Command lpbench is the helper of benchmarks/lp-speed.sh (issue 17):
//
//	lpbench plainlp -m 10 -n 3000 -S 1e-3 -C 1e-6 -A 1e-3 -V 5e6 -D 1666.67 > star.lp
//	lpbench report -in times.tsv -table speed.md -plot speed.svg
//
// plainlp writes the plain compact LP of an m-processor star with n
// stages, the baseline of the star ratio, in CPLEX-LP format and
// in the user's units (unscaled): variables a_ik (load of processor i in
// stage k, 0 ≤ a_ik ≤ D), t_ik (its send start), R_ik (the load processor
// i still computes from stage k on) and Cmax; rows
//
//	t_{i+1,k} − t_ik − C·a_ik ≥ S           (the port sends one message at a time,
//	t_{1,k+1} − t_{m,k} − C·a_{m,k} ≥ S      paper (1)–(2))
//	t_ik + C·a_ik + A·R_ik − Cmax ≤ −S        (computing ends by Cmax, (3))
//	R_ik − a_ik − R_{i,k+1} = 0  (R_{i,n} = a_{i,n})
//	Σ a_ik = V                                (4)
//
// minimising Cmax. clp and glpsol read it as it is (`clp FILE -primals`,
// `glpsol --lp FILE`); lp-speed.sh gives lp_solve the free-MPS twin that
// glpsol writes from it (`glpsol --lp FILE --check --wfreemps OUT`).
//
// report reads the tab-separated measurements lp-speed.sh collects (case,
// n, solver, seconds, peak KB, Cmax) and writes a Markdown table and a
// log-log chart of time against n, one line per solver.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/plotting"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: lpbench plainlp|report [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "plainlp":
		err = plainLP(os.Args[2:], os.Stdout)
	case "report":
		err = report(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q (want plainlp or report)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lpbench:", err)
		os.Exit(1)
	}
}

// star holds the parameters of the plain LP.
type star struct {
	m, n          int
	s, c, a, v, d float64
}

func plainLP(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("plainlp", flag.ContinueOnError)
	var p star
	fs.IntVar(&p.m, "m", 10, "processors")
	fs.IntVar(&p.n, "n", 100, "stages")
	fs.Float64Var(&p.s, "S", 1e-3, "startup (s)")
	fs.Float64Var(&p.c, "C", 1e-6, "communication rate (s per unit)")
	fs.Float64Var(&p.a, "A", 1e-3, "computing rate (s per unit)")
	fs.Float64Var(&p.v, "V", 5e6, "load (units)")
	fs.Float64Var(&p.d, "D", 0, "buffer (units); 0 means V/n")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if p.m < 1 || p.n < 1 {
		return errors.New("m and n must be positive")
	}
	if p.d <= 0 {
		p.d = p.v / float64(p.n)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	writePlain(bw, p)
	return bw.Flush()
}

// num prints a coefficient with every digit (shortest round trip).
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func writePlain(w *bufio.Writer, p star) {
	a := func(i, k int) string { return fmt.Sprintf("a_%d_%d", i, k) }
	t := func(i, k int) string { return fmt.Sprintf("t_%d_%d", i, k) }
	r := func(i, k int) string { return fmt.Sprintf("R_%d_%d", i, k) }
	fmt.Fprintf(w, "\\ plain compact star LP: m=%d n=%d S=%s C=%s A=%s V=%s D=%s (unscaled; Cmax in seconds)\n",
		p.m, p.n, num(p.s), num(p.c), num(p.a), num(p.v), num(p.d))
	fmt.Fprintln(w, "Minimize\n obj: Cmax\nSubject To")
	for k := 1; k <= p.n; k++ {
		for i := 1; i <= p.m; i++ {
			ni, nk := i+1, k
			if i == p.m {
				ni, nk = 1, k+1
			}
			if nk <= p.n {
				fmt.Fprintf(w, " s_%d_%d: %s - %s - %s %s >= %s\n", i, k, t(ni, nk), t(i, k), num(p.c), a(i, k), num(p.s))
			}
			fmt.Fprintf(w, " c_%d_%d: %s + %s %s + %s %s - Cmax <= %s\n", i, k, t(i, k), num(p.c), a(i, k), num(p.a), r(i, k), num(-p.s))
			if k < p.n {
				fmt.Fprintf(w, " r_%d_%d: %s - %s - %s = 0\n", i, k, r(i, k), a(i, k), r(i, k+1))
			} else {
				fmt.Fprintf(w, " r_%d_%d: %s - %s = 0\n", i, k, r(i, k), a(i, k))
			}
		}
	}
	fmt.Fprint(w, " load:")
	for k := 1; k <= p.n; k++ {
		for i := 1; i <= p.m; i++ {
			fmt.Fprintf(w, " + %s", a(i, k))
			if (k*p.m+i)%8 == 0 {
				fmt.Fprint(w, "\n ")
			}
		}
	}
	fmt.Fprintf(w, " = %s\nBounds\n", num(p.v))
	for k := 1; k <= p.n; k++ {
		for i := 1; i <= p.m; i++ {
			fmt.Fprintf(w, " 0 <= %s <= %s\n", a(i, k), num(p.d))
		}
	}
	fmt.Fprintln(w, "End")
}

// row is one measurement.
type row struct {
	cas, solver string
	n           int
	sec, kb     float64
	cmax        string
	// word replaces the time of a run that did not finish ("timeout",
	// "failed").
	word string
}

func report(args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	in := fs.String("in", "", "measurements (TSV: case n solver seconds peak_kb cmax)")
	table := fs.String("table", "", "write the Markdown table here")
	plotPath := fs.String("plot", "", "write the chart of the star case here (.svg or .png)")
	note := fs.String("note", "", "note under the chart's title")
	if err := fs.Parse(args); err != nil {
		return err
	}
	f, err := os.Open(*in)
	if err != nil {
		return err
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fl := strings.Split(sc.Text(), "\t")
		if len(fl) < 6 || strings.HasPrefix(fl[0], "#") {
			continue
		}
		n, _ := strconv.Atoi(fl[1])
		sec, err1 := strconv.ParseFloat(fl[3], 64)
		kb, _ := strconv.ParseFloat(fl[4], 64)
		word := ""
		if err1 != nil {
			sec, word = math.NaN(), fl[3] // timeout or failure
		}
		rows = append(rows, row{cas: fl[0], n: n, solver: fl[2], sec: sec, kb: kb, cmax: fl[5], word: word})
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if *table != "" {
		if err := os.WriteFile(*table, []byte(markdown(rows)), 0o644); err != nil {
			return err
		}
	}
	if *plotPath != "" {
		return chart(rows, *plotPath, *note)
	}
	return nil
}

// markdown writes one table per case: a row per n, a column per solver
// (seconds, and the peak memory in MB), Cmax of each solver below.
func markdown(rows []row) string {
	var b strings.Builder
	for _, cas := range uniq(rows, func(r row) string { return r.cas }) {
		var rs []row
		for _, r := range rows {
			if r.cas == cas {
				rs = append(rs, r)
			}
		}
		solvers := uniq(rs, func(r row) string { return r.solver })
		ns := map[int]bool{}
		for _, r := range rs {
			ns[r.n] = true
		}
		var nl []int
		for n := range ns {
			nl = append(nl, n)
		}
		sort.Ints(nl)
		x := "n"
		if strings.HasPrefix(cas, "tree") {
			x = "h"
		}
		fmt.Fprintf(&b, "**%s** — wall seconds (peak MB)\n\n| %s |", cas, x)
		for _, s := range solvers {
			fmt.Fprintf(&b, " %s |", s)
		}
		b.WriteString("\n|---|")
		for range solvers {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		cm := map[int][]string{}
		for _, n := range nl {
			fmt.Fprintf(&b, "| %d |", n)
			for _, s := range solvers {
				cell := " – |"
				for _, r := range rs {
					if r.n == n && r.solver == s {
						if math.IsNaN(r.sec) {
							cell = " " + r.word + " |"
						} else {
							cell = fmt.Sprintf(" %s (%.0f) |", secs(r.sec), r.kb/1024)
							cm[n] = append(cm[n], s+" "+r.cmax)
						}
					}
				}
				b.WriteString(cell)
			}
			b.WriteString("\n")
		}
		b.WriteString("\nCmax (s) as each solver reports it:\n\n")
		for _, n := range nl {
			fmt.Fprintf(&b, "* %s = %d: %s\n", x, n, strings.Join(cm[n], "; "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func secs(x float64) string {
	switch {
	case x < 1:
		return fmt.Sprintf("%.3f", x)
	case x < 100:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.0f", x)
}

func uniq(rows []row, key func(row) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		if k := key(r); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// chart draws seconds against n on log-log axes for the first case (the
// star), one series per solver, timeouts left out.
func chart(rows []row, path, note string) error {
	if len(rows) == 0 {
		return errors.New("no measurements")
	}
	cas := rows[0].cas
	c := plotting.Chart{Title: "LP solve time against the number of stages, " + cas, XLabel: "stages n",
		YLabel: "wall time (s)", LogX: true, LogY: true, Note: note}
	for _, s := range uniq(rows, func(r row) string { return r.solver }) {
		var ser plotting.Series
		ser.Name = s
		for _, r := range rows {
			if r.cas == cas && r.solver == s && !math.IsNaN(r.sec) && r.sec > 0 {
				ser.X = append(ser.X, float64(r.n))
				ser.Y = append(ser.Y, r.sec)
			}
		}
		if len(ser.X) > 0 {
			c.Series = append(c.Series, ser)
		}
	}
	format, err := plotting.Format(path)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := plotting.Write(f, format, c); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
