#!/usr/bin/env bash
# Every bad input through the real grove-cli, with 4 GiB of address space and 60 s each:
# it must exit 1 with its located messages: never crash, hang, run out of memory or exit 0.
set -uo pipefail
cli="$(realpath "${1:?usage: check-cli.sh GROVE_CLI}")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
failed=0
total=0
for f in *.grove.yaml; do
  total=$((total + 1))
  name="${f%.grove.yaml}"
  err=$( (ulimit -v 4194304; timeout 60 "$cli" eval "$f" -o /dev/null) 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 1 ]; then
    echo "FAIL $name: exit $rc"; failed=$((failed + 1)); continue
  fi
  if [ "$err" != "$(cat "$name.expect")" ]; then
    echo "FAIL $name: messages differ"; diff <(echo "$err") "$name.expect" | head -5; failed=$((failed + 1))
  fi
done
echo "$((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
