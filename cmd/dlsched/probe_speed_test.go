package main

import (
	"strings"
	"testing"
)

// Issue 32, the paper's star at n = 3,000 (m = 10, S = 1e-3, C = 1e-6,
// A = 1e-3, V = 5e6, D = V/3000): the default solve returns the greedy
// prune's Cmax 500.005555676 (500.005555671 before the restricted LP
// started from the crash basis, whose optimal vertex loads other stages:
// 1e-11 apart, within the tolerance 1e-9); its pattern line says that
// counts 2993–2999 of the chain were not solved and why (the port is busy
// at most 3000·10·1e-3 + 5e6·1e-6 = 35, below the trivial bound 500.001),
// and its pruned line lists the removed stages as ranges, ending with
// 376–3000.
func TestProbeSpeedStarDefault(t *testing.T) {
	out, errOut, code, _ := probe(t, "solve", "--topology", "star", "--m", "10", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3",
		"--V", "5e6", "--D", "1666.6666666666667", "--stages", "3000", "--no-verify")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(out, "\n")
	for _, want := range []string{
		"Cmax 500.005555676 ",
		"stage counts 2993-2999 not solved: the LP optimum of the full 3000-stage pattern loads stages 1-375 only, and the port is busy at most 35, below the bound 500.001",
		"376–3000]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, strings.Join(lines[:min(len(lines), 8)], "\n"))
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "pruned") && len(l) > 200 {
			t.Errorf("pruned line of %d characters: %.200s…", len(l), l)
		}
	}
}

// Issue 32, the local search's limits: a star with m = 10, V = 100,
// D = ∞ and n = 1,000 (the greedy prune sends one message, 0.1011; the
// search 15 messages, 0.0155526344792) took 147 s, most of it building
// the 10,000-message full pattern's 29,985 additions and 449,775 moves at
// each of the chain's 8 counts before trying 100. Now the search ends at
// 0.0155524991645 (the restricted LP's crash start reaches another
// optimal vertex, whose prune the local search improves further), and the
// pattern line counts the candidates it did not solve again.
func TestProbeSpeedLocalLimits(t *testing.T) {
	out, errOut, code, _ := probe(t, "solve", "--topology", "star", "--m", "10", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3",
		"--V", "100", "--D", "inf", "--stages", "1000", "--no-verify")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"Cmax 0.0155524991645 ", "candidates not solved: solved before"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}
