package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// decodeJSON parses stdout into a generic map.
func decodeJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return m
}

// The Pfarm command prints the model beside the simulation with the JSON
// fields of the CLI contract; the binary tree of 7 at 10 ms is Table 3's
// row (predicted 159.486 s for M = 100,000; here M = 1,000).
func TestFarmPfarmJSON(t *testing.T) {
	out, errOut, code := dlsched(t, "farm", "pfarm", "--topology", "kary", "--k", "2", "--depth", "3", "--Te", "0.01", "--M", "1000", "--format", "json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := decodeJSON(t, out)
	pred, sim := m["predicted"].(map[string]any), m["simulated"].(map[string]any)
	for _, k := range []string{"comm_bound", "steady_state", "saturated", "startup", "winddown", "total", "first_task_order"} {
		if _, ok := pred[k]; !ok {
			t.Errorf("predicted lacks %s", k)
		}
	}
	for _, k := range []string{"makespan", "tasks_per_worker", "first_task_order", "events"} {
		if _, ok := sim[k]; !ok {
			t.Errorf("simulated lacks %s", k)
		}
	}
	if ss := pred["steady_state"].(float64); ss < 1.594 || ss > 1.595 { // 159.41 s / 100
		t.Errorf("steady state %g", ss)
	}
	again, _, _ := dlsched(t, "farm", "pfarm", "--topology", "kary", "--k", "2", "--depth", "3", "--Te", "0.01", "--M", "1000", "--format", "json")
	if again != out {
		t.Error("the same run printed different bytes")
	}
}

// Bad input: exit 2, one line on stderr naming the flag or field, nothing
// on stdout.
func TestFarmBadInput(t *testing.T) {
	cases := [][]string{
		{"farm", "pfarm", "--topology", "ring", "--Te", "1", "--M", "1"},
		{"farm", "pfarm", "--topology", "chain", "--N", "0", "--Te", "1", "--M", "1"},
		{"farm", "pfarm", "--topology", "chain", "--N", "4", "--k", "2", "--Te", "1", "--M", "1"},
		{"farm", "pfarm", "--topology", "chain", "--N", "4", "--Te", "-1", "--M", "1"},
		{"farm", "pfarm", "--topology", "mesh", "--rows", "3", "--cols", "3", "--root", "5,0", "--Te", "1", "--M", "1"},
		{"farm", "pfarm", "--topology", "chain", "--N", "4", "--M", "1", "--tasks", "normal:1"},
		{"farm", "nepp", "--algorithm", "xx", "--speeds", "1", "--jobs", "1", "--work", "1"},
		{"farm", "nepp", "--algorithm", "md", "--speeds", "1,-1", "--jobs", "1", "--work", "1"},
		{"farm", "nepp", "--algorithm", "md", "--speeds", "1", "--jobs", "1", "--work", "1", "--crash", "2@1"},
		{"farm", "nepp", "--algorithm", "md", "--speeds", "1", "--jobs", "1", "--work", "1", "--crash", "2"},
		{"farm", "nepp", "--algorithm", "sd", "--speeds", "1", "--jobs", "1", "--work", "1", "--queue", "3"},
		{"farm", "nepp", "--scan-p", "2..x", "--jobs", "1", "--work", "1"},
	}
	for _, args := range cases {
		out, errOut, code := dlsched(t, args...)
		if code != 2 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.HasPrefix(errOut, "dlsched: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// A crash that SD cannot survive: exit 1, the failure line on stderr and
// in simulated.failure, the JSON alone on stdout.
func TestFarmNeppCrash(t *testing.T) {
	out, errOut, code := dlsched(t, "farm", "nepp", "--algorithm", "sd", "--speeds", "1,1,1,1,1,1", "--jobs", "60", "--work", "1",
		"--setup", "0", "--per-byte", "0", "--crash", "2@2.5", "--format", "json")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	sim := decodeJSON(t, out)["simulated"].(map[string]any)
	if sim["completed"] != false || sim["failure"] != "node 2 crashed at 2.5 holding jobs 14" ||
		strings.TrimSpace(errOut) != "dlsched: node 2 crashed at 2.5 holding jobs 14" {
		t.Fatalf("simulated %v, stderr %q", sim, errOut)
	}
	out, _, code = dlsched(t, "farm", "nepp", "--algorithm", "ft", "--speeds", "1,1,1,1,1,1", "--jobs", "60", "--work", "1",
		"--setup", "0", "--per-byte", "0", "--crash", "2@2.5", "--format", "json")
	if sim := decodeJSON(t, out)["simulated"].(map[string]any); code != 0 || sim["completed"] != true || sim["results"].(float64) != 60 {
		t.Fatalf("FT: exit %d, %v", code, sim)
	}
}

// Day's farm: the JSON contract, and bad input.
func TestFarmDay(t *testing.T) {
	out, errOut, code := dlsched(t, "farm", "day", "--layout", "line", "--harness", "D", "--workers", "8", "--message-bytes", "4096",
		"--job-time", "0.015625", "--bandwidth", "1.177MiB", "--setup-bytes", "12.9", "--format", "json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := decodeJSON(t, out)
	pred, sim := m["predicted"].(map[string]any), m["simulated"].(map[string]any)
	for _, k := range []string{"setup_bytes", "message_time", "link_efficiency", "supply", "demand", "compute_bound", "w_max", "efficiency_ceiling", "fill_time"} {
		if _, ok := pred[k]; !ok {
			t.Errorf("predicted lacks %s", k)
		}
	}
	if pred["compute_bound"] != false || pred["fill_time"] != nil || sim["efficiency"].(float64) > pred["efficiency_ceiling"].(float64) {
		t.Errorf("predicted %v simulated %v", pred, sim)
	}
	if fs := sim["first_job_start"].([]any); len(fs) != 8 || fs[7] != nil { // the far end starves
		t.Errorf("first_job_start %v", fs)
	}
	for _, args := range [][]string{
		{"farm", "day", "--workers", "8", "--message-bytes", "1", "--job-time", "1", "--bandwidth", "fast"},
		{"farm", "day", "--layout", "tree", "--workers", "5", "--message-bytes", "1", "--job-time", "1", "--bandwidth", "1MB"},
		{"farm", "day", "--workers", "2", "--message-bytes", "1", "--job-time", "1", "--delay-loop", "3", "--bandwidth", "1MB"},
		{"farm", "day", "--workers", "2", "--message-bytes", "1", "--job-time", "1", "--bandwidth", "1MB", "--plot", "x.svg"},
	} {
		if out, errOut, code := dlsched(t, args...); code != 2 || out != "" || !strings.HasPrefix(errOut, "dlsched: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// The dataflow command: --levels 5,3,8 in barrier mode on 4 PEs is 5 (the
// model and the simulation); a deadlock exits 1 with the reason on stderr
// and the JSON alone on stdout.
func TestDataflowCLI(t *testing.T) {
	out, _, code := dlsched(t, "dataflow", "--levels", "5,3,8", "--pes", "4", "--barrier", "--format", "json")
	m := decodeJSON(t, out)
	pred, sim := m["predicted"].(map[string]any), m["simulated"].(map[string]any)
	if code != 0 || pred["E_m"].(float64) != 5 || sim["makespan"].(float64) != 5 || pred["pe_utilisation"].(float64) != 80 {
		t.Fatalf("exit %d: %v %v", code, pred, sim)
	}
	dir := t.TempDir()
	path := dir + "/loop.json"
	os.WriteFile(path, []byte(`{"nodes": [{"id": 0}, {"id": 1}, {"id": 2}, {"id": 3}], "edges": [[0, 1], [1, 2], [2, 1, {"back": true}], [2, 3]],
 "loops": [{"id": 0, "nodes": [1, 2], "iterations": 3, "control": 2, "parent": null}]}`), 0o644)
	out, errOut, code := dlsched(t, "dataflow", "--graph", path, "--pes", "1", "--no-realloc", "--format", "json")
	sim = decodeJSON(t, out)["simulated"].(map[string]any)
	if code != 1 || sim["completed"] != false || !strings.Contains(errOut, "deadlock") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("exit %d, stderr %q, simulated %v", code, errOut, sim)
	}
	for _, args := range [][]string{
		{"dataflow", "--levels", "5,x", "--pes", "2"},
		{"dataflow", "--levels", "5,3", "--random", "10", "--pes", "2"},
		{"dataflow", "--levels", "5,3", "--pes", "0"},
		{"dataflow", "--graph", dir + "/missing.json", "--pes", "2"},
		{"dataflow", "--graph", path, "--pes", "2", "--policy", "static"},
		{"dataflow", "--levels", "5,3", "--pes", "2", "--bus-time", "1", "--ack-bus", "2"},
	} {
		if out, errOut, code := dlsched(t, args...); code != 2 || out != "" || !strings.HasPrefix(errOut, "dlsched: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// The compare command: the JSON contract; every makespan at least the
// lower bound; bad input exits 2.
func TestCompareCLI(t *testing.T) {
	out, errOut, code := dlsched(t, "compare", "--topology", "star", "--m", "4", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3",
		"--D", "1e4", "--V", "5e3", "--slow", "2@0=0.2", "--tasks", "100", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := decodeJSON(t, out)
	lb := m["lower_bound"].(float64)
	if lb != 1.25 || m["lower_bound_method"] == "" || m["best"] != "dls-known" {
		t.Fatalf("lower bound %v, method %v, best %v", lb, m["lower_bound_method"], m["best"])
	}
	for _, r := range m["rows"].([]any) {
		row := r.(map[string]any)
		for _, k := range []string{"strategy", "tasks", "makespan", "messages", "verified", "completed", "note"} {
			if _, ok := row[k]; !ok {
				t.Errorf("row lacks %s: %v", k, row)
			}
		}
		if row["skipped"] != true && row["makespan"].(float64) < lb {
			t.Errorf("%v below the bound", row)
		}
	}
	for _, args := range [][]string{
		{"compare", "--topology", "ring", "--m", "2", "--S", "0", "--C", "0", "--A", "1", "--V", "1"},
		{"compare", "--topology", "star", "--m", "2", "--S", "0", "--C", "0", "--A", "1", "--V", "1", "--slow", "5@0=0.5"},
		{"compare", "--topology", "star", "--m", "2", "--S", "0", "--C", "0", "--A", "1", "--V", "1", "--tasks", "0"},
		{"compare", "--topology", "star", "--m", "2", "--k", "2", "--S", "0", "--C", "0", "--A", "1", "--V", "1"},
		{"compare", "--topology", "star", "--m", "2", "--S", "0", "--C", "0", "--A", "1", "--V", "1", "--strategies", "magic"},
	} {
		if out, errOut, code := dlsched(t, args...); code != 2 || out != "" || !strings.HasPrefix(errOut, "dlsched: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}
