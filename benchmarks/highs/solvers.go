//go:build cgo && highs && (linux || darwin) && (amd64 || arm64)

package main

import (
	"context"
	"errors"
	"fmt"
	"math"

	gohighs "github.com/bartolsthoorn/gohighs/highs"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
	"github.com/dlsched/dlsched/solver/cbc"
	"github.com/dlsched/dlsched/solver/clp"
	"github.com/dlsched/dlsched/solver/highs"
)

// outcome is what one solve returned.
type outcome struct {
	status     string
	objective  float64
	iterations int
	duals      []float64
	// bound and nodes are a MILP search's proven bound and node count.
	bound float64
	nodes int64
}

// lpConfig is one way of solving an LP.
type lpConfig struct {
	name  string
	solve func(c lpCase, capSecs float64) (outcome, error)
	close func()
}

// dlschedOptions are the settings of dlsched's first attempt with Auto
// (engine.FirstAttempt: primal simplex, primal tolerance 1e-10, dual
// tolerance 1e-12; on an ordinary tree engine.TreeFirstAttempt: dual
// simplex with scaling off), restated here so that this harness does not
// follow the pipeline package when it moves.
func dlschedOptions(c lpCase) solver.Options {
	o := solver.Options{Algorithm: solver.Primal, PrimalTolerance: 1e-10, DualTolerance: 1e-12}
	if c.tree {
		o.Algorithm = solver.Dual
		o.Scaling, o.ScalingSet = 0, true
	}
	return o
}

// viaSolver is a configuration that solves through a solver.Solver with
// the options opts gives for the case.
func viaSolver(name string, s solver.Solver, opts func(lpCase) solver.Options) lpConfig {
	return lpConfig{
		name: name,
		solve: func(c lpCase, capSecs float64) (outcome, error) {
			o := opts(c)
			o.MaxSeconds = capSecs
			sol, err := s.Solve(c.model, o)
			if sol == nil {
				return outcome{}, err
			}
			out := outcome{status: sol.Status.String(), objective: sol.Objective, iterations: sol.Iterations, duals: sol.Duals}
			var se *solver.StatusError
			if err != nil && !errors.As(err, &se) {
				return out, err
			}
			return out, nil
		},
		close: func() {
			if c, ok := s.(interface{ Close() error }); ok {
				c.Close()
			}
		},
	}
}

// lpConfigs are the solvers compared: Clp with its defaults and with
// dlsched's first attempt, HiGHS's simplex with its defaults and with
// dlsched's first attempt (as --solver highs would run it), both with
// presolve as dlsched asks (Clp: on; HiGHS: its "choose") and off, HiGHS's
// interior point method with crossover (the backend's Barrier), and
// without crossover (through gohighs directly; the backend always
// crosses over).
func lpConfigs() ([]lpConfig, error) {
	var out []lpConfig
	mk := func(name string, newS func() (solver.Solver, error), opts func(lpCase) solver.Options) error {
		s, err := newS()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, viaSolver(name, s, opts))
		return nil
	}
	newClp := func() (solver.Solver, error) { return clp.New() }
	newHighs := func() (solver.Solver, error) { return highs.New() }
	plain := func(a solver.Algorithm) func(lpCase) solver.Options {
		return func(lpCase) solver.Options { return solver.Options{Algorithm: a} }
	}
	noPresolve := func(c lpCase) solver.Options {
		o := dlschedOptions(c)
		o.Presolve = solver.PresolveOff
		return o
	}
	for _, e := range []error{
		mk("clp default (dual)", newClp, plain(solver.Dual)),
		mk("clp dlsched", newClp, dlschedOptions),
		mk("highs simplex default (dual)", newHighs, plain(solver.Dual)),
		mk("clp dlsched, presolve off", newClp, noPresolve),
		mk("highs simplex dlsched", newHighs, dlschedOptions),
		mk("highs simplex dlsched, presolve off", newHighs, noPresolve),
		mk("highs ipm+crossover", newHighs, plain(solver.Barrier)),
	} {
		if e != nil {
			return nil, e
		}
	}
	out = append(out, lpConfig{name: "highs ipm, no crossover", solve: ipmNoCrossover, close: func() {}})
	return out, nil
}

// ipmNoCrossover solves c with HiGHS's interior point method and no
// crossover, through gohighs's own API.
func ipmNoCrossover(c lpCase, capSecs float64) (outcome, error) {
	s, err := gohighs.NewSolver()
	if err != nil {
		return outcome{}, err
	}
	defer s.Close()
	for _, set := range []error{
		s.SetBoolOption("output_flag", false),
		s.SetStringOption("solver", "ipm"),
		s.SetStringOption("run_crossover", "off"),
		s.SetFloatOption("time_limit", limit(capSecs)),
	} {
		if set != nil {
			return outcome{}, set
		}
	}
	if err := passModel(s, c.model, nil); err != nil {
		return outcome{}, err
	}
	sol, err := s.Run()
	if err != nil {
		return outcome{}, err
	}
	it, _ := s.GetIntInfo("ipm_iteration_count")
	return outcome{status: sol.Status.String(), objective: sol.Objective, iterations: it, duals: sol.RowDuals}, nil
}

// limit is a time limit for HiGHS: capSecs, or none when not positive.
func limit(capSecs float64) float64 {
	if capSecs > 0 {
		return capSecs
	}
	return math.Inf(1)
}

// passModel hands m to a gohighs Solver row-wise, with the columns listed
// in integer made integral.
func passModel(s *gohighs.Solver, m *lp.Model, integer []int) error {
	var types []gohighs.VariableType
	if integer != nil {
		types = make([]gohighs.VariableType, m.NumVars())
		for _, j := range integer {
			types[j] = gohighs.Integer
		}
	}
	starts := []int{}
	if m.NumRows() > 0 {
		starts = m.RowStart[:m.NumRows()]
	}
	return s.PassModel(m.NumVars(), m.NumRows(), m.Obj, m.ColLower, m.ColUpper, m.RowLower, m.RowUpper,
		starts, m.RowIndex, m.RowValue, types, m.Sense == lp.Maximize, m.ObjOffset)
}

// milpConfig is one way of solving a pattern MILP.
type milpConfig struct {
	name  string
	solve func(c milpCase, capSecs float64) (outcome, error)
}

// milpConfigs are Cbc as pattern.Exact runs it (relative gap 1e-9,
// integrality tolerance 1e-9, one thread) and HiGHS's MIP solver with the
// same gap and tolerance.
func milpConfigs() []milpConfig {
	return []milpConfig{
		{"cbc", func(c milpCase, capSecs float64) (outcome, error) {
			r, err := cbc.Solve(context.Background(), c.model, c.integer, cbc.Options{Seconds: capSecs})
			if err != nil {
				return outcome{}, err
			}
			return outcome{status: r.Status.String(), objective: r.Objective, bound: r.Bound, nodes: int64(r.Nodes)}, nil
		}},
		{"highs mip", highsMIP},
	}
}

// highsMIP solves c with HiGHS's MIP solver through gohighs.
func highsMIP(c milpCase, capSecs float64) (outcome, error) {
	s, err := gohighs.NewSolver()
	if err != nil {
		return outcome{}, err
	}
	defer s.Close()
	for _, set := range []error{
		s.SetBoolOption("output_flag", false),
		s.SetFloatOption("mip_rel_gap", cbc.DefaultGap),
		s.SetFloatOption("mip_abs_gap", 0),
		s.SetFloatOption("mip_feasibility_tolerance", 1e-9),
		s.SetFloatOption("time_limit", limit(capSecs)),
	} {
		if set != nil {
			return outcome{}, set
		}
	}
	if err := passModel(s, c.model, c.integer); err != nil {
		return outcome{}, err
	}
	sol, err := s.Run()
	if err != nil {
		return outcome{}, err
	}
	bound, _ := s.GetFloatInfo("mip_dual_bound")
	nodes, _ := s.GetInt64Info("mip_node_count")
	return outcome{status: sol.Status.String(), objective: sol.Objective, bound: bound, nodes: nodes}, nil
}

// highsVersion and clpVersion are the linked libraries' versions.
func highsVersion() string { return highs.Version() }
func clpVersion() string   { return clp.Version() }

// posInf is +∞, an absent bound.
func posInf() float64 { return math.Inf(1) }
