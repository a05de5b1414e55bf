package pfarm

import (
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/dlsched/dlsched/topology"
)

// Prediction is the paper's analytic model of a run (Sections 3 and 4).
type Prediction struct {
	// CommBound is T_comm of eq. (1), M·max{C_R + τD_r, C_S + τD_t} with
	// C_R = C_S = β_f/4 (Section 5.5): a bound set by the root's links.
	CommBound float64 `json:"comm_bound"`
	// SteadyState is T_ss(M) = M / c_root from eq. (2), clamped at
	// M·β_f (the root's forwarding rate 1/β_f bounds the throughput).
	SteadyState float64 `json:"steady_state"`
	// Clamped reports that the clamp at M·β_f binds.
	Clamped bool `json:"clamped"`
	// Saturated reports that eq. (3) fails at some node: it would have
	// to forward more tasks than it receives (the tree has more
	// processors than the farm can feed); SaturatedNodes lists them
	// (processor numbers).
	Saturated      bool  `json:"saturated"`
	SaturatedNodes []int `json:"saturated_nodes,omitempty"`
	// Startup is T_su of eq. (5) ((9) for a k-ary tree); Winddown T_wd of
	// eq. (6) ((10) for a k-ary tree with k > 1, the chain form for a
	// chain); Total = T_su + T_ss(M − 4N) + T_wd (Section 4.3).
	Startup  float64 `json:"startup"`
	Winddown float64 `json:"winddown"`
	Total    float64 `json:"total"`
	// Warnings list the assumptions of the model that fail for this run
	// (M < 4N, α <= β_f, a communication-bound farm, β_e < β_f/2).
	Warnings []string `json:"warnings"`
	// FirstTaskOrder lists the processors in the order Lemma 1 says they
	// receive their first task (by the step n + s(v,1), ties by number).
	FirstTaskOrder []int `json:"first_task_order"`
	// Throughput is c_root: tasks per second in steady state (1/β_f when
	// clamped).
	Throughput float64 `json:"throughput"`
	// Visits[i] is V_i/M, the share of the tasks that visit processor i+1
	// in steady state (unclamped solution of eq. (2)).
	Visits []float64 `json:"visits"`
}

// rates solves eq. (2) for V_i = c_i·T_ss in O(N): for a leaf c = 1/α, and
// for an inner node α·c_i + (β_f − α)·Σ c_children = 1.
func rates(t *topology.FarmTree, alpha, betaF float64) []float64 {
	n := t.N()
	c := make([]float64, n)
	for i := n - 1; i >= 0; i-- { // children have larger numbers
		sum := 0.0
		for _, j := range t.Children[i] {
			sum += c[j]
		}
		c[i] = (1 + (alpha-betaF)*sum) / alpha
	}
	return c
}

// SteadyState returns T_ss for m tasks on t (eq. 2), whether the clamp at
// m·β_f binds, and the rates c_i.
func SteadyState(t *topology.FarmTree, p *Params, m float64) (tss float64, clamped bool, c []float64) {
	c = rates(t, p.Alpha(), p.BetaF)
	tss = m / c[0]
	if floor := m * p.BetaF; tss < floor {
		return floor, true, c
	}
	return tss, false, c
}

// KArySteadyState is the closed form (8) for a complete k-ary tree with D
// levels: T_ss = M[α − k(α − β_f)] / (1 − (k(α − β_f)/α)^D); for k(α−β_f)
// = α it is the limit M·α/D.
func KArySteadyState(k, depth int, p *Params, m float64) float64 {
	a, bf := p.Alpha(), p.BetaF
	kf := float64(k)
	// r − 1 = ((k−1)α − kβ_f)/α, written so that r near 1 loses no digits.
	rm1 := ((kf-1)*a - kf*bf) / a
	if math.Abs(rm1) < 1e-15 {
		return m * a / float64(depth)
	}
	num := (1-kf)*a + kf*bf                              // α − k(α − β_f)
	den := -math.Expm1(float64(depth) * math.Log1p(rm1)) // 1 − r^D
	return m * num / den
}

// CommBound is eq. (1) with C_R = C_S = β_f/4 (Section 5.5) and the
// message startup added to each transfer.
func CommBound(p *Params) float64 {
	c := p.BetaF / 4
	return float64(p.M) * math.Max(c+p.Startup+p.Tau*p.Dr, c+p.Startup+p.Tau*p.Dt)
}

// maxSteps caps the start-up step counts of Lemma 1, which grow
// exponentially with the depth on some trees ("The sum of products in
// s(v, 1) grows exponentially with respect to N", Section 3.3.1):
// arithmetic saturates there instead of overflowing.
const maxSteps = 1 << 62

func satAdd(a, b int) int { return min(a+b, maxSteps) } // a, b <= maxSteps

func satMul(a, b int) int {
	if a != 0 && b > maxSteps/a {
		return maxSteps
	}
	return a * b
}

// FirstTasks returns s(v,1) for every node (Lemma 1, eq. 4): the number of
// the task, counted at the root, that is the first one node v keeps. The
// proof's recurrence s(v,i) = s(p(v), 1 + c(v) + (i−1)·deg(p(v))) with
// s(root, i) = i makes s(v,i) affine in i, a_v + b_v·(i−1), with a_v =
// a_p + b_p·c(v) and b_v = b_p·deg(p): one pass from the root, O(N).
// Values saturate at 2^62 (maxSteps).
func FirstTasks(t *topology.FarmTree) []int {
	n := t.N()
	a, b := make([]int, n), make([]int, n)
	a[0], b[0] = 1, 1
	queue := make([]int, 1, n) // breadth-first: parents before children
	for q := 0; q < len(queue); q++ {
		p := queue[q]
		deg := len(t.Children[p])
		for k, v := range t.Children[p] {
			a[v] = satAdd(a[p], satMul(b[p], k+1))
			b[v] = satMul(b[p], deg)
			queue = append(queue, v)
		}
	}
	return a
}

// FirstTaskOrder orders the processors (1-based) by the step n + s(v,1) at
// which their worker gets its first task (Theorem 2), ties by number.
func FirstTaskOrder(t *topology.FarmTree) []int {
	s := FirstTasks(t)
	order := make([]int, t.N())
	for i := range order {
		order[i] = i
	}
	step := func(v int) int { return satAdd(t.Depth[v], s[v]) }
	sort.SliceStable(order, func(a, b int) bool { return step(order[a]) < step(order[b]) })
	for i := range order {
		order[i]++
	}
	return order
}

// StartupSteps is the number of steps of eq. (5), max over leaves of n +
// s(v,1) (Theorem 2), at most 4N: "In practice, the upper bound cannot
// exceed the number of buffers in the tree, 4N" (Section 3.3.1). For a
// complete k-ary tree it is N + D − 1 (Section 4.2), for a chain 2N − 1.
func StartupSteps(t *topology.FarmTree) int {
	s := FirstTasks(t)
	steps := 0
	for v := range s {
		if t.Leaf(v) {
			steps = max(steps, satAdd(t.Depth[v], s[v]))
		}
	}
	return min(steps, 4*t.N())
}

// Startup is T_su: eq. (5), (D_t·τ + β_f/2) × StartupSteps (for a
// complete k-ary tree this is eq. (9), (N + D − 1)(D_t·τ + β_f/2)). The
// step time is printed as D_r·τ in (5) and D_f·τ in (9); a start-up step
// moves a task, so D_t is used (docs/pfarm.md).
func Startup(t *topology.FarmTree, p *Params) float64 {
	return float64(StartupSteps(t)) * (p.Startup + p.Dt*p.Tau + p.BetaF/2)
}

// ceilLog returns ⌈log_{num/den} x⌉ for x >= 1 and num > den >= 1: the
// least n >= 0 with num^n >= x·den^n, in exact integer arithmetic
// (in floating point log(9)/log(3) is 2.0000000000000004, whose ceiling
// is 3).
func ceilLog(x, num, den int64) int {
	lhs, rhs := big.NewInt(1), big.NewInt(x)
	bn, bd := big.NewInt(num), big.NewInt(den)
	n := 0
	for lhs.Cmp(rhs) < 0 {
		lhs.Mul(lhs, bn)
		rhs.Mul(rhs, bd)
		n++
	}
	return n
}

// WinddownTasks is the number of tasks the last leaf executes in the
// wind-down (Section 3.3.2): for a complete k-ary tree with k > 1 and D
// levels max{⌈log_3 D⌉ + 2, 4}, the count behind eq. (10) with the
// text's floor of four ("Leaves must execute at least four tasks, namely
// those in their local buffers"; the number of tasks "is given by
// max{⌈log_3 m⌉ + 1, 4}" with m = 3D); for any other tree ⌈log_{3/2} m⌉ + 1
// of eq. (6) with m = 3 × (levels), which is 4 for one processor too.
func WinddownTasks(t *topology.FarmTree) int {
	levels := int64(t.Levels())
	if t.Arity > 1 {
		return max(ceilLog(levels, 3, 1)+2, 4)
	}
	return ceilLog(3*levels, 3, 2) + 1
}

// Winddown is T_wd = α × WinddownTasks + (levels) × (D_r·τ + β_f/2): eq.
// (10) for a complete k-ary tree with k > 1, eq. (6) with m = 3 × (levels)
// otherwise (a chain: m = 3N, Section 4.3).
func Winddown(t *topology.FarmTree, p *Params) float64 {
	step := p.Startup + p.Dr*p.Tau + p.BetaF/2
	return p.Alpha()*float64(WinddownTasks(t)) + float64(t.Levels())*step
}

// Predict evaluates the analytic model for M tasks on t.
func Predict(t *topology.FarmTree, p *Params) (*Prediction, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	m := float64(p.M)
	tss, clamped, c := SteadyState(t, p, m)
	pr := &Prediction{
		CommBound:      CommBound(p),
		SteadyState:    tss,
		Clamped:        clamped,
		Startup:        Startup(t, p),
		Winddown:       Winddown(t, p),
		FirstTaskOrder: FirstTaskOrder(t),
		Throughput:     m / tss,
		Visits:         make([]float64, t.N()),
	}
	for i := range c {
		pr.Visits[i] = c[i] / c[0]
		sum := 0.0
		for _, j := range t.Children[i] {
			sum += c[j]
		}
		if c[i] < sum*(1-1e-12) { // eq. (3) fails: V_i < Σ V_children
			pr.Saturated = true
			pr.SaturatedNodes = append(pr.SaturatedNodes, i+1)
		}
	}
	rest := math.Max(m-4*float64(t.N()), 0)
	tssRest, _, _ := SteadyState(t, p, rest)
	pr.Total = pr.Startup + tssRest + pr.Winddown
	pr.Warnings = warnings(t, p, pr)
	return pr, nil
}

// warnings lists the assumptions of the model that fail for this run.
func warnings(t *topology.FarmTree, p *Params, pr *Prediction) []string {
	w := []string{}
	if n := t.N(); p.M < 4*n {
		w = append(w, fmt.Sprintf("M = %d < 4N = %d: the farm never fills its 4N task buffers, so the total (Section 4.3) is not a prediction "+
			"(Section 5.6: \"when M < 4N, it is difficult to predict the number of tasks executed by a single processor\")", p.M, 4*n))
	}
	if a := p.Alpha(); a <= p.BetaF {
		w = append(w, fmt.Sprintf("alpha = %s <= beta_f = %s: the steady state (2) assumes alpha > beta_f "+
			"(Section 3.2: \"otherwise it is faster to execute the tasks sequentially\")", g(a), g(p.BetaF)))
	}
	if pr.CommBound > pr.SteadyState {
		w = append(w, fmt.Sprintf("T_comm = %s s > T_ss(M) = %s s: the farm is communication bound and the steady state does not apply "+
			"(Section 5.5: \"The communication bound model comes into effect once (1) ... exceeds the execution time given by the steady-state model\")",
			f(pr.CommBound), f(pr.SteadyState)))
	}
	if p.BetaE < p.BetaF/2 {
		w = append(w, fmt.Sprintf("beta_e = %s < beta_f/2 = %s: a task received and its result sent cost C_R + C_S = beta_f/2 wherever it runs, "+
			"so the simulation charges a local task T_e + beta_f/2, more than alpha", g(p.BetaE), g(p.BetaF/2)))
	}
	return w
}
