package lp

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

var inf = math.Inf(1)

func TestSenseString(t *testing.T) {
	if Minimize.String() != "min" || Maximize.String() != "max" {
		t.Fatalf("got %q, %q", Minimize, Maximize)
	}
	m := New("n", Maximize)
	if m.Name != "n" || m.Sense != Maximize || m.NumVars() != 0 || m.NumRows() != 0 || m.NumNonzeros() != 0 {
		t.Fatalf("New: %+v", m)
	}
}

func TestAddVar(t *testing.T) {
	var m Model // the zero value is usable
	for j, name := range []string{"a", "b", "c"} {
		if got := m.AddVar(name, float64(-j), float64(j), float64(10*j)); got != j {
			t.Fatalf("AddVar returned %d, want %d", got, j)
		}
	}
	if !reflect.DeepEqual(m.ColNames, []string{"a", "b", "c"}) ||
		!reflect.DeepEqual(m.ColLower, []float64{0, -1, -2}) ||
		!reflect.DeepEqual(m.ColUpper, []float64{0, 1, 2}) ||
		!reflect.DeepEqual(m.Obj, []float64{0, 10, 20}) {
		t.Fatalf("columns: %+v", m)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestAddRowMergesDuplicatesAndDropsZeros(t *testing.T) {
	m := New("t", Minimize)
	for range 4 {
		m.AddVar("x", 0, 1, 0)
	}
	cols := []int{2, 0, 1, 2, 3, 0, 3}
	vals := []float64{1, 4, 0, 2.5, 1, -1, -1}
	r := m.AddRow("r", 1, 2, cols, vals)
	if r != 0 {
		t.Fatalf("AddRow returned %d", r)
	}
	// Column 2: 1 + 2.5; column 0: 4 − 1; column 1 has a zero; column 3
	// cancels (1 − 1) and is dropped as well. First occurrences keep their
	// order.
	gc, gv := m.Row(0)
	if !reflect.DeepEqual(gc, []int{2, 0}) || !reflect.DeepEqual(gv, []float64{3.5, 3}) {
		t.Fatalf("row 0 = %v %v", gc, gv)
	}
	// The inputs are copied.
	cols[0], vals[0] = 3, 99
	if gc, gv = m.Row(0); gc[0] != 2 || gv[0] != 3.5 {
		t.Fatalf("row aliases its input: %v %v", gc, gv)
	}
	// The next row starts with a clean slate: the same columns again.
	m.AddRow("s", -inf, 5, []int{0, 2, 0}, []float64{1, 1, 1})
	gc, gv = m.Row(1)
	if !reflect.DeepEqual(gc, []int{0, 2}) || !reflect.DeepEqual(gv, []float64{2, 1}) {
		t.Fatalf("row 1 = %v %v", gc, gv)
	}
	// An empty row, and a row that cancels completely.
	m.AddRow("e", 0, 0, nil, nil)
	m.AddRow("c", 0, 0, []int{1, 1}, []float64{2, -2})
	for r := 2; r < 4; r++ {
		if gc, _ := m.Row(r); len(gc) != 0 {
			t.Fatalf("row %d = %v, want empty", r, gc)
		}
	}
	// Columns added after rows can be used by later rows.
	y := m.AddVar("y", 0, 1, 0)
	m.AddRow("late", 0, 1, []int{y, y, 0}, []float64{1, 1, 1})
	gc, gv = m.Row(4)
	if !reflect.DeepEqual(gc, []int{y, 0}) || !reflect.DeepEqual(gv, []float64{2, 1}) {
		t.Fatalf("row 4 = %v %v", gc, gv)
	}
	if m.NumRows() != 5 || m.NumNonzeros() != 6 || !reflect.DeepEqual(m.RowStart, []int{0, 2, 4, 4, 4, 6}) {
		t.Fatalf("NumRows %d, NumNonzeros %d, RowStart %v", m.NumRows(), m.NumNonzeros(), m.RowStart)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
}

// dense returns A as a dense matrix built from the row form.
func dense(m *Model) [][]float64 {
	a := make([][]float64, m.NumRows())
	for r := range a {
		a[r] = make([]float64, m.NumVars())
		cols, vals := m.Row(r)
		for q, c := range cols {
			a[r][c] += vals[q]
		}
	}
	return a
}

// genModel draws a random model with small integer data, including empty
// rows and columns and repeated columns within a row.
func genModel(t *rapid.T) *Model {
	m := New("rand", Minimize)
	n := rapid.IntRange(0, 6).Draw(t, "n")
	for j := range n {
		m.AddVar("x", -1, float64(j), float64(rapid.IntRange(-3, 3).Draw(t, "c")))
	}
	for range rapid.IntRange(0, 6).Draw(t, "rows") {
		var cols []int
		var vals []float64
		if n > 0 {
			for range rapid.IntRange(0, 8).Draw(t, "len") {
				cols = append(cols, rapid.IntRange(0, n-1).Draw(t, "col"))
				vals = append(vals, float64(rapid.IntRange(-2, 2).Draw(t, "val")))
			}
		}
		m.AddRow("r", -1, 1, cols, vals)
	}
	return m
}

// TestCSCMatchesRows checks on random models that the CSC view holds the
// same matrix as the row form, with increasing row indices in every column,
// and that AddRow stored no zero and no repeated column.
func TestCSCMatchesRows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := genModel(t)
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		want := dense(m)
		for r := range m.NumRows() {
			seen := map[int]bool{}
			cols, vals := m.Row(r)
			for q, c := range cols {
				if vals[q] == 0 || seen[c] {
					t.Fatalf("row %d stores %v %v", r, cols, vals)
				}
				seen[c] = true
			}
		}
		csc := m.CSC()
		if csc.Rows != m.NumRows() || csc.Cols != m.NumVars() || len(csc.Start) != m.NumVars()+1 ||
			csc.Start[m.NumVars()] != m.NumNonzeros() || len(csc.Index) != m.NumNonzeros() || len(csc.Value) != m.NumNonzeros() {
			t.Fatalf("CSC shape %+v for %d×%d with %d nonzeros", csc, m.NumRows(), m.NumVars(), m.NumNonzeros())
		}
		got := make([][]float64, m.NumRows())
		for r := range got {
			got[r] = make([]float64, m.NumVars())
		}
		for j := range csc.Cols {
			for q := csc.Start[j]; q < csc.Start[j+1]; q++ {
				if q > csc.Start[j] && csc.Index[q] <= csc.Index[q-1] {
					t.Fatalf("column %d rows not increasing: %v", j, csc.Index[csc.Start[j]:csc.Start[j+1]])
				}
				got[csc.Index[q]][j] = csc.Value[q]
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("CSC %v, rows %v", got, want)
		}
	})
}

func TestCSCEmpty(t *testing.T) {
	m := New("e", Minimize)
	csc := m.CSC()
	if csc.Rows != 0 || csc.Cols != 0 || !reflect.DeepEqual(csc.Start, []int{0}) {
		t.Fatalf("%+v", csc)
	}
	m.AddVar("x", 0, 1, 1)
	m.AddVar("y", 0, 1, 1)
	m.AddRow("r", 0, 1, []int{1}, []float64{2})
	csc = m.CSC()
	if !reflect.DeepEqual(csc.Start, []int{0, 0, 1}) || !reflect.DeepEqual(csc.Index, []int{0}) || !reflect.DeepEqual(csc.Value, []float64{2}) {
		t.Fatalf("%+v", csc)
	}
}

// small is x, y ∈ [0, 4] with rows x + 2y ∈ [−inf, 6] and x − y = 1 and
// objective 3x − y + 0.5.
func small() *Model {
	m := New("small", Minimize)
	m.ObjOffset = 0.5
	x := m.AddVar("x", 0, 4, 3)
	y := m.AddVar("y", 0, 4, -1)
	m.AddRow("cap", -inf, 6, []int{x, y}, []float64{1, 2})
	m.AddRow("link", 1, 1, []int{x, y}, []float64{1, -1})
	return m
}

func TestActivityAndObjective(t *testing.T) {
	m := small()
	act := m.Activity([]float64{2, 1})
	if !reflect.DeepEqual(act, []float64{4, 1}) {
		t.Fatalf("Activity = %v", act)
	}
	if got := m.ObjectiveValue([]float64{2, 1}); got != 5.5 {
		t.Fatalf("ObjectiveValue = %g", got)
	}
	if got := New("e", Minimize).Activity(nil); len(got) != 0 {
		t.Fatalf("Activity of empty model = %v", got)
	}
}

func TestMaxViolation(t *testing.T) {
	m := small()
	if v := m.MaxViolation([]float64{2, 1}); v != (Violation{Scale: 1}) || v.Relative() != 0 {
		t.Fatalf("feasible point: %+v", v)
	}
	// x = 5 breaks its upper bound 4 by 1 (scale max(1, |x|, |4|) = 5);
	// cap = 5 + 2 = 7 breaks 6 by 1 (scale max(Σ|a x| = 7, 6) = 7);
	// link = 5 − 1 = 4 breaks 1 by 3 (scale max(5 + 1, 1) = 6): the worst.
	v := m.MaxViolation([]float64{5, 1})
	want := Violation{Row: true, Index: 1, Name: "link", Amount: 3, Scale: 6}
	if v != want || v.Relative() != 0.5 {
		t.Fatalf("got %+v, want %+v", v, want)
	}
	// A column violation alone, measured against max(|x|, |lo|, |up|).
	m2 := New("c", Maximize)
	m2.AddVar("z", -2, 3, 1)
	m2.AddVar("w", 0, 0.5, 1)
	v = m2.MaxViolation([]float64{-4, 0})
	if want := (Violation{Index: 0, Name: "z", Amount: 2, Scale: 4}); v != want {
		t.Fatalf("got %+v, want %+v", v, want)
	}
	// Small magnitudes are measured against 1.
	v = m2.MaxViolation([]float64{0, 0.75})
	if want := (Violation{Index: 1, Name: "w", Amount: 0.25, Scale: 1}); v != want {
		t.Fatalf("got %+v, want %+v", v, want)
	}
	// NaN is never feasible.
	v = m.MaxViolation([]float64{math.NaN(), 1})
	if !math.IsInf(v.Relative(), 1) {
		t.Fatalf("NaN point: %+v", v)
	}
}

func TestValidate(t *testing.T) {
	if err := small().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		mutate func(m *Model)
		want   string
	}{
		{"short names", func(m *Model) { m.ColNames = m.ColNames[:1] }, "column slices"},
		{"short upper", func(m *Model) { m.ColUpper = m.ColUpper[:1] }, "column slices"},
		{"short row names", func(m *Model) { m.RowNames = m.RowNames[:1] }, "row slices"},
		{"short row start", func(m *Model) { m.RowStart = m.RowStart[:2] }, "row slices"},
		{"short values", func(m *Model) { m.RowValue = m.RowValue[:3] }, "RowValue"},
		{"row start span", func(m *Model) { m.RowStart[2] = 3 }, "RowStart"},
		{"row start order", func(m *Model) { m.RowStart[1] = 5 }, "RowStart decreases"},
		{"crossed column bounds", func(m *Model) { m.ColLower[1] = 5 }, "column y"},
		{"NaN column bound", func(m *Model) { m.ColUpper[0] = math.NaN() }, "column x"},
		{"+Inf lower bound", func(m *Model) { m.ColLower[0], m.ColUpper[0] = inf, inf }, "column x"},
		{"-Inf upper bound", func(m *Model) { m.ColLower[0], m.ColUpper[0] = -inf, -inf }, "column x"},
		{"infinite cost", func(m *Model) { m.Obj[1] = -inf }, "objective coefficient"},
		{"NaN cost", func(m *Model) { m.Obj[0] = math.NaN() }, "objective coefficient"},
		{"NaN offset", func(m *Model) { m.ObjOffset = math.NaN() }, "offset"},
		{"crossed row bounds", func(m *Model) { m.RowLower[0], m.RowUpper[0] = 2, 1 }, "row cap"},
		{"NaN row bound", func(m *Model) { m.RowLower[1] = math.NaN() }, "row link"},
		{"-Inf row upper", func(m *Model) { m.RowLower[0], m.RowUpper[0] = -inf, -inf }, "row cap"},
		{"column out of range", func(m *Model) { m.RowIndex[3] = 2 }, "column 2 of 2"},
		{"negative column", func(m *Model) { m.RowIndex[0] = -1 }, "column -1"},
		{"infinite coefficient", func(m *Model) { m.RowValue[2] = inf }, "coefficient"},
		{"NaN coefficient", func(m *Model) { m.RowValue[2] = math.NaN() }, "coefficient"},
	} {
		m := small()
		tc.mutate(m)
		err := m.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate() = %v, want an error mentioning %q", tc.name, err, tc.want)
		}
	}
	// A column index out of range given to AddRow is caught by Validate.
	m := small()
	m.AddRow("bad", 0, 1, []int{7}, []float64{1})
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "row bad refers to column 7") {
		t.Errorf("Validate() = %v", err)
	}
}

func TestClone(t *testing.T) {
	m := small()
	c := m.Clone()
	if !reflect.DeepEqual(dense(c), dense(m)) || c.Name != m.Name || c.ObjOffset != m.ObjOffset {
		t.Fatalf("clone differs")
	}
	c.Obj[0], c.ColLower[0], c.RowUpper[0], c.RowValue[0], c.ColNames[0] = 9, 1, 9, 9, "q"
	c.AddVar("z", 0, 1, 1)
	c.AddRow("extra", 0, 1, []int{0, 2}, []float64{1, 1})
	if m.Obj[0] != 3 || m.ColLower[0] != 0 || m.RowUpper[0] != 6 || m.RowValue[0] != 1 || m.ColNames[0] != "x" ||
		m.NumVars() != 2 || m.NumRows() != 2 || m.NumNonzeros() != 4 {
		t.Fatalf("changing the clone changed the original: %+v", m)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestGrowReserves: after Grow, a model of that size is built without
// moving its arrays, and it equals the same model built without Grow.
func TestGrowReserves(t *testing.T) {
	build := func(m *Model) *Model {
		x := m.AddVar("x", 0, 1, 1)
		y := m.AddVar("y", 0, 1, 2)
		z := m.AddVar("z", 0, inf, 0)
		m.AddRow("r0", 1, inf, []int{x, y}, []float64{1, 1})
		m.AddRow("r1", -inf, 0, []int{y, z}, []float64{1, -1})
		return m
	}
	grown := New("g", Minimize)
	grown.Grow(3, 2, 4)
	before := []*float64{&grown.Obj[:1][0], &grown.RowValue[:1][0], &grown.RowLower[:1][0]}
	build(grown)
	if after := []*float64{&grown.Obj[0], &grown.RowValue[0], &grown.RowLower[0]}; !reflect.DeepEqual(before, after) {
		t.Error("Grow(3, 2, 4) did not hold a model of 3 columns, 2 rows and 4 nonzeros")
	}
	if plain := build(New("g", Minimize)); !reflect.DeepEqual(grown.Clone(), plain.Clone()) {
		t.Errorf("grown model %+v differs from %+v", grown, plain)
	}
	New("n", Minimize).Grow(-1, -5, -2) // negative counts: nothing reserved, no panic
}
