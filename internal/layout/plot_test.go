package layout

import (
	"strings"
	"testing"
)

// plotLib is the import path prefix of the plotting library.
const plotLib = "gonum.org/v1/plot"

// belowPresentation are the packages (with their sub-packages) that
// compute and never draw: the parameters, the schedule, the platform, the
// LP side, the kernel and every model on it. None of them may depend on
// gonum/plot, directly or not (issue 29: schedule's Gantt chart pulled
// plotting and its fonts into problem, solve, the replay and the models).
var belowPresentation = []string{"problem", "schedule", "platform", "topology", "trace", "schema",
	"solve", "formulations", "lp", "solver", "closedform", "executor"}

// TestNoPlotBelowPresentation: only plotting and the command import
// gonum/plot (code and tests); the packages that compute reach it through
// nothing; any other package that depends on it does so through plotting
// (optimize and table build plotting.Chart values).
func TestNoPlotBelowPresentation(t *testing.T) {
	pkgs := list(t)
	plotting, ok := pkgs[mod+"/plotting"]
	if !ok || !hasPlot(plotting.Imports) {
		t.Fatalf("plotting does not import %s: the checks below would prove nothing", plotLib)
	}
	for path, p := range pkgs {
		rel := strings.TrimPrefix(path, mod+"/")
		if rel == "plotting" || strings.HasPrefix(rel, "cmd/") {
			continue
		}
		if hasPlot(p.Imports) || hasPlot(p.TestImports) || hasPlot(p.XTestImports) {
			t.Errorf("%s imports %s; only plotting and cmd/ do", rel, plotLib)
		}
		if !hasPlot(p.Deps) {
			continue
		}
		for _, b := range belowPresentation {
			if within(rel, b) {
				t.Errorf("%s depends on %s (through %v)", rel, plotLib, viaPlot(pkgs, p))
			}
		}
		if !contains(p.Deps, mod+"/plotting") {
			t.Errorf("%s depends on %s, not through plotting", rel, plotLib)
		}
	}
}

// hasPlot reports whether a list of import paths names gonum/plot.
func hasPlot(paths []string) bool {
	for _, d := range paths {
		if d == plotLib || strings.HasPrefix(d, plotLib+"/") {
			return true
		}
	}
	return false
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// viaPlot names the packages of ours that p imports and that depend on
// gonum/plot: the first step of the way there, for the message.
func viaPlot(pkgs map[string]pkg, p pkg) []string {
	var out []string
	for _, d := range ours(p.Imports) {
		if q, ok := pkgs[mod+"/"+d]; ok && (hasPlot(q.Deps) || hasPlot(q.Imports)) {
			out = append(out, d)
		}
	}
	return out
}
