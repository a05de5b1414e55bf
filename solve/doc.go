// Package solve is the one call behind `dlsched solve` and every sweep
// point of a fixed stage count: it checks the sizes, chooses the message
// pattern (the pattern search of optimize.SolveBest by default, the
// paper's greedy prune alone, or the exact pattern MILP), solves and
// certifies the LPs through the engine (package pipeline), states the
// bound over every pattern, and verifies the schedule on the replay
// (package executor/replay).
//
// The steps were the CLI's and the sweep's, written twice; here they are
// once, and both call Schedule.
package solve
