#!/usr/bin/env bash
# Sets up and builds Grove, then opens the editor on the default preset (or on the files given).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/app/setup.sh" -DGROVE_BUILD_APP=ON
editor="${GROVE_BUILD_DIR:-$root/build}/app/editor/grove"
if [ $# -eq 0 ]; then set -- "$root/presets/island_world.grove.yaml"; fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "grove: no display found; starting the editor under Xvfb (xvfb-run)"
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$editor" "$@"
fi
exec "$editor" "$@"
