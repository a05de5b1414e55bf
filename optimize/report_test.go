package optimize

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/closedform"
	"github.com/dlsched/dlsched/plotting"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// TestReports writes every report in every format: JSON carries the
// issue's contract (best {stages, D, cmax}, curve [{stages, D, cmax}]), the
// same result gives the same bytes, CSV has a header and one row per point,
// and every chart draws.
func TestReports(t *testing.T) {
	s := newClp(t)
	p := smallStar()
	p.D = 50
	rn, err := OverN(p, Options{Solve: popts(s, true)})
	if err != nil {
		t.Fatal(err)
	}
	q := smallStar()
	rd, err := OverD(q, DOptions{Options: Options{Solve: popts(s, true)}, DMin: 10, DMax: 1000, Points: 4, Stages: StagesMin, Within: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := OverND(q, []float64{50, 500}, Options{Solve: popts(s, false)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	tp := fig11(topology.NLF, 1e4, 1e5)
	tp.H = 4
	rr, err := RelaySplit(tp, SplitOptions{Options: Options{Solve: popts(s, true)}, Stages: StagesMin})
	if err != nil {
		t.Fatal(err)
	}
	reports := map[string]Report{"n": NReport{p, rn}, "D": DReport{q, rd}, "n,D": SurfaceReport{q, rs}, "relay": SplitReport{tp, rr}}
	for name, rep := range reports {
		var a, b bytes.Buffer
		if err := rep.WriteJSON(&a); err != nil {
			t.Fatal(err)
		}
		rep.WriteJSON(&b)
		if a.String() != b.String() {
			t.Errorf("%s: JSON not deterministic", name)
		}
		var v struct {
			Over string                     `json:"over"`
			Best map[string]json.RawMessage `json:"best"`
		}
		if err := json.Unmarshal(a.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v.Over != name {
			t.Errorf("JSON over = %q, want %q", v.Over, name)
		}
		for _, k := range []string{"stages", "D", "cmax"} {
			if _, ok := v.Best[k]; !ok {
				t.Errorf("%s: best lacks %q: %s", name, k, a.String()[:200])
			}
		}
		if name != "relay" {
			var c struct {
				Curve []map[string]json.RawMessage `json:"curve"`
			}
			json.Unmarshal(a.Bytes(), &c)
			if len(c.Curve) == 0 {
				t.Errorf("%s: empty curve", name)
			}
			for _, pt := range c.Curve {
				for _, k := range []string{"stages", "D", "cmax"} {
					if _, ok := pt[k]; !ok {
						t.Errorf("%s: curve point lacks %q", name, k)
					}
				}
			}
		}
		var cs bytes.Buffer
		if err := rep.WriteCSV(&cs); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&cs).ReadAll()
		if err != nil || len(rows) < 2 {
			t.Errorf("%s: CSV %d rows, %v", name, len(rows), err)
		}
		var tb bytes.Buffer
		if err := rep.WriteTable(&tb); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(tb.String(), "best") {
			t.Errorf("%s: table lacks the best line:\n%s", name, tb.String())
		}
		var svg bytes.Buffer
		if err := plotting.Write(&svg, "svg", rep.Chart()); err != nil {
			t.Errorf("%s: chart: %v", name, err)
		}
	}
	var tb bytes.Buffer
	NReport{p, rn}.WriteTable(&tb)
	if !strings.Contains(tb.String(), "covered: every n in [5, ") || !strings.Contains(tb.String(), "D* >= mS/(A-mC) = 33.3333") {
		t.Errorf("n table lacks the coverage or D* line:\n%s", tb.String())
	}
}

// TestDStarLine: the sentence beside a search states D* with its formula,
// or says plainly that none exists and why (Fig. 9b: A − mC = 1e-3 −
// 10·1e-4 = 0, Section 5's denominator).
func TestDStarLine(t *testing.T) {
	none := DStarLine(closedform.DStarFor(fig9b()))
	if !strings.Contains(none, "no D* exists (") {
		t.Errorf("Fig. 9b: %q lacks the plain message", none)
	}
	star := &problem.Problem{Kind: topology.Star, M: 10, S: 1e-3, C: 1e-6, A: 1e-3, D: 1, V: 1}
	if got, want := DStarLine(closedform.DStarFor(star)), "= 10.101"; !strings.Contains(got, want) {
		t.Errorf("Section 4.1 star: %q lacks %q (mS/(A−mC) = 0.01/0.00099)", got, want)
	}
}
