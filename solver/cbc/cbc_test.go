package cbc_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver/cbc"
)

func need(t *testing.T) {
	t.Helper()
	if !cbc.Available() {
		t.Skip("cbc not built in (coinor-libcbc-dev missing or nocbc tag)")
	}
}

// A fixed-charge problem in the shape of the message-pattern MILP: send a
// load of 10 over up to three messages, message k costs S_k if it exists
// (binary y_k) plus C_k per unit, and carries at most 6 units (x_k <= 6
// y_k). One message cannot carry 10, so a pair is needed; by hand:
// messages 1+2: S 5, 6 units at 0.1 and 4 at 0.5: 5 + 0.6 + 2 = 7.6;
// 1+3: S 3, 6 at 0.5 and 4 at 0.6: 3 + 3 + 2.4 = 8.4; 2+3: S 6, 6 at 0.1
// and 4 at 0.6: 6 + 0.6 + 2.4 = 9; all three cost at least S 7 + 1 (10
// units at 0.1 or more) = 8. The optimum is 7.6 with pattern [1 1 0].
func TestFixedCharge(t *testing.T) {
	need(t)
	m := lp.New("fixed-charge", lp.Minimize)
	S := []float64{1, 4, 2}
	C := []float64{0.5, 0.1, 0.6}
	var xs, ys []int
	for k := range S {
		xs = append(xs, m.AddVar(fmt.Sprint("x", k), 0, math.Inf(1), C[k]))
		ys = append(ys, m.AddVar(fmt.Sprint("y", k), 0, 1, S[k]))
	}
	for k := range S {
		m.AddRow(fmt.Sprint("cap", k), math.Inf(-1), 0, []int{xs[k], ys[k]}, []float64{1, -6})
	}
	m.AddRow("load", 10, 10, xs, []float64{1, 1, 1})
	res, err := cbc.Solve(context.Background(), m, ys, cbc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != cbc.Optimal || math.Abs(res.Objective-7.6) > 1e-9 || math.Abs(res.Bound-7.6) > 1e-6 {
		t.Fatalf("status %v objective %g bound %g, want optimal 7.6", res.Status, res.Objective, res.Bound)
	}
	if y := []float64{res.X[ys[0]], res.X[ys[1]], res.X[ys[2]]}; math.Round(y[0]) != 1 || math.Round(y[1]) != 1 || math.Round(y[2]) != 0 {
		t.Fatalf("pattern %v, want [1 1 0]", y)
	}
}

// Property: on random small binary programs Cbc's optimum equals the one
// found by enumerating every 0/1 vector.
func TestMatchesEnumeration(t *testing.T) {
	need(t)
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(rt, "n")
		rows := rapid.IntRange(1, 4).Draw(rt, "rows")
		m := lp.New("rand", lp.Maximize)
		obj := make([]float64, n)
		cols := make([]int, n)
		for j := range obj {
			obj[j] = float64(rapid.IntRange(-5, 20).Draw(rt, "c"))
			cols[j] = m.AddVar(fmt.Sprint("x", j), 0, 1, obj[j])
		}
		A := make([][]float64, rows)
		b := make([]float64, rows)
		for i := range A {
			A[i] = make([]float64, n)
			for j := range A[i] {
				A[i][j] = float64(rapid.IntRange(0, 9).Draw(rt, "a"))
			}
			b[i] = float64(rapid.IntRange(0, 25).Draw(rt, "b"))
			m.AddRow(fmt.Sprint("r", i), math.Inf(-1), b[i], cols, A[i])
		}
		best := math.Inf(-1)
		for mask := 0; mask < 1<<n; mask++ {
			ok := true
			for i := range A {
				s := 0.0
				for j := 0; j < n; j++ {
					if mask>>j&1 == 1 {
						s += A[i][j]
					}
				}
				if s > b[i] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			v := 0.0
			for j := 0; j < n; j++ {
				if mask>>j&1 == 1 {
					v += obj[j]
				}
			}
			best = math.Max(best, v)
		}
		res, err := cbc.Solve(context.Background(), m, cols, cbc.Options{})
		if err != nil {
			rt.Fatal(err)
		}
		if res.Status != cbc.Optimal || math.Abs(res.Objective-best) > 1e-9 {
			rt.Fatalf("cbc %v %g, enumeration %g", res.Status, res.Objective, best)
		}
	})
}

func TestInfeasible(t *testing.T) {
	need(t)
	m := lp.New("no-integer", lp.Minimize)
	x := m.AddVar("x", 0.2, 0.8, 1)
	m.AddRow("r", 0, 10, []int{x}, []float64{1})
	res, err := cbc.Solve(context.Background(), m, []int{x}, cbc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != cbc.Infeasible || res.HasSolution {
		t.Fatalf("status %v has solution %v, want infeasible", res.Status, res.HasSolution)
	}
	if _, err := cbc.Solve(context.Background(), m, []int{5}, cbc.Options{}); err == nil {
		t.Fatal("an integer column out of range was accepted")
	}
}

// marketSplit is a market-split instance (Cornuéjols & Dawande), tiny and
// notoriously hard for branch and bound: 0/1 x with sum_j a_ij x_j + s_i -
// t_i = d_i, minimise the slacks.
func marketSplit(rows, n int, seed uint64) (*lp.Model, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := lp.New("market-split", lp.Minimize)
	var xs []int
	for j := 0; j < n; j++ {
		xs = append(xs, m.AddVar(fmt.Sprint("x", j), 0, 1, 0))
	}
	for i := 0; i < rows; i++ {
		a := make([]float64, n)
		sum := 0.0
		for j := range a {
			a[j] = float64(rng.IntN(100))
			sum += a[j]
		}
		s := m.AddVar(fmt.Sprint("s", i), 0, math.Inf(1), 1)
		u := m.AddVar(fmt.Sprint("t", i), 0, math.Inf(1), 1)
		cols := append(append([]int(nil), xs...), s, u)
		vals := append(a, 1, -1)
		d := math.Floor(sum / 2)
		m.AddRow(fmt.Sprint("r", i), d, d, cols, vals)
	}
	return m, xs
}

// A context deadline stops a long search at that time, and Solve returns
// the context's error. The deadline becomes Cbc's time limit, which Cbc
// counts in CPU seconds of the process, so the search's length is checked
// in CPU time (getrusage), not in wall time, which a loaded machine
// stretches (1.6 s of wall time measured for 0.3 s of search).
func TestDeadline(t *testing.T) {
	need(t)
	m, ints := marketSplit(6, 50, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := cpuTime()
	res, err := cbc.Solve(ctx, m, ints, cbc.Options{})
	el := cpuTime() - start
	if res != nil && res.Status == cbc.Optimal {
		t.Skipf("the instance solved in %v of CPU before the deadline", el)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the context's", err)
	}
	if el > 1500*time.Millisecond {
		t.Fatalf("stopped after %v of CPU, want within a second of the 0.3 s deadline", el)
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestNodeLimit(t *testing.T) {
	need(t)
	m, ints := marketSplit(6, 50, 4)
	res, err := cbc.Solve(context.Background(), m, ints, cbc.Options{MaxNodes: 10, Seconds: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes > 12 {
		t.Fatalf("%d nodes with a limit of 10", res.Nodes)
	}
	if res.Status != cbc.Optimal && res.Status != cbc.Stopped {
		t.Fatalf("status %v", res.Status)
	}
	if res.HasSolution && res.Bound > res.Objective+1e-9 {
		t.Fatalf("bound %g above the solution %g", res.Bound, res.Objective)
	}
}
