package dataflow

import (
	"os/exec"
	"strings"
	"testing"
)

// Presentation apart (issue 31): the model imports neither package
// plotting nor gonum/plot; its charts are plotting.DataflowStudy. The one
// path to gonum/plot left is platform → schedule (schedule.Float in
// platform.Platform; schedule's Gantt chart imports gonum/plot), which
// this package does not own: no other package of its dependencies may
// import gonum/plot.
func TestNoPresentation(t *testing.T) {
	t.Parallel() // go list takes a few tenths of a second: beside the other tests
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const mod = "github.com/dlsched/dlsched/"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, imports := f[0], f[1:]
		if pkg == mod+"plotting" {
			t.Errorf("the model depends on %s", pkg)
		}
		for _, imp := range imports {
			if strings.HasPrefix(imp, "gonum.org/v1/plot") && pkg != mod+"schedule" && !strings.HasPrefix(pkg, "gonum.org/v1/plot") {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
}
