#!/usr/bin/env bash
# Every bad input through the real grove-cli, with 4 GiB of memory and 60 s each: it must exit 1
# with its located messages: never crash, hang, run out of memory or exit 0.
set -uo pipefail
cli="$(realpath "${1:?usage: check-cli.sh GROVE_CLI}")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
# An AddressSanitizer build reserves terabytes of address space, so ulimit -v would stop it at
# startup: there the sanitizer itself aborts the run past 4 GiB of resident memory instead.
if ldd "$cli" 2>/dev/null | grep -q libasan || grep -qa __asan_init "$cli"; then
  run_limited() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=4096" timeout 60 "$@"; }
else
  run_limited() { (ulimit -v 4194304; timeout 60 "$@"); }
fi
# AddressSanitizer reserves terabytes of address space for its shadow: no address-space limit
# for a sanitized binary (the sanitizer itself catches runaway allocations there).
vmem=4194304
if ldd "$cli" 2>/dev/null | grep -q libasan; then vmem=unlimited; fi
failed=0
total=0
for f in *.grove.yaml; do
  total=$((total + 1))
  name="${f%.grove.yaml}"
  err=$(run_limited "$cli" eval "$f" -o /dev/null 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 1 ]; then
    echo "FAIL $name: exit $rc"; failed=$((failed + 1)); continue
  fi
  if [ "$err" != "$(cat "$name.expect")" ]; then
    echo "FAIL $name: messages differ"; diff <(echo "$err") "$name.expect" | head -5; failed=$((failed + 1))
  fi
done
# Bad flags and bad shard parts (cli/NAME.args: the exit status, then one argument a line, OUT
# standing for the output file): the status, exactly the messages in cli/NAME.expect, nothing written.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for a in cli/*.args; do
  total=$((total + 1))
  name="${a%.args}"
  mapfile -t lines < "$a"
  want="${lines[0]}"
  args=()
  for x in "${lines[@]:1}"; do args+=("${x/#OUT/$scratch/out.json}"); done
  err=$(run_limited "$cli" "${args[@]}" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $name: exit $rc, not $want"; failed=$((failed + 1)); continue
  fi
  if [ "$err" != "$(cat "$name.expect")" ]; then
    echo "FAIL $name: messages differ"; diff <(echo "$err") "$name.expect" | head -5; failed=$((failed + 1))
  fi
  if [ -n "$(ls -A "$scratch")" ]; then
    echo "FAIL $name: wrote $(ls -A "$scratch")"; failed=$((failed + 1)); rm -rf "${scratch:?}"/* "$scratch"/.[!.]*
  fi
done
echo "$((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
