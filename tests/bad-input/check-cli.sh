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
# Hostile inputs too large to keep in the repository, made here: the status and exactly the
# located message (the folder left out), within the same memory limit, which reading a whole
# export or building a whole YAML tree first would not fit in.
made="$(mktemp -d)"
trap 'rm -rf "$scratch" "$made"' EXIT
check_made() {  # NAME WANT_STATUS STATUS MESSAGES
  total=$((total + 1))
  if [ "$3" -ne "$2" ]; then
    echo "FAIL $1: exit $3, not $2"; failed=$((failed + 1)); return
  fi
  if [ "${4//$made\//}" != "$(cat "made/$1.expect")" ]; then
    echo "FAIL $1: messages differ"; diff <(echo "${4//$made\//}") "made/$1.expect" | head -5; failed=$((failed + 1))
  fi
}
# a 3 GiB export (sparse: NUL bytes) that stops being JSON at byte 39
printf '{"format": "grove.points", "layers": [' > "$made/bad_from_byte_39.json"
truncate -s 3G "$made/bad_from_byte_39.json"
err=$(run_limited "$cli" diff "$made/bad_from_byte_39.json" cli/diff/old.json 2>&1 >/dev/null)
check_made diff_bad_from_byte_39 2 $? "$err"
# an endless stream of '{' through a pipe
err=$(yes '{' | tr -d '\n' | run_limited "$cli" diff /dev/stdin cli/diff/old.json 2>&1 >/dev/null; exit "${PIPESTATUS[2]}")
check_made diff_endless_braces 2 $? "$err"
# a graph whose layout is one flow list of 16 million values (32 MB)
{ printf 'grove: 1\nworld: {width: 10, height: 10}\nlayout: ['; yes '0,' | head -n 16000000 | tr -d '\n'; printf '0]\n'; } \
  > "$made/flow_list_bomb.grove.yaml"
err=$(run_limited "$cli" eval "$made/flow_list_bomb.grove.yaml" -o /dev/null 2>&1 >/dev/null)
check_made flow_list_bomb 1 $? "$err"
# a graph of a million pins, one a line (19 MB, no alias)
{ printf 'grove: 1\nworld: {width: 100, height: 100}\nnodes:\n  trees:\n    type: place_layer\n    params:\n      radius: 1\n      pins:\n'
  yes '        - {x: 1, y: 1}' | head -n 1000000; } > "$made/million_pins.grove.yaml"
err=$(run_limited "$cli" eval "$made/million_pins.grove.yaml" -o /dev/null 2>&1 >/dev/null)
check_made million_pins 1 $? "$err"
echo "$((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
