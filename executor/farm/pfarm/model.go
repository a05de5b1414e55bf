package pfarm

import (
	"fmt"
	"math"
	"sort"

	"github.com/dlsched/dlsched/topology"
)

// Params are the parameters of a Pfarm run (Section 3 of the paper). All
// times are in seconds, sizes in bytes.
type Params struct {
	// M is the number of tasks.
	M int
	// Te is the mean task execution time T_e; BetaE the overhead β_e of
	// executing a task locally (α = T_e + β_e); BetaF the CPU overhead β_f
	// of forwarding a task to a child and its result to the parent.
	Te, BetaE, BetaF float64
	// Tau is the link transfer time per byte τ (the paper's link rate
	// 1.76 Mbytes/s is τ = 1/1.76e6); Startup a fixed time per message
	// (0 on the paper's transputer links; dlsched's S).
	Tau, Startup float64
	// Dt and Dr are the sizes of a task and a result message.
	Dt, Dr float64
	// Tasks draws the task times (nil: every task takes Te).
	Tasks TaskDist
	// Seed seeds the random task times.
	Seed uint64
}

// Paper defaults (Table 3: β_e = 482 µs, β_f = 453 µs; Section 5.5: link
// rate 1.76 Mbytes/s; Table 1: the synthetic tasks carry 4 bytes each way).
const (
	DefaultBetaE = 482e-6
	DefaultBetaF = 453e-6
	DefaultTau   = 1 / 1.76e6
	DefaultDt    = 4
	DefaultDr    = 4
)

// MaxTasks bounds M (the simulation generates tasks lazily; this keeps
// counters and run times sane).
const MaxTasks = 1_000_000_000

// Alpha returns α = T_e + β_e, the CPU time of a task executed locally.
// Section 5 prints "T = M(T_e − β_e)" for the one-worker calibration, but
// its own Tables 3 and 6 are reproduced only with α = T_e + β_e (e.g.
// Table 6, N = 1, T_e = 10 ms: 10,000 × 10.482 ms = 104.8 s, printed
// 104.880; with T_e − β_e it would be 95.2 s): see docs/pfarm.md.
func (p *Params) Alpha() float64 { return p.Te + p.BetaE }

// Validate checks the parameters; errors name the field.
func (p *Params) Validate() error {
	switch {
	case p.M < 1 || p.M > MaxTasks:
		return fmt.Errorf("pfarm: M = %d tasks, want 1..%d", p.M, MaxTasks)
	case !(p.Te > 0) || math.IsInf(p.Te, 0):
		return fmt.Errorf("pfarm: Te = %g, want a task time > 0 seconds", p.Te)
	case !(p.BetaE >= 0) || math.IsInf(p.BetaE, 0):
		return fmt.Errorf("pfarm: beta_e = %g, want >= 0 seconds", p.BetaE)
	case !(p.BetaF >= 0) || math.IsInf(p.BetaF, 0):
		return fmt.Errorf("pfarm: beta_f = %g, want >= 0 seconds", p.BetaF)
	case !(p.Tau >= 0) || math.IsInf(p.Tau, 0):
		return fmt.Errorf("pfarm: tau = %g, want >= 0 seconds per byte", p.Tau)
	case !(p.Startup >= 0) || math.IsInf(p.Startup, 0):
		return fmt.Errorf("pfarm: startup = %g, want >= 0 seconds", p.Startup)
	case !(p.Dt >= 0) || math.IsInf(p.Dt, 0):
		return fmt.Errorf("pfarm: Dt = %g, want >= 0 bytes", p.Dt)
	case !(p.Dr >= 0) || math.IsInf(p.Dr, 0):
		return fmt.Errorf("pfarm: Dr = %g, want >= 0 bytes", p.Dr)
	}
	if p.Tasks != nil {
		if err := p.Tasks.validate(p.M); err != nil {
			return err
		}
	}
	return nil
}

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

// FirstTasks returns s(v,1) for every node (Lemma 1, eq. 4): the number of
// the task, counted at the root, that is the first one node v keeps. It
// uses the recurrence of the lemma's proof, s(v,i) = s(p(v), 1 + c(v) +
// (i−1)·deg(p(v))), with s(root, i) = i.
func FirstTasks(t *topology.FarmTree) []int {
	s := make([]int, t.N())
	var at func(v, i int) int
	at = func(v, i int) int {
		if t.Parent[v] < 0 {
			return i
		}
		p := t.Parent[v]
		c := 1
		for k, ch := range t.Children[p] {
			if ch == v {
				c = k + 1
			}
		}
		return at(p, 1+c+(i-1)*len(t.Children[p]))
	}
	for v := range s {
		s[v] = at(v, 1)
	}
	return s
}

// FirstTaskOrder orders the processors (1-based) by the step n + s(v,1) at
// which their worker gets its first task (Theorem 2), ties by number.
func FirstTaskOrder(t *topology.FarmTree) []int {
	s := FirstTasks(t)
	order := make([]int, t.N())
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		sa, sb := t.Depth[order[a]]+s[order[a]], t.Depth[order[b]]+s[order[b]]
		return sa < sb
	})
	for i := range order {
		order[i]++
	}
	return order
}

// Startup is T_su: eq. (5), (D_t·τ + β_f/2)·max over leaves of n + s(v,1)
// (for a complete k-ary tree this is eq. (9), (N + D − 1)(D_t·τ + β_f/2)).
// The step time is printed as D_r·τ in (5) and D_f·τ in (9); a start-up
// step moves a task, so D_t is used (docs/pfarm.md).
func Startup(t *topology.FarmTree, p *Params) float64 {
	s := FirstTasks(t)
	steps := 0
	for v := range s {
		if t.Leaf(v) {
			steps = max(steps, t.Depth[v]+s[v])
		}
	}
	return float64(steps) * (p.Startup + p.Dt*p.Tau + p.BetaF/2)
}

// Winddown is T_wd: for a chain of N, α(⌈log_{3/2} 3N⌉ + 1) + N(D_r·τ +
// β_f/2) (Section 4.3); for a complete k-ary tree with k > 1 and D levels,
// eq. (10), α(⌈log_3 D⌉ + 2) + D(D_r·τ + β_f/2); for any other tree eq.
// (6) with m = 3 × (levels), the longest path of the process graph.
func Winddown(t *topology.FarmTree, p *Params) float64 {
	a := p.Alpha()
	step := p.Startup + p.Dr*p.Tau + p.BetaF/2
	levels := float64(t.Levels())
	switch {
	case t.Arity > 1:
		return a*(math.Ceil(math.Log(levels)/math.Log(3))+2) + levels*step
	default: // eq. (6); a chain is the case m = 3N
		m := 3 * levels
		return a*(math.Ceil(math.Log(m)/math.Log(1.5))+1) + m/3*step
	}
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
	return pr, nil
}

// OptTree is the result of FindOptTree.
type OptTree struct {
	// Kept lists the processors kept (original numbers, ascending).
	Kept []int `json:"kept"`
	// Tree is the pruned tree (renumbered 0..len(Kept)-1 in the order of
	// Kept).
	Tree *topology.FarmTree `json:"-"`
	// SteadyState is T_ss(M) on the pruned tree, Clamped whether it is
	// M·β_f.
	SteadyState float64 `json:"steady_state"`
	Clamped     bool    `json:"clamped"`
}

// FindOptTree is the paper's algorithm (Section 3.2): while a node is
// saturated, solve (2), take the saturated node farthest from the root
// and remove a leaf of its subtree (the deepest, ties by the highest
// number). The result performs as well with fewer processors.
func FindOptTree(t *topology.FarmTree, p *Params) (*OptTree, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	alive := make([]bool, t.N())
	for i := range alive {
		alive[i] = true
	}
	for {
		sub := induced(t, alive)
		c := rates(sub.tree, p.Alpha(), p.BetaF)
		u := -1
		for i := range c {
			sum := 0.0
			for _, j := range sub.tree.Children[i] {
				sum += c[j]
			}
			if c[i] < sum*(1-1e-12) && (u < 0 || sub.tree.Depth[i] > sub.tree.Depth[u] || sub.tree.Depth[i] == sub.tree.Depth[u] && i > u) {
				u = i
			}
		}
		if u < 0 {
			tss, clamped, _ := SteadyState(sub.tree, p, float64(p.M))
			kept := make([]int, len(sub.orig))
			for i, o := range sub.orig {
				kept[i] = o + 1
			}
			return &OptTree{Kept: kept, Tree: sub.tree, SteadyState: tss, Clamped: clamped}, nil
		}
		// the deepest leaf under u (ties: highest number)
		leaf, stack := u, []int{u}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if sub.tree.Leaf(v) && (sub.tree.Depth[v] > sub.tree.Depth[leaf] || sub.tree.Depth[v] == sub.tree.Depth[leaf] && v > leaf) {
				leaf = v
			}
			stack = append(stack, sub.tree.Children[v]...)
		}
		alive[sub.orig[leaf]] = false
	}
}

type subtree struct {
	tree *topology.FarmTree
	orig []int // orig[i]: node of t
}

// induced returns the subtree of the alive nodes (the root always alive,
// a node alive only if its parent is), renumbered in t's order.
func induced(t *topology.FarmTree, alive []bool) subtree {
	idx := make([]int, t.N())
	var orig []int
	for i := range idx {
		idx[i] = -1
		if alive[i] && (t.Parent[i] < 0 || idx[t.Parent[i]] >= 0) {
			idx[i] = len(orig)
			orig = append(orig, i)
		}
	}
	parent := make([]int, len(orig))
	children := make([][]int, len(orig))
	depth := make([]int, len(orig))
	for k, o := range orig {
		parent[k] = -1
		if p := t.Parent[o]; p >= 0 {
			parent[k] = idx[p]
			children[idx[p]] = append(children[idx[p]], k)
			depth[k] = depth[idx[p]] + 1
		}
	}
	return subtree{tree: &topology.FarmTree{Name: "pruned " + t.Name, Parent: parent, Children: children, Depth: depth}, orig: orig}
}
