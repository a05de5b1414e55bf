package sweep

import (
	"bytes"
	"testing"
)

// FuzzParseSpec: the spec reader never panics; an accepted spec is within
// MaxPoints, and small ones expand into exactly their counted points or
// fewer (repeats dropped).
func FuzzParseSpec(f *testing.F) {
	f.Add("[problem]\ntopology = [\"star\"]\nm = [10]\nS = [1e-3]\nC = [1e-6]\nA = [1e-3]\nD = [1e2, \"inf\"]\nV = { from = 1e2, to = 1e6, points = 9, scale = \"log\" }\n")
	f.Add("[[problem]]\ntopology = \"binomial\"\norder = \"llf\"\np = 2\nh = 10\nS = 1e-3\nC = 1e-6\nA = 1e-3\nD = [1, inf]\nV = 1\nstages = [\"min\", 3, \"opt\"]\n[run]\nverify = false\n")
	f.Add("[problem]\ntopology = [\"tree\"]\np = [2]\nh = { from = 1, to = 4, points = 4 }\nbuffers = [1, 2]\nS = [0]\nC = [1]\nA = [1]\nD = [1]\nV = [1e300]\n")
	f.Add("title = 3\n")
	f.Fuzz(func(t *testing.T, text string) {
		sp, err := Parse("fuzz.toml", text)
		if err != nil {
			return
		}
		n := sp.Size()
		if n > MaxPoints {
			t.Fatalf("accepted a spec of %g points", n)
		}
		if n <= 2000 {
			if got := len(sp.Points()); float64(got) > n {
				t.Fatalf("%d points, Size says %g", got, n)
			}
		}
	})
}

// FuzzParseRows: the results reader never panics, never reports more good
// bytes than it read, and the rows it accepts write back to lines that
// read to the same number of rows.
func FuzzParseRows(f *testing.F) {
	row := Row{Key: "topology=star m=2 S=1 C=1 A=1 D=inf V=1 stages=min", Status: StatusOptimal}
	b, _ := marshalLine(&row)
	f.Add(b)
	f.Add(append(append([]byte{}, b...), b[:len(b)/2]...))
	f.Add([]byte("{\"key\":\"x\",\"status\":\"optimal\",\"cmax\":\"inf\"}\n{"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		rows, good, _, err := parseRows("fuzz.jsonl", in)
		if err != nil {
			return
		}
		if good < 0 || good > len(in) {
			t.Fatalf("good = %d of %d bytes", good, len(in))
		}
		var out bytes.Buffer
		for i := range rows {
			l, err := marshalLine(&rows[i])
			if err != nil {
				return
			}
			out.Write(l)
		}
		again, _, torn, err := parseRows("again.jsonl", out.Bytes())
		if err != nil || torn || len(again) != len(rows) {
			t.Fatalf("rows do not read back: %v (torn %v, %d of %d)", err, torn, len(again), len(rows))
		}
	})
}
