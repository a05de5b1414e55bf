// Package solver defines how dlsched talks to linear-programming solvers: the
// Solver interface, solve Options, the Solution with its Status, typed errors
// for every non-optimal outcome, and a safe (rigorous) lower bound on the
// optimum computed from approximate dual values.
//
// Backends live in sub-packages: solver/clp binds COIN-OR Clp through its C
// API, solver/gonumlp wraps gonum's pure-Go simplex for small models and as an
// independent cross-check.
//
// Sign convention for duals, whatever the backend: for a minimisation model
// the reduced costs are d = c − Aᵀy, where y are the row duals. A row at its
// lower bound has y ≥ 0 and a row at its upper bound y ≤ 0 at optimality.
package solver
