#!/usr/bin/env bash
# Runs the sweeps of the paper's Figures 6-13 (benchmarks/paper/fig*.toml)
# and renders the plots: bash benchmarks/paper/figures.sh [BIN] [OUTDIR].
# Sweeps resume: rows already in OUTDIR/figN.jsonl are not solved again
# (delete OUTDIR to time a full run). Prints the wall time and the number
# of LPs solved per second.
set -euo pipefail
BIN=${1:-bin/dlsched}
OUT=${2:-results/figures}
EXT=${FIGEXT:-png}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"

pre=$( { cat "$OUT"/fig{6,7,8,9,10,11,12,13}.jsonl 2>/dev/null || true; } | wc -l)
start=$(date +%s.%N)
for n in 6 7 8 9 10 11 12 13; do
  "$BIN" sweep "$HERE/fig$n.toml" --out "$OUT/fig$n.jsonl"
done
end=$(date +%s.%N)

# Fig. 6 is one schedule: its chunk sizes per processor and stage.
"$BIN" solve --topology star --m 10 --A 1e-3 --C 1e-6 --D 1e4 --S 1e-3 --V 5e3 \
  --stages 4 --no-prune --format json --out "$OUT/fig6-schedule.json"

# Totals over every row of the sweeps (also rows of earlier runs).
awk -v wall="$(echo "$end - $start" | bc)" '
  { points++ }
  /"status":"optimal"/ { solved++ }
  match($0, /"lps":[0-9]+/) { lps += substr($0, RSTART + 6, RLENGTH - 6) }
  match($0, /"seconds":[0-9.e+-]+/) { cpu += substr($0, RSTART + 10, RLENGTH - 10) }
  END {
    printf "figures: %d points, %d solved to optimality (%d LP solves incl. prune rounds and polish)\n", points, solved, lps
    printf "figures: sweep wall time %.1f s (point time summed over workers %.1f s): %.1f solved points/s, %.1f LP solves/s\n", wall, cpu, solved / wall, lps / wall
  }' "$OUT"/fig{6,7,8,9,10,11,12,13}.jsonl
if [ "$pre" -gt 0 ]; then
  echo "figures: $pre rows were solved by an earlier run (resumed), so the rates above are not a timing; remove $OUT for one"
fi

P() { "$BIN" plot "$@"; }
P "$OUT/fig6-schedule.json" --x processor --y load --series stage --logy \
  --title "Fig. 6: chunk sizes, star m=10, D=1e4, V=5e3, n=4" --out "$OUT/fig6.$EXT"
P "$OUT/fig6.jsonl" --x stages_built --y cmax --title "Fig. 6 instance: Cmax vs n" --out "$OUT/fig6-cmax.$EXT"
P "$OUT/fig7.jsonl" --x V --y cmax --series m,D --ref lb_trivial --logx --logy \
  --title "Fig. 7: star m=10, Cmax vs V at n_min" --out "$OUT/fig7.$EXT"
P "$OUT/fig8.jsonl" --x V --y cmax --series D --minus D=100 --logx --logy \
  --title "Fig. 8: star m=10, Cmax(D) - Cmax(D=1e2) at n_min" --out "$OUT/fig8.$EXT"
P "$OUT/fig9.jsonl" --where label=a --x stages_built --y cmax --series D/V \
  --title "Fig. 9a: star, V=1e7, A=1e-4, C=1e-4, S=1e-1 (empty messages kept)" --out "$OUT/fig9a.$EXT"
P "$OUT/fig9.jsonl" --where label=b --x stages_built --y cmax --series D/V \
  --title "Fig. 9b: star, V=1e7, A=1e-3, C=1e-4, S=1e-2 (empty messages kept)" --out "$OUT/fig9b.$EXT"
P "$OUT/fig10.jsonl" --x V --y cmax --series label --agg min --ref lb_layer \
  --title "Fig. 10: binomial NLF p=2 h=10, D=1e2, small loads" --out "$OUT/fig10.$EXT"
P "$OUT/fig11.jsonl" --x V --y cmax --series h,D --ref lb_layer --logx --logy \
  --title "Fig. 11: binomial LLF p=2 h=10, Cmax vs V at n_min" --out "$OUT/fig11.$EXT"
P "$OUT/fig12.jsonl" --where label=a --x V --y cmax --series topology,order --logx --logy \
  --title "Fig. 12a: binomial h=5 vs tree h=7 (1 buffer), D=1e4" --out "$OUT/fig12a.$EXT"
P "$OUT/fig12.jsonl" --where label=b --x V --y cmax --series topology,order --logx --logy \
  --title "Fig. 12b: binomial h=5 vs tree h=7 (2 buffers), D=1" --out "$OUT/fig12b.$EXT"
P "$OUT/fig13.jsonl" --where label=a --x V --y cmax --series D --minus order=nlf --logx --logy \
  --title "Fig. 13a: binomial, Cmax(LLF) - Cmax(NLF)" --out "$OUT/fig13a.$EXT"
P "$OUT/fig13.jsonl" --where label=b --x V --y cmax --series D --minus buffers=2 --logx --logy \
  --title "Fig. 13b: tree LLF, Cmax(1 buffer) - Cmax(2 buffers)" --out "$OUT/fig13b.$EXT"
echo "figures: plots in $OUT"
