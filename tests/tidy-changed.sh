#!/usr/bin/env bash
# clang-tidy (the checks in .clang-tidy) on the C++ files changed since a base commit, for CI:
#   tests/tidy-changed.sh [BASE] [BUILD]
# BASE defaults to the merge base with main; BUILD (default build/) must hold compile_commands.json
# (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, on by default). Headers are checked through
# the sources that include them. Exit 1 when a check finds something.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
base="${1:-$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD~1)}"
build="${2:-$root/build}"
tidy="$(command -v clang-tidy-14 || command -v clang-tidy)"
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy-changed: no $build/compile_commands.json (configure first)" >&2
  exit 2
fi
mapfile -t files < <(git diff --name-only --diff-filter=ACMR "$base" -- 'core/*.cpp' 'nodes/*.cpp' 'app/*.cpp' 'tests/*.cpp' \
                     | while read -r f; do grep -q "\"file\": \"$root/$f\"" "$build/compile_commands.json" && echo "$f"; done)
if [ ${#files[@]} -eq 0 ]; then
  echo "tidy-changed: no compiled C++ file changed since $base"
  exit 0
fi
echo "tidy-changed: ${#files[@]} file(s) since $(git rev-parse --short "$base"): ${files[*]}"
"$tidy" -p "$build" --quiet "${files[@]}"
