// presolve.cpp times Clp on one MPS model two ways, to show how much of a
// tiny LP's solve is Clp's presolve (README, Sweeps): the full model from
// scratch as dlsched's binding solves it (initialSolve: presolve, primal
// simplex, postsolve), and the model Clp's presolve makes of it, solved by
// the primal simplex alone. Each is a fresh ClpSimplex per solve, as in
// the binding. Built and run by run.sh.
#include <coin/ClpPresolve.hpp>
#include <coin/ClpSimplex.hpp>
#include <coin/ClpSolve.hpp>
#include <cstdio>
#include <cstdlib>
#include <ctime>

static double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// timeSolves solves copies of m reps times; presolve says whether Clp
// presolves each. It prints microseconds and iterations per solve.
static void timeSolves(const char *what, const ClpSimplex &m, int reps, bool presolve) {
  double t0 = now(), obj = 0;
  long iters = 0;
  for (int r = 0; r < reps; r++) {
    ClpSimplex s(m);
    s.setLogLevel(0);
    ClpSolve opt;
    opt.setSolveType(ClpSolve::usePrimal);
    opt.setPresolveType(presolve ? ClpSolve::presolveOn : ClpSolve::presolveOff);
    s.initialSolve(opt);
    iters += s.numberIterations();
    obj = s.objectiveValue();
  }
  printf("%-34s %4d rows %4d columns: %7.1f us per solve, %5.1f iterations, objective %.12g\n", what,
         m.numberRows(), m.numberColumns(), 1e6 * (now() - t0) / reps, double(iters) / reps, obj);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: presolve MODEL.mps REPS\n");
    return 2;
  }
  int reps = atoi(argv[2]);
  ClpSimplex m;
  m.setLogLevel(0);
  if (m.readMps(argv[1], true, false) != 0) {
    fprintf(stderr, "presolve: cannot read %s\n", argv[1]);
    return 1;
  }
  timeSolves("full model, presolve + primal", m, reps, true);
  ClpPresolve pre;
  ClpSimplex *small = pre.presolvedModel(m, 1e-8, false, 5);
  if (small == nullptr) {
    fprintf(stderr, "presolve: the presolve found the model infeasible\n");
    return 1;
  }
  timeSolves("presolved model, primal alone", *small, reps, false);
  delete small;
  return 0;
}
