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
	a, b := 0.0, maxY
	phi := (math.Sqrt(5) - 1) / 2
	for it := 0; it < 30; it++ {
		c, d := b-phi*(b-a), a+phi*(b-a)
		lc, err := loss(c)
		if err != nil {
			return nil, err
		}
		ld, err := loss(d)
		if err != nil {
			return nil, err
		}
		if lc <= ld {
			b = d
		} else {
			a = c
		}
	}
	y := (a + b) / 2
	f := &Fit{CPUPerMessage: y}
	for _, j := range fitJ {
		e, err := eff(y, j)
		if err != nil {
			return nil, err
		}
		f.Fitted = append(f.Fitted, e)
	}
	var err error
	f.Predicted, err = eff(y, holdJ)
	return f, err
}
