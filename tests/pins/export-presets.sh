#!/usr/bin/env bash
# Exports every shipped preset in every grove-cli format into OUTDIR, one file per preset and
# format (NAME.FORMAT), with the grove-cli given. An endless world exports a fixed region. Then
# grove-cli check's spectrum of the check graphs' layers (tests/check): its report, the figures
# `expect:` compares (check-GRAPH-LAYER.txt, the picture's path left out), and its picture (.png).
# GROVE_SIMD, if set, passes through (core/sampling/SimdPath.h). Usage: export-presets.sh GROVE_CLI OUTDIR
set -euo pipefail
cli="$1" out="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
formats=(json csv tiled gltf godot unreal unreal-json)
mkdir -p "$out"
out="$(cd "$out" && pwd)"  # absolute: the checks below run from the repository's root
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

cli_path="$(command -v -- "$cli" || true)"
case "$cli_path" in /*) ;; *) cli_path="$PWD/$cli" ;; esac
for c in blue_white:random blue_white:jittered blue_white:bridson grid:grid; do
  graph="${c%%:*}" layer="${c#*:}" dest="$out/check-${c/:/-}"
  if ! (cd "$root" && "$cli_path" check "tests/check/$graph.grove.yaml" --spectrum "$layer=$dest.png" > "$dest.log" 2>&1); then
    echo "export-presets: check of $graph's $layer failed:" >&2; cat "$dest.log" >&2; exit 1
  fi
  sed 's/ -> .*//' "$dest.log" > "$dest.txt"
  rm -f "$dest.log"
done
