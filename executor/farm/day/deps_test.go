package day

import (
	"os/exec"
	"strings"
	"testing"
)

// Presentation apart (issue 31): the model imports neither package
// plotting nor gonum/plot; its chart is plotting.DayGranularity. The one
// path to gonum/plot left is platform → schedule (schedule.Float in
// platform.Platform; schedule's Gantt chart imports gonum/plot), which
// this package does not own: no other package of its dependencies may
// import gonum/plot.
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
		if pkg == mod+"plotting" {
			t.Errorf("the model depends on %s", pkg)
		}
		for _, imp := range imports {
			if strings.HasPrefix(imp, "gonum.org/v1/plot") && pkg != mod+"schedule" && !strings.HasPrefix(pkg, "gonum.org/v1/plot") {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
	if !seen {
		t.Fatalf("go list did not list the package itself:\n%s", out)
	}
}
