#!/usr/bin/env bash
# The whole tests/run.sh on a fresh clone of the current commit, twice: while stress-ng keeps one
# core busy, then while it keeps every core busy (what a shared CI runner does to the suites).
# Each run's log goes to $GROVE_UNDER_LOAD_LOGS (default: $GROVE_UNDER_LOAD_DIR/logs, that folder by
# default /tmp/grove-under-load), and one line per run (date, commit, load, result, minutes, stage
# seconds) is added to summary.txt there; the script exits non-zero when any run fails.
# GROVE_UNDER_LOAD_CORES lists the loads to run, in busy cores (default: "1 <all>"), so that one
# run can be made at a time.
# Usage: tests/under-load.sh [extra args for ctest]
# Installs stress-ng (Debian) when missing. A run takes about an hour per load on 2 cores.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! command -v stress-ng > /dev/null; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends stress-ng > /dev/null
fi
commit="$(git -C "$root" rev-parse HEAD)"
# One clone path for every run: the unity build's sources name their files by absolute path, so
# only a clone at the same path compiles from ccache (app/setup.sh uses it when installed) instead
# of from scratch, and the runs spend their time in the tests, not the compiler.
work="${GROVE_UNDER_LOAD_DIR:-${TMPDIR:-/tmp}/grove-under-load}"
logs="${GROVE_UNDER_LOAD_LOGS:-$work/logs}"
mkdir -p "$logs"
status=0
for load in ${GROVE_UNDER_LOAD_CORES:-1 $(nproc)}; do
  clone="$work/clone"
  rm -rf "$clone"
  git clone -q --no-local "$root" "$clone"
  git -C "$clone" checkout -q "$commit"
  stress-ng --cpu "$load" --cpu-method matrixprod --timeout 0 --quiet &
  stress=$!
  start=$(date +%s)
  if GROVE_BUILD_DIR="$clone/build" "$clone/tests/run.sh" "$@" > "$logs/run-load-$load.log" 2>&1; then
    result=passed
  else
    result=FAILED; status=1
  fi
  kill "$stress"; wait "$stress" 2> /dev/null || true
  minutes=$(( ($(date +%s) - start) / 60 ))
  stages="$(tail -n +2 "$clone/build/stage-times.txt" 2> /dev/null | awk '{printf "%s%s=%s", (NR > 1 ? " " : ""), $1, $2}')"
  echo "$(date -u +%Y-%m-%dT%H:%MZ) ${commit:0:7} load=$load/$(nproc) $result ${minutes}min $stages" >> "$logs/summary.txt"
  echo "grove under load: $load busy core(s): $result in $minutes min ($logs/run-load-$load.log)"
done
exit $status
