package lp

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// num formats a coefficient so that it reads back to the same float64.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// safeName turns a model name into one that MPS and CPLEX-LP readers accept:
// no blanks or characters outside the LP format's set, not starting with a
// digit, '.', or the letter e (which LP readers take for an exponent).
func safeName(s string, fallback string) string {
	if s == "" {
		s = fallback
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9',
			strings.ContainsRune("_.()[]{}!#$%&,;?@'~|", r):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if c := out[0]; (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' {
		out = "x" + out
	}
	return out
}

func (m *Model) colName(j int) string { return safeName(m.ColNames[j], "c"+strconv.Itoa(j)) }
func (m *Model) rowName(r int) string { return safeName(m.RowNames[r], "r"+strconv.Itoa(r)) }

// WriteMPS writes the model in free MPS format, which the clp, glpsol
// (--freemps) and lp_solve (-fmps) command-line solvers read. Ranged rows use
// the RANGES section; a maximisation model gets an OBJSENSE section.
func (m *Model) WriteMPS(w io.Writer) error {
	if err := m.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	name := safeName(m.Name, "dlsched")
	fmt.Fprintf(bw, "NAME %s\n", name)
	if m.Sense == Maximize {
		fmt.Fprintf(bw, "OBJSENSE\n    MAX\n")
	}
	fmt.Fprintf(bw, "ROWS\n N obj\n")
	for r := 0; r < m.NumRows(); r++ {
		lo, up := m.RowLower[r], m.RowUpper[r]
		t := "N"
		switch {
		case lo == up:
			t = "E"
		case !math.IsInf(lo, -1):
			t = "G"
		case !math.IsInf(up, 1):
			t = "L"
		}
		fmt.Fprintf(bw, " %s %s\n", t, m.rowName(r))
	}
	fmt.Fprintf(bw, "COLUMNS\n")
	csc := m.CSC()
	for j := 0; j < m.NumVars(); j++ {
		cn := m.colName(j)
		wrote := false
		if m.Obj[j] != 0 {
			fmt.Fprintf(bw, " %s obj %s\n", cn, num(m.Obj[j]))
			wrote = true
		}
		for q := csc.Start[j]; q < csc.Start[j+1]; q++ {
			fmt.Fprintf(bw, " %s %s %s\n", cn, m.rowName(csc.Index[q]), num(csc.Value[q]))
			wrote = true
		}
		if !wrote {
			// A column must appear in COLUMNS to exist.
			fmt.Fprintf(bw, " %s obj 0\n", cn)
		}
	}
	fmt.Fprintf(bw, "RHS\n")
	if m.ObjOffset != 0 {
		fmt.Fprintf(bw, " RHS obj %s\n", num(-m.ObjOffset))
	}
	var ranges []string
	for r := 0; r < m.NumRows(); r++ {
		lo, up := m.RowLower[r], m.RowUpper[r]
		var rhs float64
		switch {
		case lo == up, !math.IsInf(lo, -1):
			rhs = lo
		case !math.IsInf(up, 1):
			rhs = up
		}
		if rhs != 0 {
			fmt.Fprintf(bw, " RHS %s %s\n", m.rowName(r), num(rhs))
		}
		if lo != up && !math.IsInf(lo, -1) && !math.IsInf(up, 1) {
			ranges = append(ranges, fmt.Sprintf(" RNG %s %s\n", m.rowName(r), num(up-lo)))
		}
	}
	if len(ranges) > 0 {
		fmt.Fprintf(bw, "RANGES\n")
		for _, s := range ranges {
			bw.WriteString(s)
		}
	}
	fmt.Fprintf(bw, "BOUNDS\n")
	for j := 0; j < m.NumVars(); j++ {
		cn := m.colName(j)
		lo, up := m.ColLower[j], m.ColUpper[j]
		switch {
		case lo == up:
			fmt.Fprintf(bw, " FX BND %s %s\n", cn, num(lo))
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			fmt.Fprintf(bw, " FR BND %s\n", cn)
		default:
			if math.IsInf(lo, -1) {
				fmt.Fprintf(bw, " MI BND %s\n", cn)
			} else if lo != 0 || up < 0 {
				fmt.Fprintf(bw, " LO BND %s %s\n", cn, num(lo))
			}
			if !math.IsInf(up, 1) {
				fmt.Fprintf(bw, " UP BND %s %s\n", cn, num(up))
			}
		}
	}
	fmt.Fprintf(bw, "ENDATA\n")
	return bw.Flush()
}

// lineWriter writes terms of an LP-format expression, breaking lines before
// they grow past the 255 characters some readers accept.
type lineWriter struct {
	w   *bufio.Writer
	col int
}

func (l *lineWriter) put(s string) {
	if l.col+len(s)+1 > 200 {
		l.w.WriteString("\n   ")
		l.col = 3
	}
	l.w.WriteString(" ")
	l.w.WriteString(s)
	l.col += len(s) + 1
}

func (l *lineWriter) end() { l.w.WriteString("\n"); l.col = 0 }

func (l *lineWriter) terms(cols []int, vals []float64, name func(int) string) {
	if len(cols) == 0 {
		l.put("0 " + name(0))
		return
	}
	for q, c := range cols {
		v := vals[q]
		sign := "+"
		if v < 0 {
			sign, v = "-", -v
		}
		if q == 0 && sign == "+" {
			l.put(num(v) + " " + name(c))
		} else {
			l.put(sign + " " + num(v) + " " + name(c))
		}
	}
}

// WriteLP writes the model in CPLEX-LP format, which glpsol (--lp) and the
// clp command-line solver read. A ranged row lo <= a·x <= up is written as
// two rows, NAME_lo and NAME_up, because LP readers differ on ranges.
func (m *Model) WriteLP(w io.Writer) error {
	if err := m.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	lw := &lineWriter{w: bw}
	fmt.Fprintf(bw, "\\ Problem name: %s\n", safeName(m.Name, "dlsched"))
	if m.Sense == Maximize {
		bw.WriteString("Maximize\n")
	} else {
		bw.WriteString("Minimize\n")
	}
	lw.put("obj:")
	var oc []int
	var ov []float64
	for j, c := range m.Obj {
		if c != 0 {
			oc, ov = append(oc, j), append(ov, c)
		}
	}
	if len(oc) == 0 && m.NumVars() > 0 {
		oc, ov = []int{0}, []float64{0}
	}
	lw.terms(oc, ov, m.colName)
	if m.ObjOffset != 0 {
		// CPLEX-LP has no objective constant; glpsol and clp accept a bare
		// number term.
		if m.ObjOffset < 0 {
			lw.put("- " + num(-m.ObjOffset))
		} else {
			lw.put("+ " + num(m.ObjOffset))
		}
	}
	lw.end()
	bw.WriteString("Subject To\n")
	row := func(name string, cols []int, vals []float64, op string, rhs float64) {
		lw.put(name + ":")
		lw.terms(cols, vals, m.colName)
		lw.put(op + " " + num(rhs))
		lw.end()
	}
	for r := 0; r < m.NumRows(); r++ {
		cols, vals := m.Row(r)
		lo, up := m.RowLower[r], m.RowUpper[r]
		name := m.rowName(r)
		switch {
		case lo == up:
			row(name, cols, vals, "=", lo)
		case !math.IsInf(lo, -1) && !math.IsInf(up, 1):
			row(name+"_lo", cols, vals, ">=", lo)
			row(name+"_up", cols, vals, "<=", up)
		case !math.IsInf(lo, -1):
			row(name, cols, vals, ">=", lo)
		case !math.IsInf(up, 1):
			row(name, cols, vals, "<=", up)
		default:
			row(name, cols, vals, ">=", -1e30)
		}
	}
	bw.WriteString("Bounds\n")
	for j := 0; j < m.NumVars(); j++ {
		cn := m.colName(j)
		lo, up := m.ColLower[j], m.ColUpper[j]
		switch {
		case lo == up:
			fmt.Fprintf(bw, " %s = %s\n", cn, num(lo))
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			fmt.Fprintf(bw, " %s free\n", cn)
		case math.IsInf(lo, -1):
			fmt.Fprintf(bw, " -infinity <= %s <= %s\n", cn, num(up))
		case math.IsInf(up, 1):
			if lo != 0 {
				fmt.Fprintf(bw, " %s >= %s\n", cn, num(lo))
			}
		default:
			fmt.Fprintf(bw, " %s <= %s <= %s\n", num(lo), cn, num(up))
		}
	}
	bw.WriteString("End\n")
	return bw.Flush()
}
