package engine

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// variant is one LP of the paper (LoadDirect, TreeNLF-1/2, TreeLLF-1/2,
// BinomialTreeNLF/LLF) or the heterogeneous star.
type variant struct {
	name    string
	kind    topology.Kind
	order   topology.Order
	buffers int
	hetero  bool
}

var allVariants = []variant{
	{"LoadDirect", topology.Star, 0, 0, false},
	{"LoadDirect-hetero", topology.Star, 0, 0, true},
	{"TreeNLF-1", topology.Tree, topology.NLF, 1, false},
	{"TreeNLF-2", topology.Tree, topology.NLF, 2, false},
	{"TreeLLF-1", topology.Tree, topology.LLF, 1, false},
	{"TreeLLF-2", topology.Tree, topology.LLF, 2, false},
	{"BinomialTreeNLF", topology.Binomial, topology.NLF, 1, false},
	{"BinomialTreeLLF", topology.Binomial, topology.LLF, 1, false},
}

// treeVariants are the six tree LPs of issue 3.
var treeVariants = allVariants[2:]

func logU(r *rand.Rand, lo, hi float64) float64 { return math.Pow(10, lo+(hi-lo)*r.Float64()) }

// shape returns a random problem of the variant without D and V: S, C, A
// log-uniform over the ranges around the paper's values (S=1e-3, C=1e-6,
// A=1e-3), star m = 1..maxM, trees p = 1..3 and h = 1..maxH.
func (v variant) shape(r *rand.Rand, maxM, maxH int) *problem.Problem {
	p := &problem.Problem{Kind: v.kind, Order: v.order, Buffers: v.buffers,
		S: logU(r, -4, -1), C: logU(r, -7, -4), A: logU(r, -4, -2)}
	switch v.kind {
	case topology.Star:
		p.M = 1 + r.IntN(maxM)
		if v.hetero {
			for i := 0; i < p.M; i++ {
				p.Procs = append(p.Procs, randomProc(r))
			}
		}
	default:
		p.P, p.H = 1+r.IntN(3), 1+r.IntN(maxH)
	}
	return p
}

// random returns a random instance and a stage count n = n_min + 0..extra:
// V log-uniform in [1, 1e5], D infinite with probability 1/5, otherwise
// chosen so that n_min is 1..maxNMin.
func (v variant) random(r *rand.Rand, maxM, maxH, maxNMin, extra int) (*problem.Problem, int) {
	p := v.shape(r, maxM, maxH)
	p.V = logU(r, 0, 5)
	if r.IntN(5) == 0 {
		p.D = math.Inf(1)
	} else {
		p.D = 1
		cap1 := p.StageCapacity() // capacity of one stage per unit of D
		nmin := 1 + r.IntN(maxNMin)
		// D between V/(cap1·nmin) and V/(cap1·(nmin−1)), so n_min = nmin.
		lo := p.V / (cap1 * float64(nmin))
		hi := lo * 4
		if nmin > 1 {
			hi = p.V / (cap1 * float64(nmin-1))
		}
		p.D = lo + (hi-lo)*r.Float64()
		if r.IntN(8) == 0 {
			p.D = lo // V exactly fills n_min stages: every message at its limit
		}
	}
	if err := p.Validate(); err != nil {
		panic(err)
	}
	return p, p.NMin() + r.IntN(extra+1)
}

func (v variant) describe(p *problem.Problem, n int) string {
	s := fmt.Sprintf("%s S=%.4g C=%.4g A=%.4g D=%.6g V=%.6g n=%d", v.name, p.S, p.C, p.A, p.D, p.V, n)
	if p.Kind == topology.Star {
		if len(p.Procs) > 0 {
			return s + fmt.Sprintf(" m=%d procs=%v", p.M, p.Procs)
		}
		return s + fmt.Sprintf(" m=%d", p.M)
	}
	return s + fmt.Sprintf(" p=%d h=%d", p.P, p.H)
}

// loadsSchedule builds a schedule with the given pattern and loads and no
// times, for the executor's earliest mode (which ignores stated times).
func loadsSchedule(p *problem.Problem, pat formulations.Pattern, alpha []float64, n int) *schedule.Schedule {
	s := &schedule.Schedule{Status: "optimal", Problem: p.ScheduleProblem(n)}
	for j, m := range pat {
		c := schedule.Chunk{Stage: m.Stage, Load: alpha[j]}
		if p.Kind == topology.Star {
			c.Processor = m.Dest
		} else {
			c.Layer = m.Dest
		}
		s.Chunks = append(s.Chunks, c)
	}
	return s
}
