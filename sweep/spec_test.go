package sweep

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// issueSpec is the spec of issue 6 ("This must work"): 2 values of D × 9
// of V = 18 points.
const issueSpec = `
[problem]
topology = ["star"]
m = [10]
S = [1e-3]
C = [1e-6]
A = [1e-3]
D = [1e2, 1e4]
V = { from = 1e2, to = 1e6, points = 9, scale = "log" }
stages = ["min"]
`

func mustParse(t testing.TB, text string) *Spec {
	t.Helper()
	sp, err := Parse("test.toml", text)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func TestIssueSpecPoints(t *testing.T) {
	pts := mustParse(t, issueSpec).Points()
	if len(pts) != 18 {
		t.Fatalf("got %d points, want 18 (2 D × 9 V, issue 6)", len(pts))
	}
	seen := map[string]bool{}
	for i, pt := range pts {
		if pt.Index != i {
			t.Errorf("point %d has Index %d", i, pt.Index)
		}
		if seen[pt.Key] {
			t.Errorf("duplicate key %s", pt.Key)
		}
		seen[pt.Key] = true
	}
	// Axis order: D before V, V fastest; log points 10^(2+k/2) rounded to
	// 15 digits with exact decades.
	want := []string{
		"topology=star m=10 S=0.001 C=1e-06 A=0.001 D=100 V=100 stages=min",
		"topology=star m=10 S=0.001 C=1e-06 A=0.001 D=100 V=316.227766016838 stages=min",
		"topology=star m=10 S=0.001 C=1e-06 A=0.001 D=100 V=1000 stages=min",
	}
	for i, w := range want {
		if pts[i].Key != w {
			t.Errorf("key %d = %q, want %q", i, pts[i].Key, w)
		}
	}
	if k := pts[17].Key; k != "topology=star m=10 S=0.001 C=1e-06 A=0.001 D=10000 V=1e+06 stages=min" {
		t.Errorf("last key %q", k)
	}
	for _, pt := range pts {
		v := pt.Problem.V
		if e := math.Log10(v); math.Abs(e-math.Round(e*2)/2) > 1e-12 {
			t.Errorf("V=%g is not 10^(k/2)", v)
		}
	}
}

// TestKeysIgnoreFormatting: the same grid spelled differently (scalars
// for one-element lists, 100 vs 1e2 vs 100.0, other key order, a list
// instead of a range) gives the same keys in the same order.
func TestKeysIgnoreFormatting(t *testing.T) {
	other := `
[problem]
stages = "min"
V = [100, 316.227766016838, 1e3, 3162.27766016838, 1e4, 31622.7766016838, 1e5, 316227.766016838, 1000000.0]
D = [100.0, 10000]
A = 0.001
C = 0.000001
S = 1e-3
m = 10
topology = "star"
`
	a, b := mustParse(t, issueSpec).Points(), mustParse(t, other).Points()
	if len(a) != len(b) {
		t.Fatalf("%d vs %d points", len(a), len(b))
	}
	for i := range a {
		if a[i].Key != b[i].Key {
			t.Errorf("point %d: %q vs %q", i, a[i].Key, b[i].Key)
		}
	}
}

// TestIrrelevantAxes: order and buffers do not multiply star points, m
// does not multiply tree points, buffers not binomial ones.
func TestIrrelevantAxes(t *testing.T) {
	sp := mustParse(t, `
[problem]
topology = ["star", "tree", "binomial"]
m = [10, 20]
order = ["nlf", "llf"]
buffers = [1, 2]
p = 2
h = [3, 4]
S = 1e-3
C = 1e-6
A = 1e-3
D = [1e2, inf]
V = 1e3
`)
	count := map[string]int{}
	for _, pt := range sp.Points() {
		count[pt.Problem.Kind.String()]++
	}
	// star: 2 m × 2 D; tree: 2 orders × 2 buffers × 2 h × 2 D; binomial:
	// 2 orders × 2 h × 2 D.
	want := map[string]int{"star": 4, "tree": 16, "binomial": 8}
	for k, w := range want {
		if count[k] != w {
			t.Errorf("%s: %d points, want %d", k, count[k], w)
		}
	}
}

func TestInfSpellings(t *testing.T) {
	sp := mustParse(t, `
[problem]
topology = "star"
m = 4
S = 0
C = 1e-6
A = 1e-3
D = [inf, "inf", 5, "1e3"]
V = 10
`)
	d := sp.Grids[0].D
	if len(d) != 3 || !math.IsInf(d[0], 1) || d[1] != 5 || d[2] != 1000 {
		t.Errorf("D = %v, want [+Inf 5 1000] (inf and \"inf\" are one value)", d)
	}
}

func TestStagesAxis(t *testing.T) {
	sp := mustParse(t, `
[problem]
topology = "star"
m = 4
S = 0
C = 1e-6
A = 1e-3
D = 5
V = 10
stages = ["min", 3, "7", "opt", 3]
`)
	var got []string
	for _, st := range sp.Grids[0].Stages {
		got = append(got, st.String())
	}
	if strings.Join(got, ",") != "min,3,7,opt" {
		t.Errorf("stages %v", got)
	}
	sp = mustParse(t, `
[problem]
topology = "star"
m = 4
S = 0
C = 1e-6
A = 1e-3
D = 5
V = 10
stages = { from = 1, to = 10, points = 4 }
`)
	got = nil
	for _, st := range sp.Grids[0].Stages {
		got = append(got, st.String())
	}
	if strings.Join(got, ",") != "1,4,7,10" {
		t.Errorf("stages range %v, want 1,4,7,10", got)
	}
}

// TestSpecErrors: every error names the field.
func TestSpecErrors(t *testing.T) {
	base := map[string]string{
		"topology": `"star"`, "m": "10", "S": "1e-3", "C": "1e-6", "A": "1e-3", "D": "100", "V": "1e3",
	}
	build := func(change map[string]string) string {
		var b strings.Builder
		b.WriteString("[problem]\n")
		for _, k := range []string{"topology", "order", "buffers", "m", "p", "h", "S", "C", "A", "D", "V", "stages", "v"} {
			v, ok := change[k]
			if !ok {
				v = base[k]
			}
			if v != "" && v != "-" {
				b.WriteString(k + " = " + v + "\n")
			}
		}
		return b.String()
	}
	cases := []struct {
		name   string
		change map[string]string
		extra  string
		field  string
		msg    string
	}{
		{"missing V", map[string]string{"V": "-"}, "", "problem.V", "missing"},
		{"V zero", map[string]string{"V": "0"}, "", "problem.V", "> 0"},
		{"V inf", map[string]string{"V": "inf"}, "", "problem.V", "finite"},
		{"mistyped v", map[string]string{"v": "3"}, "", "problem.v", "did you mean V"},
		{"D negative", map[string]string{"D": "-1"}, "", "problem.D", "> 0 or inf"},
		{"m zero", map[string]string{"m": "0"}, "", "problem.m", "integer from 1"},
		{"m fractional", map[string]string{"m": "2.5"}, "", "problem.m", "integer"},
		{"missing m", map[string]string{"m": "-"}, "", "problem.m", "star needs m"},
		{"order for star", map[string]string{"order": `"llf"`}, "", "problem.order", "not used by topology star"},
		{"bad topology", map[string]string{"topology": `"ring"`}, "", "problem.topology", `"star", "tree" or "binomial"`},
		{"tree without p", map[string]string{"topology": `"tree"`, "m": "-", "h": "3"}, "", "problem.p", "missing"},
		{"bad buffers", map[string]string{"topology": `"tree"`, "m": "-", "p": "2", "h": "3", "buffers": "3"}, "", "problem.buffers", "from 1 to 2"},
		{"range points", map[string]string{"V": "{ from = 1, to = 10, points = 0 }"}, "", "problem.V.points", "from 1 to"},
		{"range scale", map[string]string{"V": `{ from = 1, to = 10, points = 3, scale = "ln" }`}, "", "problem.V.scale", `"log" or "lin"`},
		{"range no to", map[string]string{"V": "{ from = 1, points = 3 }"}, "", "problem.V.to", "missing"},
		{"log range from 0", map[string]string{"S": `{ from = 0, to = 1, points = 3, scale = "log" }`}, "", "problem.S", "both > 0"},
		{"stages word", map[string]string{"stages": `"max"`}, "", "problem.stages", `"min", "opt"`},
		{"stages zero", map[string]string{"stages": "[0]"}, "", "problem.stages", `"min", "opt"`},
		{"empty list", map[string]string{"D": "[]"}, "", "problem.D", "empty list"},
		{"run solver", nil, "[run]\nsolver = \"cplex\"\n", "run.solver", `"clp", "highs", "gonum" or "auto"`},
		{"run unknown", nil, "[run]\nworkers = 2\n", "run.workers", "unknown key"},
		{"top-level unknown", nil, "grid = 1\n", "grid", "unknown key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := c.extra + build(c.change)
			if strings.HasPrefix(c.extra, "[run]") {
				text = build(c.change) + c.extra
			}
			_, err := Parse("x.toml", text)
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *SpecError\n%s", err, text)
			}
			if se.Field != c.field || !strings.Contains(se.Msg, c.msg) {
				t.Errorf("got field %q msg %q, want field %q msg containing %q", se.Field, se.Msg, c.field, c.msg)
			}
			if !strings.Contains(err.Error(), "spec x.toml: "+c.field+": ") {
				t.Errorf("message %q does not name the file and field", err)
			}
		})
	}
	// The second table of a [[problem]] array is named problem[2].
	_, err := Parse("x.toml", "[[problem]]\n"+strings.TrimPrefix(build(nil), "[problem]\n")+"[[problem]]\n"+strings.TrimPrefix(build(map[string]string{"C": "0"}), "[problem]\n"))
	var se *SpecError
	if !errors.As(err, &se) || se.Field != "problem[2].C" {
		t.Errorf("got %v, want an error for problem[2].C", err)
	}
	if _, err := Parse("x.toml", "[problem\n"); err == nil || !strings.Contains(err.Error(), "TOML") {
		t.Errorf("bad TOML: %v", err)
	}
}

// TestGridsAndLabels: [[problem]] grids are expanded in order, a label
// is part of the key, and a repeated point (same key) is dropped.
func TestGridsAndLabels(t *testing.T) {
	sp := mustParse(t, `
[[problem]]
topology = "star"
m = 2
S = 0
C = 1
A = 1
D = inf
V = [1, 2]

[[problem]]
topology = "star"
m = 2
S = 0
C = 1
A = 1
D = inf
V = [2, 3]

[[problem]]
label = "x"
topology = "star"
m = 2
S = 0
C = 1
A = 1
D = inf
V = 3
`)
	pts := sp.Points()
	var keys []string
	for _, p := range pts {
		keys = append(keys, p.Key)
	}
	want := []string{
		"topology=star m=2 S=0 C=1 A=1 D=inf V=1 stages=min",
		"topology=star m=2 S=0 C=1 A=1 D=inf V=2 stages=min",
		"topology=star m=2 S=0 C=1 A=1 D=inf V=3 stages=min",
		`label="x" topology=star m=2 S=0 C=1 A=1 D=inf V=3 stages=min`,
	}
	if strings.Join(keys, "\n") != strings.Join(want, "\n") {
		t.Errorf("keys:\n%s\nwant:\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}
}
