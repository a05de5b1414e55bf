package gonumlp

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
	glp "gonum.org/v1/gonum/optimize/convex/lp"
)

// errPanic marks a panic of lp.Simplex turned into an error.
var errPanic = errors.New("gonum lp.Simplex panicked")

// simplex calls glp.Simplex and turns a panic into an error.
func simplex(c []float64, A mat.Matrix, b []float64, tol float64, basis []int) (x []float64, err error) {
	defer func() {
		if p := recover(); p != nil {
			x, err = nil, fmt.Errorf("%w: %v", errPanic, p)
		}
	}()
	_, x, err = glp.Simplex(c, A, b, tol, basis)
	return x, err
}

// solveStd solves min cᵀz, Az = b, z ≥ 0 where A has full row rank and no
// zero column. tol is lp.Simplex's reduced-cost tolerance, ftol the relative
// feasibility tolerance of phase I. It returns glp.ErrInfeasible or
// glp.ErrUnbounded for those outcomes and another error on numerical
// failure.
func solveStd(c []float64, A *mat.Dense, b []float64, tol, ftol float64) ([]float64, error) {
	m, n := A.Dims()
	if m == 0 {
		for _, v := range c {
			if v < 0 {
				return nil, glp.ErrUnbounded
			}
		}
		return make([]float64, n), nil
	}
	if m == n {
		return solveSquare(A, b, ftol)
	}
	z, err := twoPhase(c, A, b, tol, ftol)
	if err == nil || errors.Is(err, glp.ErrInfeasible) || errors.Is(err, glp.ErrUnbounded) {
		return z, err
	}
	// Numerical trouble on our path: let lp.Simplex try on its own.
	if z2, err2 := simplex(c, A, b, tol, nil); err2 == nil {
		return z2, nil
	}
	return nil, err
}

// solveSquare handles a nonsingular square A, whose only solution is
// A⁻¹b.
func solveSquare(A *mat.Dense, b []float64, ftol float64) ([]float64, error) {
	n, _ := A.Dims()
	z := make([]float64, n)
	if err := mat.NewVecDense(n, z).SolveVec(A, mat.NewVecDense(n, b)); err != nil {
		return nil, fmt.Errorf("%w: %v", glp.ErrSingular, err)
	}
	big := 1.0
	for _, v := range z {
		big = math.Max(big, math.Abs(v))
	}
	for i, v := range z {
		if v < 0 {
			if v < -ftol*big {
				return nil, glp.ErrInfeasible
			}
			z[i] = 0
		}
	}
	return z, nil
}

// unitColumns returns, for every column of A with exactly one nonzero, that
// row; −1 for the other columns.
func unitColumns(A *mat.Dense) []int {
	m, n := A.Dims()
	unit := make([]int, n)
	for j := range n {
		unit[j] = -1
		cnt := 0
		for i := range m {
			if A.At(i, j) != 0 {
				cnt++
				unit[j] = i
			}
		}
		if cnt != 1 {
			unit[j] = -1
		}
	}
	return unit
}

// twoPhase runs phase I from a slack/artificial basis and phase II from a
// basis built on the phase-I point, both with lp.Simplex and an explicit
// initial basis.
func twoPhase(c []float64, A *mat.Dense, b []float64, tol, ftol float64) ([]float64, error) {
	m, n := A.Dims()
	unit := unitColumns(A)
	basis := make([]int, m)
	for i := range basis {
		basis[i] = -1
	}
	for j, i := range unit {
		if i >= 0 && basis[i] < 0 && A.At(i, j)*b[i] >= 0 {
			basis[i] = j
		}
	}
	var art []int
	for i, j := range basis {
		if j < 0 {
			art = append(art, i)
		}
	}
	if len(art) > 0 {
		k := len(art)
		aug := mat.NewDense(m, n+k, nil)
		aug.Slice(0, m, 0, n).(*mat.Dense).Copy(A)
		c1 := make([]float64, n+k)
		for q, i := range art {
			s := 1.0
			if b[i] < 0 {
				s = -1
			}
			aug.Set(i, n+q, s)
			c1[n+q] = 1
			basis[i] = n + q
		}
		// lp.Simplex's optimality test is absolute, so a badly scaled
		// phase I can stop short of feasibility: retry once with a tighter
		// tolerance before concluding.
		start := append([]int(nil), basis...)
		var verdict error
		for k, t := range []float64{tol, math.Min(tol, 1e-15)} {
			z1, err := simplex(c1, aug, b, t, start)
			if err != nil {
				if k > 0 && verdict == glp.ErrInfeasible {
					break
				}
				return nil, fmt.Errorf("phase I: %w", err)
			}
			infeas := 0.0
			for _, v := range z1[n:] {
				infeas += math.Abs(v)
			}
			if infeas > ftol*(1+normInf(b)) {
				verdict = glp.ErrInfeasible
				continue
			}
			basis = basisFrom(A, z1[:n], unit)
			if basis != nil && feasibleBasis(A, b, basis) {
				verdict = nil
				break
			}
			verdict = fmt.Errorf("%w: no feasible basis at the phase-I point", glp.ErrSingular)
		}
		if verdict != nil {
			return nil, verdict
		}
	}
	z, err := simplex(c, A, b, tol, basis)
	if err != nil {
		return nil, err
	}
	return z, nil
}

// basisFrom returns m linearly independent columns of A that include those
// where z is positive (largest first), completed by unit columns and then the
// others; nil if A has rank below m.
func basisFrom(A *mat.Dense, z []float64, unit []int) []int {
	m, n := A.Dims()
	var cand []int
	for j, v := range z {
		if v > 0 {
			cand = append(cand, j)
		}
	}
	sort.SliceStable(cand, func(p, q int) bool { return z[cand[p]] > z[cand[q]] })
	for j := range n {
		if z[j] <= 0 && unit[j] >= 0 {
			cand = append(cand, j)
		}
	}
	for j := range n {
		if z[j] <= 0 && unit[j] < 0 {
			cand = append(cand, j)
		}
	}
	// Greedy selection with modified Gram–Schmidt, orthogonalising twice.
	var q [][]float64
	basis := make([]int, 0, m)
	w := make([]float64, m)
	for _, j := range cand {
		if len(basis) == m {
			break
		}
		mat.Col(w, j, A)
		norm0 := floatsNorm(w)
		if norm0 == 0 {
			continue
		}
		for range 2 {
			for _, u := range q {
				d := dot(u, w)
				for i := range w {
					w[i] -= d * u[i]
				}
			}
		}
		norm := floatsNorm(w)
		if norm <= 1e-9*norm0 {
			continue
		}
		u := make([]float64, m)
		for i := range w {
			u[i] = w[i] / norm
		}
		q = append(q, u)
		basis = append(basis, j)
	}
	if len(basis) < m {
		return nil
	}
	return basis
}

// feasibleBasis reports whether lp.Simplex will accept basis as an initial
// feasible basis: B nonsingular and B⁻¹b ≥ −1e-13 (gonum's initPosTol).
func feasibleBasis(A *mat.Dense, b []float64, basis []int) bool {
	m, _ := A.Dims()
	B := columns(A, basis)
	xb := mat.NewVecDense(m, nil)
	if err := xb.SolveVec(B, mat.NewVecDense(m, b)); err != nil {
		return false
	}
	for i := range m {
		if xb.AtVec(i) < -1e-13 {
			return false
		}
	}
	return true
}

// columns returns the listed columns of A as a dense matrix.
func columns(A *mat.Dense, cols []int) *mat.Dense {
	m, _ := A.Dims()
	B := mat.NewDense(m, len(cols), nil)
	col := make([]float64, m)
	for k, j := range cols {
		mat.Col(col, j, A)
		B.SetCol(k, col)
	}
	return B
}

// stdDuals returns row duals ŷ of the optimal point z of min cᵀz, Az = b,
// z ≥ 0: from a basis on the support of z when that gives dual feasible
// reduced costs, else from the dual LP. It returns nil when neither passes
// the checks. dtol is the relative dual feasibility tolerance.
func stdDuals(c []float64, A *mat.Dense, b, z []float64, tol, ftol, dtol float64, forceDualLP bool) []float64 {
	m, _ := A.Dims()
	if m == 0 {
		return []float64{}
	}
	var best []float64
	bestErr := math.Inf(1)
	if !forceDualLP {
		if basis := basisFrom(A, z, unitColumns(A)); basis != nil {
			B := columns(A, basis)
			cb := make([]float64, m)
			for k, j := range basis {
				cb[k] = c[j]
			}
			y := mat.NewVecDense(m, nil)
			if err := y.SolveVec(B.T(), mat.NewVecDense(m, cb)); err == nil {
				yy := y.RawVector().Data
				e := dualError(c, A, b, z, yy)
				if e <= dtol {
					return yy
				}
				best, bestErr = yy, e
			}
		}
	}
	if y := dualLP(c, A, b, tol, ftol); y != nil {
		if e := dualError(c, A, b, z, y); e < bestErr {
			best, bestErr = y, e
		}
	}
	if bestErr > 1e3*dtol {
		return nil
	}
	return best
}

// dualError returns the larger of the worst relative dual infeasibility
// max(0, −(c − Aᵀy)_j) and the relative duality gap |cᵀz − bᵀy|.
func dualError(c []float64, A *mat.Dense, b, z, y []float64) float64 {
	m, n := A.Dims()
	worst := 0.0
	for j := range n {
		r, mag := c[j], math.Abs(c[j])
		for i := range m {
			t := A.At(i, j) * y[i]
			r -= t
			mag += math.Abs(t)
		}
		if r < 0 {
			worst = math.Max(worst, -r/math.Max(1, mag))
		}
	}
	pobj, dobj, mag := 0.0, 0.0, 1.0
	for j := range n {
		pobj += c[j] * z[j]
		mag += math.Abs(c[j] * z[j])
	}
	for i := range m {
		dobj += b[i] * y[i]
		mag += math.Abs(b[i] * y[i])
	}
	return math.Max(worst, math.Abs(pobj-dobj)/mag)
}

// dualLP solves max bᵀy, Aᵀy ≤ c as min −bᵀ(y⁺ − y⁻), Aᵀy⁺ − Aᵀy⁻ + s = c.
func dualLP(c []float64, A *mat.Dense, b []float64, tol, ftol float64) []float64 {
	m, n := A.Dims()
	D := mat.NewDense(n, 2*m+n, nil)
	cd := make([]float64, 2*m+n)
	for i := range m {
		for j := range n {
			a := A.At(i, j)
			D.Set(j, i, a)
			D.Set(j, m+i, -a)
		}
		cd[i], cd[m+i] = -b[i], b[i]
	}
	for j := range n {
		D.Set(j, 2*m+j, 1)
	}
	w, err := solveStd(cd, D, c, tol, ftol)
	if err != nil {
		return nil
	}
	y := make([]float64, m)
	for i := range m {
		y[i] = w[i] - w[m+i]
	}
	return y
}

// scale scales the rows and columns of A by powers of two towards unit
// geometric means (four passes) and b and c alike. It returns the row and
// column factors: A' = R A C, b' = R b, c' = C c.
func scale(A *mat.Dense, b, c []float64) (rs, cs []float64) {
	m, n := A.Dims()
	rs, cs = ones(m), ones(n)
	pow2 := func(lo, hi float64) float64 {
		if hi == 0 {
			return 1
		}
		return math.Ldexp(1, -int(math.Round(math.Log2(math.Sqrt(lo*hi)))))
	}
	for range 4 {
		for i := range m {
			lo, hi := math.Inf(1), 0.0
			for j := range n {
				if a := math.Abs(A.At(i, j)); a != 0 {
					lo, hi = math.Min(lo, a), math.Max(hi, a)
				}
			}
			f := pow2(lo, hi)
			if f != 1 {
				rs[i] *= f
				for j := range n {
					A.Set(i, j, A.At(i, j)*f)
				}
			}
		}
		for j := range n {
			lo, hi := math.Inf(1), 0.0
			for i := range m {
				if a := math.Abs(A.At(i, j)); a != 0 {
					lo, hi = math.Min(lo, a), math.Max(hi, a)
				}
			}
			f := pow2(lo, hi)
			if f != 1 {
				cs[j] *= f
				for i := range m {
					A.Set(i, j, A.At(i, j)*f)
				}
			}
		}
	}
	for i := range b {
		b[i] *= rs[i]
	}
	for j := range c {
		c[j] *= cs[j]
	}
	return rs, cs
}

func ones(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

func normInf(v []float64) float64 {
	s := 0.0
	for _, a := range v {
		s = math.Max(s, math.Abs(a))
	}
	return s
}

func floatsNorm(v []float64) float64 { return math.Sqrt(dot(v, v)) }

func dot(u, v []float64) float64 {
	s := 0.0
	for i := range u {
		s += u[i] * v[i]
	}
	return s
}
