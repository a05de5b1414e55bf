package pfarm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/platform"
)

// TaskDist draws task execution times. The model uses its Mean as T_e
// (Section 5.7: "the models remain robust when T_e is replaced by average
// task size").
type TaskDist interface {
	// Mean is the average task time.
	Mean() float64
	// String is the distribution in the CLI's syntax.
	String() string
	// validate returns what would be valid, or "" if the distribution
	// is valid for m tasks.
	validate(m int) string
	// source returns a generator of the M task times in arrival order.
	source(r *rand.Rand, m int) func() float64
}

// Const is a constant task time (the default).
type Const float64

// Mean returns the task time.
func (c Const) Mean() float64 { return float64(c) }

// String returns "const:t".
func (c Const) String() string { return "const:" + g(float64(c)) }

func (c Const) validate(int) string {
	if !(c > 0) || math.IsInf(float64(c), 0) {
		return "const:t with a time t > 0 seconds"
	}
	return ""
}

func (c Const) source(*rand.Rand, int) func() float64 {
	return func() float64 { return float64(c) }
}

// Uniform draws task times uniformly in [A, B] (Section 5.7: 1 to 19 ms,
// average 10 ms).
type Uniform struct{ A, B float64 }

// Mean returns (A+B)/2.
func (u Uniform) Mean() float64 { return (u.A + u.B) / 2 }

// String returns "uniform:a,b".
func (u Uniform) String() string { return "uniform:" + g(u.A) + "," + g(u.B) }

func (u Uniform) validate(int) string {
	if !(u.A > 0) || !(u.B >= u.A) || math.IsInf(u.B, 0) {
		return "uniform:a,b with 0 < a <= b seconds"
	}
	return ""
}

func (u Uniform) source(r *rand.Rand, _ int) func() float64 {
	return func() float64 { return u.A + (u.B-u.A)*r.Float64() }
}

// Bimodal has N1 tasks of time T1 and N2 of time T2 (N1 + N2 = M),
// arriving in one of the four orders of Section 5.7:
//
//  1. each kind with equal probability (until one runs out);
//  2. the second kind with probability 0.75, until all of it is sent;
//  3. the first kind with probability 0.75, until all of it is sent;
//  4. all of the first kind before any of the second.
//
// With the paper's T1 = 1 ms and T2 = 20 ms, orders 2 and 3 are its "20 ms
// tasks arrive at a probability of 0.75" and "one ms tasks arrive at a
// probability of 0.75".
type Bimodal struct {
	T1     float64
	N1     int
	T2     float64
	N2     int
	Arrive int
}

// Mean returns (N1·T1 + N2·T2)/(N1 + N2).
func (b Bimodal) Mean() float64 {
	return (float64(b.N1)*b.T1 + float64(b.N2)*b.T2) / float64(b.N1+b.N2)
}

// String returns "bimodal:t1,n1,t2,n2,order".
func (b Bimodal) String() string {
	return fmt.Sprintf("bimodal:%s,%d,%s,%d,%d", g(b.T1), b.N1, g(b.T2), b.N2, b.Arrive)
}

func (b Bimodal) validate(m int) string {
	switch {
	case !(b.T1 > 0) || !(b.T2 > 0) || math.IsInf(b.T1+b.T2, 0):
		return "bimodal:t1,n1,t2,n2,order with times t1, t2 > 0 seconds"
	case b.N1 < 0 || b.N2 < 0 || b.N1+b.N2 != m:
		return fmt.Sprintf("bimodal:t1,n1,t2,n2,order with counts n1, n2 >= 0 adding up to M = %d", m)
	case b.Arrive < 1 || b.Arrive > 4:
		return "bimodal:t1,n1,t2,n2,order with an arrival order 1, 2, 3 or 4 (Section 5.7)"
	}
	return ""
}

func (b Bimodal) source(r *rand.Rand, _ int) func() float64 {
	n1, n2 := b.N1, b.N2
	p1 := map[int]float64{1: 0.5, 2: 0.25, 3: 0.75, 4: 1}[b.Arrive]
	return func() float64 {
		first := false
		switch {
		case n1 == 0:
		case n2 == 0:
			first = true
		default:
			first = r.Float64() < p1
		}
		if first {
			n1--
			return b.T1
		}
		n2--
		return b.T2
	}
}

// ParseTasks reads a task distribution: "const" (every task takes te),
// "const:t", "uniform:a,b", or "bimodal:t1,n1,t2,n2,order" (times in
// seconds). Errors are *platform.FieldError naming Params.Tasks; the values are
// checked by Params.Validate.
func ParseTasks(s string, te float64) (TaskDist, error) {
	kind, args, _ := strings.Cut(s, ":")
	syntax := map[string]string{"const": "const or const:t", "uniform": "uniform:a,b",
		"bimodal": "bimodal:t1,n1,t2,n2,order with whole counts and order 1..4"}[kind]
	if syntax == "" {
		syntax = "const, uniform:a,b or bimodal:t1,n1,t2,n2,order"
	}
	bad := platform.Bad(pkg, "Params.Tasks", strconv.Quote(s), syntax)
	var xs []float64
	if args != "" {
		for _, f := range strings.Split(args, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return nil, bad
			}
			xs = append(xs, x)
		}
	}
	switch {
	case kind == "const" && len(xs) == 0:
		return Const(te), nil
	case kind == "const" && len(xs) == 1:
		return Const(xs[0]), nil
	case kind == "uniform" && len(xs) == 2:
		return Uniform{xs[0], xs[1]}, nil
	case kind == "bimodal" && len(xs) == 5 && whole(xs[1], MaxTasks) && whole(xs[3], MaxTasks) && whole(xs[4], 4):
		return Bimodal{T1: xs[0], N1: int(xs[1]), T2: xs[2], N2: int(xs[3]), Arrive: int(xs[4])}, nil
	}
	return nil, bad
}

// whole reports whether x is an integer of magnitude at most limit.
func whole(x, limit float64) bool { return x == math.Trunc(x) && math.Abs(x) <= limit }

func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
