#!/usr/bin/env bash
# Redraws the README's diff picture: presets/loot_and_camps.grove.yaml before and after its trees'
# radius goes from 16 to 17 (camps, chests and rocks come first and stay; the trees move).
set -euo pipefail
cli="$(realpath "${1:?usage: make_readme_diff.sh GROVE_CLI}")"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
before="$root/presets/loot_and_camps.grove.yaml"
grep -q '^      radius: 16$' "$before"
sed 's/^      radius: 16$/      radius: 17/' "$before" > "$scratch/loot_and_camps.grove.yaml"
status=0
"$cli" diff "$before" "$scratch/loot_and_camps.grove.yaml" --png "$root/tests/diff/loot_trees_radius.png" || status=$?
[ "$status" -eq 1 ]  # different, as intended

# The chunked erase: one circle erased in chunk (12, 12) of a 24 x 24 chunk world; the picture is
# the 7 x 7 chunks around it (everything beyond them is kept, with its id).
status=0
"$cli" diff "$root/tests/diff/chunked_before.grove.yaml" "$root/tests/diff/chunked_erase.grove.yaml" \
  --region 1152,1152,2048,2048 --png "$root/tests/diff/chunked_erase.png" || status=$?
[ "$status" -eq 1 ]
