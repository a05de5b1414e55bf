// Package layout holds no code: its test checks the import rules that keep
// the design honest (DESIGN.md): the simulation kernel imports no dlsched
// package; the schedule replay, the judge of the LPs, imports no LP
// formulation, solver or solve engine; the machine models under executor/
// never import each other; the LP model knows no solver and no topology;
// nothing imports the command. Its source tests check that no error
// string outside cmd/ has command-line flag syntax, and that the command
// stays thin (no LP, formulation, solver, topology or kernel import; no
// function over 60 lines).
package layout
