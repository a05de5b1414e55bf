// Package layout holds no code: its test checks the import rules that keep
// the design honest (DESIGN.md): the simulation kernel imports no dlsched
// package; the schedule replay, the judge of the LPs, imports no LP
// formulation, solver or solve engine; the machine models under executor/
// never import each other; the LP model knows no solver and no topology;
// nothing imports the command.
package layout
