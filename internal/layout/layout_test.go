package layout

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const mod = "github.com/dlsched/dlsched"

type pkg struct {
	ImportPath                         string
	Deps                               []string
	Imports, TestImports, XTestImports []string
}

func list(t *testing.T) map[string]pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "-deps=false", mod+"/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	pkgs := map[string]pkg{}
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs[p.ImportPath] = p
	}
	return pkgs
}

func ours(deps []string) []string {
	var out []string
	for _, d := range deps {
		if strings.HasPrefix(d, mod+"/") || d == mod {
			out = append(out, strings.TrimPrefix(d, mod+"/"))
		}
	}
	return out
}

// reach returns the packages of ours that p imports, directly or not,
// without going through skip: plotting imports the models' report types
// to draw them (plotting/nepp.go), so a model that still draws its own
// charts reaches the others through plotting, which is presentation, not
// a model importing a model.
func reach(pkgs map[string]pkg, p, skip string) []string {
	seen := map[string]bool{}
	var out []string
	stack := []string{p}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range ours(pkgs[mod+"/"+n].Imports) {
			if !seen[d] && d != skip {
				seen[d] = true
				out = append(out, d)
				stack = append(stack, d)
			}
		}
	}
	return out
}

func TestImportRules(t *testing.T) {
	pkgs := list(t)
	deps := func(p string) []string { return ours(pkgs[mod+"/"+p].Deps) }
	if len(pkgs) == 0 {
		t.Fatal("no packages listed")
	}
	// The listing works: the replay does import the kernel and schedule.
	if d := strings.Join(deps("executor/replay"), " "); !strings.Contains(d, "executor") || !strings.Contains(d, "schedule") {
		t.Fatalf("executor/replay's dependencies %q lack the kernel or schedule", d)
	}
	if d := deps("executor"); len(d) != 0 {
		t.Errorf("the kernel imports %v", d)
	}
	for _, d := range deps("executor/replay") {
		for _, banned := range []string{"lp", "formulations", "solver", "solve", "optimize"} {
			if d == banned || strings.HasPrefix(d, banned+"/") {
				t.Errorf("executor/replay imports %s", d)
			}
		}
	}
	models := []string{"executor/replay", "executor/farm/pfarm", "executor/farm/nepp", "executor/farm/day", "executor/dataflow"}
	for _, a := range models {
		for _, d := range reach(pkgs, a, "plotting") {
			for _, b := range models {
				if a != b && (d == b || strings.HasPrefix(d, b+"/")) && !strings.HasPrefix(a, b+"/") {
					t.Errorf("model %s imports model %s", a, d)
				}
			}
		}
	}
	// The parameter type sits below everything that builds or judges a
	// schedule: problem imports only topology, schedule and platform
	// (problem.FromPlatform; platform's run options name trace's
	// recorder); platform imports only schedule (schedule.Float) and
	// trace, which import nothing of ours.
	for p, allowed := range map[string][]string{"problem": {"topology", "schedule", "platform", "trace"},
		"platform": {"schedule", "trace"}, "schedule": nil, "trace": nil} {
		for _, d := range deps(p) {
			if !slices.Contains(allowed, d) {
				t.Errorf("%s imports %s", p, d)
			}
		}
	}
	for _, d := range deps("lp") {
		if strings.HasPrefix(d, "solver") || d == "topology" {
			t.Errorf("lp imports %s", d)
		}
	}
	for path, p := range pkgs {
		for _, d := range ours(p.Deps) {
			if strings.HasPrefix(d, "cmd/") {
				t.Errorf("%s imports %s", path, d)
			}
		}
	}
}
