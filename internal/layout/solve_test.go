package layout

import (
	"slices"
	"strings"
	"testing"
)

// lpSide are the packages of the LP side below package solve: the callers
// of solve reach them through solve alone (docs/architecture.md).
var lpSide = []string{"formulations", "lp", "solver", "solve/engine", "solve/pattern", "solve/order"}

// within reports whether package d is package p or one of its
// sub-packages.
func within(d, p string) bool { return d == p || strings.HasPrefix(d, p+"/") }

// TestSolveIsTheDoor: the command, sweep and compare reach the LP side
// through package solve alone (issue 29): neither their code nor their
// tests import formulations, lp, solver (or a backend), solve/engine or
// solve/pattern. optimize, which solve's callers also use, does not
// either: its searches over n and D call solve.
func TestSolveIsTheDoor(t *testing.T) {
	pkgs := list(t)
	for _, caller := range []string{"cmd/dlsched", "sweep", "compare", "optimize"} {
		p, ok := pkgs[mod+"/"+caller]
		if !ok {
			t.Fatalf("package %s not listed", caller)
		}
		if !slices.Contains(ours(p.Imports), "solve") {
			t.Errorf("%s does not import solve: the check below would prove nothing", caller)
		}
		for _, d := range ours(append(append(p.Imports, p.TestImports...), p.XTestImports...)) {
			for _, banned := range lpSide {
				if within(d, banned) {
					t.Errorf("%s imports %s; it reaches the LP side through package solve", caller, d)
				}
			}
		}
	}
}

// TestSolveLayers: the solve route goes down only (docs/architecture.md).
// solve and its sub-packages import none of the packages that call them
// (optimize, sweep, compare, the command); the engine imports neither the
// pattern search nor solve; the pattern search does not import solve; the
// worker order search (solve/order) imports the engine only, neither the
// pattern search nor solve nor the executor; the
// closed forms and the formulation import nothing of solve. No package is
// called pipeline, and none imports one.
func TestSolveLayers(t *testing.T) {
	pkgs := list(t)
	rules := []struct {
		pkg    string
		banned []string
	}{
		{"solve", []string{"optimize", "sweep", "compare", "cmd"}},
		{"solve/pattern", []string{"solve", "optimize", "sweep", "compare", "cmd"}},
		{"solve/order", []string{"solve", "solve/pattern", "optimize", "sweep", "compare", "cmd", "executor"}},
		{"solve/engine", []string{"solve", "solve/pattern", "optimize", "sweep", "compare", "cmd", "executor"}},
		{"formulations", []string{"solve", "optimize", "solver", "closedform"}},
		{"closedform", []string{"solve", "optimize", "formulations", "lp", "solver"}},
	}
	for _, r := range rules {
		p, ok := pkgs[mod+"/"+r.pkg]
		if !ok {
			t.Fatalf("package %s not listed", r.pkg)
		}
		for _, d := range ours(p.Deps) {
			for _, b := range r.banned {
				// solve/engine's own path is inside "solve": only the
				// package solve itself is banned by "solve".
				if d == b || (b != "solve" && within(d, b)) {
					t.Errorf("%s depends on %s", r.pkg, d)
				}
			}
		}
	}
	for path, p := range pkgs {
		rel := strings.TrimPrefix(path, mod+"/")
		if rel == "pipeline" || strings.HasSuffix(rel, "/pipeline") {
			t.Errorf("package %s exists: the solve engine is solve/engine", rel)
		}
		for _, d := range ours(p.Imports) {
			if d == "pipeline" {
				t.Errorf("%s imports pipeline", rel)
			}
		}
	}
}
