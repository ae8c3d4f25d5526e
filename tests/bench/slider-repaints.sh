#!/usr/bin/env bash
# The editor's repaints during a fast slider drag, seen at the pixels (#33's "the same seen at the
# pixels"): the real editor under Xvfb on presets/island_world, the flowers layer selected, its
# radius slider wiggled by xdotool (a step every ~12 ms, 480 steps), while damage_frames (XDamage)
# hashes the map after every repaint. A new picture is a repaint whose pixels differ from the one
# before; the script prints the intervals between new pictures while the hand moves.
#   tests/bench/slider-repaints.sh EDITOR [RUNS]   (EDITOR: build/app/editor/grove; RUNS: 3)
# Needs Xvfb, xdotool, a C compiler and libxdamage-dev; not part of CTest (an idle machine, please).
# Two wiggles: "wide" (radius about 4.6 to 12.5, the slider's pixels 1199-1202) and "dense" (the
# slider's left end, radius 1, to 7.2: at radius 1 island_world has 37k flowers, a run of ~0.5 s).
# The coordinates are the default layout's on a 1600x1000 screen.
set -euo pipefail
editor="$(realpath "$1")" runs="${2:-3}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
preset="$here/../../presets/island_world.grove.yaml"
work="$(mktemp -d)"
display=:$((90 + RANDOM % 9))
cc -O2 -o "$work/damage_frames" "$here/damage_frames.c" -lX11 -lXdamage
Xvfb "$display" -screen 0 1600x1000x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; pkill -f "$editor" 2>/dev/null || true; rm -rf "$work"' EXIT
export DISPLAY=$display
sleep 1

# One drag: a fresh editor (its own settings and recovery folder), the node clicked, the wiggle.
drag() {  # NAME "X X X ..."
  pkill -f "$editor" 2>/dev/null || true; sleep 1
  rm -rf "$work/xdg"
  XDG_DATA_HOME="$work/xdg" XDG_CONFIG_HOME="$work/xdg" "$editor" "$preset" >"$work/editor.log" 2>&1 &
  sleep 6
  xdotool mousemove 512 341 click 1   # the flowers node
  sleep 1.5
  local cmd="mousemove 1200 223 mousedown 1 sleep 0.05"
  for _ in $(seq 1 80); do for x in $2; do cmd="$cmd mousemove $x 223 sleep 0.012"; done; done
  "$work/damage_frames" 599 227 485 264 9 >"$work/$1.txt" 2>/dev/null &
  local watcher=$!
  sleep 0.5
  # shellcheck disable=SC2086  # the command is xdotool's chain of words
  xdotool $cmd mouseup 1
  wait $watcher
  python3 - "$work/$1.txt" "$1" <<'EOF'
import statistics, sys
rows = [(float(t), h) for t, h in (l.split() for l in open(sys.argv[1]) if l.strip())]
new, last = [], None
for t, h in rows:
    if h != last and 550 <= t <= 6600:  # the drag: half a second in, ~6 s long
        new.append(t)
    last = h
iv = sorted(b - a for a, b in zip(new, new[1:]))
p95 = iv[min(len(iv) - 1, int(0.95 * len(iv)))]
print(f"{sys.argv[2]}: {len(new)} new pictures in {new[-1] - new[0]:.0f} ms; interval median {statistics.median(iv):.1f} ms, "
      f"p95 {p95:.1f}, longest {iv[-1]:.1f}")
EOF
}

for r in $(seq 1 "$runs"); do drag "wide-$r" "1199 1200 1201 1202 1201 1200"; done
for r in $(seq 1 "$runs"); do drag "dense-$r" "1197 1198 1199 1200 1199 1198"; done
