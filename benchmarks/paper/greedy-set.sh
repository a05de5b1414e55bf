#!/usr/bin/env bash
# Times the paper's figure set as issue 17 counts it: the eight figure
# specs with the paper's greedy prune (run.pattern = "greedy"), Figs. 12-13
# capped at 15 stages, no verification, 2 workers — 3,255 LPs solved and
# certified. With several binaries it runs them in turn, ROUNDS times, so
# that their ratio is measured in one run on a shared machine:
#   bash benchmarks/paper/greedy-set.sh [ROUNDS] [BIN ...]
# PATTERN=search times the specs' own pattern instead (the default search
# in Figs. 10-11; issue 32), PATTERN=both the two in turn. Each line gives
# the wall time and the user CPU time of the sweeps (CPU is steadier on a
# shared machine). KEEP=DIR keeps each run's rows, without timings
# (--no-timings), in DIR/<pattern>/<binary's index>/figN.jsonl, so that the
# binaries' answers can be compared row by row (rows sorted).
set -euo pipefail
ROUNDS=${1:-3}
shift || true
BINS=("$@")
[ ${#BINS[@]} -eq 0 ] && BINS=(bin/dlsched)
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PATTERN=${PATTERN:-greedy}
KEEP=${KEEP:-}
nt=()
[ -n "$KEEP" ] && nt=(--no-timings)
case $PATTERN in
both) PATTERNS=(greedy search) ;;
greedy | search) PATTERNS=("$PATTERN") ;;
*) echo "PATTERN=$PATTERN: want greedy, search or both" >&2; exit 2 ;;
esac
mkdir -p "$TMP/greedy" "$TMP/search"
for n in 6 7 8 9 10 11 12 13; do
  f="$HERE/fig$n.toml"
  cp "$f" "$TMP/search/fig$n.toml"
  if grep -q '^pattern' "$f"; then
    sed 's/^pattern *=.*/pattern = "greedy"/' "$f"
  else
    sed 's/^\[run\]/[run]\npattern = "greedy"/' "$f"
  fi >"$TMP/greedy/fig$n.toml"
done
for r in $(seq "$ROUNDS"); do
  for pat in "${PATTERNS[@]}"; do
    for i in "${!BINS[@]}"; do
      b=${BINS[$i]}
      rm -f "$TMP"/*.jsonl
      start=$(date +%s.%N)
      cpu0=$(awk '{print $16+$17}' /proc/$$/stat)
      for n in 6 7 8 9 10 11 12 13; do
        cap=()
        [ "$n" -ge 12 ] && cap=(--max-stages 15)
        "$b" sweep "$TMP/$pat/fig$n.toml" --out "$TMP/fig$n.jsonl" --no-verify --workers 2 --quiet "${cap[@]}" "${nt[@]}"
      done
      end=$(date +%s.%N)
      cpu=$(awk -v c0="$cpu0" -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($16+$17-c0)/hz}' /proc/$$/stat)
      solved=$(cat "$TMP"/fig*.jsonl | grep -c '"status":"optimal"')
      if [ -n "$KEEP" ]; then
        mkdir -p "$KEEP/$pat/$i"
        cp "$TMP"/fig*.jsonl "$KEEP/$pat/$i/"
      fi
      printf '%s\t%s\tround %d\t%d LPs solved\t%.2f s\t%s s CPU\n' "$b" "$pat" "$r" "$solved" "$(echo "$end - $start" | bc)" "$cpu"
    done
  done
done
