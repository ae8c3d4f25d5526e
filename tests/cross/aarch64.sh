#!/usr/bin/env bash
# The same bytes on aarch64: grove-cli cross-built with Debian's g++-aarch64-linux-gnu against the
# arm64 multiarch libraries, run under qemu-user, exports every preset in every format and writes
# `check`'s spectrum reports (tests/pins/export-presets.sh); each file's digest must equal its pin
# (tests/pins/presets.sha256). A script a developer runs:
#   tests/cross/aarch64.sh [BUILD_DIR]     (default build-aarch64, relative to the repository)
# Installs what is missing first (apt, needs root or sudo). Prints the result and the minutes of
# each phase; exits non-zero when a digest differs or a step fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-build-aarch64}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac

minutes() { awk -v s="$1" 'BEGIN { printf "%.1f", s / 60 }'; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt() { $sudo apt-get -o DPkg::Lock::Timeout=900 "$@"; }

# --- install: the cross compiler, qemu-user and the arm64 libraries grove-cli links
start=$SECONDS
# libyaml-cpp-dev is not Multi-Arch: same (its arm64 package would replace the build machine's):
# the host's gives the headers, libyaml-cpp0.7:arm64 the library (tests/cross/yaml-cpp).
host_pkgs=(g++-aarch64-linux-gnu qemu-user file cmake pkg-config nlohmann-json3-dev libboost-dev libyaml-cpp-dev)
arm_pkgs=(libc6:arm64 libstdc++6:arm64 libyaml-cpp0.7:arm64 libpng-dev:arm64 zlib1g-dev:arm64)
installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed'; }
missing=()
for p in "${host_pkgs[@]}" "${arm_pkgs[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "aarch64: installing ${missing[*]}"
  updated=0
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $sudo dpkg --add-architecture arm64
    apt update -qq; updated=1
  fi
  if ! apt install -y -qq --no-install-recommends "${missing[@]}"; then
    [ $updated = 0 ] || exit 1
    apt update -qq  # package lists older than the packages: once more after an update
    apt install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi
install_s=$((SECONDS - start))

# --- configure and build grove-cli only (core + nodes, no Qt), through ccache when present
start=$SECONDS
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/tests/cross/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGROVE_BUILD_APP=OFF -DGROVE_BUILD_TESTS=OFF \
  -DGROVE_BUILD_BENCH=OFF -DGROVE_BUILD_CAPI=OFF -Dyaml-cpp_DIR="$root/tests/cross/yaml-cpp" \
  "${launcher[@]}" > "$build/configure.log" 2>&1 \
  || { cat "$build/configure.log"; exit 1; }
nice -n 5 cmake --build "$build" -j2 --target grove-cli
build_s=$((SECONDS - start))
cli="$build/app/grove-cli"
file -b "$cli" 2> /dev/null | grep -q aarch64 || { echo "aarch64: $cli is not an aarch64 binary"; exit 1; }

# --- compare: every preset's exports against the pins, grove-cli run under qemu-user
start=$SECONDS
# The loader and the C library both from libc6:arm64 (/lib/ld-linux-aarch64.so.1 and
# /lib/aarch64-linux-gnu): not -L /usr/aarch64-linux-gnu, whose loader (libc6-arm64-cross) is
# another build of glibc than libc6:arm64's libc.so.6; mixed, the first pthread_create hangs.
wrapper="$build/grove-cli-qemu"
printf '#!/bin/sh\nexec env -u QEMU_LD_PREFIX qemu-aarch64 "%s" "$@"\n' "$cli" > "$wrapper"
chmod +x "$wrapper"
status=0
"$root/tests/pins/check-pins.sh" "$wrapper" 2>&1 | tee "$build/check-pins.log" || status=$?
compare_s=$((SECONDS - start))

pins="$root/tests/pins/presets.sha256"
total=$(wc -l < "$pins")
if [ $status -eq 0 ]; then
  echo "aarch64: $total of $total digests identical to the pins"
else
  differ=$(grep -c '^+[0-9a-f]' "$build/check-pins.log" || true)
  if [ "$differ" -gt 0 ]; then
    echo "aarch64: $((total - differ)) of $total digests identical to the pins; $differ differ (above)"
  else
    echo "aarch64: the comparison failed before any digest (above)"
  fi
fi
echo "aarch64: minutes: install $(minutes $install_s), configure+build $(minutes $build_s), compare $(minutes $compare_s)"
exit $status
