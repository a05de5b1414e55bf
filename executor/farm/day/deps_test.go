package day

import (
	"os/exec"
	"strings"
	"testing"
)

// Presentation apart (issues 29 and 31): the model imports neither
// package plotting nor gonum/plot; its chart is plotting.DayGranularity.
// Since the Gantt chart moved to plotting, no package of its dependencies
// imports gonum/plot, nor depends on it at all.
func TestNoPresentation(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const mod = "github.com/dlsched/dlsched/"
	seen := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, imports := f[0], f[1:]
		seen = seen || pkg == mod+"executor/farm/day"
		if pkg == mod+"plotting" || strings.HasPrefix(pkg, "gonum.org/v1/plot") {
			t.Errorf("the model depends on %s", pkg)
		}
		for _, imp := range imports {
			if strings.HasPrefix(imp, "gonum.org/v1/plot") {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
	if !seen {
		t.Fatalf("go list did not list the package itself:\n%s", out)
	}
}
