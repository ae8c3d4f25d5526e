#!/usr/bin/env bash
# The same bytes from every build: every preset exported in every format by the reference
# grove-cli (the main g++ -O2 build) and by each other one given (Clang, g++ -O0, a cross build
# under qemu), compared file by file. Exit 77 (a skip) when no other build is given.
#   compare-builds.sh REFERENCE_CLI [OTHER_CLI...]
# Without OTHER_CLI: $GROVE_CLANG_CLI and $GROVE_O0_CLI, which tests/run.sh builds and exports.
set -euo pipefail
ref="$1"; shift
others=()
[ $# -gt 0 ] || set -- "${GROVE_CLANG_CLI:-}" "${GROVE_O0_CLI:-}"
for c in "$@"; do [ -n "$c" ] && others+=("$c"); done
if [ ${#others[@]} -eq 0 ]; then
  echo "compare-builds: no other grove-cli given (tests/run.sh sets GROVE_CLANG_CLI and GROVE_O0_CLI)"; exit 77
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
"$here/export-presets.sh" "$ref" "$tmp/ref"
failed=0
for i in "${!others[@]}"; do
  cli="${others[$i]}"
  start=$SECONDS
  "$here/export-presets.sh" "$cli" "$tmp/other$i"
  if diff -rq "$tmp/ref" "$tmp/other$i" > "$tmp/diff$i"; then
    echo "compare-builds: $cli: all $(ls "$tmp/ref" | wc -l) exports byte-identical ($((SECONDS - start)) s)"
  else
    echo "compare-builds: $cli differs from $ref:"; cat "$tmp/diff$i"; failed=1
  fi
done
exit $failed
