package schedule_test

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schedule/scheduletest"
)

var inf = math.Inf(1)

// fullSchedule is the star schedule with every optional part filled in.
func fullSchedule() *schedule.Schedule {
	s := scheduletest.Star()
	s.Problem.Procs = []schedule.Proc{{S: 0.1, C: 0.01, A: 0.1}, {S: 0.2, C: 0.02, A: 1.0 / 3}}
	s.Problem.Stages = 3
	s.LowerBound = s.Cmax * (1 - 1e-13)
	s.Gap = 1e-13
	s.Pruning = &schedule.Removed{Messages: [][2]int{{2, 1}, {2, 2}, {3, 1}, {3, 2}}, Stages: []int{2, 3}, Rounds: 2, CmaxBefore: 1.9, CmaxAfter: s.Cmax}
	s.Solve = &schedule.SolveInfo{Solver: "clp", Form: "compact", Variables: 14, Constraints: 13, Nonzeros: 40,
		Attempts: []schedule.Attempt{
			{Algorithm: "dual", Presolve: "auto", Status: "optimal", Cmax: s.Cmax, LowerBound: s.LowerBound, Gap: 1e-13, Iterations: 7, Seconds: 0.001},
			{Algorithm: "primal", Presolve: "off", Scaling: "2", Status: "optimal", Iterations: 3, Seconds: 1e-4},
		},
		Tolerance: 1e-9, Certified: true, Note: "n", Seconds: 0.0123}
	s.Verification = &schedule.Verification{OK: false, Makespan: s.Cmax, EarliestMakespan: s.Cmax, Events: 9, Processors: 2,
		Violations: []schedule.Violation{{Kind: "buffer", Time: 0.25, Message: "message of 12 > D"}}}
	return s
}

func TestFloatMarshal(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{inf, `"inf"`},
		{-inf, `"-inf"`},
		{math.NaN(), `"nan"`},
		{0, `0`},
		{1e4, `10000`},
		{0.1, `0.1`},
		{-2.5, `-2.5`},
		{1e21, `1e+21`},                 // strconv 'g', shortest
		{1.0 / 3, `0.3333333333333333`}, // shortest round-trip form
		{5e-324, `5e-324`},
	}
	for _, tc := range tests {
		b, err := json.Marshal(schedule.Float(tc.in))
		if err != nil || string(b) != tc.want {
			t.Errorf("Marshal(Float(%g)) = %s, %v; want %s", tc.in, b, err, tc.want)
		}
		if !json.Valid(b) {
			t.Errorf("Marshal(Float(%g)) = %s is not valid JSON", tc.in, b)
		}
		if got, want := schedule.Float(tc.in).String(), strings.Trim(tc.want, `"`); got != want {
			t.Errorf("Float(%g).String() = %q, want %q", tc.in, got, want)
		}
	}
	// Inside a struct, the field name of the CLI contract carries "inf".
	b, err := json.Marshal(schedule.Problem{Topology: "star", D: schedule.Float(inf)})
	if err != nil || !strings.Contains(string(b), `"D":"inf"`) {
		t.Errorf("Problem with D = +Inf encodes as %s, %v; want \"D\":\"inf\"", b, err)
	}
}

func TestFloatUnmarshal(t *testing.T) {
	tests := []struct {
		in   string
		want float64 // NaN means "want NaN"
	}{
		{`"inf"`, inf}, {`"+inf"`, inf}, {`"Inf"`, inf}, {`"Infinity"`, inf}, {`"+Infinity"`, inf},
		{`"-inf"`, -inf}, {`"-Infinity"`, -inf},
		{`"nan"`, math.NaN()}, {`"NaN"`, math.NaN()},
		{`10000`, 1e4}, {`1e4`, 1e4}, {`1E4`, 1e4}, {`-0.5`, -0.5}, {`0`, 0},
		{`"1e4"`, 1e4}, // a number in a string is accepted
		{`0.3333333333333333`, 1.0 / 3},
	}
	for _, tc := range tests {
		var f schedule.Float
		if err := json.Unmarshal([]byte(tc.in), &f); err != nil {
			t.Errorf("Unmarshal(%s): %v", tc.in, err)
			continue
		}
		got := float64(f)
		if math.IsNaN(tc.want) {
			if !math.IsNaN(got) {
				t.Errorf("Unmarshal(%s) = %g, want NaN", tc.in, got)
			}
		} else if got != tc.want {
			t.Errorf("Unmarshal(%s) = %g, want %g", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{`"bogus"`, `"1e4x"`, `""`, `true`, `[]`, `{}`, `"inf`} {
		var f schedule.Float
		if err := json.Unmarshal([]byte(bad), &f); err == nil {
			t.Errorf("Unmarshal(%s) accepted: %g", bad, float64(f))
		}
	}
	var f schedule.Float
	if err := json.Unmarshal([]byte(`"bogus"`), &f); err == nil || !strings.Contains(err.Error(), `bad number "bogus"`) {
		t.Errorf(`Unmarshal("bogus") error %v, want it to say bad number "bogus"`, err)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		s        *schedule.Schedule
		contains []string
	}{
		{"star D=inf", scheduletest.Star(), []string{`"D": "inf"`, `"topology": "star"`, `"processor": 1`, `"compute_start"`, `"n_min": 1`}},
		{"tree", scheduletest.Tree(), []string{`"D": 4`, `"buffer_reuse": "alternate"`, `"layer": 2`, `"cmax": 6.5`}},
		{"binomial", scheduletest.Binomial(), []string{`"order": "llf"`, `"from": 1`, `"to": 2`}},
		{"all optional parts", fullSchedule(), []string{`"procs"`, `"pruning"`, `"attempts"`, `"violations"`, `"scaling": "2"`, `"lower_bound"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b1 bytes.Buffer
			if err := tc.s.WriteJSON(&b1); err != nil {
				t.Fatalf("WriteJSON: %v", err)
			}
			for _, w := range tc.contains {
				if !strings.Contains(b1.String(), w) {
					t.Errorf("JSON lacks %s:\n%s", w, b1.String())
				}
			}
			if !strings.HasSuffix(b1.String(), "}\n") {
				t.Errorf("JSON does not end with a newline")
			}
			var again bytes.Buffer
			if err := tc.s.WriteJSON(&again); err != nil || !bytes.Equal(again.Bytes(), b1.Bytes()) {
				t.Errorf("WriteJSON is not deterministic (err %v)", err)
			}
			got, err := schedule.ReadJSON(bytes.NewReader(b1.Bytes()))
			if err != nil {
				t.Fatalf("ReadJSON: %v", err)
			}
			// Reading records which fields were present; compare the values.
			if !reflect.DeepEqual(schedule.WithoutPresence(got), schedule.WithoutPresence(tc.s)) {
				t.Errorf("ReadJSON(WriteJSON(s)) differs from s:\n got %+v\nwant %+v", got, tc.s)
			}
			var b2 bytes.Buffer
			if err := got.WriteJSON(&b2); err != nil {
				t.Fatalf("WriteJSON of the decoded schedule: %v", err)
			}
			if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
				t.Errorf("re-encoding is not byte-identical:\n%s\n---\n%s", b1.String(), b2.String())
			}
		})
	}
}

func TestReadJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string // "" means success
	}{
		{"minimal", `{"status":"optimal","cmax":1.5,"problem":{"topology":"star","m":1,"D":"Infinity"},"chunks":[]}`, ""},
		{"unknown top-level field", `{"status":"optimal","cmaxx":1}`, `unknown field "cmaxx"`},
		{"unknown problem field", `{"problem":{"topology":"star","Dmax":3}}`, `unknown field "Dmax"`},
		{"unknown chunk field", `{"chunks":[{"stage":1,"procesor":2}]}`, `unknown field "procesor"`},
		{"unknown hop field", `{"chunks":[{"stage":1,"hops":[{"from":0,"too":1}]}]}`, `unknown field "too"`},
		{"unknown solve field", `{"solve":{"solver":"clp","certfied":true}}`, `unknown field "certfied"`},
		{"malformed", `{"status":`, "schedule:"},
		{"wrong type", `{"cmax":"fast"}`, "schedule:"},
		{"bad D", `{"problem":{"D":"lots"}}`, `bad number "lots"`},
		{"empty input", ``, "schedule:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schedule.ReadJSON(strings.NewReader(tc.in))
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("ReadJSON: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("ReadJSON accepted %s: %+v", tc.in, s)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q does not contain %q", err, tc.wantErr)
			}
			if !strings.HasPrefix(err.Error(), "schedule: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
	s, err := schedule.ReadJSON(strings.NewReader(tests[0].in))
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(float64(s.Problem.D), 1) || s.Cmax != 1.5 || s.Problem.M != 1 {
		t.Errorf("minimal schedule decoded as %+v", s)
	}
}

func TestDest(t *testing.T) {
	tests := []struct {
		c    schedule.Chunk
		want int
	}{
		{schedule.Chunk{Processor: 3}, 3},
		{schedule.Chunk{Layer: 2}, 2},
		{schedule.Chunk{Processor: 3, Layer: 2}, 2}, // the layer wins
		{schedule.Chunk{}, 0},
	}
	for _, tc := range tests {
		if got := tc.c.Dest(); got != tc.want {
			t.Errorf("%+v.Dest() = %d, want %d", tc.c, got, tc.want)
		}
	}
}

func TestProcessorsUsed(t *testing.T) {
	ch := func(proc int, load float64) schedule.Chunk { return schedule.Chunk{Processor: proc, Load: load} }
	tests := []struct {
		name   string
		chunks []schedule.Chunk
		want   []int
	}{
		{"none", nil, nil},
		{"all empty", []schedule.Chunk{ch(1, 0), ch(2, 0)}, nil},
		{"sorted, distinct, positive only", []schedule.Chunk{ch(3, 1), ch(1, 0), ch(3, 2), ch(2, 5), ch(4, -1)}, []int{2, 3}},
		{"layers", []schedule.Chunk{{Layer: 5, Load: 1}, {Layer: 1, Load: 1e-300}, {Layer: 5, Load: 2}}, []int{1, 5}},
	}
	for _, tc := range tests {
		s := &schedule.Schedule{Chunks: tc.chunks}
		if got := s.ProcessorsUsed(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: ProcessorsUsed() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestProcParams(t *testing.T) {
	p := schedule.Problem{S: 1, C: 2, A: 3}
	if s, c, a := p.ProcParams(2); s != 1 || c != 2 || a != 3 {
		t.Errorf("homogeneous ProcParams(2) = %g %g %g, want 1 2 3", s, c, a)
	}
	p.Procs = []schedule.Proc{{S: 4, C: 5, A: 6}, {S: 7, C: 8, A: 9}}
	if s, c, a := p.ProcParams(2); s != 7 || c != 8 || a != 9 {
		t.Errorf("heterogeneous ProcParams(2) = %g %g %g, want 7 8 9", s, c, a)
	}
}
