package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A small star: m=4, S=0.05, C=1e-3, A=1e-2, V=1000 (Section 5 D* = 33.33).
var optArgs = []string{"optimize", "--topology", "star", "--m", "4", "--S", "0.05", "--C", "1e-3", "--A", "1e-2", "--V", "1000"}

func optWith(extra ...string) []string {
	return append(append([]string(nil), optArgs...), extra...)
}

func TestOptimizeBadInput(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"missing over", optWith("--D", "50"), "--over"},
		{"bad over", optWith("--D", "50", "--over", "m"), "--over m"},
		{"bad preset", optWith("--D", "50", "--over", "n", "--preset", "fig7"), "--preset fig7"},
		{"n-max below n_min", optWith("--D", "50", "--over", "n", "--n-max", "2"), "--n-max 2"},
		{"stages with over n", optWith("--D", "50", "--over", "n", "--stages", "5"), "--stages"},
		{"through with over n", optWith("--D", "50", "--over", "n", "--through", "5"), "--through"},
		{"missing D-min", optWith("--over", "D"), "--D-min"},
		{"D-max below D-min", optWith("--over", "D", "--D-min", "10", "--D-max", "5"), "--D-max 5"},
		{"bad stages", optWith("--over", "D", "--D-min", "10", "--D-max", "50", "--stages", "x"), "--stages x"},
		{"relay on a star", optWith("--D", "50", "--over", "relay"), "--topology star"},
		{"bad plot name", optWith("--D", "50", "--over", "n", "--plot", "c.pdf"), "--plot c.pdf"},
		{"bad problem", optWith("--D", "50", "--over", "n", "--A", "0"), "--A 0"},
		{"D with over D", optWith("--D", "50", "--over", "D", "--D-min", "10", "--D-max", "50"), "--D with --over D"},
		{"relay with over relay", []string{"optimize", "--preset", "fig11", "--relay", "1", "--over", "relay"}, "--relay"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.json")
			stdout, stderr, code := dlsched(t, append(c.args, "--out", out)...)
			if code != 2 {
				t.Errorf("exit status %d, want 2 (stderr %q)", code, stderr)
			}
			if strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 || !strings.HasPrefix(stderr, "dlsched: ") || !strings.Contains(stderr, c.want) {
				t.Errorf("want one line naming %q, got %q", c.want, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("--out file was written")
			}
		})
	}
}

// TestOptimizeOverN: JSON contract (best and curve with stages, D, cmax),
// the plot file, and byte-identical output on a second run.
func TestOptimizeOverN(t *testing.T) {
	dir := t.TempDir()
	out, plot := filepath.Join(dir, "n.json"), filepath.Join(dir, "n.svg")
	args := optWith("--D", "50", "--over", "n", "--format", "json", "--out", out, "--plot", plot)
	if _, stderr, code := dlsched(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Best struct {
			Stages int     `json:"stages"`
			D      float64 `json:"D"`
			Cmax   float64 `json:"cmax"`
		} `json:"best"`
		Curve   []map[string]any `json:"curve"`
		Covered bool             `json:"covered"`
		DStar   struct {
			Exists bool    `json:"exists"`
			D      float64 `json:"D"`
		} `json:"dstar"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	// n_min = ⌈1000/(4·50)⌉ = 5; the best is n = 8 (optimize package tests).
	if doc.Best.Stages != 8 || doc.Best.D != 50 || !doc.Covered || len(doc.Curve) < 4 || !doc.DStar.Exists {
		t.Errorf("best %+v covered %v, %d points, D* %+v", doc.Best, doc.Covered, len(doc.Curve), doc.DStar)
	}
	for _, k := range []string{"stages", "D", "cmax"} {
		if _, ok := doc.Curve[0][k]; !ok {
			t.Errorf("curve point lacks %q", k)
		}
	}
	if st, err := os.Stat(plot); err != nil || st.Size() == 0 {
		t.Errorf("plot not written: %v", err)
	}
	out2 := filepath.Join(dir, "n2.json")
	args[len(args)-3] = out2
	if _, stderr, code := dlsched(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	raw2, _ := os.ReadFile(out2)
	if !bytes.Equal(raw, raw2) {
		t.Errorf("two runs, different JSON")
	}
}

func TestOptimizeOtherModes(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"D table", optWith("--over", "D", "--D-min", "10", "--D-max", "1000", "--points", "4", "--stages", "min"),
			[]string{"best: D = ", "smallest D within 0.01", "D* >= mS/(A-mC) = 33.3333"}},
		{"n,D csv", optWith("--over", "n,D", "--D-min", "50", "--D-max", "500", "--points", "2", "--no-prune", "--format", "csv"),
			[]string{"stages,D,cmax,cmax_full"}},
		{"relay fig11 small", []string{"optimize", "--preset", "fig11", "--h", "4", "--V", "1e5", "--over", "relay"},
			[]string{"compute/relay split: binomial p=2 h=4 llf", "classic nlf", "classic llf", "LB strategy"}},
		{"fig9a preset", []string{"optimize", "--preset", "fig9a", "--over", "n,D", "--no-prune"},
			[]string{"D=1e+06 (V*0.1): best n = 2, Cmax = 1002", "no full n-stage pattern beyond"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := dlsched(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("output lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}
