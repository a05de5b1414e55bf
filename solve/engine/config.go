package engine

import (
	"fmt"
	"io"

	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/problem"
)

// WriteModel writes the LP of the full n-stage pattern of p in opt.Form
// to w, as CPLEX LP when lpFormat is true and as free MPS otherwise, with
// comments giving the scaled units. It refuses (SizeError) a model over
// opt's memory limit before building it.
func WriteModel(w io.Writer, p *problem.Problem, n int, opt Options, lpFormat bool) error {
	if err := CheckSize(p, n, opt); err != nil {
		return err
	}
	nw, err := formulations.NewNetwork(p, formulations.FullPattern(p, n))
	if err != nil {
		return err
	}
	sc := formulations.NewScale(p)
	m, _ := nw.Build(opt.Form, sc)
	m.Comments = []string{
		fmt.Sprintf("dlsched %s LP, %s form, n=%d stages", p.Kind, opt.Form, n),
		fmt.Sprintf("scaled units: load unit L0=%g, time unit T0=%g; Cmax(user) = T0 * objective", sc.L0, sc.T0),
	}
	if lpFormat {
		return m.WriteLP(w)
	}
	return m.WriteMPS(w)
}

// ModelBytes is the estimated memory of the LP of the full n-stage
// pattern of p in the given form (formulations.EstimateFull), before
// anything is built.
func ModelBytes(p *problem.Problem, n int, form formulations.Form) int64 {
	return formulations.EstimateFull(p, n, form).Bytes()
}

// EstimateFull is the size estimate of the LP of the full n-stage pattern
// of p in form (formulations.EstimateFull).
func EstimateFull(p *problem.Problem, n int, form formulations.Form) formulations.SizeEstimate {
	return formulations.EstimateFull(p, n, form)
}
