package pfarm

import (
	"os/exec"
	"strings"
	"testing"
)

// Presentation lives apart: the model depends on the kernel, platform
// (hence schedule, for schedule.Float, which imports only the standard
// library), trace and topology, never on a plotting library or dlsched's
// plotting package (the command draws; the model computes).
func TestNoPlottingDependency(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/dlsched/dlsched/executor/farm/pfarm").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !strings.Contains(string(out), "github.com/dlsched/dlsched/executor\n") {
		t.Fatalf("go list -deps printed %d packages, without the kernel", len(deps))
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "gonum.org/v1/plot") || d == "github.com/dlsched/dlsched/plotting" {
			t.Errorf("pfarm depends on %s", d)
		}
	}
}
