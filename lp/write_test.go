package lp

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// tb is the part of testing.TB that rapid.T provides too.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func writeMPS(t tb, m *Model) string {
	t.Helper()
	var b bytes.Buffer
	if err := m.WriteMPS(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func writeLP(t tb, m *Model) string {
	t.Helper()
	var b bytes.Buffer
	if err := m.WriteLP(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteGoldenSmall(t *testing.T) {
	m := small()
	wantMPS := `NAME small FREE
ROWS
 N obj
 L cap
 E link
COLUMNS
 x obj 3
 x cap 1
 x link 1
 y obj -1
 y cap 2
 y link -1
 obj_const obj 0.5
RHS
 RHS cap 6
 RHS link 1
BOUNDS
 UP BND x 4
 UP BND y 4
 FX BND obj_const 1
ENDATA
`
	if got := writeMPS(t, m); got != wantMPS {
		t.Errorf("WriteMPS:\n%s\nwant:\n%s", got, wantMPS)
	}
	wantLP := `\ Problem name: small
Minimize
 obj: 3 x - 1 y + 0.5 obj_const
Subject To
 cap: 1 x + 2 y <= 6
 link: 1 x - 1 y = 1
Bounds
 0 <= x <= 4
 0 <= y <= 4
 obj_const = 1
End
`
	if got := writeLP(t, m); got != wantLP {
		t.Errorf("WriteLP:\n%s\nwant:\n%s", got, wantLP)
	}
}

// features exercises every kind of bound and row: maximisation, a ranged
// row, a ≥ row, a free row, an empty row, fixed, free, upper-bounded-only,
// negative-bounded and empty columns, a coefficient needing full precision,
// and names that must be sanitised.
func features() *Model {
	m := New("my model", Maximize)
	m.Comments = []string{"features of the writers", "two\nlines"}
	a := m.AddVar("a[1]", -2, 3, 1)    // ranged bounds, LO and UP
	b := m.AddVar("b", -inf, inf, 0.1) // free
	c := m.AddVar("c", 2.5, 2.5, 0)    // fixed
	d := m.AddVar("d", -inf, -1, -1)   // MI + UP
	e := m.AddVar("e", 0, inf, 0)      // default bounds, LP name xe
	m.AddVar("", 1, inf, 0)            // empty column, fallback name c5
	m.AddRow("rng", -1, 4, []int{a, b}, []float64{1, 1.0 / 3})
	m.AddRow("ge", 1, inf, []int{b, d, e}, []float64{-1, 2, 1})
	m.AddRow("free", -inf, inf, []int{a, c}, []float64{1, 1})
	m.AddRow("", -inf, 0, nil, nil)
	m.AddRow("eq", 0, 0, []int{c, e}, []float64{2, -2}) // LP name xeq
	return m
}

func TestWriteGoldenFeatures(t *testing.T) {
	m := features()
	wantMPS := `* features of the writers
* two
* lines
NAME my_model FREE
OBJSENSE
    MAX
ROWS
 N obj
 G rng
 G ge
 N xfree
 L r3
 E xeq
COLUMNS
 a(1) obj 1
 a(1) rng 1
 a(1) xfree 1
 b obj 0.1
 b rng 0.3333333333333333
 b ge -1
 c xfree 1
 c xeq 2
 d obj -1
 d ge 2
 xe ge 1
 xe xeq -2
 c5 obj 0
RHS
 RHS rng -1
 RHS ge 1
RANGES
 RNG rng 5
BOUNDS
 LO BND a(1) -2
 UP BND a(1) 3
 FR BND b
 FX BND c 2.5
 MI BND d
 UP BND d -1
 LO BND c5 1
ENDATA
`
	if got := writeMPS(t, m); got != wantMPS {
		t.Errorf("WriteMPS:\n%s\nwant:\n%s", got, wantMPS)
	}
	wantLP := `\ features of the writers
\ two
\ lines
\ Problem name: my_model
Maximize
 obj: 1 a(1) + 0.1 b - 1 d
Subject To
 rng_lo: 1 a(1) + 0.3333333333333333 b >= -1
 rng_up: 1 a(1) + 0.3333333333333333 b <= 4
 ge: - 1 b + 2 d + 1 xe >= 1
\ free row xfree omitted
 r3: 0 a(1) <= 0
 xeq: 2 c - 2 xe = 0
Bounds
 -2 <= a(1) <= 3
 b free
 c = 2.5
 -inf <= d <= -1
 c5 >= 1
End
`
	if got := writeLP(t, m); got != wantLP {
		t.Errorf("WriteLP:\n%s\nwant:\n%s", got, wantLP)
	}
}

func TestWriteNames(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"x", "x"},
		{"x[3]", "x(3)"},
		{"a b-c", "a_b_c"},
		{"é", "_"},
		{"1st", "x1st"},
		{".5", "x.5"},
		{"e12", "xe12"},
		{"E", "xE"},
		{"free", "xfree"},
		{"Bounds", "xBounds"},
		{"s.t.", "xs.t."},
		{"st", "xst"},
		{"subject", "xsubject"},
		{"inf", "xinf"},
		{"ok_(1){2}!#$%&,;?@'~|", "ok_(1){2}!#$%&,;?@'~|"},
	} {
		if got := safeName(tc.in, "fb"); got != tc.want {
			t.Errorf("safeName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := safeName("", "r7"); got != "r7" {
		t.Errorf("fallback: %q", got)
	}
	if got := unique([]string{"a", "b", "a", "a_2", "a", "obj"}, "obj"); strings.Join(got, " ") != "a b a_3 a_2 a_4 obj_2" {
		t.Errorf("unique: %v", got)
	}

	// Names that collide after sanitising, rows named like the objective
	// or like the halves of a ranged row, and a column named obj_const.
	m := New("names", Minimize)
	m.ObjOffset = 1
	x := m.AddVar("x[1]", 0, inf, 1)
	y := m.AddVar("x(1)", 0, inf, 1)
	z := m.AddVar("obj_const", 0, inf, 1)
	m.AddRow("obj", 1, inf, []int{x}, []float64{1})
	m.AddRow("r", 1, 2, []int{y}, []float64{1})
	m.AddRow("r_lo", 1, inf, []int{z}, []float64{1})
	m.AddRow("r", -inf, 9, []int{x, y}, []float64{1, 1})
	mps := writeMPS(t, m)
	for _, line := range []string{" G obj_2\n", " G r\n", " G r_lo\n", " L r_2\n", " x(1) obj 1\n", " x(1)_2 obj 1\n",
		" obj_const obj 1\n", " obj_const_2 obj 1\n", " FX BND obj_const_2 1\n"} {
		if !strings.Contains(mps, line) {
			t.Errorf("MPS lacks %q:\n%s", line, mps)
		}
	}
	lpText := writeLP(t, m)
	for _, line := range []string{" obj: 1 x(1) + 1 x(1)_2 + 1 obj_const + 1 obj_const_2\n", " obj_2: 1 x(1) >= 1\n",
		// The ranged row r keeps its halves together (r_lo is taken), the
		// second r becomes r_2.
		" r_2_lo: 1 x(1)_2 >= 1\n r_2_up: 1 x(1)_2 <= 2\n", " r_lo: 1 obj_const >= 1\n", " r_2: 1 x(1) + 1 x(1)_2 <= 9\n"} {
		if !strings.Contains(lpText, line) {
			t.Errorf("LP lacks %q:\n%s", line, lpText)
		}
	}
}

func TestWriteLongRows(t *testing.T) {
	m := New("long", Minimize)
	var cols []int
	var vals []float64
	for j := range 200 {
		cols = append(cols, m.AddVar(fmt.Sprintf("a_rather_long_variable_name_%d", j), 0, 1, float64(j)))
		vals = append(vals, 1.0/float64(j+1))
	}
	m.AddRow("sum", 1, inf, cols, vals)
	text := writeLP(t, m)
	for i, line := range strings.Split(text, "\n") {
		if len(line) > 255 {
			t.Fatalf("line %d has %d characters", i+1, len(line))
		}
	}
	compareModels(t, m, parseLP(t, text), true)
}

func TestWriteEmptyModel(t *testing.T) {
	m := New("", Minimize)
	m.AddRow("r", 0, 1, nil, nil)
	if got := writeMPS(t, m); !strings.Contains(got, "NAME dlsched FREE\n") || !strings.Contains(got, " FX BND obj_const 1\n") {
		t.Errorf("MPS:\n%s", got)
	}
	if got := writeLP(t, m); !strings.Contains(got, " r_lo: 0 obj_const >= 0\n") {
		t.Errorf("LP:\n%s", got)
	}
	e := New("none", Maximize)
	if got := writeLP(t, e); !strings.Contains(got, " no_rows: 0 obj_const >= 0\n") {
		t.Errorf("LP:\n%s", got)
	}
}

func TestWriteRejectsInvalid(t *testing.T) {
	m := small()
	m.ColLower[0] = 10
	var b bytes.Buffer
	if err := m.WriteMPS(&b); err == nil {
		t.Error("WriteMPS accepted an invalid model")
	}
	if err := m.WriteLP(&b); err == nil {
		t.Error("WriteLP accepted an invalid model")
	}
}

// parsed is a model read back from a file: dense rows keyed by written
// names.
type parsed struct {
	sense          Sense
	obj            map[string]float64
	colLo, colUp   map[string]float64
	rowLo, rowUp   map[string]float64
	coef           map[string]map[string]float64 // row → column → value
	colOrder       []string
	rowOrder       []string
	rowRangeHalves map[string][2]string // LP: model row → (lo, up) names
}

func newParsed() *parsed {
	return &parsed{obj: map[string]float64{}, colLo: map[string]float64{}, colUp: map[string]float64{},
		rowLo: map[string]float64{}, rowUp: map[string]float64{}, coef: map[string]map[string]float64{}}
}

func (p *parsed) addCol(c string) {
	if _, ok := p.colLo[c]; !ok {
		p.colOrder = append(p.colOrder, c)
		p.colLo[c], p.colUp[c] = 0, inf
	}
}

// parseMPS reads the free MPS that WriteMPS produces.
func parseMPS(t tb, text string) *parsed {
	t.Helper()
	p := newParsed()
	rowType := map[string]string{}
	section := ""
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.HasPrefix(line, "*") {
			continue
		}
		f := strings.Fields(line)
		if !strings.HasPrefix(line, " ") {
			section = f[0]
			continue
		}
		num := func(s string) float64 {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("bad number in %q", line)
			}
			return v
		}
		switch section {
		case "OBJSENSE":
			if f[0] == "MAX" {
				p.sense = Maximize
			}
		case "ROWS":
			rowType[f[1]] = f[0]
			if f[1] != "obj" {
				p.rowOrder = append(p.rowOrder, f[1])
				p.coef[f[1]] = map[string]float64{}
				// An omitted RHS is zero.
				p.rowLo[f[1]], p.rowUp[f[1]] = -inf, inf
				switch f[0] {
				case "E":
					p.rowLo[f[1]], p.rowUp[f[1]] = 0, 0
				case "G":
					p.rowLo[f[1]] = 0
				case "L":
					p.rowUp[f[1]] = 0
				}
			}
		case "COLUMNS":
			p.addCol(f[0])
			if f[1] == "obj" {
				p.obj[f[0]] += num(f[2])
			} else {
				p.coef[f[1]][f[0]] += num(f[2])
			}
		case "RHS":
			if f[1] == "obj" {
				t.Fatalf("objective RHS written: %q", line)
			}
			switch v := num(f[2]); rowType[f[1]] {
			case "E":
				p.rowLo[f[1]], p.rowUp[f[1]] = v, v
			case "G":
				p.rowLo[f[1]] = v
			case "L":
				p.rowUp[f[1]] = v
			default:
				t.Fatalf("RHS on %s row: %q", rowType[f[1]], line)
			}
		case "RANGES":
			v := num(f[2])
			if rowType[f[1]] != "G" || v <= 0 {
				t.Fatalf("unexpected range %q on a %s row", line, rowType[f[1]])
			}
			p.rowUp[f[1]] = p.rowLo[f[1]] + v
		case "BOUNDS":
			c := f[2]
			switch f[0] {
			case "FX":
				p.colLo[c], p.colUp[c] = num(f[3]), num(f[3])
			case "FR":
				p.colLo[c], p.colUp[c] = -inf, inf
			case "MI":
				p.colLo[c] = -inf
			case "LO":
				p.colLo[c] = num(f[3])
			case "UP":
				p.colUp[c] = num(f[3])
			default:
				t.Fatalf("bound type in %q", line)
			}
		default:
			t.Fatalf("data line %q in section %q", line, section)
		}
	}
	if section != "ENDATA" {
		t.Fatalf("file does not end with ENDATA")
	}
	return p
}

// parseLP reads the CPLEX-LP that WriteLP produces, joining ranged halves
// NAME_lo/NAME_up back into one row when they have equal coefficients.
func parseLP(t tb, text string) *parsed {
	t.Helper()
	p := newParsed()
	// Join continuation lines.
	var lines []string
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.HasPrefix(line, "   ") {
			lines[len(lines)-1] += " " + strings.TrimSpace(line)
			continue
		}
		lines = append(lines, line)
	}
	terms := func(s string) map[string]float64 {
		out := map[string]float64{}
		toks := strings.Fields(s)
		for i := 0; i < len(toks); {
			sign := 1.0
			if toks[i] == "+" || toks[i] == "-" {
				if toks[i] == "-" {
					sign = -1
				}
				i++
			}
			v, err := strconv.ParseFloat(toks[i], 64)
			if err != nil || i+1 >= len(toks) {
				t.Fatalf("bad term at %q in %q", toks[i], s)
			}
			out[toks[i+1]] += sign * v
			i += 2
		}
		return out
	}
	section := ""
	for _, line := range lines {
		if strings.HasPrefix(line, "\\") {
			continue
		}
		if !strings.HasPrefix(line, " ") {
			section = line
			switch line {
			case "Maximize":
				p.sense = Maximize
			case "Minimize", "Subject To", "Bounds", "End":
			default:
				t.Fatalf("unknown section %q", line)
			}
			continue
		}
		f := strings.Fields(line)
		switch section {
		case "Minimize", "Maximize":
			if f[0] != "obj:" {
				t.Fatalf("objective line %q", line)
			}
			for c, v := range terms(strings.Join(f[1:], " ")) {
				p.addCol(c)
				p.obj[c] += v
			}
		case "Subject To":
			name := strings.TrimSuffix(f[0], ":")
			op, rhs := f[len(f)-2], f[len(f)-1]
			v, err := strconv.ParseFloat(rhs, 64)
			if err != nil {
				t.Fatalf("rhs in %q", line)
			}
			row := terms(strings.Join(f[1:len(f)-2], " "))
			for c := range row {
				p.addCol(c)
			}
			p.rowOrder = append(p.rowOrder, name)
			p.coef[name] = row
			p.rowLo[name], p.rowUp[name] = -inf, inf
			switch op {
			case "=":
				p.rowLo[name], p.rowUp[name] = v, v
			case ">=":
				p.rowLo[name] = v
			case "<=":
				p.rowUp[name] = v
			default:
				t.Fatalf("operator in %q", line)
			}
		case "Bounds":
			switch {
			case len(f) == 2 && f[1] == "free":
				p.addCol(f[0])
				p.colLo[f[0]], p.colUp[f[0]] = -inf, inf
			case len(f) == 3 && f[1] == "=":
				p.addCol(f[0])
				v, _ := strconv.ParseFloat(f[2], 64)
				p.colLo[f[0]], p.colUp[f[0]] = v, v
			case len(f) == 3 && f[1] == ">=":
				p.addCol(f[0])
				p.colLo[f[0]], _ = strconv.ParseFloat(f[2], 64)
			case len(f) == 5 && f[1] == "<=" && f[3] == "<=":
				p.addCol(f[2])
				lo, up := f[0], f[4]
				if lo == "-inf" {
					p.colLo[f[2]] = -inf
				} else {
					p.colLo[f[2]], _ = strconv.ParseFloat(lo, 64)
				}
				p.colUp[f[2]], _ = strconv.ParseFloat(up, 64)
			default:
				t.Fatalf("bound line %q", line)
			}
		default:
			t.Fatalf("line %q in section %q", line, section)
		}
	}
	if section != "End" {
		t.Fatalf("file does not end with End")
	}
	// Merge ranged halves, which WriteLP writes consecutively.
	var order []string
	for i := 0; i < len(p.rowOrder); i++ {
		r := p.rowOrder[i]
		order = append(order, r)
		if base, ok := strings.CutSuffix(r, "_lo"); ok && i+1 < len(p.rowOrder) && p.rowOrder[i+1] == base+"_up" &&
			fmt.Sprint(p.coef[r]) == fmt.Sprint(p.coef[base+"_up"]) && p.rowLo[r] < p.rowUp[base+"_up"] {
			p.rowUp[r] = p.rowUp[base+"_up"]
			i++
		}
	}
	p.rowOrder = order
	return p
}

// compareModels checks that a parsed file states the model m: the same
// sense, objective (with ObjOffset as the obj_const column fixed at 1),
// bounds and coefficients, matching rows by order. Free rows are N rows in
// MPS and omitted from LP, where a model without other rows gets a
// placeholder row; columns with no coefficient, no cost and default bounds
// do not appear in LP.
func compareModels(t tb, m *Model, p *parsed, lpFormat bool) {
	t.Helper()
	if p.sense != m.Sense {
		t.Fatalf("sense %v, want %v", p.sense, m.Sense)
	}
	names, konst := m.colNames()
	idx := map[string]int{}
	for j, n := range names {
		idx[n] = j
	}
	seen := make([]bool, m.NumVars())
	for _, c := range p.colOrder {
		if c == konst {
			if p.obj[c] != m.ObjOffset || p.colLo[c] != 1 || p.colUp[c] != 1 {
				t.Fatalf("constant column %s: obj %g [%g, %g], want %g [1, 1]", c, p.obj[c], p.colLo[c], p.colUp[c], m.ObjOffset)
			}
			continue
		}
		j, ok := idx[c]
		if !ok {
			t.Fatalf("unknown column %q", c)
		}
		seen[j] = true
		if p.obj[c] != m.Obj[j] || p.colLo[c] != m.ColLower[j] || p.colUp[c] != m.ColUpper[j] {
			t.Fatalf("column %s: obj %g [%g, %g], want %g [%g, %g]", c, p.obj[c], p.colLo[c], p.colUp[c], m.Obj[j], m.ColLower[j], m.ColUpper[j])
		}
	}
	for j, ok := range seen {
		if !ok && (!lpFormat || m.Obj[j] != 0 || m.ColLower[j] != 0 || !math.IsInf(m.ColUpper[j], 1)) {
			t.Fatalf("column %s missing", names[j])
		}
	}
	if (konst != "") != (p.obj[konst] != 0 || p.colLo[konst] == 1) {
		t.Fatalf("constant column %q: written %v", konst, p.colLo[konst] == 1)
	}
	var rows []int
	for r := range m.NumRows() {
		if !lpFormat || !math.IsInf(m.RowLower[r], -1) || !math.IsInf(m.RowUpper[r], 1) {
			rows = append(rows, r)
		}
	}
	pr := p.rowOrder
	if lpFormat && len(rows) == 0 {
		nz := 0
		for _, v := range p.coef[pr[0]] {
			if v != 0 {
				nz++
			}
		}
		if len(pr) != 1 || !strings.HasPrefix(pr[0], "no_rows") || nz != 0 || p.rowLo[pr[0]] != 0 {
			t.Fatalf("placeholder rows %v", pr)
		}
		return
	}
	if len(pr) != len(rows) {
		t.Fatalf("%d rows read back, want %d (%v)", len(pr), len(rows), pr)
	}
	a := dense(m)
	for k, r := range rows {
		name := pr[k]
		if lo, up := p.rowLo[name], p.rowUp[name]; lo != m.RowLower[r] || up != m.RowUpper[r] {
			t.Fatalf("row %s: [%g, %g], want [%g, %g]", name, lo, up, m.RowLower[r], m.RowUpper[r])
		}
		for c, v := range p.coef[name] {
			j, ok := idx[c]
			if !ok && !(v == 0 && (c == konst || m.NumVars() > 0)) {
				t.Fatalf("row %s: unknown column %s", name, c)
			}
			if ok && v != a[r][j] {
				t.Fatalf("row %s column %s: %g, want %g", name, c, v, a[r][j])
			}
		}
		for j := range m.NumVars() {
			if got := p.coef[name][names[j]]; got != a[r][j] {
				t.Fatalf("row %s column %s: %g, want %g", name, names[j], got, a[r][j])
			}
		}
	}
}

// genFull draws a random model with every kind of row and column bound.
func genFull(t *rapid.T) *Model {
	sense := Minimize
	if rapid.Bool().Draw(t, "max") {
		sense = Maximize
	}
	m := New("r", sense)
	if rapid.Bool().Draw(t, "offset") {
		m.ObjOffset = rapid.Float64Range(-10, 10).Draw(t, "off")
	}
	bound := func(label string) (float64, float64) {
		lo := float64(rapid.IntRange(-5, 5).Draw(t, label)) / 4
		up := lo + float64(rapid.IntRange(0, 8).Draw(t, label))/3
		switch rapid.IntRange(0, 4).Draw(t, label+"kind") {
		case 0:
			lo = -inf
		case 1:
			up = inf
		case 2:
			lo, up = -inf, inf
		}
		return lo, up
	}
	n := rapid.IntRange(0, 6).Draw(t, "n")
	for range n {
		lo, up := bound("col")
		m.AddVar(rapid.SampledFrom([]string{"x", "y[1]", "", "free", "e"}).Draw(t, "name"), lo, up,
			rapid.Float64Range(-3, 3).Draw(t, "c"))
	}
	for range rapid.IntRange(0, 6).Draw(t, "rows") {
		var cols []int
		var vals []float64
		if n > 0 {
			for range rapid.IntRange(0, 6).Draw(t, "len") {
				cols = append(cols, rapid.IntRange(0, n-1).Draw(t, "col"))
				vals = append(vals, rapid.Float64Range(-5, 5).Draw(t, "val"))
			}
		}
		lo, up := bound("row")
		m.AddRow(rapid.SampledFrom([]string{"r", "obj", "r_lo", ""}).Draw(t, "rname"), lo, up, cols, vals)
	}
	return m
}

// TestWriteRoundTrip parses the MPS and LP output of random models back and
// compares it with the model: every bound, coefficient (to the last bit) and
// the objective offset survive.
func TestWriteRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := genFull(t)
		compareModels(t, m, parseMPS(t, writeMPS(t, m)), false)
		compareModels(t, m, parseLP(t, writeLP(t, m)), true)
	})
}

// known is a model with its optimum derived by hand.
type known struct {
	name string
	m    *Model
	opt  float64
}

// knownModels are small models whose optimum is derived in the comments;
// the optima are integers so that the command-line solvers' printed values
// (8 to 10 significant digits) can be checked to 1e-9.
func knownModels() []known {
	var ks []known

	// Ranged rows: min −x − 3y, 2 ≤ x + y ≤ 4, −1 ≤ x − y ≤ 1, x, y ≥ 0.
	// y ≤ x + 1 and x + y ≤ 4 meet at (1.5, 2.5): −1.5 − 7.5 = −9; the
	// multipliers −2 (upper side of row 1) and 1 (lower side of row 2)
	// reproduce c and give 4·(−2) + (−1)·1 = −9.
	m := New("ranged", Minimize)
	x := m.AddVar("x", 0, inf, -1)
	y := m.AddVar("y", 0, inf, -3)
	m.AddRow("sum", 2, 4, []int{x, y}, []float64{1, 1})
	m.AddRow("diff", -1, 1, []int{x, y}, []float64{1, -1})
	ks = append(ks, known{"ranged", m, -9})

	// Free variables and an objective constant: min x + 2y + 4 with x, y
	// free, x + y ≥ 1, −x + y ≥ −3. Multipliers 3/2 and 1/2 (both ≥ 0)
	// reproduce (1, 2), so both rows bind: (2, −1), value 0 + 4.
	m = New("free", Minimize)
	m.ObjOffset = 4
	x = m.AddVar("x", -inf, inf, 1)
	y = m.AddVar("y", -inf, inf, 2)
	m.AddRow("r1", 1, inf, []int{x, y}, []float64{1, 1})
	m.AddRow("r2", -3, inf, []int{x, y}, []float64{-1, 1})
	ks = append(ks, known{"free", m, 4})

	// Negative bounds: min 2x + y, x ∈ [−2, 5], y ∈ [−4, −1], x + y ≥ −3.
	// 2x + y = x + (x + y) ≥ −2 − 3 = −5, attained at (−2, −1).
	m = New("negative", Minimize)
	x = m.AddVar("x", -2, 5, 2)
	y = m.AddVar("y", -4, -1, 1)
	m.AddRow("r", -3, inf, []int{x, y}, []float64{1, 1})
	ks = append(ks, known{"negative", m, -5})

	// Fixed and empty columns, a free row and a row over a fixed column:
	// x = 2 (fixed), x + y ≥ 3 so y = 1, w (no row, cost −1, ≤ 5) = 5, v (no
	// row, cost 0) anywhere in [1, 3]: 2 + 1 − 5 + 10 (offset) = 8.
	m = New("fixed", Minimize)
	m.ObjOffset = 10
	x = m.AddVar("x", 2, 2, 1)
	y = m.AddVar("y", 0, inf, 1)
	m.AddVar("w", -inf, 5, -1)
	m.AddVar("v", 1, 3, 0)
	m.AddRow("r", 3, inf, []int{x, y}, []float64{1, 1})
	m.AddRow("free", -inf, inf, []int{x, y}, []float64{7, 7})
	m.AddRow("const", 1, 4, []int{x}, []float64{1})
	ks = append(ks, known{"fixed", m, 8})

	// Maximisation (Wyndor Glass): max 3x + 5y, x ≤ 4, 2y ≤ 12,
	// 3x + 2y ≤ 18, x, y ≥ 0. Vertices (0,0), (4,0), (4,3), (2,6), (0,6)
	// give 0, 12, 27, 36, 30.
	m = New("wyndor", Maximize)
	m.Comments = []string{"Wyndor Glass, with comments: * \\ obj: ROWS", "NAME x\nEnd"}
	x = m.AddVar("x", 0, inf, 3)
	y = m.AddVar("y", 0, inf, 5)
	m.AddRow("p1", -inf, 4, []int{x}, []float64{1})
	m.AddRow("p2", -inf, 12, []int{y}, []float64{2})
	m.AddRow("p3", -inf, 18, []int{x, y}, []float64{3, 2})
	ks = append(ks, known{"wyndor", m, 36})

	// Maximisation with a ranged row and negative bounds and an offset:
	// max x + y − 2, x + 2y ≤ 4, 3 ≤ 2x + y ≤ 5, x, y ≥ −1. The rows meet
	// at (2, 1); multipliers 1/3 and 1/3 on the upper sides reproduce
	// (1, 1) and give 4/3 + 5/3 = 3; minus 2 gives 1.
	m = New("maxranged", Maximize)
	m.ObjOffset = -2
	x = m.AddVar("x", -1, inf, 1)
	y = m.AddVar("y", -1, inf, 1)
	m.AddRow("r1", -inf, 4, []int{x, y}, []float64{1, 2})
	m.AddRow("r2", 3, 5, []int{x, y}, []float64{2, 1})
	ks = append(ks, known{"maxranged", m, 1})

	// Awkward names: min a + 2b + 3c + 4d + 5e, all ≥ 0, with rows
	// a + b ≥ 2 (named obj), 1 ≤ c + d ≤ 3 (named r), b + e ≥ 1 (named
	// r_lo), d − e ≤ 0 (named bounds). c is cheaper than d: c = 1, d = 0
	// (3). With a = 2 − b and e = max(0, 1 − b) the rest costs 7 − 4b for
	// b ≤ 1 and 2 + b after: b = 1, a = 1, e = 0 (3). Total 6.
	m = New("names", Minimize)
	a := m.AddVar("x[1]", 0, inf, 1)
	b := m.AddVar("x[1]", 0, inf, 2)
	c := m.AddVar("free", 0, inf, 3)
	d := m.AddVar("e2", 0, inf, 4)
	e := m.AddVar("1st", 0, inf, 5)
	m.AddRow("obj", 2, inf, []int{a, b}, []float64{1, 1})
	m.AddRow("r", 1, 3, []int{c, d}, []float64{1, 1})
	m.AddRow("r_lo", 1, inf, []int{b, e}, []float64{1, 1})
	m.AddRow("bounds", -inf, 0, []int{d, e}, []float64{1, -1})
	ks = append(ks, known{"names", m, 6})

	// Linearly dependent equality rows (balanced transportation): supplies
	// 20, 30, demands 15, 20, 15, costs [[8, 6, 10], [9, 12, 13]]. Shipping
	// s1→d2 20, s2→d1 15, s2→d3 15 costs 120 + 135 + 195 = 450; the duals
	// u = (0, 6), v = (3, 6, 7) satisfy u_i + v_j ≤ c_ij and give
	// 30·6 + 15·3 + 20·6 + 15·7 = 450.
	m = New("transport", Minimize)
	cost := [2][3]float64{{8, 6, 10}, {9, 12, 13}}
	var v [2][3]int
	for i := range 2 {
		for j := range 3 {
			v[i][j] = m.AddVar(fmt.Sprintf("x%d%d", i, j), 0, inf, cost[i][j])
		}
	}
	for i, s := range []float64{20, 30} {
		m.AddRow(fmt.Sprintf("s%d", i), s, s, []int{v[i][0], v[i][1], v[i][2]}, []float64{1, 1, 1})
	}
	for j, dm := range []float64{15, 20, 15} {
		m.AddRow(fmt.Sprintf("d%d", j), dm, dm, []int{v[0][j], v[1][j]}, []float64{1, 1})
	}
	ks = append(ks, known{"transport", m, 450})

	// No rows: max 3a − 2b over a ∈ [−1, 2], b ∈ [−4, 1]: 6 + 8 = 14.
	m = New("box", Maximize)
	m.AddVar("a", -1, 2, 3)
	m.AddVar("b", -4, 1, -2)
	ks = append(ks, known{"box", m, 14})
	return ks
}

// TestKnownModelsRoundTrip checks the parsers of these tests on the known
// models too.
func TestKnownModelsRoundTrip(t *testing.T) {
	for _, k := range knownModels() {
		compareModels(t, k.m, parseMPS(t, writeMPS(t, k.m)), false)
		compareModels(t, k.m, parseLP(t, writeLP(t, k.m)), true)
	}
}

// solverRun runs a command-line solver with a time limit and returns its
// standard output and error.
func solverRun(t *testing.T, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s %v: %v", name, args, ctx.Err())
	}
	_ = err // glpsol and lp_solve exit nonzero on some outcomes; parse instead
	return string(out)
}

var (
	clpObj     = regexp.MustCompile(`(?m)^Optimal - objective value\s+(\S+)\s*$`)
	glpsolObj  = regexp.MustCompile(`(?m)^Objective:\s+\S+ = (\S+) \((MIN|MAX)imum\)`)
	lpsolveObj = regexp.MustCompile(`(?m)^Value of objective function:\s+(\S+)\s*$`)
)

// objective extracts the last match of re from out.
func objective(t *testing.T, re *regexp.Regexp, what, out string) float64 {
	t.Helper()
	all := re.FindAllStringSubmatch(out, -1)
	if all == nil {
		t.Fatalf("%s: no optimal objective in output:\n%s", what, out)
	}
	v, err := strconv.ParseFloat(all[len(all)-1][1], 64)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// stripObjsense removes the OBJSENSE section, which glpsol rejects.
func stripObjsense(mps string) string {
	return strings.Replace(mps, "OBJSENSE\n    MAX\n", "", 1)
}

// TestExternalSolvers writes the known models to MPS and LP files and
// solves them with the command-line solvers clp (MPS and LP), glpsol
// (--freemps and --lp) and lp_solve (-fmps), each skipped when not on PATH.
// Maximisation: clp ignores OBJSENSE in MPS, so it gets -max; glpsol
// rejects the section, so it is dropped and --max passed; lp_solve and the
// LP readers take the sense from the file.
func TestExternalSolvers(t *testing.T) {
	dir := t.TempDir()
	type runner struct {
		bin string
		run func(t *testing.T, k known, mps, lpf string) float64
	}
	runners := []struct {
		name string
		runner
	}{
		{"clp-mps", runner{"clp", func(t *testing.T, k known, mps, _ string) float64 {
			args := []string{mps}
			if k.m.Sense == Maximize {
				args = append(args, "-max")
			}
			return objective(t, clpObj, "clp", solverRun(t, "clp", append(args, "-solve")...))
		}}},
		{"clp-lp", runner{"clp", func(t *testing.T, k known, _, lpf string) float64 {
			return objective(t, clpObj, "clp", solverRun(t, "clp", lpf, "-solve"))
		}}},
		{"glpsol-mps", runner{"glpsol", func(t *testing.T, k known, mps, _ string) float64 {
			text, err := os.ReadFile(mps)
			if err != nil {
				t.Fatal(err)
			}
			stripped := filepath.Join(dir, k.name+"-glpk.mps")
			if err := os.WriteFile(stripped, []byte(stripObjsense(string(text))), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, k.name+"-mps.txt")
			args := []string{"--freemps", stripped, "-o", out}
			if k.m.Sense == Maximize {
				args = append(args, "--max")
			}
			return glpsolResult(t, solverRun(t, "glpsol", args...), out)
		}}},
		{"glpsol-lp", runner{"glpsol", func(t *testing.T, k known, _, lpf string) float64 {
			out := filepath.Join(dir, k.name+"-lp.txt")
			return glpsolResult(t, solverRun(t, "glpsol", "--lp", lpf, "-o", out), out)
		}}},
		{"lp_solve-mps", runner{"lp_solve", func(t *testing.T, k known, mps, _ string) float64 {
			out := solverRun(t, "lp_solve", "-S3", "-fmps", mps)
			if strings.Contains(out, "infeasible") || strings.Contains(out, "unbounded") {
				t.Fatalf("lp_solve: %s", out)
			}
			return objective(t, lpsolveObj, "lp_solve", out)
		}}},
	}
	ks := knownModels()
	for _, k := range ks {
		for _, ext := range []string{".mps", ".lp"} {
			text := writeMPS(t, k.m)
			if ext == ".lp" {
				text = writeLP(t, k.m)
			}
			if err := os.WriteFile(filepath.Join(dir, k.name+ext), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, r := range runners {
		t.Run(r.name, func(t *testing.T) {
			if _, err := exec.LookPath(r.bin); err != nil {
				t.Skipf("%s not on PATH", r.bin)
			}
			for _, k := range ks {
				got := r.run(t, k, filepath.Join(dir, k.name+".mps"), filepath.Join(dir, k.name+".lp"))
				if math.Abs(got-k.opt) > 1e-9*math.Max(1, math.Abs(k.opt)) {
					t.Errorf("%s: objective %.12g, want %g", k.name, got, k.opt)
				}
			}
		})
	}
}

// glpsolResult checks glpsol's report file for an optimal status and
// returns the objective.
func glpsolResult(t *testing.T, log, report string) float64 {
	t.Helper()
	text, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("glpsol wrote no report: %v\n%s", err, log)
	}
	if !strings.Contains(string(text), "Status:     OPTIMAL") {
		t.Fatalf("glpsol did not solve to optimality:\n%s\n%s", text, log)
	}
	return objective(t, glpsolObj, "glpsol", string(text))
}
