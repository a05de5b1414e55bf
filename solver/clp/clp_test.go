//go:build cgo && !noclp

package clp

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/solvertest"
)

func TestVersionAndAvailable(t *testing.T) {
	if !Available() {
		t.Fatal("Available() = false in a cgo build")
	}
	// The installed library is Clp 1.17.6 (Debian coinor-libclp-dev);
	// accept any 1.x.
	if v := Version(); !strings.HasPrefix(v, "1.") {
		t.Fatalf("Version() = %q, want 1.x", v)
	}
	p := newProblem(t)
	if p.Name() != "clp" {
		t.Fatalf("Name() = %q", p.Name())
	}
}

// backend is Clp for the shared tests of solvertest.
var backend = solvertest.Backend{Name: "clp", New: func(t testing.TB) solver.Solver { return newProblem(t) },
	Algorithms: []solver.Algorithm{solver.Dual, solver.Primal, solver.Barrier},
	Presolves:  []solver.Presolve{solver.PresolveOn, solver.PresolveOff}}

// TestSmallLPs checks the hand-computed optima of solvertest.SmallCases
// (see the comments on each model) with every algorithm and presolve
// setting, and the duals' conventions.
func TestSmallLPs(t *testing.T) {
	solvertest.CheckSmallLPs(t, backend, 1e-9)
}

// TestDualSignConvention pins the convention stated in the package doc on
// the production LP (hand-computed duals in solvertest.Production's comment): the
// same d = c − Aᵀy for both senses, so a tight <= row has y <= 0 when
// minimising and y >= 0 when maximising, and the maximisation's duals are
// the negated duals of the equivalent minimisation.
func TestDualSignConvention(t *testing.T) {
	solvertest.CheckDualSignConvention(t, newProblem(t), 1e-12)
}

// TestInfeasibleUnbounded: infeasible and unbounded LPs are StatusErrors
// of clp with a partial solution, whatever the algorithm and presolve.
func TestInfeasibleUnbounded(t *testing.T) {
	solvertest.CheckInfeasibleUnbounded(t, backend)
}

// TestEmptyShapes: a model with no columns and no rows is optimal with
// objective 0 (plus offset); one with a single empty row 1 <= 0 <= 2 is
// infeasible, since its activity is 0.
func TestEmptyShapes(t *testing.T) {
	empty := lp.New("empty", lp.Minimize)
	empty.ObjOffset = 2.5
	emptyRow := lp.New("emptyrow", lp.Minimize)
	emptyRow.AddRow("r", 1, 2, nil, nil)
	for _, alg := range []solver.Algorithm{solver.Dual, solver.Primal, solver.Barrier} {
		p := newProblem(t)
		sol, err := p.Solve(empty, solver.Options{Algorithm: alg})
		if err != nil || sol.Objective != 2.5 || len(sol.X) != 0 {
			t.Errorf("%s, empty model: %v %+v", alg, err, sol)
		}
		if _, err := p.Solve(emptyRow, solver.Options{Algorithm: alg}); !errors.Is(err, solver.ErrInfeasible) {
			t.Errorf("%s, empty row 1 <= 0 <= 2: %v, want infeasible", alg, err)
		}
	}
}

// TestIterationLimit: the 300x300 random LP needs hundreds of simplex
// iterations (Clp 1.17.6: 450 dual, 1145 primal, with or without
// presolve), so MaxIterations 1 must stop it.
func TestIterationLimit(t *testing.T) {
	m := solvertest.RandomLP(300, 0.05, 1)
	for _, alg := range []solver.Algorithm{solver.Dual, solver.Primal} {
		for _, pre := range []solver.Presolve{solver.PresolveOn, solver.PresolveOff} {
			t.Run(fmt.Sprintf("%s/presolve%d", alg, pre), func(t *testing.T) {
				p := newProblem(t)
				sol, err := p.Solve(m, solver.Options{Algorithm: alg, Presolve: pre, MaxIterations: 1})
				if !errors.Is(err, solver.ErrIterationLimit) {
					t.Fatalf("err = %v, want iteration limit", err)
				}
				if sol == nil || sol.Status != solver.IterationLimit || len(sol.X) != m.NumVars() {
					t.Fatalf("partial solution = %+v", sol)
				}
				// The limit is per call: the same Problem then solves fully.
				sol, err = p.Solve(m, solver.Options{Algorithm: alg, Presolve: pre})
				if err != nil || sol.Iterations <= 1 {
					t.Fatalf("unlimited solve after limited one: err=%v iterations=%d", err, sol.Iterations)
				}
			})
		}
	}
}

// TestTimeLimit: a 1000x1000 random LP takes far more than a millisecond of
// CPU time, so MaxSeconds 1e-3 must stop it, reported as a time limit.
func TestTimeLimit(t *testing.T) {
	m := solvertest.RandomLP(1000, 0.01, 2)
	p := newProblem(t)
	sol, err := p.Solve(m, solver.Options{MaxSeconds: 1e-3, Presolve: solver.PresolveOff})
	if !errors.Is(err, solver.ErrTimeLimit) {
		t.Fatalf("err = %v, want time limit", err)
	}
	if sol.Status != solver.TimeLimit {
		t.Fatalf("Status = %v", sol.Status)
	}
	// The time limit does not stick to the Problem.
	if _, err := p.Resolve(solver.Options{}); err != nil {
		t.Fatalf("Resolve without limit: %v", err)
	}
}

// TestAlgorithmsAgree solves random LPs with every algorithm and presolve
// setting and requires the same optimum (to 1e-7 relative), a feasible X,
// and duals consistent with the reduced costs.
func TestAlgorithmsAgree(t *testing.T) {
	for _, seed := range []uint64{1, 3, 4} {
		m := solvertest.RandomLP(300, 0.05, seed)
		var ref float64
		first := true
		for _, alg := range []solver.Algorithm{solver.Dual, solver.Primal, solver.Barrier} {
			for _, pre := range []solver.Presolve{solver.PresolveAuto, solver.PresolveOn, solver.PresolveOff} {
				p := newProblem(t)
				sol, err := p.Solve(m, solver.Options{Algorithm: alg, Presolve: pre})
				if err != nil {
					t.Fatalf("seed %d %s presolve %d: %v", seed, alg, pre, err)
				}
				if v := m.MaxViolation(sol.X); v.Relative() > 1e-7 {
					t.Errorf("seed %d %s presolve %d: infeasible X: %+v", seed, alg, pre, v)
				}
				if first {
					ref, first = sol.Objective, false
				} else if !solvertest.Near(sol.Objective, ref, 1e-7) {
					t.Errorf("seed %d %s presolve %d: objective %.12g, dual+presolve gave %.12g", seed, alg, pre, sol.Objective, ref)
				}
				solvertest.CheckDuals(t, m, sol, 1e-6)
				p.Close()
			}
		}
	}
}

// TestPresolveReachesClp: presolve turns solvertest.EqualityFree into an empty
// problem (the equality row eliminates x = 1 + y, and the >= row then is a
// bound on y), so with presolve on Clp 1.17.6 needs 0 simplex iterations
// and with presolve off 2. Both must give the hand-computed optimum 3.
func TestPresolveReachesClp(t *testing.T) {
	p := newProblem(t)
	on, err := p.Solve(solvertest.EqualityFree(), solver.Options{Presolve: solver.PresolveOn})
	if err != nil {
		t.Fatal(err)
	}
	off, err := p.Solve(solvertest.EqualityFree(), solver.Options{Presolve: solver.PresolveOff})
	if err != nil {
		t.Fatal(err)
	}
	if on.Iterations != 0 || off.Iterations == 0 {
		t.Errorf("iterations with presolve %d, without %d; want 0 and > 0", on.Iterations, off.Iterations)
	}
	if !solvertest.Near(on.Objective, 3, 1e-12) || !solvertest.Near(off.Objective, 3, 1e-12) {
		t.Errorf("objectives %g and %g, want 3", on.Objective, off.Objective)
	}
}

// TestOptionsApplied checks that tolerances, scaling and log level reach
// Clp and that unset options restore Clp's defaults.
func TestOptionsApplied(t *testing.T) {
	p := newProblem(t)
	m := solvertest.Mixed()
	if _, err := p.Solve(m, solver.Options{PrimalTolerance: 1e-9, DualTolerance: 1e-8, Scaling: 0, ScalingSet: true}); err != nil {
		t.Fatal(err)
	}
	if got := p.primalTolerance(); got != 1e-9 {
		t.Errorf("primal tolerance %g, want 1e-9", got)
	}
	if got := p.dualTolerance(); got != 1e-8 {
		t.Errorf("dual tolerance %g, want 1e-8", got)
	}
	if got := p.scalingFlag(); got != 0 {
		t.Errorf("scaling %d, want 0", got)
	}
	if _, err := p.Solve(m, solver.Options{Scaling: 2}); err != nil {
		t.Fatal(err)
	}
	if got := p.scalingFlag(); got != 2 {
		t.Errorf("scaling %d, want 2", got)
	}
	// Zero Options: Clp's defaults (tolerances 1e-7, scaling 3 = auto).
	if _, err := p.Solve(m, solver.Options{}); err != nil {
		t.Fatal(err)
	}
	if p.primalTolerance() != 1e-7 || p.dualTolerance() != 1e-7 || p.scalingFlag() != 3 || p.logLevel() != 0 {
		t.Errorf("defaults not restored: tol %g/%g scaling %d log %d",
			p.primalTolerance(), p.dualTolerance(), p.scalingFlag(), p.logLevel())
	}
	for _, opt := range []solver.Options{
		{Algorithm: solver.Algorithm(7)},
		{Presolve: solver.Presolve(9)},
		{Scaling: 5, ScalingSet: true},
	} {
		if _, err := p.Solve(m, opt); !errors.Is(err, solver.ErrFailed) {
			t.Errorf("options %+v: err = %v, want ErrFailed", opt, err)
		}
	}
}

// TestWarmStartSmall tightens bounds of solvertest.Mixed and re-solves; the new
// optima are computed by hand.
func TestWarmStartSmall(t *testing.T) {
	p := newProblem(t)
	m := solvertest.Mixed()
	if _, err := p.Solve(m, solver.Options{}); err != nil {
		t.Fatal(err)
	}
	// a <= 2: b = 4 − a, cost 2a + 3(4 − a) = 12 − a is least at a = 2,
	// b = 2: 10, plus −1.5 + 10 = 18.5.
	p.SetColBounds(0, 0, 2)
	sol, err := p.Resolve(solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !solvertest.Near(sol.Objective, 18.5, 1e-9) || !solvertest.Near(sol.X[0], 2, 1e-9) || !solvertest.Near(sol.X[1], 2, 1e-9) {
		t.Fatalf("after a <= 2: objective %g X %v, want 18.5 at (2, 2, 1.5)", sol.Objective, sol.X)
	}
	mod := m.Clone()
	mod.ColUpper[0] = 2
	solvertest.CheckDuals(t, mod, sol, 1e-9)

	// Undo, then raise row 0 to a + b >= 5: rows 0 and 1 tight give
	// a = 3.5, b = 1.5, cost 7 + 4.5 = 11.5, plus −1.5 + 10 = 20.
	p.SetColBounds(0, 0, inf)
	p.SetRowBounds(0, 5, inf)
	sol, err = p.Resolve(solver.Options{Algorithm: solver.Primal})
	if err != nil {
		t.Fatal(err)
	}
	if !solvertest.Near(sol.Objective, 20, 1e-9) || !solvertest.Near(sol.X[0], 3.5, 1e-9) || !solvertest.Near(sol.X[1], 1.5, 1e-9) {
		t.Fatalf("after a + b >= 5: objective %g X %v, want 20 at (3.5, 1.5, 1.5)", sol.Objective, sol.X)
	}
	if sol.Algorithm != "primal warm-start" {
		t.Errorf("Algorithm = %q", sol.Algorithm)
	}
	// Make it infeasible (a + b <= 1 against a + b >= 5), then feasible again.
	p.SetRowBounds(0, 5, inf)
	p.SetRowBounds(2, 0, 1)
	if _, err := p.Resolve(solver.Options{}); !errors.Is(err, solver.ErrInfeasible) {
		t.Fatalf("err = %v, want infeasible", err)
	}
	p.SetRowBounds(2, 0, 10)
	if sol, err = p.Resolve(solver.Options{}); err != nil || !solvertest.Near(sol.Objective, 20, 1e-9) {
		t.Fatalf("back to feasible: %v, objective %v", err, sol.Objective)
	}
}

// TestWarmStartRandom: after solving the 300x300 random LP, tighten the
// bound of a basic column and re-solve. Resolve must reach the optimum of
// the modified model (compared with a cold solve of it) in fewer
// iterations than the cold solve.
func TestWarmStartRandom(t *testing.T) {
	m := solvertest.RandomLP(300, 0.05, 1)
	p := newProblem(t)
	sol, err := p.Solve(m, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Pick the column farthest inside its bounds; it is basic.
	j, best := -1, 0.0
	for k, v := range sol.X {
		if gap := math.Min(v-m.ColLower[k], m.ColUpper[k]-v); gap > best {
			j, best = k, gap
		}
	}
	if j < 0 {
		t.Fatal("no column strictly inside its bounds")
	}
	newUp := sol.X[j] / 2
	p.SetColBounds(j, m.ColLower[j], newUp)
	warm, err := p.Resolve(solver.Options{})
	if err != nil {
		t.Fatal(err)
	}

	mod := m.Clone()
	mod.ColUpper[j] = newUp
	cp := newProblem(t)
	cold, err := cp.Solve(mod, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("column %d upper %g -> %g: objective %.10g -> %.10g; iterations warm %d, cold %d",
		j, m.ColUpper[j], newUp, sol.Objective, warm.Objective, warm.Iterations, cold.Iterations)
	if !solvertest.Near(warm.Objective, cold.Objective, 1e-9) {
		t.Errorf("warm objective %.15g, cold %.15g", warm.Objective, cold.Objective)
	}
	if warm.Objective < sol.Objective-1e-9 {
		t.Errorf("tightening a bound improved the minimum: %g -> %g", sol.Objective, warm.Objective)
	}
	if v := mod.MaxViolation(warm.X); v.Relative() > 1e-7 {
		t.Errorf("warm X infeasible for the modified model: %+v", v)
	}
	if warm.X[j] > newUp+1e-9 {
		t.Errorf("X[%d] = %g above new bound %g", j, warm.X[j], newUp)
	}
	if warm.Iterations >= cold.Iterations {
		t.Errorf("warm start took %d iterations, cold solve %d", warm.Iterations, cold.Iterations)
	}
	solvertest.CheckDuals(t, mod, warm, 1e-6)
}

func TestBadUse(t *testing.T) {
	p := newProblem(t)
	if _, err := p.Resolve(solver.Options{}); !errors.Is(err, solver.ErrFailed) {
		t.Errorf("Resolve before Load: %v", err)
	}
	bad := solvertest.Mixed()
	bad.ColLower[0] = math.NaN()
	if _, err := p.Solve(bad, solver.Options{}); !errors.Is(err, solver.ErrFailed) {
		t.Errorf("Solve of invalid model: %v", err)
	}
	if err := p.Load(solvertest.Mixed()); err != nil {
		t.Fatal(err)
	}
	p.SetColBounds(1, math.NaN(), 1)
	if _, err := p.Resolve(solver.Options{}); !errors.Is(err, solver.ErrFailed) {
		t.Errorf("Resolve after NaN bound: %v", err)
	}
	if _, err := p.Resolve(solver.Options{}); err != nil {
		t.Errorf("the NaN error is reported once: %v", err)
	}
	for _, f := range []func(){
		func() { p.SetColBounds(3, 0, 1) },
		func() { p.SetRowBounds(-1, 0, 1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("out-of-range index did not panic")
				}
			}()
			f()
		}()
	}
}

func TestCloseTwice(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Solve(solvertest.Mixed(), solver.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	p.SetColBounds(0, 0, 1) // no-op after Close
	if _, err := p.Solve(solvertest.Mixed(), solver.Options{}); !errors.Is(err, solver.ErrFailed) {
		t.Errorf("Solve after Close: %v", err)
	}
	if _, err := p.Resolve(solver.Options{}); !errors.Is(err, solver.ErrFailed) {
		t.Errorf("Resolve after Close: %v", err)
	}
	if err := p.Load(solvertest.Mixed()); !errors.Is(err, solver.ErrFailed) {
		t.Errorf("Load after Close: %v", err)
	}
}

// rssBytes returns the resident set size from /proc/self/statm, or -1.
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return -1
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return -1
	}
	return pages * int64(os.Getpagesize())
}

// TestNewCloseCycles runs 1000 New/Load/Solve/Close cycles: every Clp
// model must be deleted, and the resident size must not grow by more than
// a few MB (a leaked model with this LP loaded costs tens of kB, so 1000
// leaks would show).
func TestNewCloseCycles(t *testing.T) {
	m := solvertest.Mixed()
	cycle := func() {
		p, err := New()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Solve(m, solver.Options{}); err != nil {
			t.Fatal(err)
		}
		p.Close()
	}
	for i := 0; i < 100; i++ { // warm up allocators
		cycle()
	}
	runtime.GC()
	base, rss0 := liveModels.Load(), rssBytes()
	for i := 0; i < 1000; i++ {
		cycle()
	}
	runtime.GC()
	if got := liveModels.Load(); got != base {
		t.Errorf("live Clp models %d after 1000 cycles, want %d", got, base)
	}
	if rss0 > 0 {
		growth := rssBytes() - rss0
		t.Logf("RSS growth over 1000 cycles: %d kB", growth/1024)
		if growth > 8<<20 {
			t.Errorf("RSS grew by %d kB over 1000 New/Close cycles", growth/1024)
		}
	}
}

// TestCleanupFreesUnclosed: Problems dropped without Close are freed by the
// runtime cleanup (the safety net).
func TestCleanupFreesUnclosed(t *testing.T) {
	runtime.GC()
	base := liveModels.Load()
	for i := 0; i < 10; i++ {
		p, err := New()
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Load(solvertest.Mixed()); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for liveModels.Load() > base && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := liveModels.Load(); got > base {
		t.Errorf("%d of 10 unclosed models still live after GC", got-base)
	}
}

// TestConcurrent solves on separate Problems from several goroutines (run
// with -race).
func TestConcurrent(t *testing.T) {
	ms := []*lp.Model{solvertest.RandomLP(120, 0.05, 5), solvertest.RandomLP(120, 0.05, 6)}
	want := make([]float64, len(ms))
	for i, m := range ms {
		sol, err := newProblem(t).Solve(m, solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = sol.Objective
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			p, err := New()
			if err != nil {
				errs <- err
				return
			}
			defer p.Close()
			for k := 0; k < 5; k++ {
				i := (g + k) % len(ms)
				sol, err := p.Solve(ms[i], solver.Options{Algorithm: solver.Algorithm(k % 2)})
				if err != nil {
					errs <- err
					return
				}
				if !solvertest.Near(sol.Objective, want[i], 1e-9) {
					errs <- fmt.Errorf("goroutine %d model %d: objective %g, want %g", g, i, sol.Objective, want[i])
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// clpCLI runs the clp command-line solver on m written by WriteMPS and
// returns the status word and objective of its summary line, e.g.
// "Optimal objective 17.5 - 2 iterations time 0.002". Clp 1.17.6 ignores
// the OBJSENSE section ("MAX found after OBJSENSE - Coin ignores"), so a
// maximisation is requested with -max on the command line.
func clpCLI(t *testing.T, bin string, m *lp.Model) (string, float64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "model.mps")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := m.WriteMPS(&buf); err != nil {
		t.Fatal(err)
	}
	// Clp guesses fixed or free MPS line by line and reads the short line
	// " UP BND x 10" as fixed format (blank column name); "FREE" after
	// the NAME line's name makes it read free format throughout.
	lines := strings.SplitAfter(buf.String(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "NAME ") {
			lines[i] = strings.TrimSuffix(l, "\n") + " FREE\n"
			break
		}
	}
	if _, err := f.WriteString(strings.Join(lines, "")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	args := []string{path}
	if m.Sense == lp.Maximize {
		args = append(args, "-max")
	}
	args = append(args, "-solve")
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", bin, args, err, out)
	}
	re := regexp.MustCompile(`^(\w+) objective (\S+) - `)
	status, obj := "", math.NaN()
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if g := re.FindStringSubmatch(sc.Text()); g != nil {
			status = g[1]
			obj, err = strconv.ParseFloat(g[2], 64)
			if err != nil {
				t.Fatalf("bad objective %q in %q", g[2], sc.Text())
			}
		}
	}
	if status == "" {
		t.Fatalf("no objective line in clp output:\n%s", out)
	}
	return status, obj
}

// TestAgainstCLI compares with the clp command-line solver (same library,
// independent path: MPS writer and reader, CLI defaults).
func TestAgainstCLI(t *testing.T) {
	bin, err := exec.LookPath("clp")
	if err != nil {
		t.Skip("clp command-line solver not on PATH")
	}
	offsetMax := solvertest.Production(lp.Maximize)
	offsetMax.ObjOffset = -4
	cases := []struct {
		name   string
		model  *lp.Model
		status string // the word clp prints
	}{
		{"production-max", solvertest.Production(lp.Maximize), "Optimal"},
		{"production-max-offset", offsetMax, "Optimal"},
		{"production-min", solvertest.Production(lp.Minimize), "Optimal"},
		{"mixed", solvertest.Mixed(), "Optimal"},
		{"equality-free", solvertest.EqualityFree(), "Optimal"},
		{"max-ge", solvertest.MaxGE(), "Optimal"},
		{"random300", solvertest.RandomLP(300, 0.05, 1), "Optimal"},
		{"infeasible", solvertest.Infeasible(), "PrimalInfeasible"},
		{"unbounded", solvertest.Unbounded(), "DualInfeasible"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, cliObj := clpCLI(t, bin, tc.model)
			if status != tc.status {
				t.Fatalf("clp CLI says %s, want %s", status, tc.status)
			}
			sol, err := newProblem(t).Solve(tc.model, solver.Options{})
			if tc.status != "Optimal" {
				if err == nil {
					t.Fatalf("binding solved a model the CLI calls %s", status)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// The CLI prints about 10 significant digits.
			if !solvertest.Near(sol.Objective, cliObj, 1e-8) {
				t.Errorf("objective %.12g, clp CLI %.12g", sol.Objective, cliObj)
			}
		})
	}
}

// BenchmarkSolveRandom loads and solves a sparse random 1000x1000 LP (about
// 10 nonzeros per row) with the default options (dual simplex, presolve).
func BenchmarkSolveRandom(b *testing.B) {
	m := solvertest.RandomLP(1000, 0.01, 7)
	p, err := New()
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	iters := 0
	for b.Loop() {
		sol, err := p.Solve(m, solver.Options{})
		if err != nil {
			b.Fatal(err)
		}
		iters = sol.Iterations
	}
	b.ReportMetric(float64(iters), "simplex-iters/op")
}
