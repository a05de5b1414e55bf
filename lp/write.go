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

// lpKeywords are words that CPLEX-LP readers may take for section headers or
// bound keywords when they appear as names; safeName prefixes them.
var lpKeywords = map[string]bool{
	"st": true, "s.t.": true, "st.": true, "subject": true, "such": true,
	"bound": true, "bounds": true, "free": true, "inf": true, "infinity": true,
	"min": true, "max": true, "minimize": true, "maximize": true,
	"minimise": true, "maximise": true, "minimum": true, "maximum": true,
	"general": true, "generals": true, "gen": true, "integer": true,
	"integers": true, "int": true, "binary": true, "binaries": true,
	"bin": true, "semi": true, "semis": true, "semi-continuous": true,
	"sos": true,
}

// safeName turns a model name into one that MPS and CPLEX-LP readers accept:
// no blanks or characters outside the LP format's set ('[' and ']', which
// glpsol rejects, become '(' and ')'), not starting with a digit, '.', or the
// letter e (which LP readers take for an exponent), and not an LP keyword.
func safeName(s string, fallback string) string {
	if s == "" {
		s = fallback
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9',
			strings.ContainsRune("_.(){}!#$%&,;?@'~|", r):
			b.WriteRune(r)
		case r == '[':
			b.WriteByte('(')
		case r == ']':
			b.WriteByte(')')
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if c := out[0]; (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || lpKeywords[strings.ToLower(out)] {
		out = "x" + out
	}
	return out
}

// unique returns names with duplicates made distinct by a suffix _2, _3, …
// The first occurrence of a name keeps it; names in reserved are never
// produced.
func unique(names []string, reserved ...string) []string {
	used := make(map[string]bool, len(names)+len(reserved))
	for _, r := range reserved {
		used[r] = true
	}
	out := make([]string, len(names))
	var dup []int
	for i, s := range names {
		if used[s] {
			dup = append(dup, i)
			continue
		}
		used[s] = true
		out[i] = s
	}
	for _, i := range dup {
		for k := 2; ; k++ {
			c := names[i] + "_" + strconv.Itoa(k)
			if !used[c] {
				used[c] = true
				out[i] = c
				break
			}
		}
	}
	return out
}

// commentLines returns the model's Comments split into lines.
func (m *Model) commentLines() []string {
	var out []string
	for _, c := range m.Comments {
		for _, l := range strings.Split(c, "\n") {
			out = append(out, strings.TrimRight(l, "\r"))
		}
	}
	return out
}

// objRow is the name of the objective row in MPS and LP files.
const objRow = "obj"

// colNames returns the written column names and, when the model has an
// objective offset or no columns at all, the name of an extra column fixed
// at 1 that carries ObjOffset as its objective coefficient ("" otherwise).
// The solvers disagree on the sign of an objective constant in MPS files
// (RHS of the objective row) and glpsol rejects one in LP files, so a fixed
// column is the only portable encoding.
func (m *Model) colNames() (cols []string, konst string) {
	raw := make([]string, m.NumVars(), m.NumVars()+1)
	for j := range raw {
		raw[j] = safeName(m.ColNames[j], "c"+strconv.Itoa(j))
	}
	if m.ObjOffset != 0 || m.NumVars() == 0 {
		raw = append(raw, "obj_const")
		cols = unique(raw)
		return cols[:m.NumVars()], cols[m.NumVars()]
	}
	return unique(raw), ""
}

// WriteMPS writes the model in free MPS format, which the clp, glpsol
// (--freemps) and lp_solve (-fmps) command-line solvers read. The NAME card
// carries the word FREE, without which Coin-OR readers (clp) take the file
// for fixed MPS and misread its BOUNDS. Comments come first, as "*" lines.
// Ranged rows use the RANGES section.
// Names are made valid and unique (see WriteLP). A nonzero ObjOffset is
// written as an extra column obj_const fixed at 1 (the readers disagree on
// the sign of an objective-row RHS).
//
// A maximisation model gets an OBJSENSE MAX section, which lp_solve honours,
// but the clp command line ignores (pass -max) and glpsol 5.0 rejects (drop
// the two lines and pass --max).
func (m *Model) WriteMPS(w io.Writer) error {
	if err := m.Validate(); err != nil {
		return err
	}
	cols, konst := m.colNames()
	rows := make([]string, m.NumRows())
	for r := range rows {
		rows[r] = safeName(m.RowNames[r], "r"+strconv.Itoa(r))
	}
	rows = unique(rows, objRow)
	bw := bufio.NewWriter(w)
	for _, l := range m.commentLines() {
		fmt.Fprintf(bw, "* %s\n", l)
	}
	name := safeName(m.Name, "dlsched")
	fmt.Fprintf(bw, "NAME %s FREE\n", name)
	if m.Sense == Maximize {
		fmt.Fprintf(bw, "OBJSENSE\n    MAX\n")
	}
	m.mpsRows(bw, rows)
	m.mpsColumns(bw, cols, rows, konst)
	m.mpsRHS(bw, rows)
	m.mpsBounds(bw, cols, konst)
	fmt.Fprintf(bw, "ENDATA\n")
	return bw.Flush()
}

// mpsRows writes the ROWS section: the objective, then each row's type.
func (m *Model) mpsRows(bw *bufio.Writer, rows []string) {
	fmt.Fprintf(bw, "ROWS\n N %s\n", objRow)
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
		fmt.Fprintf(bw, " %s %s\n", t, rows[r])
	}
}

// mpsColumns writes the COLUMNS section, column by column, and the
// objective constant's column konst when there is one.
func (m *Model) mpsColumns(bw *bufio.Writer, cols, rows []string, konst string) {
	fmt.Fprintf(bw, "COLUMNS\n")
	csc := m.CSC()
	for j := 0; j < m.NumVars(); j++ {
		cn := cols[j]
		wrote := false
		if m.Obj[j] != 0 {
			fmt.Fprintf(bw, " %s %s %s\n", cn, objRow, num(m.Obj[j]))
			wrote = true
		}
		for q := csc.Start[j]; q < csc.Start[j+1]; q++ {
			fmt.Fprintf(bw, " %s %s %s\n", cn, rows[csc.Index[q]], num(csc.Value[q]))
			wrote = true
		}
		if !wrote {
			// A column must appear in COLUMNS to exist.
			fmt.Fprintf(bw, " %s %s 0\n", cn, objRow)
		}
	}
	if konst != "" {
		fmt.Fprintf(bw, " %s %s %s\n", konst, objRow, num(m.ObjOffset))
	}
}

// mpsRHS writes the RHS section and, for ranged rows, RANGES.
func (m *Model) mpsRHS(bw *bufio.Writer, rows []string) {
	fmt.Fprintf(bw, "RHS\n")
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
			fmt.Fprintf(bw, " RHS %s %s\n", rows[r], num(rhs))
		}
		if lo != up && !math.IsInf(lo, -1) && !math.IsInf(up, 1) {
			ranges = append(ranges, fmt.Sprintf(" RNG %s %s\n", rows[r], num(up-lo)))
		}
	}
	if len(ranges) > 0 {
		fmt.Fprintf(bw, "RANGES\n")
		for _, s := range ranges {
			bw.WriteString(s)
		}
	}
}

// mpsBounds writes the BOUNDS section (konst fixed at 1).
func (m *Model) mpsBounds(bw *bufio.Writer, cols []string, konst string) {
	fmt.Fprintf(bw, "BOUNDS\n")
	for j := 0; j < m.NumVars(); j++ {
		cn := cols[j]
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
	if konst != "" {
		fmt.Fprintf(bw, " FX BND %s 1\n", konst)
	}
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

func (l *lineWriter) terms(cols []int, vals []float64, names []string, zero string) {
	if len(cols) == 0 {
		l.put("0 " + zero)
		return
	}
	for q, c := range cols {
		v := vals[q]
		sign := "+"
		if v < 0 {
			sign, v = "-", -v
		}
		if q == 0 && sign == "+" {
			l.put(num(v) + " " + names[c])
		} else {
			l.put(sign + " " + num(v) + " " + names[c])
		}
	}
}

// WriteLP writes the model in CPLEX-LP format, which glpsol (--lp) and the
// clp command-line solver read. Comments come first, as "\\" lines. A
// ranged row lo <= a·x <= up is written as
// two rows, NAME_lo and NAME_up, because LP readers differ on ranges. A free
// row (both bounds infinite) is omitted, leaving a comment, as the format has
// none; a model without any other row gets a placeholder row 0 >= 0. Names
// are made valid (see safeName) and unique, with a suffix _2, _3, … on
// repeats; the objective is named obj. A nonzero ObjOffset is written as an
// extra column obj_const fixed at 1, since glpsol accepts no constant term
// in the objective and clp reads one with the wrong sign.
func (m *Model) WriteLP(w io.Writer) error {
	if err := m.Validate(); err != nil {
		return err
	}
	cols, konst := m.colNames()
	// zero names a column for rows (and an objective) without terms.
	zero := konst
	if m.NumVars() > 0 {
		zero = cols[0]
	}
	names := m.lpRowNames()
	bw := bufio.NewWriter(w)
	lw := &lineWriter{w: bw}
	for _, l := range m.commentLines() {
		fmt.Fprintf(bw, "\\ %s\n", l)
	}
	fmt.Fprintf(bw, "\\ Problem name: %s\n", safeName(m.Name, "dlsched"))
	if m.Sense == Maximize {
		bw.WriteString("Maximize\n")
	} else {
		bw.WriteString("Minimize\n")
	}
	cols = m.lpObjective(lw, cols, konst, zero)
	bw.WriteString("Subject To\n")
	m.lpRows(lw, names, cols, zero)
	m.lpBounds(bw, cols, konst)
	bw.WriteString("End\n")
	return bw.Flush()
}

// lpNames are the names of the rows of an LP file: base[r], or for a
// ranged row lo[r] and up[r]; placeholder names the row written when no
// other is ("" otherwise).
type lpNames struct {
	base, lo, up []string
	placeholder  string
}

// ranged reports whether row r has two finite, different bounds.
func (m *Model) ranged(r int) bool {
	lo, up := m.RowLower[r], m.RowUpper[r]
	return lo != up && !math.IsInf(lo, -1) && !math.IsInf(up, 1)
}

// lpRowNames names the rows: unique bases first, then for a ranged row
// the first suffix that keeps both NAME_lo and NAME_up unused.
func (m *Model) lpRowNames() lpNames {
	base := make([]string, m.NumRows())
	for r := range base {
		base[r] = safeName(m.RowNames[r], "r"+strconv.Itoa(r))
	}
	base = unique(base, objRow)
	used := map[string]bool{objRow: true}
	written := 0
	for r := range base {
		if !m.ranged(r) {
			used[base[r]] = true
		}
		if !math.IsInf(m.RowLower[r], -1) || !math.IsInf(m.RowUpper[r], 1) {
			written++
		}
	}
	n := lpNames{base: base, lo: make([]string, m.NumRows()), up: make([]string, m.NumRows())}
	for r := range base {
		if !m.ranged(r) {
			continue
		}
		for k := 1; ; k++ {
			b := base[r]
			if k > 1 {
				b += "_" + strconv.Itoa(k)
			}
			if !used[b+"_lo"] && !used[b+"_up"] {
				n.lo[r], n.up[r] = b+"_lo", b+"_up"
				used[b+"_lo"], used[b+"_up"] = true, true
				break
			}
		}
	}
	if written == 0 {
		// glpsol rejects an empty Subject To section.
		n.placeholder = unique(append(append([]string(nil), base...), "no_rows"), objRow)[len(base)]
	}
	return n
}

// lpObjective writes the objective, the constant's column konst included,
// and returns the column names with konst appended when there is one.
func (m *Model) lpObjective(lw *lineWriter, cols []string, konst, zero string) []string {
	lw.put(objRow + ":")
	var oc []int
	var ov []float64
	for j, c := range m.Obj {
		if c != 0 {
			oc, ov = append(oc, j), append(ov, c)
		}
	}
	if konst != "" {
		oc, ov = append(oc, len(cols)), append(ov, m.ObjOffset)
		cols = append(cols, konst)
	}
	lw.terms(oc, ov, cols, zero)
	lw.end()
	return cols
}

// lpRows writes the constraints: an equality, a ranged row as two rows, a
// one-sided row; a free row is omitted with a comment.
func (m *Model) lpRows(lw *lineWriter, names lpNames, cols []string, zero string) {
	row := func(name string, rc []int, vals []float64, op string, rhs float64) {
		lw.put(name + ":")
		lw.terms(rc, vals, cols, zero)
		lw.put(op + " " + num(rhs))
		lw.end()
	}
	for r := 0; r < m.NumRows(); r++ {
		rc, vals := m.Row(r)
		lo, up := m.RowLower[r], m.RowUpper[r]
		switch {
		case lo == up:
			row(names.base[r], rc, vals, "=", lo)
		case m.ranged(r):
			row(names.lo[r], rc, vals, ">=", lo)
			row(names.up[r], rc, vals, "<=", up)
		case !math.IsInf(lo, -1):
			row(names.base[r], rc, vals, ">=", lo)
		case !math.IsInf(up, 1):
			row(names.base[r], rc, vals, "<=", up)
		default:
			// LP has no free rows; glpsol takes a bound like -1e30
			// literally and fails on it.
			fmt.Fprintf(lw.w, "\\ free row %s omitted\n", names.base[r])
		}
	}
	if names.placeholder != "" {
		row(names.placeholder, nil, nil, ">=", 0)
	}
}

// lpBounds writes the Bounds section (konst fixed at 1).
func (m *Model) lpBounds(bw *bufio.Writer, cols []string, konst string) {
	bw.WriteString("Bounds\n")
	for j := 0; j < m.NumVars(); j++ {
		cn := cols[j]
		lo, up := m.ColLower[j], m.ColUpper[j]
		switch {
		case lo == up:
			fmt.Fprintf(bw, " %s = %s\n", cn, num(lo))
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			fmt.Fprintf(bw, " %s free\n", cn)
		case math.IsInf(lo, -1):
			fmt.Fprintf(bw, " -inf <= %s <= %s\n", cn, num(up)) // clp rejects -infinity
		case math.IsInf(up, 1):
			if lo != 0 {
				fmt.Fprintf(bw, " %s >= %s\n", cn, num(lo))
			}
		default:
			fmt.Fprintf(bw, " %s <= %s <= %s\n", num(lo), cn, num(up))
		}
	}
	if konst != "" {
		fmt.Fprintf(bw, " %s = 1\n", konst)
	}
}
