package nepp

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dlsched/dlsched/platform"
)

// Algorithm is one of the report's three job allocation algorithms.
type Algorithm int

const (
	// Simple is Simple Distribution (Section 3.1.2): one job per request.
	Simple Algorithm = iota
	// Multiple is Multiple Distribution (Section 3.1.3): the host refills
	// a node's queue to q jobs when it holds fewer than q_min.
	Multiple
	// FaultTolerant is Fault-Tolerant Distribution (Section 3.1.4):
	// Multiple Distribution, then replicas of unfinished jobs.
	FaultTolerant
)

// String returns "sd", "md" or "ft".
func (a Algorithm) String() string {
	switch a {
	case Simple:
		return "sd"
	case Multiple:
		return "md"
	case FaultTolerant:
		return "ft"
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// ParseAlgorithm reads "sd", "md" or "ft".
func ParseAlgorithm(s string) (Algorithm, error) {
	switch s {
	case "sd":
		return Simple, nil
	case "md":
		return Multiple, nil
	case "ft":
		return FaultTolerant, nil
	}
	return 0, platform.Bad(pkg, FieldAlgorithm, strconv.Quote(s), "sd, md or ft")
}

// Prediction is the report's model (Chapter 4) for one algorithm.
type Prediction struct {
	// Makespan is T_simp (4.11), T_mult (4.10) or T_fault (4.22).
	Makespan float64 `json:"makespan"`
	// Work is W (4.24 for SD and MD, 4.28 for FT): the total work of the
	// nodes and the host, in work units.
	Work float64 `json:"work"`
	// Speedup is T_seq/Makespan with T_seq = Σ f_j on one node of speed 1
	// (4.32 with α_s c_s = 1); Efficiency is Speedup/p (4.34).
	Speedup    float64 `json:"speedup"`
	Efficiency float64 `json:"efficiency"`
	// CorrectedEfficiency is E_c = W_req/W_par (4.31; 4.40 for FT).
	CorrectedEfficiency float64 `json:"corrected_efficiency"`
	// Overhead is A(J) = W_par − W_req (4.42 for FT).
	Overhead float64 `json:"overhead"`
	// Phases of T_fault: t_m (4.12), t_r (4.16), t_l (4.21).
	Phases []float64 `json:"phases,omitempty"`
	// Warnings list the model's assumptions that fail.
	Warnings []string `json:"warnings"`
}

// Model evaluates the Chapter 4 model: speeds s_i (4.1), p = len(speeds),
// queue size q, J jobs of mean total work wMu = f + a (4.4, 4.5), mean
// useful work f, and host work per result wH. Errors name the report's
// symbols and count nodes from 1.
func Model(alg Algorithm, speeds []float64, q, jobs int, wMu, f, wH float64) (*Prediction, error) {
	if len(speeds) < 1 {
		return nil, platform.Bad(pkg, "speeds", "(no nodes)", "at least one node")
	}
	sum, smin := 0.0, math.Inf(1)
	for i, s := range speeds {
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, platform.Bad(pkg, "speeds", fmt.Sprintf("%s (node %d)", g(s), i+1), "finite speeds > 0")
		}
		sum += s
		smin = math.Min(smin, s)
	}
	return model(alg, len(speeds), sum, smin, q, jobs, wMu, f, wH)
}

// model is Model for p nodes of total speed sum and slowest speed smin,
// which is all of the speeds it needs.
func model(alg Algorithm, p int, sum, smin float64, q, jobs int, wMu, f, wH float64) (*Prediction, error) {
	if jobs < 1 || q < 1 || !(wMu > 0) || !(f >= 0) || f > wMu || !(wH >= 0) {
		return nil, platform.Bad(pkg, "model", fmt.Sprintf("J = %d, q = %d, w = %g, f = %g, w_h = %g", jobs, q, wMu, f, wH),
			"J, q >= 1, w > 0, 0 <= f <= w, w_h >= 0")
	}
	pf, J := float64(p), float64(jobs)
	sMu := sum / pf             // (4.2)
	ave := J * wMu / (pf * sMu) // (4.8)
	pr := &Prediction{Warnings: []string{}}
	if err := pr.makespan(alg, p, sMu, smin, ave, q, jobs, wMu, wH); err != nil {
		return nil, err
	}
	req := J * f // W_req (4.29)
	pr.Speedup = req / pr.Makespan
	pr.Efficiency = pr.Speedup / pf
	pr.CorrectedEfficiency = req / pr.Work // (4.31), (4.40)
	pr.Overhead = pr.Work - req            // A(J), (4.42)
	return pr, nil
}

// makespan sets T and W of the algorithm, with the warnings of the
// assumptions that fail.
func (pr *Prediction) makespan(alg Algorithm, p int, sMu, smin, ave float64, q, jobs int, wMu, wH float64) error {
	pf, J, pq := float64(p), float64(jobs), p*q
	switch alg {
	case Simple:
		pr.Makespan = math.Max(ave, wMu/smin) // (4.11)
		pr.Work = J * (wMu + wH)              // (4.24)
		if jobs < p {
			pr.Warnings = append(pr.Warnings, fmt.Sprintf("J = %d < p = %d: some nodes get no job; T_simp is a literal evaluation of 4.11, not a prediction", jobs, p))
		}
	case Multiple:
		pr.Makespan = math.Max(ave, float64(q)*wMu/smin) // (4.10)
		pr.Work = J * (wMu + wH)                         // (4.24)
		if jobs < pq {
			pr.Warnings = append(pr.Warnings, fmt.Sprintf("J = %d < p·q = %d: the initial fill of eq. 4.9 does not happen; T_mult is a literal evaluation, not a prediction", jobs, pq))
		}
	case FaultTolerant:
		tm := (J - float64(pq)) * wMu / (pf * sMu)  // (4.12)
		tr := float64(q) * wMu / sMu * math.Log(pf) // (4.16)
		tl := float64(q) * wMu / sMu                // (4.21)
		pr.Phases = []float64{tm, tr, tl}
		pr.Makespan = ave + float64(q)*wMu/sMu*math.Log(pf)   // (4.22)
		pr.Work = (wMu + wH) * (J + float64(pq)*math.Log(pf)) // (4.28)
		if jobs < pq {
			pr.Warnings = append(pr.Warnings, fmt.Sprintf("J = %d < p·q = %d: the Multiple Distribution phase (4.12) is negative; T_fault is a literal evaluation of 4.22, not a prediction", jobs, pq))
		}
	default:
		return platform.Bad(pkg, "algorithm", alg.String(), "sd, md or ft")
	}
	return nil
}
