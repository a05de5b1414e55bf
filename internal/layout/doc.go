// Package layout holds no code: its tests check the rules that keep the
// design of docs/architecture.md honest.
//
// Imports: the simulation kernel imports no dlsched package; the schedule
// replay, the judge of the LPs, imports no LP formulation, solver or solve
// package; the machine models under executor/ never import each other; the
// LP model knows no solver and no topology; nothing imports the command.
// The command, sweep, compare and optimize reach the LP side
// (formulations, lp, solver, solve/engine, solve/pattern, solve/order)
// through package solve alone, in their tests too; the solve route goes
// down only (solve → solve/order, solve/pattern → solve/engine →
// formulations, lp, solver); no package is called pipeline. Only plotting
// and the command import gonum/plot; the packages that compute (problem,
// schedule, platform, the LP side, the kernel and the models) depend on it
// through nothing.
//
// Sources: no error string outside cmd/ has command-line flag syntax; the
// command stays thin (no LP, formulation, solver, topology or kernel
// import; no function over 60 lines); no function of non-test code is over
// 80 lines, but an explicit, shrinking list in packages being rewritten;
// no type alias gives a type a second name.
package layout
