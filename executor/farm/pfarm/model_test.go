package pfarm

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/topology"
)

// paper returns the parameters of Section 5.4 (Table 3): β_e = 482 µs,
// β_f = 453 µs, τ = 1/1.76 Mbytes/s, 4-byte tasks and results.
func paper(m int, te float64) *Params {
	return &Params{M: m, Te: te, BetaE: DefaultBetaE, BetaF: DefaultBetaF, Tau: DefaultTau, Dt: DefaultDt, Dr: DefaultDr}
}

func tree(t testing.TB, kind string, k, n int) *topology.FarmTree {
	t.Helper()
	var tr *topology.FarmTree
	var err error
	if kind == "chain" {
		tr, err = topology.Chain(n)
	} else {
		tr, err = topology.KAry(k, n)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// table3 lists the chain, binary and ternary rows of Table 3 (M = 100,000):
// kind, k, N (chain) or depth (tree), T_e, Predicted, Measured.
var table3 = []struct {
	kind           string
	k, n           int
	te, pred, meas float64
}{
	{"chain", 1, 8, 0.001, 47.890, 46.796}, {"chain", 1, 32, 0.001, 45.300, 45.593}, {"chain", 1, 64, 0.001, 45.300, 45.598},
	{"chain", 1, 8, 0.005, 90.917, 90.427}, {"chain", 1, 32, 0.005, 48.365, 47.354}, {"chain", 1, 64, 0.005, 45.366, 45.618},
	{"chain", 1, 8, 0.020, 276.633, 276.392}, {"chain", 1, 32, 0.020, 88.655, 88.364}, {"chain", 1, 64, 0.020, 59.539, 59.124},
	{"kary", 2, 3, 0.010, 159.486, 159.525}, {"kary", 2, 5, 0.010, 45.300, 45.595}, {"kary", 2, 6, 0.010, 45.300, 45.578},
	{"kary", 2, 3, 0.020, 302.117, 302.251}, {"kary", 2, 5, 0.020, 70.922, 70.934}, {"kary", 2, 6, 0.020, 45.300, 45.583},
	{"kary", 2, 3, 0.040, 587.952, 588.119}, {"kary", 2, 5, 0.040, 135.371, 135.453}, {"kary", 2, 6, 0.040, 67.313, 67.412},
	{"kary", 3, 2, 0.005, 146.462, 146.262}, {"kary", 3, 3, 0.005, 48.421, 48.532}, {"kary", 3, 4, 0.005, 45.262, 45.576},
	{"kary", 3, 2, 0.010, 270.943, 271.090}, {"kary", 3, 3, 0.010, 86.602, 86.688}, {"kary", 3, 4, 0.010, 45.282, 45.622},
	{"kary", 3, 2, 0.020, 520.917, 521.082}, {"kary", 3, 3, 0.020, 163.412, 163.522}, {"kary", 3, 4, 0.020, 54.235, 54.275},
}

// Table 3: the analytic steady state, clamped at M·β_f = 45.3 s, is within
// 0.3% of the Predicted column on every chain, binary and ternary row.
// (Ternary trees with 40 processors at 5 and 10 ms print 45.262 and
// 45.282, below M·β_f = 45.300: the paper did not clamp there; the clamp
// is the paper's own bound "M·β_f = 45.3 seconds is a lower bound".)
func TestTable3Model(t *testing.T) {
	for _, r := range table3 {
		tr := tree(t, r.kind, r.k, r.n)
		pr, err := Predict(tr, paper(100000, r.te))
		if err != nil {
			t.Fatal(err)
		}
		if e := pr.SteadyState/r.pred - 1; math.Abs(e) > 0.003 {
			t.Errorf("%s, T_e = %g: steady state %.3f, Table 3 %.3f (%+.3f%%)", tr.Name, r.te, pr.SteadyState, r.pred, 100*e)
		}
		if r.pred == 45.300 && r.kind != "chain" && !pr.Clamped {
			t.Errorf("%s, T_e = %g: the clamp at M·β_f should bind", tr.Name, r.te)
		}
		// A chain approaches M·β_f from above without saturating.
		if r.kind == "chain" && (pr.Clamped || pr.SteadyState < 100000*DefaultBetaF) {
			t.Errorf("%s, T_e = %g: clamped %v steady state %g", tr.Name, r.te, pr.Clamped, pr.SteadyState)
		}
	}
	// Binary N = 31 at 10 ms: saturated, the root (processor 1) included.
	pr, _ := Predict(tree(t, "kary", 2, 5), paper(100000, 0.010))
	if !pr.Saturated || pr.SaturatedNodes[0] != 1 || pr.SteadyState != 100000*DefaultBetaF {
		t.Errorf("binary 31 at 10 ms: saturated %v nodes %v steady %g", pr.Saturated, pr.SaturatedNodes, pr.SteadyState)
	}
}

// Table 4 (M = 10,000, T_e = 5 ms, 1,000-byte tasks and results): the
// computation-bound rows are the steady state within 0.1%. The
// communication bound (1) with C_R = β_f/4 and τ = 1/1.76e6 s/byte is
// 10,000 × (113.25 + 568.18) µs = 6.814 s; the paper prints 6.913
// (docs/pfarm.md).
func TestTable4Model(t *testing.T) {
	rows := []struct {
		kind string
		k, n int
		pred float64
	}{{"chain", 1, 1, 54.845}, {"chain", 1, 2, 28.604}, {"chain", 1, 4, 15.532}, {"chain", 1, 8, 9.092},
		{"kary", 2, 2, 19.347}, {"kary", 2, 3, 8.844}}
	for _, r := range rows {
		p := paper(10000, 0.005)
		p.Dt, p.Dr = 1000, 1000
		tr := tree(t, r.kind, r.k, r.n)
		pr, err := Predict(tr, p)
		if err != nil {
			t.Fatal(err)
		}
		if e := pr.SteadyState/r.pred - 1; math.Abs(e) > 0.001 {
			t.Errorf("%s: steady state %.3f, Table 4 %.3f (%+.3f%%)", tr.Name, pr.SteadyState, r.pred, 100*e)
		}
		if math.Abs(pr.CommBound-6.8143) > 5e-4 {
			t.Errorf("comm bound %.4f, want 6.8143", pr.CommBound)
		}
	}
}

// table6 is Table 6 (chains, M = 10,000, uniform task times with the same
// mean): N, Predicted, constant-T_e error %, uniform error %, for T_e = 10
// and 20 ms. Error = (predicted − measured)/measured.
var table6 = map[float64][][4]float64{
	0.010: {{1, 104.880, 0.010, -0.400}, {2, 53.602, 0, -0.396}, {4, 27.986, 0, -0.382}, {8, 15.225, -0.110, -0.512},
		{16, 9.020, 0.610, 0.455}, {32, 6.047, 0.496, -0.050}, {48, 5.186, 0.174, -0.116}, {64, 4.828, -0.249, 1.263}},
	0.020: {{1, 204.941, 0.013, -0.453}, {2, 103.625, 0, -0.458}, {4, 52.978, -0.028, -0.525}, {8, 27.677, -0.188, -0.755},
		{16, 15.235, 0.407, -0.217}, {32, 9.018, 0.044, 0.011}, {48, 7.019, -0.527, -1.225}, {64, 6.068, -0.906, -1.269}},
}

// Table 6: the analytic total T_su + T_ss(M − 4N) + T_wd is within 2% of
// the Predicted column.
func TestTable6Model(t *testing.T) {
	for te, rows := range table6 {
		for _, r := range rows {
			pr, err := Predict(tree(t, "chain", 1, int(r[0])), paper(10000, te))
			if err != nil {
				t.Fatal(err)
			}
			if e := pr.Total/r[1] - 1; math.Abs(e) > 0.02 {
				t.Errorf("chain %g, T_e = %g: total %.3f, Table 6 %.3f (%+.2f%%)", r[0], te, pr.Total, r[1], 100*e)
			}
		}
	}
}

// The k-ary closed form (8) equals the general O(N) solution of (2).
func TestKAryClosedForm(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		k := rapid.IntRange(1, 5).Draw(rt, "k")
		d := rapid.IntRange(1, 7).Draw(rt, "depth")
		p := &Params{M: rapid.IntRange(1, 1e6).Draw(rt, "M"),
			Te:    rapid.Float64Range(1e-4, 1).Draw(rt, "Te"),
			BetaE: rapid.Float64Range(0, 1e-3).Draw(rt, "betaE"),
			BetaF: rapid.Float64Range(0, 1e-3).Draw(rt, "betaF")}
		tr, err := topology.KAry(k, d)
		if err != nil {
			rt.Fatal(err)
		}
		c := rates(tr, p.Alpha(), p.BetaF)
		general := float64(p.M) / c[0]
		closed := KArySteadyState(k, d, p, float64(p.M))
		if math.Abs(general-closed) > 1e-9*general {
			rt.Fatalf("k=%d D=%d: general %.15g, closed form %.15g", k, d, general, closed)
		}
	})
}

// Lemma 1: the order in which processors receive their first task (the
// issue's worked orders for the binary tree of 7 and the ternary tree of
// 13, and (9): the last leaf of a k-ary tree is served after N + D − 1
// steps).
func TestLemma1(t *testing.T) {
	if got := fmt.Sprint(FirstTaskOrder(tree(t, "kary", 2, 3))); got != "[1 2 3 4 6 5 7]" {
		t.Errorf("binary 7: %s", got)
	}
	if got := fmt.Sprint(FirstTaskOrder(tree(t, "kary", 3, 3))); got != "[1 2 3 4 5 8 11 6 9 12 7 10 13]" {
		t.Errorf("ternary 13: %s", got)
	}
	for _, kd := range [][2]int{{2, 4}, {3, 3}, {4, 3}, {1, 6}} {
		tr := tree(t, "kary", kd[0], kd[1])
		p := paper(100, 0.01)
		want := float64(tr.N()+kd[1]-1) * (p.Dt*p.Tau + p.BetaF/2)
		if got := Startup(tr, p); math.Abs(got-want) > 1e-15 {
			t.Errorf("k=%d D=%d: T_su %g, eq. (9) %g", kd[0], kd[1], got, want)
		}
	}
}

// Theorem 1: every breadth-first spanning tree of a mesh rooted at the
// same node has the same steady state.
func TestTheorem1BFSTrees(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		rows := rapid.IntRange(1, 9).Draw(rt, "rows")
		cols := rapid.IntRange(1, 9).Draw(rt, "cols")
		r0, c0 := rapid.IntRange(0, rows-1).Draw(rt, "r0"), rapid.IntRange(0, cols-1).Draw(rt, "c0")
		seed := rapid.Uint64().Draw(rt, "seed")
		p := paper(10000, rapid.Float64Range(1e-3, 0.1).Draw(rt, "Te"))
		first, err := topology.MeshBFS(rows, cols, r0, c0, topology.BFSFirst, nil)
		if err != nil {
			rt.Fatal(err)
		}
		random, _ := topology.MeshBFS(rows, cols, r0, c0, topology.BFSRandom, rand.New(rand.NewPCG(seed, 1)))
		a := float64(p.M) / rates(first, p.Alpha(), p.BetaF)[0]
		b := float64(p.M) / rates(random, p.Alpha(), p.BetaF)[0]
		if math.Abs(a-b) > 1e-9*a {
			rt.Fatalf("BFS trees of the same mesh: %.15g vs %.15g", a, b)
		}
	})
}

// FindOptTree prunes a saturated binary tree to one that is not saturated
// and still comes within 2% of the root's limit M·β_f = 45.3 s (removing
// a leaf at a time, the last removal that ends saturation overshoots a
// little: 26 of 31 processors give 45.97 s).
func TestFindOptTree(t *testing.T) {
	p := paper(100000, 0.010)
	opt, err := FindOptTree(tree(t, "kary", 2, 5), p)
	if err != nil {
		t.Fatal(err)
	}
	pr, _ := Predict(opt.Tree, p)
	if len(opt.Kept) >= 31 || pr.Saturated || opt.SteadyState > 45.3*1.02 {
		t.Fatalf("kept %d processors, saturated %v, steady state %g", len(opt.Kept), pr.Saturated, opt.SteadyState)
	}
	// A tree that is not saturated is kept whole.
	opt, _ = FindOptTree(tree(t, "kary", 2, 3), p)
	if len(opt.Kept) != 7 {
		t.Fatalf("binary 7 at 10 ms pruned to %v", opt.Kept)
	}
}

func TestValidate(t *testing.T) {
	tr := tree(t, "chain", 1, 2)
	for _, bad := range []*Params{
		{M: 0, Te: 1}, {M: 10, Te: 0}, {M: 10, Te: math.NaN()}, {M: 10, Te: 1, BetaF: -1},
		{M: 10, Te: 1, Tau: math.Inf(1)}, {M: 10, Te: 1, Tasks: Bimodal{T1: 1, N1: 4, T2: 2, N2: 5, Arrive: 1}},
		{M: 10, Te: 1, Tasks: Uniform{2, 1}},
	} {
		if _, err := Predict(tr, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestParseTasks(t *testing.T) {
	for in, want := range map[string]string{
		"const": "const:0.01", "const:0.5": "const:0.5", "uniform:0.001,0.019": "uniform:0.001,0.019",
		"bimodal:0.001,5000,0.02,5000,4": "bimodal:0.001,5000,0.02,5000,4",
	} {
		d, err := ParseTasks(in, 0.01)
		if err != nil || d.String() != want {
			t.Errorf("%s: %v %v", in, d, err)
		}
	}
	for _, bad := range []string{"normal:1", "uniform:1", "bimodal:1,2,3,4", "bimodal:1,2.5,3,4,1", "const:x"} {
		if _, err := ParseTasks(bad, 1); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	// Bimodal orders: order 4 sends every short task first; every order
	// sends exactly N1 and N2 tasks; the mean is 10.5 ms (Section 5.7).
	b := Bimodal{T1: 0.001, N1: 50, T2: 0.020, N2: 50, Arrive: 4}
	if math.Abs(b.Mean()-0.0105) > 1e-15 {
		t.Errorf("mean %g", b.Mean())
	}
	for order := 1; order <= 4; order++ {
		b.Arrive = order
		next := b.source(rand.New(rand.NewPCG(1, 2)), 100)
		short, firstHalfShort := 0, 0
		for i := 0; i < 100; i++ {
			if next() == 0.001 {
				short++
				if i < 50 {
					firstHalfShort++
				}
			}
		}
		if short != 50 || order == 4 && firstHalfShort != 50 {
			t.Errorf("order %d: %d short tasks, %d in the first half", order, short, firstHalfShort)
		}
	}
}

// Eq. (10) takes ⌈log_3 D⌉: for D = 9 that is 2, so the leaf executes
// ⌈log_3 9⌉ + 2 = 4 tasks and T_wd = 4α + 9(D_r·τ + β_f/2) = 0.043987 s
// (T_e = 10 ms). In floating point log(9)/log(3) = 2.0000000000000004 and
// its ceiling 3 gave one α too many (0.054469 s); the same for D = 27, 81.
func TestWinddownIntegerLogarithm(t *testing.T) {
	p := paper(100000, 0.010)
	tr := tree(t, "kary", 2, 9)
	if got := WinddownTasks(tr); got != 4 {
		t.Errorf("binary tree of 9 levels: the leaf executes %d tasks in wind-down, eq. (10) 4", got)
	}
	step := p.Dr*p.Tau + p.BetaF/2
	if got, want := Winddown(tr, p), 4*p.Alpha()+9*step; math.Abs(got-want) > 1e-15 || math.Abs(got-0.043987) > 5e-7 {
		t.Errorf("T_wd %.6f, eq. (10) %.6f", got, want)
	}
	for d, want := range map[int]int{3: 4, 4: 4, 9: 4, 10: 5, 27: 5, 28: 6, 81: 6, 82: 7} {
		tr := &topology.FarmTree{Depth: []int{d - 1}, Arity: 3}
		if got := WinddownTasks(tr); got != want {
			t.Errorf("k-ary tree of %d levels: %d tasks, want max{⌈log_3 %d⌉ + 2, 4} = %d", d, got, d, want)
		}
	}
}

// ceilLog is the exact ⌈log_{num/den} x⌉: the least n with
// num^n >= x·den^n.
func TestCeilLog(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		x := rapid.Int64Range(1, 3*topology.MaxFarmNodes).Draw(rt, "x")
		b := rapid.SampledFrom([][2]int64{{3, 1}, {3, 2}, {2, 1}, {10, 1}}).Draw(rt, "base")
		n := ceilLog(x, b[0], b[1])
		pow := func(k int) (lhs, rhs *big.Int) {
			lhs = new(big.Int).Exp(big.NewInt(b[0]), big.NewInt(int64(k)), nil)
			rhs = new(big.Int).Mul(big.NewInt(x), new(big.Int).Exp(big.NewInt(b[1]), big.NewInt(int64(k)), nil))
			return lhs, rhs
		}
		if l, r := pow(n); l.Cmp(r) < 0 {
			rt.Fatalf("⌈log_%d/%d %d⌉ = %d is too small", b[0], b[1], x, n)
		}
		if l, r := pow(n - 1); n > 0 && l.Cmp(r) >= 0 {
			rt.Fatalf("⌈log_%d/%d %d⌉ = %d is too large", b[0], b[1], x, n)
		}
	})
}

// One processor is one farm: as a chain of one and as a one-level k-ary
// tree it executes four tasks in wind-down ("Leaves must execute at least
// four tasks, namely those in their local buffers", Section 3.3.2; eq. (6)
// with m = 3 gives ⌈log_{3/2} 3⌉ + 1 = 4, eq. (10) with the text's
// max{⌈log_3 m⌉ + 1, 4} too), so both get 4α + D_r·τ + β_f/2.
func TestOneProcessorOneWinddown(t *testing.T) {
	p := paper(1000, 0.010)
	want := 4*p.Alpha() + p.Dr*p.Tau + p.BetaF/2
	chain, _ := Predict(tree(t, "chain", 1, 1), p)
	for _, k := range []int{1, 2, 3, 5} {
		pr, err := Predict(tree(t, "kary", k, 1), p)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(pr.Winddown-want) > 1e-15 || pr.Total != chain.Total || pr.Winddown != chain.Winddown {
			t.Errorf("k = %d, one level: T_wd %.9g total %.9g; chain of one: T_wd %.9g total %.9g; want T_wd %.9g",
				k, pr.Winddown, pr.Total, chain.Winddown, chain.Total, want)
		}
	}
}

// firstTaskRef is Lemma 1's recurrence as the proof writes it,
// s(v,i) = s(p(v), 1 + c(v) + (i−1)·deg(p(v))), s(root, i) = i, in
// arbitrary precision.
func firstTaskRef(t *topology.FarmTree, v int, i *big.Int) *big.Int {
	p := t.Parent[v]
	if p < 0 {
		return i
	}
	c := 0
	for k, ch := range t.Children[p] {
		if ch == v {
			c = k + 1
		}
	}
	j := new(big.Int).Sub(i, big.NewInt(1))
	j.Mul(j, big.NewInt(int64(len(t.Children[p]))))
	j.Add(j, big.NewInt(int64(1+c)))
	return firstTaskRef(t, p, j)
}

// The one-pass FirstTasks equals the proof's recurrence on random trees
// (saturating at 2^62 where the recurrence grows beyond).
func TestFirstTasksRecurrence(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tr := randomFarmTree(rt)
		s := FirstTasks(tr)
		for v := range s {
			ref := firstTaskRef(tr, v, big.NewInt(1))
			if ref.Cmp(big.NewInt(maxSteps)) > 0 {
				ref = big.NewInt(maxSteps)
			}
			if int64(s[v]) != ref.Int64() {
				rt.Fatalf("%s: s(%d,1) = %d, the recurrence %s", tr.Name, v+1, s[v], ref)
			}
		}
	})
}

// Eq. (5) grows exponentially on BFS trees of meshes ("The sum of products
// in s(v, 1) grows exponentially with respect to N"); "In practice, the
// upper bound cannot exceed the number of buffers in the tree, 4N"
// (Section 3.3.1). The 8×8 mesh from a corner: Theorem 2 gives more than
// 4N = 256 steps, so T_su is 256 steps; a 100×100 mesh printed
// T_su = 1.8e15 s when the steps overflowed.
func TestStartupAtMostFourN(t *testing.T) {
	p := paper(10000, 0.010)
	step := p.Dt*p.Tau + p.BetaF/2
	for _, rc := range [][2]int{{8, 8}, {30, 30}, {100, 100}} {
		tr, err := topology.MeshBFS(rc[0], rc[1], 0, 0, topology.BFSFirst, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, theorem2 := FirstTasks(tr), 0
		for v := range s {
			if tr.Leaf(v) {
				theorem2 = max(theorem2, min(tr.Depth[v]+s[v], maxSteps))
			}
		}
		n := tr.N()
		if theorem2 <= 4*n || StartupSteps(tr) != 4*n || Startup(tr, p) != float64(4*n)*step {
			t.Errorf("%s: Theorem 2 %d steps, 4N = %d, start-up %d steps, T_su %g s", tr.Name, theorem2, 4*n, StartupSteps(tr), Startup(tr, p))
		}
	}
}

// The model warns where its assumptions fail, and only there.
func TestWarnings(t *testing.T) {
	warn := func(p *Params, kind string, k, n int) []string {
		pr, err := Predict(tree(t, kind, k, n), p)
		if err != nil {
			t.Fatal(err)
		}
		return pr.Warnings
	}
	if w := warn(paper(100000, 0.010), "kary", 2, 3); len(w) != 0 {
		t.Errorf("Table 3's binary tree of 7: warnings %q", w)
	}
	if w := warn(paper(27, 0.010), "kary", 2, 3); len(w) != 1 || !strings.HasPrefix(w[0], "M = 27 < 4N = 28") {
		t.Errorf("M = 27 < 4N = 28: warnings %q", w)
	}
	comm := paper(10000, 0.005) // Table 4: 1,000-byte messages on 16 processors
	comm.Dt, comm.Dr = 1000, 1000
	if w := warn(comm, "chain", 1, 16); len(w) != 1 || !strings.Contains(w[0], "communication bound") {
		t.Errorf("Table 4, chain of 16: warnings %q", w)
	}
	slow := paper(10000, 1e-4) // α = 0.582 ms <= β_f = 1 ms, β_e < β_f/2
	slow.BetaF = 1e-3
	if w := warn(slow, "chain", 1, 4); len(w) != 2 || !strings.Contains(w[0], "alpha > beta_f") || !strings.Contains(w[1], "beta_e") {
		t.Errorf("α <= β_f: warnings %q", w)
	}
}
