package gonumlp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/dlsched/dlsched/lp"
)

// colKind says how a model column maps to the standard form.
type colKind int

const (
	colFixed colKind = iota // x = val, no standard column
	colEmpty                // no coefficient in a kept row: x = val
	colLower                // x = val + z
	colUpper                // x = val − z (no finite lower bound)
	colFree                 // x = z⁺ − z⁻
)

// rowKind says how a model row maps to the standard form.
type rowKind int

const (
	rowDropped rowKind = iota // free, empty or redundant: no standard row
	rowEq                     // a·x = lo
	rowGe                     // a·x − s = lo
	rowLe                     // a·x + s = up
	rowRanged                 // a·x − s = lo, s + t = up − lo
)

// stdForm maps a model to min cᵀz, Az = b, z ≥ 0 and back.
type stdForm struct {
	model *lp.Model
	max   bool      // the model maximises; cost is −Obj
	cost  []float64 // minimisation objective of the model columns

	kind []colKind
	col  []int     // first standard column of a model column, −1 if none
	val  []float64 // fixed/empty value, or the shift of a lower/upper column
	ub   []int     // standard row of the bound row z + t = u − l, −1 if none

	// unbounded names a column without coefficients whose objective runs
	// to −∞ along an infinite bound; empty when there is none.
	unbounded string

	rkind []rowKind
	row   []int     // standard row of a model row, −1 if dropped
	konst []float64 // activity contributed by fixed columns

	nRows, nCols int
	nStruct      int // structural standard columns (before the slacks)
	nKept        int // standard rows that are model rows
	nBound       int // bound rows z + t = u − l
}

// infeasibleError reports infeasibility found while building the standard
// form.
type infeasibleError struct{ detail string }

func (e *infeasibleError) Error() string { return e.detail }

// analyse classifies rows and columns and sizes the standard form without
// allocating it. ptol is the primal feasibility tolerance.
func analyse(m *lp.Model, ptol float64) (*stdForm, error) {
	n, nr := m.NumVars(), m.NumRows()
	f := &stdForm{
		model: m, max: m.Sense == lp.Maximize,
		cost: make([]float64, n), kind: make([]colKind, n), col: make([]int, n),
		val: make([]float64, n), ub: make([]int, n),
		rkind: make([]rowKind, nr), row: make([]int, nr), konst: make([]float64, nr),
	}
	f.classifyColumns()
	for r := range nr {
		if err := f.classifyRow(r, ptol); err != nil {
			return nil, err
		}
	}
	if err := f.dropDependentEqualities(ptol); err != nil {
		return nil, err
	}
	f.emptyColumns()
	f.number()
	return f, nil
}

// classifyColumns sets each column's objective (negated to minimise) and
// kind: fixed, shifted from its lower or its upper bound, or free.
func (f *stdForm) classifyColumns() {
	m := f.model
	for j := range m.NumVars() {
		f.cost[j] = m.Obj[j]
		if f.max {
			f.cost[j] = -m.Obj[j]
		}
		f.col[j], f.ub[j] = -1, -1
		lo, up := m.ColLower[j], m.ColUpper[j]
		switch {
		case lo == up:
			f.kind[j], f.val[j] = colFixed, lo
		case !math.IsInf(lo, -1):
			f.kind[j], f.val[j] = colLower, lo
		case !math.IsInf(up, 1):
			f.kind[j], f.val[j] = colUpper, up
		default:
			f.kind[j] = colFree
		}
	}
}

// classifyRow records row r's activity from fixed columns and its kind:
// a free row is dropped, a row without unfixed columns is checked
// (infeasible beyond ptol) and dropped.
func (f *stdForm) classifyRow(r int, ptol float64) error {
	m := f.model
	f.row[r] = -1
	lo, up := m.RowLower[r], m.RowUpper[r]
	cols, vals := m.Row(r)
	k, mag, live := 0.0, 0.0, 0
	for q, c := range cols {
		if f.kind[c] == colFixed {
			k += vals[q] * f.val[c]
			mag += math.Abs(vals[q] * f.val[c])
		} else {
			live++
		}
	}
	f.konst[r] = k
	if math.IsInf(lo, -1) && math.IsInf(up, 1) {
		return nil
	}
	if live == 0 {
		scale := math.Max(1, mag)
		if (!math.IsInf(lo, -1) && k < lo-ptol*math.Max(scale, math.Abs(lo))) ||
			(!math.IsInf(up, 1) && k > up+ptol*math.Max(scale, math.Abs(up))) {
			return &infeasibleError{fmt.Sprintf("row %s: fixed activity %g outside [%g, %g]", m.RowNames[r], k, lo, up)}
		}
		return nil
	}
	switch {
	case lo == up:
		f.rkind[r] = rowEq
	case math.IsInf(up, 1):
		f.rkind[r] = rowGe
	case math.IsInf(lo, -1):
		f.rkind[r] = rowLe
	default:
		f.rkind[r] = rowRanged
	}
	return nil
}

// emptyColumns fixes the columns without coefficients in the kept rows at
// their best bound (0 within the box when the objective ignores them) and
// names the first whose objective is unbounded.
func (f *stdForm) emptyColumns() {
	m := f.model
	used := make([]bool, m.NumVars())
	for r := range m.NumRows() {
		if f.rkind[r] == rowDropped {
			continue
		}
		cols, vals := m.Row(r)
		for q, c := range cols {
			if vals[q] != 0 {
				used[c] = true
			}
		}
	}
	for j := range m.NumVars() {
		if used[j] || f.kind[j] == colFixed {
			continue
		}
		f.kind[j] = colEmpty
		lo, up, c := m.ColLower[j], m.ColUpper[j], f.cost[j]
		switch {
		case c > 0 && !math.IsInf(lo, -1):
			f.val[j] = lo
		case c < 0 && !math.IsInf(up, 1):
			f.val[j] = up
		case c == 0:
			f.val[j] = math.Max(lo, math.Min(up, 0))
		default:
			if f.unbounded == "" {
				f.unbounded = m.ColNames[j]
			}
			f.val[j] = math.Max(lo, math.Min(up, 0))
		}
	}
}

// number numbers the standard columns (structural, then slacks, then the
// bound rows' slacks) and rows (kept model rows, then the ranged rows'
// and the bound rows).
func (f *stdForm) number() {
	m := f.model
	n, nr := m.NumVars(), m.NumRows()
	nc := 0
	for j := range n {
		switch f.kind[j] {
		case colLower, colUpper:
			f.col[j] = nc
			nc++
		case colFree:
			f.col[j] = nc
			nc += 2
		}
	}
	f.nStruct = nc
	ns := 0
	for r := range nr {
		if f.rkind[r] != rowDropped {
			f.row[r] = ns
			ns++
		}
	}
	f.nKept = ns
	extra := ns
	for r := range nr {
		switch f.rkind[r] {
		case rowGe, rowLe:
			nc++
		case rowRanged:
			nc += 2
			extra++
		}
	}
	for j := range n {
		if f.kind[j] == colLower && !math.IsInf(m.ColUpper[j], 1) {
			f.ub[j] = extra
			extra++
			nc++
			f.nBound++
		}
	}
	f.nRows, f.nCols = extra, nc
}

// dropDependentEqualities marks as dropped the equality rows that are linear
// combinations of earlier ones (Gaussian elimination with the largest
// remaining entry as pivot), after checking that their right-hand sides
// agree.
func (f *stdForm) dropDependentEqualities(ptol float64) error {
	m := f.model
	n := m.NumVars()
	type pivRow struct {
		v   []float64
		rhs float64
		piv int
	}
	var piv []pivRow
	for r := range m.NumRows() {
		if f.rkind[r] != rowEq {
			continue
		}
		v := make([]float64, n)
		cols, vals := m.Row(r)
		norm := 0.0
		for q, c := range cols {
			if f.kind[c] != colFixed {
				v[c] += vals[q]
			}
		}
		for _, a := range v {
			norm = math.Max(norm, math.Abs(a))
		}
		rhs := m.RowLower[r] - f.konst[r]
		scale := 1 + math.Abs(rhs)
		for _, p := range piv {
			if v[p.piv] == 0 {
				continue
			}
			g := v[p.piv] / p.v[p.piv]
			for c, a := range p.v {
				if a != 0 {
					v[c] -= g * a
				}
			}
			v[p.piv] = 0
			rhs -= g * p.rhs
			scale += math.Abs(g * p.rhs)
		}
		best, bi := 0.0, -1
		for c, a := range v {
			if math.Abs(a) > best {
				best, bi = math.Abs(a), c
			}
		}
		if best <= 1e-9*norm {
			if math.Abs(rhs) > ptol*scale {
				return &infeasibleError{fmt.Sprintf("equality row %s contradicts earlier equality rows (residual %g)", m.RowNames[r], rhs)}
			}
			f.rkind[r] = rowDropped
			continue
		}
		piv = append(piv, pivRow{v: v, rhs: rhs, piv: bi})
	}
	return nil
}

// build allocates and fills the dense standard form.
func (f *stdForm) build() (A *mat.Dense, b, c []float64) {
	m := f.model
	A = mat.NewDense(f.nRows, f.nCols, nil)
	b = make([]float64, f.nRows)
	c = make([]float64, f.nCols)
	for j, k := range f.kind {
		switch k {
		case colLower:
			c[f.col[j]] = f.cost[j]
		case colUpper:
			c[f.col[j]] = -f.cost[j]
		case colFree:
			c[f.col[j]] = f.cost[j]
			c[f.col[j]+1] = -f.cost[j]
		}
	}
	// Row slacks follow the structural columns, bound-row slacks come last;
	// extra rows of ranged rows follow the kept model rows.
	next, nextExtra, slack := f.nStruct, f.nKept, f.nCols-f.nBound
	for r := range m.NumRows() {
		i := f.row[r]
		if i < 0 {
			continue
		}
		cols, vals := m.Row(r)
		shift := f.konst[r]
		for q, col := range cols {
			a := vals[q]
			switch f.kind[col] {
			case colLower:
				A.Set(i, f.col[col], A.At(i, f.col[col])+a)
				shift += a * f.val[col]
			case colUpper:
				A.Set(i, f.col[col], A.At(i, f.col[col])-a)
				shift += a * f.val[col]
			case colFree:
				A.Set(i, f.col[col], A.At(i, f.col[col])+a)
				A.Set(i, f.col[col]+1, A.At(i, f.col[col]+1)-a)
			}
		}
		lo, up := m.RowLower[r], m.RowUpper[r]
		switch f.rkind[r] {
		case rowEq:
			b[i] = lo - shift
		case rowGe:
			b[i] = lo - shift
			A.Set(i, next, -1)
			next++
		case rowLe:
			b[i] = up - shift
			A.Set(i, next, 1)
			next++
		case rowRanged:
			b[i] = lo - shift
			A.Set(i, next, -1)
			A.Set(nextExtra, next, 1)
			A.Set(nextExtra, next+1, 1)
			b[nextExtra] = up - lo
			next += 2
			nextExtra++
		}
	}
	for j := range f.kind {
		if f.ub[j] < 0 {
			continue
		}
		i := f.ub[j]
		A.Set(i, f.col[j], 1)
		A.Set(i, slack, 1)
		b[i] = m.ColUpper[j] - m.ColLower[j]
		slack++
	}
	return A, b, c
}

// primal maps a standard-form point to the model's columns. Slightly
// negative standard values are treated as zero.
func (f *stdForm) primal(z []float64) []float64 {
	x := make([]float64, len(f.kind))
	pos := func(v float64) float64 { return math.Max(v, 0) }
	for j, k := range f.kind {
		switch k {
		case colFixed, colEmpty:
			x[j] = f.val[j]
		case colLower:
			x[j] = f.val[j] + pos(z[f.col[j]])
			if u := f.model.ColUpper[j]; x[j] > u {
				x[j] = u
			}
		case colUpper:
			x[j] = f.val[j] - pos(z[f.col[j]])
		case colFree:
			x[j] = pos(z[f.col[j]]) - pos(z[f.col[j]+1])
		}
	}
	return x
}

// duals maps standard-form row duals ŷ (of the minimisation problem) to the
// model's rows in the convention of the package documentation.
func (f *stdForm) duals(yhat []float64) []float64 {
	y := make([]float64, len(f.row))
	for r, i := range f.row {
		if i < 0 {
			continue
		}
		v := yhat[i]
		// Clear multipliers of the wrong sign on one-sided rows: they are
		// rounding noise within the dual tolerance.
		switch f.rkind[r] {
		case rowGe:
			v = math.Max(v, 0)
		case rowLe:
			v = math.Min(v, 0)
		}
		if f.max {
			v = -v
		}
		y[r] = v
	}
	return y
}
