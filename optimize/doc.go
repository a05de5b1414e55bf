// Package optimize answers the questions of the paper's Sections 4 and 5
// (Drozdowski & Wolniewicz 2004): how many stages n, which buffer size D,
// and which layers of a tree should compute. It drives solve.Greedy over
// n, over D and over compute/relay splits, solves its best point with
// solve.Schedule, and reports beside them the paper's closed forms, which
// live once in package closedform: the D* heuristics
// of Section 5 (closedform.DStarFor) and the LB strategy of Section 4.2
// (closedform.LBStrategy, also behind sweep's lb_layer column).
//
// # Which curve OverN optimises
//
// By default a point of the curve is exactly what `dlsched solve --stages
// n --pattern greedy` reports: the LP of the full n-stage pattern, solved,
// then pruned (empty messages removed and the LP re-solved) —
// Cmax_pruned(n). With pruning off (Options.Solve.NoPrune) it is the LP
// optimum of the full pattern,
// Cmax_full(n), the paper's model of Fig. 9, in which every one of the nm
// messages pays its startup S even when empty. Every point records both
// (Point.Cmax and Point.CmaxFull); Cmax_pruned(n) ≤ Cmax_full(n).
//
// Neither curve is monotone in general. Cmax_full is not, because each
// extra stage costs S per destination (Section 4.1: "After exceeding a
// certain limit, Cmax grows linearly with n"). Cmax_pruned is not either:
// the LP of n+1 stages can imitate n stages only by sending empty messages,
// which it pays for; pruning removes them only after the solve, and which
// messages end up empty depends on the optimal vertex the solver returns,
// so Cmax_pruned(n) is a property of the solve, not of n alone.
//
// # The stopping rule and what it covers
//
// FullPatternBound gives a line L(n) = Slope·n + Intercept below the
// makespan of every schedule of the full n-stage pattern, from the
// originator's resources alone (the star's port carries nm messages of
// S + Cα each; a tree's first links or a binomial tree's scatters likewise):
//
//	star:          L(n) = n·ΣS_i + V·min C_i          (nmS + CV)
//	ordinary tree: L(n) = n·h'·S + CV/p + (i_last − 1)S
//	binomial tree: L(n) = n·S·Σ_i i + CV/p
//
// (h' computing layers, i_last the last in activation order, Σ_i over the
// computing layers). OverN evaluates n = n_min, n_min+1, ... and stops
// before the first n with L(n) > best, where best is the least Cmax found
// so far. Since L increases, this proves, independently of the solver:
//
//   - every n in [n_min, Last] was evaluated — the minimum over that range
//     is exact (it is the minimum of the same solve.Greedy calls an
//     exhaustive scan would make);
//   - for every n > Last, Cmax_full(n) ≥ L(n) > best: no full n-stage
//     pattern beyond Last can beat the answer. For the unpruned curve this
//     covers all n ≥ n_min.
//
// What it does not cover: a pruned schedule of n > Last is the LP of a
// sub-pattern chosen by the solver's vertex. Sub-patterns are a
// combinatorial family (the paper, Section 4.2: the selection of layers
// "remains an open problem of combinatorial nature"), and no finite rule
// over n bounds them. The acceptance test scans solve.Greedy beyond Last
// and finds nothing better for the paper's Fig. 9b star.
//
// The rule is tight when communication dominates (Fig. 9b: best n = 105,
// the rule fires at 106) and weak when computing dominates, because L
// ignores computing: the curve is then nearly flat over a long range and
// the guard Options.NMax (default n_min + DefaultSpan) ends the search;
// the result says so (Covered false) and gives RuleN, the n from which the
// rule would hold. With S = 0 the bound does not grow and only the guard
// stops the search.
//
// Options.MaxLPSeconds refuses a search estimated (EstimateOverN: c·rows²
// per LP, the constants measured for Clp) to take longer, before anything
// is solved on a star with S > 0 (where the rule must fire by SearchEnd),
// after the LP of n_min elsewhere (where the rule's end is known from its
// makespan). The estimate errs high; the command line's default,
// DefaultMaxLPSeconds, refuses only searches of hours.
//
// # Heterogeneous stars
//
// On a star whose worker order is searched (solve.Options.WorkerOrder,
// the default when the processors differ) a point may use any order of
// any subset of the processors, so the line is PatternBound's,
// L(n) = n·min S_i + V·min C_i (every non-empty subset pays at least
// n·min S_i). The order is searched once per curve, at its first n
// (solve.SearchOrder: a branch and bound of dozens of LPs of the full
// pattern, too many for every point), and every point tries that order
// and the order of the point before it (solve.Options.Orders); the final
// schedule (Final) searches the order again at the best n, as `dlsched
// solve` does. The curve is then the best of those orders, not of every
// order: a point's order may not be its best. Measured on a four-processor
// star (S 0.01–0.02, V = 1e9, D = 4e6, n = 63..120): 15.4 s for 58 points,
// the search at n = 100 alone 5.3 s (63 LPs of 400 messages).
//
// # Warm starts
//
// The n-stage LP is the LP of a larger pattern with its later messages
// switched off (a change of bounds), so the unpruned curve is computed
// from one basis by the solve engine's warm-start option, solve.Sequence
// (engine.Sequence): measured on the Fig. 9b star (D = 1e5, n = 10..105,
// 96 LPs, Clp 1.17): 1.6 s warm against 14.7 s cold when it was written
// (dual re-solves, about 20 iterations per point instead of about 2000;
// the re-solves now use the first attempt's algorithm, see
// engine.Sequence). Every warm answer goes
// through the steps and tolerances of a cold one (repair, certification on
// the n-stage LP, polish) and is redone cold if the certificate fails.
// Past the optimum the LPs are degenerate and a warm solve can take as
// long as a cold one. Warm starts are not used for the pruned curve: a
// warm solve returns a different optimal vertex, hence possibly different
// empty messages and a different pruned makespan than `dlsched solve`;
// the pruned search therefore solves every n cold, as solve does.
//
// # Buffer size
//
// OverD searches D on a logarithmic grid, refines by golden section on
// log D around the best grid point, and bisects for the smallest D whose
// Cmax is within a given fraction of the best. For a fixed n, or the best
// n per D, Cmax never increases with D (a schedule feasible with buffers D
// is feasible with larger ones), so the useful answer is that smallest D;
// at n = n_min(D) (the paper's Figs. 7, 8 and 11) the curve has a true
// interior minimum. The Section 5 heuristic D* is evaluated beside.
//
// # Trees: the LB strategy and relay-only layers
//
// closedform.LBStrategy is the closed form of Section 4.2 for a binomial tree in which
// only layer i computes and every stage carries the same chunk: Cmax(n) =
// n(iS + VC/(np)) + AV/(np(p+1)^(i−1)), minimised at n* =
// sqrt(AV/(iSp(p+1)^(i−1))), rounded to the better of ⌊n*⌋ and ⌈n*⌉ (the
// function is convex) and raised to n_min of buffer D. That formula
// assumes the layer computes each chunk within one scatter (Aα ≤ T); when
// it does not, the equal-chunk schedule really ends at T + nAα, and the
// paper's value can fall below the trivial bound iS + AV/P — LBLayer
// reports both, and RelaySplit solves the relay-only LP (Problem.Relay)
// for every single computing layer, subsets of layers, and the classic NLF
// and LLF.
package optimize
