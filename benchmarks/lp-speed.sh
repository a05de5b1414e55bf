#!/usr/bin/env bash
# LP speed at scale (issue 17): dlsched against the command-line LP solvers
# on the same instances, in one run, and a table and a log-log chart.
#
#   benchmarks/lp-speed.sh                       star n = 100 ... 10,000, trees h = 4 ... 10
#   NS="100 1000" HS="4 6" benchmarks/lp-speed.sh
#   OUT=/tmp/speed TIMEOUT=300 SLOW_MAX_N=1000 benchmarks/lp-speed.sh
#   NS="1000 3000 10000" HS=8 SLOW_MAX_N=0 BIG_MAX_N=3000 benchmarks/lp-speed.sh
#                      (README's Performance table: the default's acceptance)
#
# Star (the paper's Section 4.1 star, the instances of BenchmarkStarSolve):
# m = 10, S = 1e-3, C = 1e-6, A = 1e-3, V = 5e6, D = V/n (n_min = n/10),
# n stages, no verification:
#   dlsched --no-prune  dlsched solve --no-prune (the full n-stage LP, stage
#                       generation, certified gap <= 1e-9)
#   dlsched --no-prune, full LP   the same with --stage-generation=false
#   dlsched --pattern greedy      the paper's prune of the full pattern
#   dlsched (default)   what a user runs: the pattern search (issue 32)
#   clp -primals      clp on the plain compact LP in seconds and bytes
#                     (benchmarks/lpbench plainlp; the issue's baseline)
#   glpsol, lp_solve  the same plain LP (lp_solve reads glpsol's MPS copy of
#                     it); skipped above SLOW_MAX_N (default 1000).
#                     lp_solve stops with "Accuracy error" on this unscaled
#                     LP (the paper's "numerical instability"): "failed".
#   highs             the plain LP, if a highs binary is on PATH
#   The full LP, clp and highs take minutes at n = 10,000 (the full LP
#   216 s, clp over 400 s): they are skipped above BIG_MAX_N (default: none).
# Trees (TreeNLF-1, p = 2, h = HS, n = 100 = 2·n_min: S = 1e-3, C = 1e-6,
# A = 1e-3, D = 1e2, V = p·h·D·n/2), no verification: dlsched --no-prune,
# --pattern greedy and the default, and clp's primal and dual simplex on
# dlsched's own exported model (--export-model; scaled units, Cmax = T0 ·
# objective: the full LP, the --no-prune row's); clp's barrier too.
#
# Every time is the wall time of the whole process (reading the model
# included), measured with /usr/bin/time, which also gives the peak
# resident memory. Writes $OUT/times.tsv, $OUT/speed.md (the tables) and
# $OUT/speed.svg (the star's time against n); OUT defaults to
# benchmarks/results. Compare within one run: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
NS=${NS:-"100 300 1000 3000 10000"}
HS=${HS:-"4 6 8 10"}
TIMEOUT=${TIMEOUT:-600}
SLOW_MAX_N=${SLOW_MAX_N:-1000}
BIG_MAX_N=${BIG_MAX_N:-}
OUT=${OUT:-benchmarks/results}
mkdir -p "$OUT" bin
go build -o bin/dlsched ./cmd/dlsched
go build -o bin/lpbench ./benchmarks/lpbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tsv="$OUT/times.tsv"
printf '# case\tn\tsolver\tseconds\tpeak_kb\tcmax\n' >"$tsv"

calc() { awk "BEGIN{printf \"%.12g\", $1}"; }

# timed NAME CASE N CMAX_CMD -- COMMAND...: runs COMMAND under /usr/bin/time
# and a timeout, then CMAX_CMD (a shell snippet reading $tmp/out) for Cmax.
timed() {
  local name=$1 cas=$2 n=$3 cm=$4
  shift 5
  local sec kb cmax
  local rc=0
  timeout "$TIMEOUT" /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$tmp/out" 2>&1 || rc=$?
  if [ "$rc" -eq 0 ]; then
    read -r sec kb <"$tmp/time"
    cmax=$(eval "$cm" || true)
  elif [ "$rc" -eq 124 ]; then
    sec=timeout kb=0 cmax=-
  else
    sec=failed kb=0 cmax="exit status $rc"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$cas" "$n" "$name" "$sec" "$kb" "${cmax:-?}" | tee -a "$tsv"
}

star="star m=10"
for n in $NS; do
  D=$(calc "5e6/$n")
  args=(solve --topology star --m 10 --S 1e-3 --C 1e-6 --A 1e-3 --V 5e6 --D "$D" --stages "$n" --no-verify --format json)
  jcmax='sed -n "s/^  \"cmax\": \(.*\),$/\1/p" "$tmp/s.json"'
  timed "dlsched --no-prune" "$star" "$n" "$jcmax" -- bin/dlsched "${args[@]}" --no-prune --out "$tmp/s.json"
  big=1
  [ -n "$BIG_MAX_N" ] && [ "$n" -gt "$BIG_MAX_N" ] && big=0
  if [ "$big" = 1 ]; then
    timed "dlsched --no-prune, full LP" "$star" "$n" "$jcmax" -- bin/dlsched "${args[@]}" --no-prune --stage-generation=false --out "$tmp/s.json"
  fi
  timed "dlsched --pattern greedy" "$star" "$n" "$jcmax" -- bin/dlsched "${args[@]}" --pattern greedy --out "$tmp/s.json"
  timed "dlsched (default)" "$star" "$n" "$jcmax" -- bin/dlsched "${args[@]}" --out "$tmp/s.json"
  [ "$big" = 1 ] || continue
  bin/lpbench plainlp -m 10 -n "$n" -S 1e-3 -C 1e-6 -A 1e-3 -V 5e6 -D "$D" >"$tmp/plain.lp"
  timed "clp -primals" "$star" "$n" 'sed -n "s/^Optimal objective \([^ ]*\).*/\1/p" "$tmp/out"' -- clp "$tmp/plain.lp" -primals
  if command -v highs >/dev/null; then
    timed highs "$star" "$n" 'sed -n "s/^Objective value *: *\([^ ]*\).*/\1/p" "$tmp/out" | head -1' -- highs --model_file "$tmp/plain.lp"
  fi
  if [ "$n" -le "$SLOW_MAX_N" ]; then
    if command -v glpsol >/dev/null; then
      timed glpsol "$star" "$n" 'sed -n "s/^Objective: *obj = \([^ ]*\).*/\1/p" "$tmp/glpk.out"' -- glpsol --lp "$tmp/plain.lp" -o "$tmp/glpk.out"
    fi
    if command -v lp_solve >/dev/null && command -v glpsol >/dev/null; then
      glpsol --lp "$tmp/plain.lp" --check --wfreemps "$tmp/plain.mps" >/dev/null
      timed lp_solve "$star" "$n" 'sed -n "s/^Value of objective function: *\([^ ]*\).*/\1/p" "$tmp/out"' -- lp_solve -fmps "$tmp/plain.mps" -S1
    fi
  fi
done

for h in $HS; do
  n=100
  V=$(calc "2*$h*1e2*$n/2")
  cas="tree p=2 NLF-1 n=100"
  args=(solve --topology tree --order nlf --buffers 1 --p 2 --h "$h" --S 1e-3 --C 1e-6 --A 1e-3 --D 1e2 --V "$V" --stages "$n" --no-verify --format json)
  bin/dlsched "${args[@]}" --no-prune --export-model "$tmp/tree.mps" --out "$tmp/s.json"
  T0=$(sed -n 's/.*T0=\([^;]*\);.*/\1/p' "$tmp/tree.mps" | head -1)
  jcmax='sed -n "s/^  \"cmax\": \(.*\),$/\1/p" "$tmp/s.json"'
  ccmax='o=$(sed -n "s/^Optimal objective \([^ ]*\).*/\1/p" "$tmp/out"); calc "$o*$T0"'
  timed "dlsched --no-prune" "$cas" "$h" "$jcmax" -- bin/dlsched "${args[@]}" --no-prune --out "$tmp/s.json"
  timed "dlsched --pattern greedy" "$cas" "$h" "$jcmax" -- bin/dlsched "${args[@]}" --pattern greedy --out "$tmp/s.json"
  timed "dlsched (default)" "$cas" "$h" "$jcmax" -- bin/dlsched "${args[@]}" --out "$tmp/s.json"
  timed "clp -primals (dlsched's model)" "$cas" "$h" "$ccmax" -- clp "$tmp/tree.mps" -primals
  timed "clp -dualsimplex (dlsched's model)" "$cas" "$h" "$ccmax" -- clp "$tmp/tree.mps" -dualsimplex
  timed "clp -barrier (dlsched's model)" "$cas" "$h" "$ccmax" -- clp "$tmp/tree.mps" -barrier
done

bin/lpbench report -in "$tsv" -table "$OUT/speed.md" -plot "$OUT/speed.svg" \
  -note "m = 10, S = 1e-3 s, C = 1e-6 s/unit, A = 1e-3 s/unit, V = 5e6, D = V/n; wall time of the process"
echo "wrote $tsv, $OUT/speed.md, $OUT/speed.svg"
