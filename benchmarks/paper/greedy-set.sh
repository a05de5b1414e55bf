#!/usr/bin/env bash
# Times the paper's figure set as issue 17 counts it: the eight figure
# specs with the paper's greedy prune (run.pattern = "greedy"), Figs. 12-13
# capped at 15 stages, no verification, 2 workers — 3,255 LPs solved and
# certified. With several binaries it runs them in turn, ROUNDS times, so
# that their ratio is measured in one run on a shared machine:
#   bash benchmarks/paper/greedy-set.sh [ROUNDS] [BIN ...]
set -euo pipefail
ROUNDS=${1:-3}
shift || true
BINS=("$@")
[ ${#BINS[@]} -eq 0 ] && BINS=(bin/dlsched)
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for n in 6 7 8 9 10 11 12 13; do
  f="$HERE/fig$n.toml"
  if grep -q '^pattern' "$f"; then
    sed 's/^pattern *=.*/pattern = "greedy"/' "$f"
  else
    sed 's/^\[run\]/[run]\npattern = "greedy"/' "$f"
  fi >"$TMP/fig$n.toml"
done
for r in $(seq "$ROUNDS"); do
  for b in "${BINS[@]}"; do
    rm -f "$TMP"/*.jsonl
    start=$(date +%s.%N)
    for n in 6 7 8 9 10 11 12 13; do
      cap=()
      [ "$n" -ge 12 ] && cap=(--max-stages 15)
      "$b" sweep "$TMP/fig$n.toml" --out "$TMP/fig$n.jsonl" --no-verify --workers 2 --quiet "${cap[@]}"
    done
    end=$(date +%s.%N)
    solved=$(cat "$TMP"/fig*.jsonl | grep -c '"status":"optimal"')
    printf '%s\tround %d\t%d LPs solved\t%.2f s\n' "$b" "$r" "$solved" "$(echo "$end - $start" | bc)"
  done
done
