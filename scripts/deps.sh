#!/usr/bin/env bash
# Installs what dlsched needs when it is missing.
#
#   deps.sh build   Clp and Cbc development files (pkg-config clp, cbc), pkg-config and
#                   gcc: all that building and running need (make build, demo).
#   deps.sh test    the same, then, best effort, the command-line LP solvers
#                   that cross-check tests and benchmarks compare against
#                   (clp, glpsol, lp_solve); tests that need one skip with a
#                   message when it is absent.
#
# Debian/Ubuntu only (apt-get update, then apt-get install); elsewhere it
# says what to install.
set -euo pipefail

mode=${1:-build}
need=()
pkg-config --exists clp 2>/dev/null || need+=(coinor-libclp-dev pkg-config)
pkg-config --exists cbc 2>/dev/null || need+=(coinor-libcbc-dev pkg-config)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
optional=()
if [ "$mode" = test ]; then
  command -v clp >/dev/null 2>&1 || optional+=(coinor-clp)
  command -v glpsol >/dev/null 2>&1 || optional+=(glpk-utils)
  command -v lp_solve >/dev/null 2>&1 || optional+=(lp-solve)
fi

if [ ${#need[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  if [ ${#need[@]} -gt 0 ]; then
    echo "deps: missing ${need[*]}; install Clp's and Cbc's development files (pkg-config clp cbc must work)," >&2
    echo "deps: e.g. 'brew install clp' or your distribution's coinor-clp-devel, then re-run." >&2
    exit 1
  fi
  exit 0 # only optional solvers are missing: their tests skip
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    if [ ${#need[@]} -gt 0 ]; then
      echo "deps: need root (or sudo) to apt-get install ${need[*]}" >&2; exit 1
    fi
    exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq || true
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: installing ${need[*]}" >&2
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
  pkg-config --exists clp
fi
if [ ${#optional[@]} -gt 0 ]; then
  echo "deps: installing the optional solvers ${optional[*]} (best effort)" >&2
  $sudo apt-get install -y -qq "${optional[@]}" >/dev/null 2>&1 ||
    echo "deps: could not install ${optional[*]}; the tests that use them will skip" >&2
fi
