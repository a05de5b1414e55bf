// Package solve is the one door to the LP side of dlsched: `dlsched
// solve`, every sweep point, optimize's searches over n and D and
// compare's planned schedules solve through it, and none of them imports
// the formulation, the LP model or the solvers.
//
// Schedule is the whole route of `dlsched solve` for one problem and stage
// count: the size checks (LP and replay, before anything is built), the
// message pattern (package solve/pattern: the search by default, the
// paper's greedy prune, or the exact MILP), which solves every pattern it
// tries with the LP engine (package solve/engine: formulation → lp.Model
// → solver → decode → repair → certify → retry → prune), the bound over
// every pattern, and the verification on the replay (package
// executor/replay). Greedy is the engine's step alone, which optimize
// repeats over n and D; Sequence is its warm start for runs of unpruned
// LPs.
//
// The package's own API is small and names no type of the packages below
// it: Options and Settings (the user's words), Solver (NewSolver,
// SolverNames), Result and Outcome, SizeError and ExactSizeError,
// PatternCache, Sequence, and WriteModel for exporting the first LP.
package solve
