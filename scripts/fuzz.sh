#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME each (default 60s):
#   scripts/fuzz.sh [FUZZTIME]
# `make test` runs them briefly (3s each), `make fuzz` for a minute each.
# A crash leaves its input under the package's testdata/fuzz/ — commit it:
# it then runs as a regression test in every `go test`.
set -euo pipefail
t=${1:-60s}
cd "$(dirname "$0")/.."
grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r f; do
  pkg=./$(dirname "${f#./}")
  for fn in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
    echo "fuzz: $pkg $fn ($t)"
    go test -run '^$' -fuzz "^${fn}\$" -fuzztime "$t" "$pkg" >/tmp/fuzz-$$.log 2>&1 || { cat /tmp/fuzz-$$.log; rm -f /tmp/fuzz-$$.log; exit 1; }
  done
done
rm -f /tmp/fuzz-$$.log
