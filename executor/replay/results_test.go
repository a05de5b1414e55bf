package replay

import (
	"math"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/schedule"
)

// twoWorkers is the FIFO example, checked by hand: two identical
// workers S = 0, C = A = 1, V = 10, β = 0.5, x1 = 40/7: P1 computes to
// 80/7 and returns 20/7 results by 100/7; P2 computes to 100/7 and returns
// 15/7 by 115/7 (docs/heterogeneous.md).
func twoWorkers(order string) *schedule.Schedule {
	pr := schedule.Problem{Topology: "star", M: 2, Procs: []schedule.Proc{{C: 1, A: 1}, {C: 1, A: 1}},
		D: schedule.Float(math.Inf(1)), Stages: 1, ResultRatio: 0.5, Return: order}
	s := newSchedule(pr, []msg{{1, 1, 40.0 / 7}, {1, 2, 30.0 / 7}})
	s.Returns = []schedule.Return{{Processor: 1, Load: 20.0 / 7}, {Processor: 2, Load: 15.0 / 7}}
	return s
}

// The earliest replay of the result messages gives the closed form's
// 115/7, and the timed replay of those times finds nothing wrong.
func TestResultsReplayClosedForm(t *testing.T) {
	s := twoWorkers("fifo")
	r := fillEarliest(t, s)
	if math.Abs(r.Makespan-115.0/7) > 1e-12 || len(r.Returns) != 2 {
		t.Fatalf("makespan %.15g, returns %+v", r.Makespan, r.Returns)
	}
	if math.Abs(s.Returns[0].Start-80.0/7) > 1e-12 || math.Abs(s.Returns[0].End-100.0/7) > 1e-12 {
		t.Errorf("P1's results %+v, want 80/7 to 100/7", s.Returns[0])
	}
	v, err := Verify(s, Options{})
	if err != nil || !v.OK || math.Abs(v.Makespan-115.0/7) > 1e-12 {
		t.Fatalf("%+v %v", v, err)
	}
}

// Every rule of the result messages is checked: each mutation of a valid
// schedule is reported with its kind.
func TestResultsViolations(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(s *schedule.Schedule)
		kind string
	}{
		{"before the computing ends", func(s *schedule.Schedule) {
			s.Returns[0].Start -= 1
			s.Returns[0].End -= 1
		}, KindNotComputed},
		{"overlapping on the port", func(s *schedule.Schedule) {
			s.Returns[1].Start -= 0.5
			s.Returns[1].End -= 0.5
		}, KindLinkBusy},
		{"a missing return", func(s *schedule.Schedule) { s.Returns = s.Returns[:1] }, KindResults},
		{"a return twice", func(s *schedule.Schedule) {
			s.Returns = append(s.Returns, schedule.Return{Processor: 2, Load: 15.0 / 7, Start: 20, End: 20 + 15.0/7})
		}, KindResults},
		{"lifo order stated", func(s *schedule.Schedule) { s.Problem.Return = "lifo" }, KindResults},
		{"wrong amount", func(s *schedule.Schedule) { s.Returns[1].Load = 1 }, KindStatedTimes},
		{"wrong end", func(s *schedule.Schedule) { s.Returns[1].End += 1 }, KindStatedTimes},
		{"after Cmax", func(s *schedule.Schedule) { s.Cmax = 16 }, KindLate},
		{"returns with β = 0", func(s *schedule.Schedule) { s.Problem.ResultRatio = 0 }, KindResults},
	} {
		s := twoWorkers("fifo")
		fillEarliest(t, s)
		c.edit(s)
		v, err := Verify(s, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		found := false
		for _, x := range v.Violations {
			found = found || x.Kind == c.kind
		}
		if v.OK || !found {
			t.Errorf("%s: %+v, want a %s violation", c.name, v.Violations, c.kind)
		}
	}
}

// A processor that computes in no time (A = 0) is ready at its arrival,
// 40/7, but its results wait for the port until the last message is sent
// at 10 (earliest mode); starting them earlier is a busy port.
func TestResultsWaitForThePort(t *testing.T) {
	s := twoWorkers("fifo")
	s.Problem.Procs[0].A = 0
	fillEarliest(t, s)
	if math.Abs(s.Returns[0].Start-10) > 1e-12 {
		t.Fatalf("P1's results start at %g, want 10 (the end of the last message sent)", s.Returns[0].Start)
	}
	s.Returns[0].Start, s.Returns[0].End = 6, 6+20.0/7
	v, err := Verify(s, Options{SkipStatedTimes: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Violations) != 1 || v.Violations[0].Kind != KindLinkBusy || !strings.Contains(v.Violations[0].Message, "originator's port") {
		t.Errorf("%+v, want one busy port", v.Violations)
	}
}

// Result messages on a tree or naming no processor of the star are
// refused before any replay.
func TestResultsRefused(t *testing.T) {
	s := twoWorkers("fifo")
	s.Returns[1].Processor = 3
	if _, err := Verify(s, Options{}); err == nil || !strings.Contains(err.Error(), "processor 3") {
		t.Errorf("processor 3 of 2: %v", err)
	}
	s = twoWorkers("fifo")
	if _, err := Earliest(s, Options{Faults: []Fault{{Node: 1, At: 1, Crash: true}}}); err == nil {
		t.Error("faults with results replayed")
	}
}
