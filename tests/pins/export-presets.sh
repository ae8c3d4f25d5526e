#!/usr/bin/env bash
# Exports every shipped preset in every grove-cli format into OUTDIR, one file per preset and
# format (NAME.FORMAT), with the grove-cli given. An endless world exports a fixed region.
# GROVE_SIMD, if set, passes through (core/sampling/SimdPath.h). Usage: export-presets.sh GROVE_CLI OUTDIR
set -euo pipefail
cli="$1" out="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
formats=(json csv tiled gltf godot unreal unreal-json)
mkdir -p "$out"
jobs=()
for graph in "$root"/presets/*.grove.yaml; do
  name="$(basename "$graph" .grove.yaml)"
  region=()
  # no width: an endless world, exported over the same rectangle every time
  if ! grep -qE '^  width:' "$graph"; then region=(--region -512,-512,512,512); fi
  for f in "${formats[@]}"; do
    jobs+=("$graph|$f|$out/$name.$f|${region[*]:-}")
  done
done
run() {
  IFS='|' read -r graph f dest region <<< "$1"
  # shellcheck disable=SC2086  # the region is one word or none
  if ! "$cli" eval "$graph" --format "$f" -o "$dest" --quiet $region 2> "$dest.err"; then
    echo "export-presets: $(basename "$graph") --format $f failed:" >&2; cat "$dest.err" >&2; return 1
  fi
  rm -f "$dest.err"
}
export -f run
export cli
printf '%s\n' "${jobs[@]}" | xargs -d '\n' -P "$(nproc)" -I{} bash -c 'run "$@"' _ {}
