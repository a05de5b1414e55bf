package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vocabCase is one small run of a command with a placeholder "@" for a
// flag name, and the names (the canonical one first, then its aliases)
// that must give the same output bytes in its place.
type vocabCase struct {
	name  string
	args  []string // "@" is replaced by each of names
	names []string
}

// vocabCases covers every alias of README.md's "One vocabulary" table:
// issue 27 item 5 asks for one name per concept, with every flag name that
// existed before kept working.
var vocabCases = []vocabCase{
	{"solve workers", []string{"solve", "--topology", "star", "@", "3", "-S", "1e-3", "-C", "1e-6", "-A", "1e-3", "-D", "1e4", "-V", "5e3", "--no-timings"},
		[]string{"--workers", "-m", "--m"}},
	{"solve startup", []string{"solve", "--topology", "star", "-m", "3", "@", "1e-3", "-C", "1e-6", "-A", "1e-3", "-D", "1e4", "-V", "5e3", "--no-timings"},
		[]string{"--startup", "-S", "--S"}},
	{"solve arity", []string{"solve", "--topology", "tree", "@", "2", "-h", "3", "-S", "1e-3", "-C", "1e-6", "-A", "1e-3", "-D", "inf", "-V", "100", "--no-timings"},
		[]string{"-k", "-p", "--p"}},
	{"solve depth", []string{"solve", "--topology", "binomial", "-p", "2", "@", "3", "-S", "1e-3", "-C", "1e-6", "-A", "1e-3", "-D", "100", "-V", "100", "--no-timings"},
		[]string{"--depth", "-h", "--h"}},
	{"optimize workers", []string{"optimize", "--over", "n", "--topology", "star", "@", "3", "-S", "1e-3", "-C", "1e-6", "-A", "1e-3", "-D", "100", "-V", "1000", "--n-max", "12", "--no-timings"},
		[]string{"--workers", "-m"}},
	{"optimize depth", []string{"optimize", "--over", "n", "--topology", "tree", "-k", "2", "@", "2", "--startup", "1e-3", "-C", "1e-6", "-A", "1e-3", "-D", "100", "-V", "1000", "--n-max", "12", "--no-timings"},
		[]string{"--depth", "-h"}},
	{"compare workers", []string{"compare", "--topology", "star", "@", "3", "-S", "1e-3", "-C", "1e-6", "-A", "1e-3", "-V", "100", "--tasks", "10", "--strategies", "dls,demand"},
		[]string{"--workers", "-m", "--m"}},
	{"compare startup", []string{"compare", "--topology", "chain", "-m", "3", "@", "1e-3", "-C", "1e-6", "-A", "1e-3", "-V", "100", "--tasks", "10", "--strategies", "dls,queue"},
		[]string{"--startup", "-S", "--S"}},
	{"pfarm workers", []string{"farm", "pfarm", "--topology", "chain", "@", "4", "--Te", "0.01", "--tasks", "200"},
		[]string{"--workers", "-N", "--N"}},
	{"pfarm tasks", []string{"farm", "pfarm", "--topology", "kary", "-k", "2", "--depth", "3", "--Te", "0.01", "@", "300"},
		[]string{"--tasks", "-M", "--M"}},
	{"pfarm task times", []string{"farm", "pfarm", "--topology", "chain", "-N", "3", "-M", "200", "@", "uniform:0.01,0.03", "--seed", "7"},
		[]string{"--task-times", "--tasks"}},
	{"nepp tasks", []string{"farm", "nepp", "--algorithm", "md", "--speeds", "1,1,0.2", "@", "40", "--work", "1"},
		[]string{"--tasks", "--jobs"}},
	{"nepp startup", []string{"farm", "nepp", "--algorithm", "ft", "--speeds", "1,1,0.2", "--tasks", "40", "--work", "1", "@", "1e-2"},
		[]string{"--startup", "--setup"}},
	{"day startup", []string{"farm", "day", "--layout", "line", "--harness", "D", "--workers", "4", "--message-bytes", "4096",
		"--job-time", "0.0625", "--bandwidth", "1.177MiB", "@", "1e-5"},
		[]string{"--startup", "--setup-time"}},
	{"dataflow workers", []string{"dataflow", "--levels", "5,3,8", "@", "4", "--barrier"},
		[]string{"--workers", "--pes"}},
}

// TestVocabularyAliases runs each case under the canonical name and under
// every alias and asserts the same exit 0 and the same stdout bytes.
func TestVocabularyAliases(t *testing.T) {
	for _, vc := range vocabCases {
		var want string
		for i, name := range vc.names {
			args := make([]string, len(vc.args))
			for k, a := range vc.args {
				if a == "@" {
					a = name
				}
				args[k] = a
			}
			out, errOut, code := dlsched(t, args...)
			if code != 0 || out == "" {
				t.Errorf("%s with %s: exit %d, stderr %q", vc.name, name, code, errOut)
				continue
			}
			if i == 0 {
				want = out
			} else if out != want {
				t.Errorf("%s: %s prints\n%s\nbut %s prints\n%s", vc.name, name, out, vc.names[0], want)
			}
		}
	}
}

// TestVocabularyNeppWorkers: farm nepp --workers N is N nodes of speed 1,
// the same run as --speeds 1,...,1 (and as both when they agree).
func TestVocabularyNeppWorkers(t *testing.T) {
	base := []string{"farm", "nepp", "--algorithm", "md", "--tasks", "30", "--work", "1", "--format", "json"}
	want, errOut, code := dlsched(t, append(base, "--speeds", "1,1,1,1")...)
	if code != 0 {
		t.Fatalf("--speeds 1,1,1,1: exit %d, %s", code, errOut)
	}
	for _, extra := range [][]string{{"--workers", "4"}, {"--workers", "4", "--speeds", "1,1,1,1"}} {
		if out, errOut, code := dlsched(t, append(base, extra...)...); code != 0 || out != want {
			t.Errorf("%v: exit %d (%s), output differs from --speeds 1,1,1,1: %v", extra, code, errOut, out != want)
		}
	}
}

// TestVocabularyAmbiguity: a concept given twice, under two names or two
// meanings, is bad usage (exit 2, one line naming both flags), decided
// before anything is built.
func TestVocabularyAmbiguity(t *testing.T) {
	nepp := []string{"farm", "nepp", "--algorithm", "md", "--work", "1"}
	pfarm := []string{"farm", "pfarm", "--topology", "chain", "--workers", "4", "--Te", "0.01"}
	star := []string{"solve", "--topology", "star", "-S", "0", "-C", "1", "-A", "1", "-V", "3", "-D", "1.5"}
	dayArgs := []string{"farm", "day", "--layout", "line", "--harness", "D", "--workers", "8", "--message-bytes", "4096",
		"--job-time", "0.0625", "--bandwidth", "1.177MiB"}
	for _, tc := range []struct {
		want string
		args []string
	}{
		{"invalid --workers 4: --speeds lists 3 nodes", append(nepp, "--tasks", "10", "--workers", "4", "--speeds", "1,1,1")},
		{"invalid --workers 0: want a number of nodes from 1 to 100000", append(nepp, "--tasks", "10", "--workers", "0")},
		{"invalid --workers 1e9: want a number of nodes from 1 to 100000", append(nepp, "--tasks", "10", "--workers", "1e9")},
		{"missing --workers or --speeds", append(nepp, "--tasks", "10")},
		{"invalid --workers: --scan-p sets", append(nepp[:2:2], "--scan-p", "2..4", "--tasks", "10", "--work", "1", "--workers", "3")},
		{"invalid --jobs with --tasks: they are one flag under two names", append(nepp, "--workers", "2", "--tasks", "10", "--jobs", "10")},
		{"invalid -M 100 with --tasks 100: both give the number of tasks", append(pfarm, "--tasks", "100", "-M", "100")},
		{"invalid --tasks uniform:0.01,0.02 with --task-times const: both give the task times", append(pfarm, "-M", "100", "--tasks", "uniform:0.01,0.02", "--task-times", "const")},
		{"missing --tasks: want the number of tasks", append(pfarm, "--tasks", "uniform:0.01,0.02")},
		{"invalid --tasks 0: want a number of tasks from 1 to", append(pfarm, "--tasks", "0")},
		{"invalid --M 0: want a number of tasks from 1 to", append(pfarm, "-M", "0")},
		{"invalid --task-times uniform:-1,1: want uniform:a,b", append(pfarm, "--tasks", "10", "--task-times", "uniform:-1,1")},
		{"invalid -N with --workers: they are one flag under two names", append(pfarm, "-N", "4", "--tasks", "10")},
		{"invalid -m with --workers: they are one flag under two names", append(star, "--workers", "3", "-m", "3")},
		{"invalid -h with --depth: they are one flag under two names", []string{"solve", "--topology", "tree", "-k", "2", "--depth", "2", "-h", "2", "-S", "0", "-C", "1", "-A", "1", "-V", "3", "-D", "inf"}},
		{"invalid --pes with --workers", []string{"dataflow", "--levels", "5,3", "--workers", "2", "--pes", "2"}},
		// Messages name the flag as the user typed it (the libraries name
		// one of its names: --m, --pes, --jobs, --N, --setup-time).
		{"invalid --workers 0: want an integer from 1 to 100000", append(star, "--workers", "0")},
		{"invalid --m 0: want an integer from 1 to 100000", append(star, "-m", "0")},
		{"invalid --workers 0: want 1..10000 workers", []string{"compare", "--workers", "0", "-S", "1", "-C", "1", "-A", "1", "-V", "1"}},
		{"invalid --workers 0: want 1 to 100000", []string{"dataflow", "--levels", "5,3", "--workers", "0"}},
		{"invalid --pes 0: want 1 to 100000", []string{"dataflow", "--levels", "5,3", "--pes", "0"}},
		{"invalid --workers 0: want a number of processors", []string{"farm", "pfarm", "--topology", "chain", "--workers", "0", "--tasks", "3", "--Te", "1"}},
		{"invalid --tasks 0: want 1..10000000", append(nepp, "--workers", "2", "--tasks", "0")},
		{"invalid --jobs 0: want 1..10000000", append(nepp, "--workers", "2", "--jobs", "0")},
		{"invalid --startup nan", append(nepp, "--workers", "2", "--tasks", "3", "--startup", "nan")},
		{"invalid --startup -1: want a finite time >= 0 s", append(dayArgs, "--startup", "-1")},
		{"invalid --setup-time -1: want a finite time >= 0 s", append(dayArgs, "--setup-time", "-1")},
		{"invalid --startup with --setup-bytes", append(dayArgs, "--startup", "1e-6", "--setup-bytes", "12")},
		{"missing --setup-bytes or --startup", dayArgs},
		{"missing --workers (or --m)", star},
		{"missing --depth (or --h)", []string{"solve", "--topology", "tree", "-k", "2", "-S", "0", "-C", "1", "-A", "1", "-V", "3", "-D", "inf"}},
		{"missing --jobs", append(nepp, "--workers", "2", "--jobs", "")},
	} {
		refused(t, tc.want, tc.args...)
	}
}

// TestVocabularyTreeShape pins the line of README.md's table on -k 2
// --depth 3: farm pfarm's host has one link to the tree's root processor,
// a worker, so the tree has 1+2+4 = 7 workers (Pfarm's k-ary tree); in
// compare and solve the master is the root and does not compute, so the
// same flags give 2+4+8 = 14 workers (the paper's tree of height h).
func TestVocabularyTreeShape(t *testing.T) {
	out, errOut, code := dlsched(t, "farm", "pfarm", "--topology", "kary", "-k", "2", "--depth", "3", "--Te", "0.01", "--tasks", "100", "--no-sim")
	if code != 0 || !strings.Contains(out, "depth 3 (N=7)") {
		t.Errorf("pfarm -k 2 --depth 3: exit %d (%s), want N=7 in %q", code, errOut, head(out))
	}
	out, errOut, code = dlsched(t, "compare", "--topology", "kary", "-k", "2", "--depth", "3", "--startup", "1e-3", "-C", "1e-6", "-A", "1e-3", "-V", "100", "--tasks", "10", "--strategies", "dls")
	if code != 0 || !strings.Contains(out, "(14 workers)") {
		t.Errorf("compare -k 2 --depth 3: exit %d (%s), want 14 workers in %q", code, errOut, head(out))
	}
	out, errOut, code = dlsched(t, "solve", "--topology", "tree", "-k", "2", "--depth", "3", "--startup", "1e-3", "-C", "1e-6", "-A", "1e-3", "-D", "inf", "-V", "100")
	if code != 0 || !strings.Contains(out, "verified by the executor: 14 processors") {
		t.Errorf("solve -k 2 --depth 3: exit %d (%s), want 14 processors", code, errOut)
	}
}

// TestVocabularySweepParallel: sweep's --parallel and its old name
// --workers write the same results; both at once is bad usage.
func TestVocabularySweepParallel(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "s.toml")
	if err := os.WriteFile(spec, []byte(strings.Replace(issueSpec, `points = 9`, `points = 2`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var want []byte
	for i, name := range []string{"--parallel", "--workers"} {
		out := filepath.Join(dir, strings.TrimLeft(name, "-")+".csv")
		if _, errOut, code := dlsched(t, "sweep", spec, "--out", out, name, "2", "--quiet", "--no-verify", "--no-timings"); code != 0 {
			t.Fatalf("sweep %s 2: exit %d, %s", name, code, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			want = b
		} else if string(b) != string(want) {
			t.Errorf("sweep --workers 2 wrote\n%s\nbut --parallel 2 wrote\n%s", b, want)
		}
	}
	refused(t, "invalid --workers with --parallel", "sweep", spec, "--out", filepath.Join(dir, "x.jsonl"), "--workers", "1", "--parallel", "1")
	refused(t, "invalid --parallel -1: want a number >= 1", "sweep", spec, "--out", filepath.Join(dir, "y.jsonl"), "--parallel", "-1")
}
