package dataflow

import (
	"os/exec"
	"strings"
	"testing"
)

// Presentation apart (issues 29 and 31): the model imports neither
// package plotting nor gonum/plot; its charts are plotting.DataflowStudy.
// Since the Gantt chart moved to plotting, no package of its dependencies
// imports gonum/plot, nor depends on it at all.
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
		if pkg == mod+"plotting" || strings.HasPrefix(pkg, "gonum.org/v1/plot") {
			t.Errorf("the model depends on %s", pkg)
		}
		for _, imp := range imports {
			if strings.HasPrefix(imp, "gonum.org/v1/plot") {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
}
