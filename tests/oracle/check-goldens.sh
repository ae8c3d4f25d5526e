#!/usr/bin/env bash
# Regenerates the golden data from the seed JavaScript into OUTDIR and fails if it differs from
# the committed tests/golden: the goldens are the reference's output today, not a stale copy.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:?usage: check-goldens.sh OUTDIR}"
rm -rf "$out"
mkdir -p "$out"
node "$here/generate.mjs" "$out" > /dev/null
node "$here/volume.mjs" "$out" > /dev/null  # volume/: place_volume and 3D value noise
if ! diff -r "$here/../golden" "$out" > "$out.diff"; then
  echo "tests/golden differs from what the seed JavaScript gives now (see $out.diff):"
  head -40 "$out.diff"
  exit 1
fi
echo "goldens match the seed JavaScript ($(find "$out" -name expected.json | wc -l) cases)"
