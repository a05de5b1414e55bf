// Package solvertest holds what the tests of every LP backend share: small
// LPs whose optima were worked out by hand (each model's comment shows the
// computation), an infeasible and an unbounded LP, seeded random LPs, and
// checks of a solution against a hand computation and of the duals'
// conventions (package solver: d = c − Aᵀy, complementary slackness).
// Only tests import it.
package solvertest
