#!/usr/bin/env bash
# check-vector-exits.py names the exit that leaves vector code with the upper halves in use
# (dirty.s, assembled here) and only that one: the function that clears them first is not named.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
py="${PYTHON:-python3}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
"${CC:-cc}" -c "$here/dirty.s" -o "$tmp/dirty.o"
set +e; "$py" "$here/check-vector-exits.py" "$tmp/dirty.o" > "$tmp/out"; rc=$?; set -e
cat "$tmp/out"
[ "$rc" = 1 ] || { echo "FAIL: exit $rc, expected 1"; exit 1; }
grep -q ': vector_then_scalar: jmp' "$tmp/out" || { echo "FAIL: the jump out of vector_then_scalar is not named"; exit 1; }
if grep -q 'vector_cleared' "$tmp/out"; then echo "FAIL: vector_cleared clears the upper halves first"; exit 1; fi
echo "vector exits: the dirty jump is named, the cleared one is not"
