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
    if ! go test -run '^$' -fuzz "^${fn}\$" -fuzztime "$t" "$pkg" >/tmp/fuzz-$$.log 2>&1; then
      # Go 1.26's fuzzing coordinator can report the end of -fuzztime as a
      # failure, "context deadline exceeded" with no failing input
      # (golang/go#75804, fixed in Go 1.27). A real finding always writes
      # its input ("Failing input written to ..."); anything else fails.
      if grep -q 'context deadline exceeded' /tmp/fuzz-$$.log && ! grep -q 'Failing input written' /tmp/fuzz-$$.log &&
         ! grep -q -E 'panic:|^\s+[a-z_]+_test\.go:[0-9]+:' /tmp/fuzz-$$.log; then
        echo "fuzz: $pkg $fn: stopped by Go's -fuzztime deadline race (golang/go#75804), no failing input: not a finding"
      else
        cat /tmp/fuzz-$$.log; rm -f /tmp/fuzz-$$.log; exit 1
      fi
    fi
  done
done
rm -f /tmp/fuzz-$$.log
