package lp

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Sense is the direction of optimisation.
type Sense int

const (
	// Minimize asks for the smallest objective value.
	Minimize Sense = iota
	// Maximize asks for the largest objective value.
	Maximize
)

// String returns "min" or "max".
func (s Sense) String() string {
	if s == Maximize {
		return "max"
	}
	return "min"
}

// Model is a linear program
//
//	min (or max)  c·x + ObjOffset
//	subject to    RowLower <= A x <= RowUpper
//	              ColLower <= x   <= ColUpper
//
// stored row-wise. The zero value is an empty minimisation model.
type Model struct {
	// Name is the problem name written into MPS and LP files.
	Name string
	// Sense is the optimisation direction.
	Sense Sense
	// ObjOffset is a constant added to the objective.
	ObjOffset float64
	// Comments are written at the top of MPS ("*" lines) and LP ("\"
	// lines) files.
	Comments []string

	// ColNames, ColLower, ColUpper and Obj describe the variables.
	ColNames []string
	ColLower []float64
	ColUpper []float64
	Obj      []float64

	// RowNames, RowLower and RowUpper describe the constraints.
	RowNames []string
	RowLower []float64
	RowUpper []float64

	// RowStart, RowIndex and RowValue hold A in compressed sparse row form:
	// row r has coefficients RowValue[RowStart[r]:RowStart[r+1]] on columns
	// RowIndex[RowStart[r]:RowStart[r+1]]. RowStart has NumRows()+1 entries
	// once any row exists.
	RowStart []int
	RowIndex []int
	RowValue []float64

	// pos marks, while a row is added, where each column sits in it.
	pos []int
}

// New returns an empty model with the given name and sense.
func New(name string, sense Sense) *Model {
	return &Model{Name: name, Sense: sense}
}

// NumVars returns the number of variables (columns).
func (m *Model) NumVars() int { return len(m.Obj) }

// NumRows returns the number of constraints (rows).
func (m *Model) NumRows() int { return len(m.RowLower) }

// NumNonzeros returns the number of stored coefficients of A.
func (m *Model) NumNonzeros() int { return len(m.RowValue) }

// Grow reserves room for vars more columns, rows more rows and nonzeros
// more coefficients, so that building a model of known size does not
// reallocate as it goes. Negative counts are taken as 0.
func (m *Model) Grow(vars, rows, nonzeros int) {
	vars, rows, nonzeros = max(vars, 0), max(rows, 0), max(nonzeros, 0)
	m.ColNames = slices.Grow(m.ColNames, vars)
	m.ColLower = slices.Grow(m.ColLower, vars)
	m.ColUpper = slices.Grow(m.ColUpper, vars)
	m.Obj = slices.Grow(m.Obj, vars)
	m.pos = slices.Grow(m.pos, vars)
	m.RowNames = slices.Grow(m.RowNames, rows)
	m.RowLower = slices.Grow(m.RowLower, rows)
	m.RowUpper = slices.Grow(m.RowUpper, rows)
	m.RowStart = slices.Grow(m.RowStart, rows+1)
	m.RowIndex = slices.Grow(m.RowIndex, nonzeros)
	m.RowValue = slices.Grow(m.RowValue, nonzeros)
}

// AddVar adds a variable with bounds [lo, up] and objective coefficient obj
// and returns its index.
func (m *Model) AddVar(name string, lo, up, obj float64) int {
	m.ColNames = append(m.ColNames, name)
	m.ColLower = append(m.ColLower, lo)
	m.ColUpper = append(m.ColUpper, up)
	m.Obj = append(m.Obj, obj)
	return len(m.Obj) - 1
}

// AddRow adds the constraint lo <= Σ vals[j]·x[cols[j]] <= up and returns
// its index. Zero coefficients are dropped; a column named twice has its
// coefficients summed. The slices are copied.
func (m *Model) AddRow(name string, lo, up float64, cols []int, vals []float64) int {
	if len(m.RowStart) == 0 {
		m.RowStart = append(m.RowStart, 0)
	}
	for len(m.pos) < len(m.Obj) {
		m.pos = append(m.pos, -1)
	}
	start := len(m.RowIndex)
	for j, c := range cols {
		v := vals[j]
		if v == 0 {
			continue
		}
		if c >= 0 && c < len(m.pos) && m.pos[c] >= 0 {
			m.RowValue[m.pos[c]] += v
			continue
		}
		if c >= 0 && c < len(m.pos) {
			m.pos[c] = len(m.RowIndex)
		}
		m.RowIndex = append(m.RowIndex, c)
		m.RowValue = append(m.RowValue, v)
	}
	cancelled := false
	for q, c := range m.RowIndex[start:] {
		if c >= 0 && c < len(m.pos) {
			m.pos[c] = -1
		}
		cancelled = cancelled || m.RowValue[start+q] == 0
	}
	if cancelled {
		// Repeated coefficients that summed to zero are dropped too.
		k := start
		for q := start; q < len(m.RowIndex); q++ {
			if m.RowValue[q] != 0 {
				m.RowIndex[k], m.RowValue[k] = m.RowIndex[q], m.RowValue[q]
				k++
			}
		}
		m.RowIndex, m.RowValue = m.RowIndex[:k], m.RowValue[:k]
	}
	m.RowNames = append(m.RowNames, name)
	m.RowLower = append(m.RowLower, lo)
	m.RowUpper = append(m.RowUpper, up)
	m.RowStart = append(m.RowStart, len(m.RowIndex))
	return len(m.RowLower) - 1
}

// Row returns the column indices and coefficients of row r. The slices alias
// the model's storage and must not be modified.
func (m *Model) Row(r int) (cols []int, vals []float64) {
	a, b := m.RowStart[r], m.RowStart[r+1]
	return m.RowIndex[a:b], m.RowValue[a:b]
}

// CSC is a sparse matrix in compressed sparse column form: column j has
// entries Value[Start[j]:Start[j+1]] in rows Index[Start[j]:Start[j+1]],
// rows in increasing order.
type CSC struct {
	Rows, Cols int
	Start      []int
	Index      []int
	Value      []float64
}

// CSC returns A in compressed sparse column form.
func (m *Model) CSC() CSC {
	n := m.NumVars()
	out := CSC{Rows: m.NumRows(), Cols: n, Start: make([]int, n+1)}
	for _, c := range m.RowIndex {
		out.Start[c+1]++
	}
	for j := 0; j < n; j++ {
		out.Start[j+1] += out.Start[j]
	}
	out.Index = make([]int, len(m.RowIndex))
	out.Value = make([]float64, len(m.RowValue))
	next := append([]int(nil), out.Start[:n]...)
	for r := 0; r < m.NumRows(); r++ {
		for q := m.RowStart[r]; q < m.RowStart[r+1]; q++ {
			c := m.RowIndex[q]
			out.Index[next[c]] = r
			out.Value[next[c]] = m.RowValue[q]
			next[c]++
		}
	}
	return out
}

// Activity returns A x, the row activities of the point x.
func (m *Model) Activity(x []float64) []float64 {
	act := make([]float64, m.NumRows())
	for r := range act {
		cols, vals := m.Row(r)
		s := 0.0
		for j, c := range cols {
			s += vals[j] * x[c]
		}
		act[r] = s
	}
	return act
}

// ObjectiveValue returns c·x + ObjOffset.
func (m *Model) ObjectiveValue(x []float64) float64 {
	s := m.ObjOffset
	for j, c := range m.Obj {
		s += c * x[j]
	}
	return s
}

// Violation describes by how much a point breaks one bound of the model.
type Violation struct {
	// Row is true for a row bound, false for a column bound.
	Row bool
	// Index is the row or column index; Name its name.
	Index int
	Name  string
	// Amount is the absolute violation; Scale the magnitude it is measured
	// against (the largest of 1, |bound| and the row's Σ|a_j x_j|).
	Amount, Scale float64
}

// Relative returns Amount/Scale.
func (v Violation) Relative() float64 { return v.Amount / v.Scale }

// MaxViolation returns the largest relative violation of the point x over all
// row and column bounds, measured as in Violation. A feasible point returns a
// zero Violation; a NaN value or activity violates its bounds by +Inf.
func (m *Model) MaxViolation(x []float64) Violation {
	var worst Violation
	worst.Scale = 1
	consider := func(row bool, i int, name string, val, lo, up, mag float64) {
		amt := 0.0
		switch {
		case math.IsNaN(val):
			amt = math.Inf(1)
		case val < lo:
			amt = lo - val
		case val > up:
			amt = val - up
		}
		if amt == 0 {
			return
		}
		scale := 1.0
		if mag > scale { // false for NaN
			scale = mag
		}
		if !math.IsInf(lo, 0) {
			scale = math.Max(scale, math.Abs(lo))
		}
		if !math.IsInf(up, 0) {
			scale = math.Max(scale, math.Abs(up))
		}
		v := Violation{Row: row, Index: i, Name: name, Amount: amt, Scale: scale}
		if v.Relative() > worst.Relative() {
			worst = v
		}
	}
	for j := range m.Obj {
		consider(false, j, m.ColNames[j], x[j], m.ColLower[j], m.ColUpper[j], math.Abs(x[j]))
	}
	for r := 0; r < m.NumRows(); r++ {
		cols, vals := m.Row(r)
		s, mag := 0.0, 0.0
		for j, c := range cols {
			t := vals[j] * x[c]
			s += t
			mag += math.Abs(t)
		}
		consider(true, r, m.RowNames[r], s, m.RowLower[r], m.RowUpper[r], mag)
	}
	return worst
}

// Validate checks that the model is well formed: consistent slice lengths
// and row starts, finite coefficients and objective offset, lo <= up on every
// bound, no NaN bound, no lower bound +Inf or upper bound -Inf, and column
// indices in range. It returns the first problem found.
func (m *Model) Validate() error {
	n := m.NumVars()
	if len(m.ColNames) != n || len(m.ColLower) != n || len(m.ColUpper) != n {
		return errors.New("lp: column slices have different lengths")
	}
	r := m.NumRows()
	if len(m.RowNames) != r || len(m.RowUpper) != r || (r > 0 && len(m.RowStart) != r+1) {
		return errors.New("lp: row slices have different lengths")
	}
	if len(m.RowIndex) != len(m.RowValue) {
		return errors.New("lp: RowIndex and RowValue have different lengths")
	}
	if r > 0 {
		if m.RowStart[0] != 0 || m.RowStart[r] != len(m.RowIndex) {
			return errors.New("lp: RowStart does not span RowIndex")
		}
		for i := 0; i < r; i++ {
			if m.RowStart[i] > m.RowStart[i+1] {
				return fmt.Errorf("lp: RowStart decreases at row %d", i)
			}
		}
	} else if len(m.RowIndex) != 0 {
		return errors.New("lp: coefficients without rows")
	}
	if math.IsNaN(m.ObjOffset) || math.IsInf(m.ObjOffset, 0) {
		return fmt.Errorf("lp: objective offset %g", m.ObjOffset)
	}
	for j := 0; j < n; j++ {
		if math.IsNaN(m.ColLower[j]) || math.IsNaN(m.ColUpper[j]) || m.ColLower[j] > m.ColUpper[j] ||
			math.IsInf(m.ColLower[j], 1) || math.IsInf(m.ColUpper[j], -1) {
			return fmt.Errorf("lp: column %s has bounds [%g, %g]", m.ColNames[j], m.ColLower[j], m.ColUpper[j])
		}
		if math.IsNaN(m.Obj[j]) || math.IsInf(m.Obj[j], 0) {
			return fmt.Errorf("lp: column %s has objective coefficient %g", m.ColNames[j], m.Obj[j])
		}
	}
	for i := 0; i < r; i++ {
		if math.IsNaN(m.RowLower[i]) || math.IsNaN(m.RowUpper[i]) || m.RowLower[i] > m.RowUpper[i] ||
			math.IsInf(m.RowLower[i], 1) || math.IsInf(m.RowUpper[i], -1) {
			return fmt.Errorf("lp: row %s has bounds [%g, %g]", m.RowNames[i], m.RowLower[i], m.RowUpper[i])
		}
		cols, vals := m.Row(i)
		for q, c := range cols {
			if c < 0 || c >= n {
				return fmt.Errorf("lp: row %s refers to column %d of %d", m.RowNames[i], c, n)
			}
			if math.IsNaN(vals[q]) || math.IsInf(vals[q], 0) {
				return fmt.Errorf("lp: row %s has coefficient %g", m.RowNames[i], vals[q])
			}
		}
	}
	return nil
}

// Clone returns a deep copy of the model.
func (m *Model) Clone() *Model {
	c := *m
	c.ColNames = append([]string(nil), m.ColNames...)
	c.ColLower = append([]float64(nil), m.ColLower...)
	c.ColUpper = append([]float64(nil), m.ColUpper...)
	c.Obj = append([]float64(nil), m.Obj...)
	c.RowNames = append([]string(nil), m.RowNames...)
	c.RowLower = append([]float64(nil), m.RowLower...)
	c.RowUpper = append([]float64(nil), m.RowUpper...)
	c.RowStart = append([]int(nil), m.RowStart...)
	c.RowIndex = append([]int(nil), m.RowIndex...)
	c.RowValue = append([]float64(nil), m.RowValue...)
	c.Comments = append([]string(nil), m.Comments...)
	c.pos = nil
	return &c
}
