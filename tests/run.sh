#!/usr/bin/env bash
# Sets up and builds Grove, then runs every test under CTest (Qt Test suites, golden checks
# against the seed JavaScript, grove-cli end to end).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/app/setup.sh" -DGROVE_BUILD_APP=ON -DGROVE_BUILD_TESTS=ON
cd "${GROVE_BUILD_DIR:-$root/build}"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)" "$@"
