package nepp

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Presentation lives apart (plotting.NeppScan draws a scan, and plotting
// imports this package, so the reverse would not compile): the package
// imports the kernel, platform, trace and the standard library, nothing
// else — no gonum/plot, not even indirectly (internal/layout's
// TestNoPlotBelowPresentation checks the dependencies).
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	allowed := map[string]bool{"github.com/dlsched/dlsched/executor": true, "github.com/dlsched/dlsched/platform": true,
		"github.com/dlsched/dlsched/trace": true}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, "github.com/dlsched/dlsched/executor") {
		t.Fatalf("the listing is broken: %q", imports)
	}
	for _, d := range imports {
		std := !strings.Contains(strings.Split(d, "/")[0], ".")
		if !std && !allowed[d] && !strings.HasPrefix(d, "gonum.org/v1/gonum/") {
			t.Errorf("nepp imports %s", d)
		}
	}
}
