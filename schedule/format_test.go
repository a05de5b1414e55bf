package schedule_test

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schedule/scheduletest"
)

func TestWriteCSV(t *testing.T) {
	tests := []struct {
		name string
		s    *schedule.Schedule
		// want lists the expected rows; nil means "check numerically
		// against the chunks instead".
		want [][]string
	}{
		// treeSchedule's hand-computed times (see its comment).
		{"tree", scheduletest.Tree(), [][]string{
			{"1", "", "1", "2", "0", "2", "2", "4"},
			{"1", "", "2", "1", "2", "5.5", "5.5", "6.5"},
		}},
		{"binomial", scheduletest.Binomial(), [][]string{
			{"1", "", "2", "1", "0", "3.5", "3.5", "4.5"},
			{"1", "", "1", "2", "3.5", "5.5", "5.5", "7.5"},
		}},
		{"star, non-representable loads", scheduletest.Star(), nil},
		{"no chunks", &schedule.Schedule{Problem: schedule.Problem{Topology: "star"}}, [][]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.s.WriteCSV(&b); err != nil {
				t.Fatalf("WriteCSV: %v", err)
			}
			recs, err := csv.NewReader(&b).ReadAll()
			if err != nil {
				t.Fatalf("output is not CSV: %v", err)
			}
			wantHeader := []string{"stage", "processor", "layer", "load", "start", "arrival", "compute_start", "compute_end"}
			if len(recs) == 0 || !reflect.DeepEqual(recs[0], wantHeader) {
				t.Fatalf("header %v, want %v", recs, wantHeader)
			}
			if !reflect.DeepEqual(schedule.CSVHeader, wantHeader) {
				t.Errorf("CSVHeader = %v", schedule.CSVHeader)
			}
			rows := recs[1:]
			if len(rows) != len(tc.s.Chunks) {
				t.Fatalf("%d rows for %d chunks", len(rows), len(tc.s.Chunks))
			}
			if tc.want != nil && !reflect.DeepEqual(rows, tc.want) {
				t.Errorf("rows %v, want %v", rows, tc.want)
			}
			// Full precision: every number parses back to the same float64.
			for q, c := range tc.s.Chunks {
				r := rows[q]
				if r[0] != strconv.Itoa(c.Stage) {
					t.Errorf("row %d stage %q, want %d", q, r[0], c.Stage)
				}
				if c.Processor > 0 && r[1] != strconv.Itoa(c.Processor) || c.Processor == 0 && r[1] != "" {
					t.Errorf("row %d processor %q for chunk processor %d", q, r[1], c.Processor)
				}
				if c.Layer > 0 && r[2] != strconv.Itoa(c.Layer) || c.Layer == 0 && r[2] != "" {
					t.Errorf("row %d layer %q for chunk layer %d", q, r[2], c.Layer)
				}
				for k, want := range []float64{c.Load, c.Start, c.Arrival, c.ComputeStart, c.ComputeEnd} {
					got, err := strconv.ParseFloat(r[3+k], 64)
					if err != nil || got != want {
						t.Errorf("row %d column %s = %q, want exactly %v", q, wantHeader[3+k], r[3+k], want)
					}
				}
			}
		})
	}
}

func TestSummaryAndTable(t *testing.T) {
	hetero := scheduletest.Star()
	hetero.Problem.Procs = []schedule.Proc{{S: 0.1, C: 0.01, A: 0.1}, {S: 0.1, C: 0.01, A: 0.1}}
	relay := scheduletest.Tree()
	relay.Problem.Relay = []int{1}
	relay.Pruning = &schedule.Removed{Messages: [][2]int{{1, 1}}, Destinations: []int{1}, Rounds: 1, CmaxBefore: 7, CmaxAfter: 6.5}
	relay.Solve = &schedule.SolveInfo{Solver: "gonum", Form: "paper", Variables: 9, Constraints: 8, Nonzeros: 21,
		Attempts: []schedule.Attempt{{}, {}, {}}, Certified: false, Note: "certified gap 0.1 exceeds the tolerance 1e-09", Seconds: 0.5}
	relay.Verification = &schedule.Verification{OK: true, Makespan: 6.5, EarliestMakespan: 6.25, Events: 17, Processors: 6}
	unpruned := scheduletest.Tree()
	unpruned.Pruning = &schedule.Removed{Rounds: 0, CmaxBefore: 6.5, CmaxAfter: 6.5}

	tests := []struct {
		name    string
		s       *schedule.Schedule
		want    []string
		notWant []string
		// rows are the expected fields of the table's chunk lines.
		rows [][]string
	}{
		{"star", scheduletest.Star(), []string{
			"star m=2  S=0.1 C=0.01 A=0.1 D=inf V=30\n",
			"status optimal  Cmax 1.88095238095  lower bound 1.88095238095  gap 0\n", // Cmax ≈ 1.88095 by hand
			"stages: built 1, carrying load 1 (n_min 1), messages 2\n",
		}, []string{"heterogeneous", "pruned", "LP (", "verified", "violation"},
			[][]string{
				{"1", "1", "16.1905", "0", "0.261905", "0.261905", "1.88095"},
				{"1", "2", "13.8095", "0.261905", "0.5", "0.5", "1.88095"},
			}},
		{"heterogeneous star, everything reported", fullSchedule(), []string{
			"star m=2 (heterogeneous)  S:C:A 0.1:0.01:0.1 0.2:0.02:0.3333333333333333  D=inf V=30\n",
			"gap 1e-13\n",
			"stages: built 3, carrying load 1 (n_min 1), messages 2\n",
			"pruned in 2 round(s): 4 empty message(s) removed, stages [2 3]; Cmax 1.9 -> 1.88095238095\n",
			"LP (compact form, clp): 14 variables, 13 constraints, 40 nonzeros; 2 attempt(s), 0.012s\n",
			"executor found 1 violation(s):\n  buffer at 0.25: message of 12 > D\n",
		}, []string{"NOT certified", "verified by", "processors ["}, nil},
		{"heterogeneous flag", hetero, []string{"star m=2 (heterogeneous)  S:C:A 0.1:0.01:0.1 0.1:0.01:0.1  D=inf"}, []string{"S=0"}, nil},
		{"tree", scheduletest.Tree(), []string{
			"tree p=2 h=2 nlf 2-buffer  S=1 C=0.5 A=1 D=4 V=8\n",
			"status optimal  Cmax 6.5  lower bound 6.5  gap 0\n",
		}, []string{"relay-only", "pruned"},
			[][]string{
				{"1", "1", "2", "0", "2", "2", "4"},
				{"1", "2", "1", "2", "5.5", "5.5", "6.5"},
			}},
		{"tree, zero prune rounds", unpruned, nil, []string{"pruned"}, nil},
		{"relay tree, uncertified, verified", relay, []string{
			"tree p=2 h=2 nlf 2-buffer relay-only layers [1]  S=1",
			"pruned in 1 round(s): 1 empty message(s) removed, layers [1]; Cmax 7 -> 6.5\n",
			"LP (paper form, gonum): 9 variables, 8 constraints, 21 nonzeros; 3 attempt(s), 0.500s; NOT certified: certified gap 0.1 exceeds the tolerance 1e-09\n",
			"verified by the executor: 6 processors, 17 events, makespan 6.5 (earliest 6.25)\n",
		}, []string{"violation"}, nil},
		{"binomial", scheduletest.Binomial(), []string{
			"binomial p=2 h=2 llf  S=1 C=0.5 A=1 D=10 V=10\n",
			"messages 2\n",
		}, []string{"buffer"},
			[][]string{
				{"1", "2", "1", "0", "3.5", "3.5", "4.5"},
				{"1", "1", "2", "3.5", "5.5", "5.5", "7.5"},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sum := tc.s.Summary()
			for _, w := range tc.want {
				if !strings.Contains(sum, w) {
					t.Errorf("summary lacks %q:\n%s", w, sum)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(sum, w) {
					t.Errorf("summary should not contain %q:\n%s", w, sum)
				}
			}
			if !strings.HasSuffix(sum, "\n") {
				t.Errorf("summary does not end with a newline")
			}
			var b bytes.Buffer
			if err := tc.s.WriteTable(&b); err != nil {
				t.Fatalf("WriteTable: %v", err)
			}
			out := b.String()
			if !strings.HasPrefix(out, sum) {
				t.Fatalf("table does not start with the summary:\n%s", out)
			}
			lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(out, sum), "\n"), "\n")
			if len(lines) != 1+len(tc.s.Chunks) {
				t.Fatalf("table has %d lines after the summary, want a header and %d chunks:\n%s", len(lines), len(tc.s.Chunks), out)
			}
			dest := "proc"
			if tc.s.Problem.Topology != "star" {
				dest = "layer"
			}
			if got, want := strings.Fields(lines[0]), []string{"stage", dest, "load", "start", "arrival", "compute", "start", "compute", "end"}; !reflect.DeepEqual(got, want) {
				t.Errorf("table header %q, want fields %v", lines[0], want)
			}
			for q, l := range lines[1:] {
				f := strings.Fields(l)
				if len(f) != 7 {
					t.Errorf("row %q has %d fields, want 7", l, len(f))
				}
				if tc.rows != nil && !reflect.DeepEqual(f, tc.rows[q]) {
					t.Errorf("row %d = %v, want %v", q, f, tc.rows[q])
				}
			}
		})
	}
}
