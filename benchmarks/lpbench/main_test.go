package main

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The plain LP has the rows: n·m − 1 send-chain rows, n·m
// completion rows, n·m suffix-sum rows and the load row.
func TestPlainLPRows(t *testing.T) {
	var b bytes.Buffer
	if err := plainLP([]string{"-m", "3", "-n", "4"}, &b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	count := func(prefix string) int {
		return len(regexp.MustCompile(`(?m)^ `+prefix+`_\d+_\d+:`).FindAllString(text, -1))
	}
	if s, c, r := count("s"), count("c"), count("r"); s != 11 || c != 12 || r != 12 || !strings.Contains(text, " load:") {
		t.Errorf("rows s=%d c=%d r=%d, want 11, 12, 12 and the load row", s, c, r)
	}
	if err := plainLP([]string{"-m", "0"}, &b); err == nil {
		t.Error("m = 0 accepted")
	}
}

// One processor, one stage, S = C = A = V = D = 1: the message ends at
// S + CV = 2 and its computing at 3 (closed form), as the clp CLI finds.
func TestPlainLPSolvesToClosedForm(t *testing.T) {
	clp, err := exec.LookPath("clp")
	if err != nil {
		t.Skip("the clp command-line solver is not installed (apt-get install coinor-clp)")
	}
	var b bytes.Buffer
	if err := plainLP([]string{"-m", "1", "-n", "1", "-S", "1", "-C", "1", "-A", "1", "-V", "1", "-D", "1"}, &b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.lp")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(clp, path, "-primals").CombinedOutput()
	if err != nil {
		t.Fatalf("clp: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`Optimal objective\s+([0-9.eE+-]+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no objective in clp's output:\n%s", out)
	}
	if v, _ := strconv.ParseFloat(string(m[1]), 64); math.Abs(v-3) > 1e-9 {
		t.Errorf("Cmax %g, want 3", v)
	}
}
