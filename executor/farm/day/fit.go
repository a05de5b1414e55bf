package day

import (
	"context"
	"math"

	"github.com/dlsched/dlsched/platform"
)

// Fit is the result of FitCPUPerMessage.
type Fit struct {
	// CPUPerMessage is the fitted cycle-stealing cost y (seconds per
	// message on each worker).
	CPUPerMessage float64 `json:"cpu_per_message"`
	// Fitted are the simulated efficiencies at the fitted points, and
	// Predicted the simulated efficiency at the held-out point.
	Fitted    []float64 `json:"fitted"`
	Predicted float64   `json:"predicted"`
}

// FitCPUPerMessage fits the per-message CPU cost y ∈ [0, maxY] so that the
// simulated efficiencies at the job times fitJ match fitEff (least
// squares, golden-section search), and simulates the held-out job time.
// It is a fit, not a prediction: one free parameter, two points.
func FitCPUPerMessage(ctx context.Context, base Config, fitJ, fitEff []float64, holdJ, maxY float64) (*Fit, error) {
	eff := func(y, j float64) (float64, error) {
		c := base
		c.CPUPerMessage, c.JobTime = y, j
		r, err := Run(ctx, c, platform.RunOptions{})
		if err != nil {
			return 0, err
		}
		return r.Simulated.Efficiency, nil
	}
	loss := func(y float64) (float64, error) {
		sum := 0.0
		for i, j := range fitJ {
			e, err := eff(y, j)
			if err != nil {
				return 0, err
			}
			sum += (e - fitEff[i]) * (e - fitEff[i])
		}
		return sum, nil
	}
	y, err := goldenSection(loss, 0, maxY, 30)
	if err != nil {
		return nil, err
	}
	f := &Fit{CPUPerMessage: y}
	for _, j := range fitJ {
		e, err := eff(y, j)
		if err != nil {
			return nil, err
		}
		f.Fitted = append(f.Fitted, e)
	}
	f.Predicted, err = eff(y, holdJ)
	return f, err
}

// goldenSection narrows [a, b] around a minimum of loss in iters steps of
// the golden ratio and returns the middle of the last interval. Each step
// keeps one of its two inner points, and its loss, for the next: one
// evaluation a step (two at the start).
func goldenSection(loss func(float64) (float64, error), a, b float64, iters int) (float64, error) {
	phi := (math.Sqrt(5) - 1) / 2
	c, d := b-phi*(b-a), a+phi*(b-a)
	lc, err := loss(c)
	if err != nil {
		return 0, err
	}
	ld, err := loss(d)
	if err != nil {
		return 0, err
	}
	for it := 1; it < iters; it++ {
		if lc <= ld {
			b, d, ld = d, c, lc
			c = b - phi*(b-a)
			lc, err = loss(c)
		} else {
			a, c, lc = c, d, ld
			d = a + phi*(b-a)
			ld, err = loss(d)
		}
		if err != nil {
			return 0, err
		}
	}
	if lc <= ld {
		b = d
	} else {
		a = c
	}
	return (a + b) / 2, nil
}
