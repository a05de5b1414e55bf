#!/usr/bin/env bash
# Compares dlsched end to end with the command-line LP solvers on the same
# star LPs (m=10, S=1e-3, C=1e-6, A=1e-3, V=5e6, D = V/n so n_min = n/10;
# the instances of BenchmarkStarSolve):
# clp (coinor-clp), glpsol (glpk-utils) and lp_solve (lp-solve; the solver
# of the paper's study). The model is the one dlsched solves, exported with
# --export-model (scaled units; the header gives T0, Cmax = T0·objective).
#
#   benchmarks/compare-solvers.sh [n ...]        default: 10 100 1000
#   TIMEOUT=600 benchmarks/compare-solvers.sh 1000
#
# Prints one line per solver and n: wall seconds, Cmax in seconds, and the
# ratio to dlsched's wall time. Needs the binaries on PATH (make deps
# installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
TIMEOUT=${TIMEOUT:-300}
ns=("$@")
[ ${#ns[@]} -eq 0 ] && ns=(10 100 1000)
make -s build >/dev/null
bin=./bin/dlsched
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$(now)" -v b="$1" 'BEGIN{printf "%.6f", a-b}'; }
calc() { awk "BEGIN{printf \"%.12g\", $1}"; }

printf "%-6s %-22s %10s %18s %8s\n" n solver seconds Cmax ratio
for n in "${ns[@]}"; do
  D=$(calc "5000000/$n")
  args=(solve --topology star --m 10 --S 1e-3 --C 1e-6 --A 1e-3 --V 5e6 --D "$D" --stages "$n")
  "$bin" "${args[@]}" --no-prune --no-verify --export-model "$tmp/star.mps" --format json --out "$tmp/warm.json"
  "$bin" "${args[@]}" --no-prune --no-verify --export-model "$tmp/star.lp" --format json --out "$tmp/warm.json"
  T0=$(sed -n 's/.*T0=\([^;]*\);.*/\1/p' "$tmp/star.mps" | head -1)

  t=$(now); "$bin" "${args[@]}" --no-prune --no-verify --format json --out "$tmp/s.json"; base=$(elapsed "$t")
  cmax=$(sed -n 's/^  "cmax": \(.*\),$/\1/p' "$tmp/s.json")
  printf "%-6s %-22s %10.3f %18.10f %8s\n" "$n" "dlsched (no prune)" "$base" "$cmax" "1.00"
  t=$(now); "$bin" "${args[@]}" --no-verify --format json --out "$tmp/p.json"; sec=$(elapsed "$t")
  cmax=$(sed -n 's/^  "cmax": \(.*\),$/\1/p' "$tmp/p.json")
  printf "%-6s %-22s %10.3f %18.10f %8.2f\n" "$n" "dlsched (pruned)" "$sec" "$cmax" "$(calc "$sec/$base")"

  run() { # name, command...; prints the objective times T0
    local name=$1; shift
    local t out obj sec
    t=$(now)
    if out=$(timeout "$TIMEOUT" "$@" 2>&1); then
      sec=$(elapsed "$t")
      obj=$(printf '%s\n' "$out" | sed -n -e 's/^Optimal objective \([^ ]*\).*/\1/p' \
        -e 's/^Value of objective function: *\([^ ]*\).*/\1/p' | head -1)
      [ -z "$obj" ] && obj=$(sed -n 's/^Objective: *obj = \([^ ]*\).*/\1/p' "$tmp/glpk.out" 2>/dev/null | head -1)
      local c="?"
      [ -n "$obj" ] && c=$(calc "$obj * $T0")
      printf "%-6s %-22s %10.3f %18.10f %8.2f\n" "$n" "$name" "$sec" "$c" "$(calc "$sec/$base")"
    else
      printf "%-6s %-22s %10s %18s %8s\n" "$n" "$name" "timeout" "-" "-"
    fi
    rm -f "$tmp/glpk.out"
  }
  command -v clp >/dev/null && run "clp -primalsimplex" clp "$tmp/star.mps" -primalsimplex
  command -v clp >/dev/null && run "clp -dualsimplex" clp "$tmp/star.mps" -dualsimplex
  command -v glpsol >/dev/null && run "glpsol --freemps" glpsol --freemps "$tmp/star.mps" -o "$tmp/glpk.out"
  command -v lp_solve >/dev/null && run "lp_solve -fmps" lp_solve -fmps "$tmp/star.mps" -S1
done
