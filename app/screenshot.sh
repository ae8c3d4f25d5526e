#!/bin/sh
# Starts the editor on a graph in a virtual X server and saves a PNG of the screen.
# Usage: app/screenshot.sh GRAPH.grove.yaml OUT.png [SECONDS] [NODE_TO_SELECT]
# GROVE_BIN overrides the editor binary (default: the first built one found).
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 GRAPH OUT.png [SECONDS] [NODE_TO_SELECT]" >&2
    exit 2
fi
graph=$1
out=$2
wait=${3:-3}
select=${4:-}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${GROVE_BIN:-}
if [ -z "$bin" ]; then
    for candidate in "$root/build/app/editor/grove"; do
        if [ -x "$candidate" ]; then bin=$candidate; break; fi
    done
fi
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
    echo "$0: no grove binary; build it or set GROVE_BIN" >&2
    exit 1
fi
# Private settings and data folders: screenshots neither read nor change the user's window layout,
# and never find (and stop to offer) the user's crash-recovery autosaves.
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
case $graph in /*) ;; *) graph=$(pwd)/$graph ;; esac
export XDG_CONFIG_HOME="$config" XDG_DATA_HOME="$config/data" GROVE_BIN="$bin" GRAPH="$graph" OUT="$out" WAIT="$wait" SELECT="$select"
xvfb-run -a -s "-screen 0 1600x1000x24" sh -c '
    if [ -n "$SELECT" ]; then
        "$GROVE_BIN" -qwindowgeometry 1600x1000+0+0 --select "$SELECT" "$GRAPH" &
    else
        "$GROVE_BIN" -qwindowgeometry 1600x1000+0+0 "$GRAPH" &
    fi
    pid=$!
    sleep "$WAIT"
    import -window root "$OUT"
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
'
echo "$out"
