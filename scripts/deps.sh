#!/usr/bin/env bash
# Installs what dlsched needs to build and test when it is missing:
# Clp's development files (pkg-config clp) and the command-line LP solvers
# the cross-check tests and benchmarks compare against (clp, glpsol,
# lp_solve). Debian/Ubuntu only; elsewhere it says what to install.
set -euo pipefail

need=()
pkg-config --exists clp 2>/dev/null || need+=(coinor-libclp-dev pkg-config)
command -v clp >/dev/null 2>&1 || need+=(coinor-clp)
command -v glpsol >/dev/null 2>&1 || need+=(glpk-utils)
command -v lp_solve >/dev/null 2>&1 || need+=(lp-solve)
command -v gcc >/dev/null 2>&1 || need+=(gcc)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "deps: missing ${need[*]}; install Clp's development files (pkg-config clp must work)," >&2
  echo "deps: e.g. 'brew install clp' or your distribution's coinor-clp-devel, then re-run." >&2
  pkg-config --exists clp 2>/dev/null && exit 0
  exit 1
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "deps: need root (or sudo) to apt-get install ${need[*]}" >&2; exit 1
  fi
fi
echo "deps: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${need[@]}" >/dev/null
pkg-config --exists clp
