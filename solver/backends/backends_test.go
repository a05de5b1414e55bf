package backends_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/backends"
	"github.com/dlsched/dlsched/solver/clp"
	"github.com/dlsched/dlsched/solver/highs"
)

// tiny is min x + 2y s.t. x + y ≥ 3, x ≤ 2, x, y ≥ 0. By hand: x is the
// cheaper variable, so x = 2 (its bound) and y = 1, objective 2 + 2 = 4.
func tiny() *lp.Model {
	m := lp.New("tiny", lp.Minimize)
	x := m.AddVar("x", 0, 2, 1)
	y := m.AddVar("y", 0, math.Inf(1), 2)
	m.AddRow("cover", 3, math.Inf(1), []int{x, y}, []float64{1, 1})
	return m
}

func TestNew(t *testing.T) {
	tests := []struct {
		name     string
		wantName string
	}{
		{"clp", "clp"},
		{"highs", "highs"},
		{"gonum", "gonum"},
		{"", backends.Auto()}, // the default backend
		{"auto", backends.Auto()},
	}
	for _, tc := range tests {
		t.Run("name="+tc.name, func(t *testing.T) {
			s, err := backends.New(tc.name)
			if err != nil {
				if tc.wantName != "gonum" {
					// A build without Clp (noclp tag or CGO_ENABLED=0) or
					// HiGHS (built without the highs tag) must say so and
					// point to the other backends, in the library's words.
					if !errors.Is(err, solver.ErrUnavailable) || !strings.Contains(err.Error(), "gonum solver") {
						t.Fatalf("New(%q): %v; want an ErrUnavailable that suggests the gonum solver", tc.name, err)
					}
					t.Skipf("%s is not built in: %v", tc.wantName, err)
				}
				t.Fatalf("New(%q): %v", tc.name, err)
			}
			if s == nil {
				t.Fatalf("New(%q) returned a nil solver and no error", tc.name)
			}
			defer backends.Close(s)
			if got := s.Name(); got != tc.wantName {
				t.Errorf("Name() = %q, want %q", got, tc.wantName)
			}
			sol, err := s.Solve(tiny(), solver.Options{})
			if err != nil {
				t.Fatalf("Solve: %v", err)
			}
			if sol.Status != solver.Optimal || math.Abs(sol.Objective-4) > 1e-9 {
				t.Errorf("status %v objective %.15g, want optimal 4", sol.Status, sol.Objective)
			}
			if len(sol.X) != 2 || math.Abs(sol.X[0]-2) > 1e-9 || math.Abs(sol.X[1]-1) > 1e-9 {
				t.Errorf("x = %v, want [2 1]", sol.X)
			}
		})
	}
}

// TestAutoRule: "auto" takes Clp where it is built in, else HiGHS, else
// gonum (the rule of Auto's doc comment), and the solver it names is
// always available.
func TestAutoRule(t *testing.T) {
	want := "gonum"
	switch {
	case clp.Available():
		want = "clp"
	case highs.Available():
		want = "highs"
	}
	if got := backends.Auto(); got != want {
		t.Fatalf("Auto() = %q with Clp built in: %v, HiGHS: %v; want %q", got, clp.Available(), highs.Available(), want)
	}
	s, err := backends.New("auto")
	if err != nil {
		t.Fatalf("New(auto): %v", err)
	}
	backends.Close(s)
}

func TestNamesAreAccepted(t *testing.T) {
	if strings.Join(backends.Names, " ") != "clp highs gonum" {
		t.Errorf("Names = %v, want [clp highs gonum] (in order of preference)", backends.Names)
	}
	for _, n := range backends.Names {
		if !strings.Contains(backends.Valid, n) {
			t.Errorf("Valid %q lacks %s", backends.Valid, n)
		}
		s, err := backends.New(n)
		if err != nil {
			if errors.Is(err, solver.ErrUnavailable) {
				continue // not built in
			}
			t.Errorf("New(%q): %v", n, err)
			continue
		}
		if s.Name() != n {
			t.Errorf("New(%q).Name() = %q", n, s.Name())
		}
		backends.Close(s)
	}
}

func TestNewUnknown(t *testing.T) {
	for _, name := range []string{"bogus", "CLP", "glpk", " gonum", "HiGHS"} {
		s, err := backends.New(name)
		if err == nil {
			backends.Close(s)
			t.Errorf("New(%q) accepted", name)
			continue
		}
		if s != nil {
			t.Errorf("New(%q) returned a solver with its error", name)
		}
		msg := err.Error()
		for _, want := range []string{`"` + name + `"`, "clp", "highs", "gonum", "auto"} {
			if !strings.Contains(msg, want) {
				t.Errorf("New(%q) error %q does not mention %s", name, msg, want)
			}
		}
	}
}

func TestCloseIsSafe(t *testing.T) {
	// Close on nil and on a backend without a Close method does nothing.
	backends.Close(nil)
	g, err := backends.New("gonum")
	if err != nil {
		t.Fatal(err)
	}
	backends.Close(g)
	backends.Close(g)
	// gonum holds no state: it still solves after Close.
	if sol, err := g.Solve(tiny(), solver.Options{}); err != nil || math.Abs(sol.Objective-4) > 1e-9 {
		t.Errorf("gonum after Close: %v, %v", sol, err)
	}

	c, err := backends.New("clp")
	if err != nil {
		if errors.Is(err, solver.ErrUnavailable) {
			t.Skipf("Clp is not built in: %v", err)
		}
		t.Fatal(err)
	}
	backends.Close(c)
	backends.Close(c) // Clp's Close is idempotent
	// A closed Clp model refuses to solve instead of crashing.
	if _, err := c.Solve(tiny(), solver.Options{}); err == nil {
		t.Errorf("Clp solved after Close")
	}
}

func TestCloseHighs(t *testing.T) {
	h, err := backends.New("highs")
	if err != nil {
		if errors.Is(err, solver.ErrUnavailable) {
			t.Skipf("HiGHS is not built in: %v", err)
		}
		t.Fatal(err)
	}
	backends.Close(h)
	backends.Close(h) // HiGHS's Close is idempotent
	if _, err := h.Solve(tiny(), solver.Options{}); err == nil {
		t.Errorf("HiGHS solved after Close")
	}
}
