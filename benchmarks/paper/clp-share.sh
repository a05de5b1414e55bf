#!/usr/bin/env bash
# How much of the figure set's CPU time is spent inside Clp (README, Sweeps):
# runs the figure set of greedy-set.sh in one process (sweep's
# BenchmarkFigureSet, 2 workers, a figure at a time) with Go's CPU profiler,
# ROUNDS times, and prints for each round the wall time, the CPU time and
# the part of it inside C calls (runtime.cgocall: Clp, CoinUtils and what
# they call, the kernel's time on their behalf included). Half of that part
# is the least wall time two perfectly shared cores could take for the same
# LP work, whatever dlsched's own code costs.
#   bash benchmarks/paper/clp-share.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/sweep.test" ./sweep
for r in $(seq "$ROUNDS"); do
  # A test binary runs in its package's directory (the specs are read from there).
  (cd sweep && "$tmp/sweep.test" -test.run '^$' -test.bench FigureSet -test.benchtime 1x \
    -test.cpuprofile "$tmp/cpu.prof") >"$tmp/bench.txt"
  if ! grep -q '^BenchmarkFigureSet/' "$tmp/bench.txt"; then
    echo "clp-share: the figure set did not run (is Clp installed? make deps):" >&2
    cat "$tmp/bench.txt" >&2
    exit 1
  fi
  wall=$(awk '/^BenchmarkFigureSet/{s += $3} END{printf "%.2f", s/1e9}' "$tmp/bench.txt")
  go tool pprof -top -nodecount 200 "$tmp/sweep.test" "$tmp/cpu.prof" 2>/dev/null >"$tmp/top.txt"
  # "Duration: 4.5s, Total samples = 6.71s (149%)" and the cgocall row's flat time.
  total=$(sed -n 's/.*Total samples = \([0-9.]*\)\(m*\)s.*/\1 \2/p' "$tmp/top.txt" | awk '{print ($2=="m") ? $1/1000 : $1}')
  cgo=$(awk '$NF=="runtime.cgocall"{v=$1; if (v ~ /ms$/) {sub(/ms$/, "", v); v/=1000} else sub(/s$/, "", v); print v}' "$tmp/top.txt")
  awk -v r="$r" -v w="$wall" -v t="$total" -v c="${cgo:-0}" 'BEGIN{
    printf "round %d\twall %.2f s\tCPU %.2f s\tin C calls %.2f s (%.0f%%)\thalf of it %.2f s\n", r, w, t, c, 100*c/t, c/2}'
done
