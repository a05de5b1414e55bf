// Package pattern chooses which messages a schedule sends — the step of
// `dlsched solve` after the LP engine (solve/engine) and before the
// replay. The LP of a message pattern pays the startup S of every message
// it holds, so which messages to send is a combinatorial question the LP
// does not answer (Drozdowski & Wolniewicz, "Performance limits of
// divisible load processing in systems with limited communication
// buffers", JPDC 64, 2004, Section 4.2: the selection of layers "remains
// an open problem of combinatorial nature"). Three methods answer it:
//
//   - MethodGreedy, the paper's prune alone (engine.Solve): solve the full
//     n-stage pattern, drop the messages that carry no load, re-solve;
//   - MethodSearch (the default, Search): the greedy prune, the same from
//     patterns on fewer destinations (processor or layer subsets), then
//     single-message changes, in a chain over stage counts;
//   - MethodExact (Exact): the MILP over every sub-pattern of the full
//     n-stage pattern, solved by Cbc (small instances).
//
// Every method returns a schedule whose pattern bound (SetBound) holds for
// every pattern and every n. Solve dispatches between them; package solve
// calls it once per schedule.
package pattern
