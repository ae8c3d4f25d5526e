#!/usr/bin/env bash
# clang-tidy 14 (the checks in .clang-tidy) on Grove's Qt-free C++ (core/, nodes/, app/cli,
# app/capi, app/bench), a finding fails:
#   tests/tidy-changed.sh [BASE | --all] [BUILD]
# BASE (default: the merge base with main, or HEAD~1 on main itself) checks the .cpp files changed
# since that commit; --all checks every one. Headers are checked through the sources that include
# them. BUILD (default build-tidy/) holds the compile database; when it has none, the script
# configures one there with Clang (a configure only: nothing is compiled). Runs nproc at a time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode="${1:-}"
build="${2:-$root/build-tidy}"
tidy="$(command -v clang-tidy-14 || command -v clang-tidy)"
if [ ! -f "$build/compile_commands.json" ]; then
  mkdir -p "$build"
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_UNITY_BUILD=OFF \
    -DGROVE_BUILD_APP=OFF -DGROVE_BUILD_TESTS=OFF > "$build/configure.log" 2>&1 \
    || { cat "$build/configure.log"; exit 2; }
fi
scope=('core/*.cpp' 'nodes/*.cpp' 'app/cli/*.cpp' 'app/capi/*.cpp' 'app/bench/*.cpp')
if [ "$mode" = "--all" ]; then
  mapfile -t candidates < <(git ls-files -- "${scope[@]}")
  what="every file"
else
  base="${mode:-$(git merge-base HEAD main 2>/dev/null || true)}"
  [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ] && base="$(git rev-parse HEAD~1)"
  mapfile -t candidates < <(git diff --name-only --diff-filter=ACMR "$base" -- "${scope[@]}")
  what="changed since $(git rev-parse --short "$base")"
fi
# only what the database compiles (a file of a disabled option is not in it)
files=()
for f in "${candidates[@]}"; do
  grep -q "\"file\": \"$root/$f\"" "$build/compile_commands.json" && files+=("$f")
done
if [ ${#files[@]} -eq 0 ]; then
  echo "tidy: no compiled C++ file $what"
  exit 0
fi
echo "tidy: ${#files[@]} file(s), $what"
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet
