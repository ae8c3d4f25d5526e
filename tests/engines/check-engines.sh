#!/usr/bin/env bash
# Engine exports against readers Grove did not write: every preset, plus a graph with types,
# rotations, scales, a quoted layer name, an empty layer, tags and attributes (one layer with five,
# over Godot's four), an endless world by region (its oaks with a moisture, filtered), exported as glTF, Godot, Unreal
# (CSV and JSON), Tiled and grove.points JSON; then the Khronos glTF-Validator and glTF-Transform
# (check_gltf.mjs), Tiled itself (`tiled --export-map` re-writes each map as .tmx), and Python's
# csv/json/xml readers (check_exports.py) hold each to the JSON export.
# usage: check-engines.sh GROVE_CLI
set -euo pipefail
cli="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [ ! -d "$here/node_modules/gltf-validator" ]; then
  echo "check-engines: $here/node_modules is missing: run 'npm ci --prefix $here' (tests/run.sh does)" >&2
  exit 1
fi
command -v tiled > /dev/null || { echo "check-engines: tiled is not installed (apt-get install tiled; tests/run.sh does)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/varied.grove.yaml" <<'YAML'
grove: 1
world: {width: 300, height: 200, seed: 7}
nodes:
  big:
    type: place_layer
    params:
      radius: 24
      name: "big, \"quoted\" rocks"
      types: [{name: granite, weight: 2}, {name: "slate, dark", weight: 1}]
      rotation: [-180, 180]
      scale: [0.5, 2]
      tags: [solid, stone-2]
  terrain:
    type: value_noise
    params: {frequency: 0.01}
  small:
    type: place_layer
    inputs: {obstacles: big.all, height: terrain}
    params: {radius: 9, seed: 3, rotation: [0, 90], scale: [1, 1.25], height_scale: 40}
  none:
    type: place_layer
    inputs: {obstacles: small.all}
    params: {radius: 5000, start: point, start_x: -1, start_y: -1}
  moist:
    type: value_noise
    params: {frequency: 0.03}
  wet:
    type: attribute
    inputs: {points: small, field: moist}
    params: {name: moisture}
  a1: {type: attribute, inputs: {points: big, field: moist}, params: {name: a_one}}
  a2: {type: attribute, inputs: {points: a1, field: terrain}, params: {name: a_two}}
  a3: {type: attribute, inputs: {points: a2, field: moist}, params: {name: a_three}}
  a4: {type: attribute, inputs: {points: a3, field: terrain}, params: {name: a_four}}
  a5: {type: attribute, inputs: {points: a4, field: moist}, params: {name: a_five}}
YAML
# an endless world whose oaks carry a moisture, kept where it is wet, tagged, flowers among them
cat > "$work/endless_wet.grove.yaml" <<'YAML'
grove: 1
world: {chunk: 100, seed: 5}
nodes:
  moist: {type: value_noise, params: {frequency: 0.01}}
  trees: {type: place_layer, params: {radius: 12, name: oaks, tags: [tall], types: [{name: oak, weight: 2}, {name: elm, weight: 1}], rotation: [0, 360]}}
  wet: {type: attribute, inputs: {points: trees, field: moist}, params: {name: moisture}}
  keep: {type: filter_points, inputs: {points: wet}, params: {attribute: moisture, range: [0.5, 1]}}
  flowers: {type: place_layer, inputs: {obstacles: keep.all}, params: {radius: 9, seed: 3}}
YAML
printf 'grove: 1\nworld: {width: 100, height: 100, seed: 1}\nnodes:\n  n:\n    type: value_noise\n' > "$work/nolayers.grove.yaml"
graphs=("$root"/presets/*.grove.yaml "$work/varied.grove.yaml" "$work/endless_wet.grove.yaml" "$work/nolayers.grove.yaml")
checked=0
for graph in "${graphs[@]}"; do
  # An endless world (chunk, no width or height) has no whole layer: it is exported by region,
  # one that crosses chunk borders on both sides of the origin.
  region=()
  if grep -Eq '^  chunk:|^world: \{chunk:' "$graph" && ! grep -Eq '^  width:|^world: \{.*width:' "$graph"; then
    region=(--region -230,-170.5,310,260)
  fi
  checked=$((checked + 1))
  base="$work/$(basename "$graph" .grove.yaml)"
  "$cli" eval "$graph" "${region[@]}" -o "$base.json"
  for f in gltf:glb godot:tscn unreal:unreal.csv unreal-json:unreal.json tiled:tmj csv:csv; do
    "$cli" eval "$graph" "${region[@]}" --format "${f%%:*}" -o "$base.${f#*:}"
  done
  node "$here/check_gltf.mjs" "$base.glb" "$base.json"
  (cd "$work" && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work" HOME="$work" \
     tiled --export-map "$base.tmj" "$base.tmx" > /dev/null 2>&1) \
    || { echo "check-engines: tiled could not load $base.tmj" >&2; exit 1; }
  # the graph with attributes must carry them, or the checks below would pass on none
  if [ "$graph" = "$work/varied.grove.yaml" ] && ! grep -q '"attributes": {"a_one": [^,]*, "a_two": [^,]*, "a_three": [^,]*, "a_four": [^,]*, "a_five": ' "$base.json"; then
    echo "check-engines: $base.json has no attributes a_one .. a_five" >&2
    exit 1
  fi
  if [ "$graph" = "$work/varied.grove.yaml" ] && ! grep -q '"tags": \["solid", "stone-2"\]' "$base.json"; then
    echo "check-engines: $base.json has no tags solid, stone-2" >&2
    exit 1
  fi
  if [ "$graph" = "$work/endless_wet.grove.yaml" ] && ! grep -q '"attributes": {"moisture": 0\.[5-9]' "$base.json"; then
    echo "check-engines: $base.json has no kept oaks with their moisture" >&2
    exit 1
  fi
  python3 "$here/check_exports.py" "$base.json" "$base.tscn" "$base.unreal.csv" "$base.unreal.json" "$base.tmx" "$base.csv"
done
echo "check-engines: $checked graphs checked"
