#!/usr/bin/env bash
# How much of a tiny LP's solve is Clp's presolve (README, Sweeps): exports
# the LP of one point of the paper's Fig. 10 (binomial NLF, p = 2, h = 10,
# D = 1e2, V = 2500, n = 5: 140 rows, 141 columns), then times Clp on it
# from scratch with presolve, as dlsched solves it, and on the model the
# presolve makes of it without presolve.
#   bash benchmarks/clp-presolve/run.sh [REPS]
set -euo pipefail
cd "$(dirname "$0")/../.."
REPS=${1:-2000}
command -v g++ >/dev/null || { echo "clp-presolve: needs g++ (apt-get install -y g++) and Clp's headers (coinor-libclp-dev)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o bin/dlsched ./cmd/dlsched
g++ -O2 -o "$tmp/presolve" benchmarks/clp-presolve/presolve.cpp $(pkg-config --cflags --libs clp)
bin/dlsched solve --topology binomial --p 2 --h 10 --S 1e-3 --C 1e-6 --A 1e-3 --D 1e2 --V 2500 \
  --stages 5 --no-prune --no-verify --export-model "$tmp/fig10.mps" >/dev/null
"$tmp/presolve" "$tmp/fig10.mps" "$REPS"
