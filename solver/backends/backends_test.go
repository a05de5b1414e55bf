package backends_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/backends"
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
		{"", "clp"}, // the default backend
		{"gonum", "gonum"},
	}
	for _, tc := range tests {
		t.Run("name="+tc.name, func(t *testing.T) {
			s, err := backends.New(tc.name)
			if err != nil {
				if tc.wantName == "clp" {
					// A build without Clp (noclp tag or CGO_ENABLED=0)
					// must say so and point to the pure-Go backend.
					if !errors.Is(err, solver.ErrUnavailable) || !strings.Contains(err.Error(), "--solver gonum") {
						t.Fatalf("New(%q): %v; want an ErrUnavailable that suggests --solver gonum", tc.name, err)
					}
					t.Skipf("Clp is not built in: %v", err)
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

func TestNamesAreAccepted(t *testing.T) {
	if len(backends.Names) != 2 || backends.Names[0] != "clp" || backends.Names[1] != "gonum" {
		t.Errorf("Names = %v, want [clp gonum] (in order of preference)", backends.Names)
	}
	for _, n := range backends.Names {
		s, err := backends.New(n)
		if err != nil {
			if errors.Is(err, solver.ErrUnavailable) {
				continue // Clp not built in
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
	for _, name := range []string{"bogus", "CLP", "glpk", " gonum"} {
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
		for _, want := range []string{`"` + name + `"`, "clp", "gonum"} {
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
