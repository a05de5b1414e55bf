// Package lp holds a linear-programming model in a solver-neutral form:
// named variables with bounds and objective coefficients, named rows with
// lower and upper bounds, and sparse coefficients stored row by row, with a
// compressed-sparse-column (CSC) view for solvers that load by column.
//
// A Model is built incrementally with AddVar and AddRow, and written to files
// that other solvers read: free MPS (WriteMPS) and CPLEX-LP (WriteLP). The
// package knows nothing of solvers or of scheduling topologies.
//
// Infinite bounds are math.Inf(±1). A row lo <= a·x <= up is an equality when
// lo == up, a ≥ row when up is +Inf, and a ≤ row when lo is -Inf.
package lp
