#!/usr/bin/env bash
# Shared set-up for app/run.sh and tests/run.sh: installs what is missing (Debian 12), then
# configures and builds Grove into build/. Usage: app/setup.sh [extra cmake -D options]
#   GROVE_BUILD_DIR      the build folder (default build/)
#   GROVE_BUILD_TARGETS  build only these targets (space-separated), not everything
#   GROVE_SETUP_PACKAGES_ONLY=1  install what is missing and stop
# A new build folder is configured for Ninja with unity builds (CMAKE_UNITY_BUILD: a folder's
# sources compiled a few at a time, its headers parsed once), which halves a build from scratch;
# a folder configured before keeps its generator and settings.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(cmake g++ make pkg-config qt6-base-dev libgl-dev libyaml-cpp-dev nlohmann-json3-dev zlib1g-dev libpng-dev
          libbenchmark-dev ninja-build nodejs xvfb xauth imagemagick python3 python3-yaml tiled parallel ccache)
missing=()
packages+=(libboost-dev)  # relax, voronoi: Boost.Polygon's Voronoi builder (header-only)
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "grove: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

[ "${GROVE_SETUP_PACKAGES_ONLY:-0}" = "1" ] && exit 0

build="${GROVE_BUILD_DIR:-$root/build}"
mkdir -p "$build"
fresh=()
# A new folder's debug information is line tables only (-g1): enough for a debugger's and perf's
# stacks and a sanitizer's lines, and a quarter of the disk: a build of everything 1.4 GB, 5.2 GB
# with full -g (its 78 executables 4.6 GB, nine tenths of each its debug sections), on which a CI
# machine's disk filled before the tests were linked. -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g -DNDEBUG"
# on the command line (or in an existing folder's cache) takes full debug information back.
[ -f "$build/CMakeCache.txt" ] || fresh=(-G Ninja -DCMAKE_UNITY_BUILD=ON
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
# ccache (Debian's) keeps compiled objects between builds, also of other clones on this machine
# (paths are taken relative to the checkout)
launcher=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build" "${fresh[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" "$@" > "$build/configure.log" 2>&1 \
  || { cat "$build/configure.log"; exit 1; }
targets=()
for t in ${GROVE_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
