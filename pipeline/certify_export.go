package pipeline

import (
	"github.com/dlsched/dlsched/formulations"
	"github.com/dlsched/dlsched/lp"
)

// Certify returns a safe lower bound (user units) on the optimum of the LP
// model built by nw.Build with layout lay, from the dual vector duals (one
// entry per row, any quality) and the makespan cmax of a feasible schedule
// of the same network. It is the certification SolvePattern applies to
// every solution, exported for callers that solve the LP by other means
// (package optimize warm-starts a larger model and maps its duals onto the
// n-stage one). The model's column bounds are restored before it returns.
func Certify(model *lp.Model, nw *formulations.Network, lay *formulations.Layout, duals []float64, cmax float64) float64 {
	lb, _ := certify(model, nw, lay, duals, cmax)
	return lb
}
