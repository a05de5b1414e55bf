#!/usr/bin/env bash
# How much of the figure set's CPU time is spent inside Clp (README, Sweeps
# and issue 32): runs the figure set of greedy-set.sh in one process per
# part (sweep's BenchmarkFigureSet, 2 workers, a figure at a time) with Go's
# CPU profiler, ROUNDS times, and prints for each round the wall time, the
# CPU time and the part of it inside C calls (runtime.cgocall: Clp,
# CoinUtils and what they call, the kernel's time on their behalf
# included). Half of that part is the least wall time two perfectly shared
# cores could take for the same LP work, whatever dlsched's own code costs.
#   bash benchmarks/paper/clp-share.sh [ROUNDS]
# PATTERN=greedy (the default) times the set with the paper's greedy prune
# (BenchmarkFigureSet); PATTERN=search the set as its specs say, the default
# pattern search in Figs. 10-11 (BenchmarkFigureSet's other six figures and
# BenchmarkFigureSetSearch); PATTERN=both the two in turn, each round
# ending with the search's wall time and the least wall time of its C calls
# as multiples of the greedy set's wall time.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-3}
PATTERN=${PATTERN:-greedy}
case $PATTERN in
both) PATTERNS=(greedy search) ;;
greedy | search) PATTERNS=("$PATTERN") ;;
*) echo "PATTERN=$PATTERN: want greedy, search or both" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/sweep.test" ./sweep

# bench RE PROFILE: runs the benchmarks RE selects, profiled, and appends
# their lines to $tmp/bench.txt. A test binary runs in its package's
# directory (the specs are read from there).
bench() {
  (cd sweep && "$tmp/sweep.test" -test.run '^$' -test.bench "$1" -test.benchtime 1x \
    -test.cpuprofile "$2") >>"$tmp/bench.txt"
}

# measure PATTERN: prints "wall total cgo" in seconds for one run of the set.
measure() {
  : >"$tmp/bench.txt"
  profiles=()
  if [ "$1" = greedy ]; then
    bench '^BenchmarkFigureSet$' "$tmp/cpu1.prof"
    profiles=("$tmp/cpu1.prof")
  else
    # Figs. 6-9 and 12-13 run no pattern search (their specs do not prune).
    bench '^BenchmarkFigureSet$/^fig(6|7|8|9|12|13)$' "$tmp/cpu1.prof"
    bench '^BenchmarkFigureSetSearch$' "$tmp/cpu2.prof"
    profiles=("$tmp/cpu1.prof" "$tmp/cpu2.prof")
  fi
  if ! grep -q '^BenchmarkFigureSet' "$tmp/bench.txt"; then
    echo "clp-share: the figure set did not run (is Clp installed? make deps):" >&2
    cat "$tmp/bench.txt" >&2
    exit 1
  fi
  wall=$(awk '/^BenchmarkFigureSet/{s += $3} END{printf "%.2f", s/1e9}' "$tmp/bench.txt")
  # pprof merges the profiles given together.
  go tool pprof -top -nodecount 200 "$tmp/sweep.test" "${profiles[@]}" 2>/dev/null >"$tmp/top.txt"
  # "Duration: 4.5s, Total samples = 6.71s (149%)" and the cgocall row's flat time.
  total=$(sed -n 's/.*Total samples = \([0-9.]*\)\(m*\)s.*/\1 \2/p' "$tmp/top.txt" | awk '{print ($2=="m") ? $1/1000 : $1}')
  cgo=$(awk '$NF=="runtime.cgocall"{v=$1; if (v ~ /ms$/) {sub(/ms$/, "", v); v/=1000} else sub(/s$/, "", v); print v}' "$tmp/top.txt")
  echo "$wall $total ${cgo:-0}"
}

for r in $(seq "$ROUNDS"); do
  gwall=""
  for pat in "${PATTERNS[@]}"; do
    out=$(measure "$pat")
    read -r wall total cgo <<<"$out"
    awk -v r="$r" -v p="$pat" -v w="$wall" -v t="$total" -v c="$cgo" 'BEGIN{
      printf "round %d\t%s\twall %.2f s\tCPU %.2f s\tin C calls %.2f s (%.0f%%)\thalf of it %.2f s\n", r, p, w, t, c, 100*c/t, c/2}'
    if [ "$pat" = greedy ]; then
      gwall=$wall
    elif [ -n "$gwall" ]; then
      awk -v r="$r" -v g="$gwall" -v w="$wall" -v c="$cgo" 'BEGIN{
        printf "round %d\tsearch / greedy: wall %.2fx; half of the search'"'"'s C calls alone %.2fx\n", r, w/g, c/2/g}'
    fi
  done
done
