#!/usr/bin/env bash
# Hostile files that cannot live in the repository, made here: named pipes given as every kind of
# input (an image, a RAW heightmap, shapes, a points file, a group file, a shard part) are refused
# without being opened (opening one waits for a writer, for ever); a failed eval leaves a
# pre-filled -o file as it was; Ctrl+C in a long streamed export exits 130 and writes nothing.
# Each run has a 60 s guard against a hang, and but for the Ctrl+C runs 4 GiB of address space
# (no limit under a sanitizer).
set -uo pipefail
cli="$(realpath "${1:?usage: check-special-files.sh GROVE_CLI}")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sanitized=0
if ldd "$cli" 2>/dev/null | grep -q libasan || grep -qa __asan_init "$cli"; then sanitized=1; fi
limited() { if [ "$sanitized" = 1 ]; then "$@"; else (ulimit -v 4194304; exec "$@"); fi; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
total=0
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

# --- named pipes, each where a file is read --------------------------------------------------
mkfifo pipe.png pipe.r16 pipe.geojson pipe.csv pipe.grove.yaml part.json
world='grove: 1
world: {width: 100, height: 100, seed: 1}
nodes:'
trees='  trees:
    type: place_layer
    params: {radius: 4}'
printf '%s\n  g:\n    type: image\n    params: {path: pipe.png}\n%s\n    inputs: {radius: g}\n' "$world" "$trees" > image_png.grove.yaml
printf '%s\n  g:\n    type: image\n    params: {path: pipe.r16}\n%s\n    inputs: {radius: g}\n' "$world" "$trees" > image_raw.grove.yaml
printf '%s\n  s:\n    type: shapes\n    params: {path: pipe.geojson}\n%s\n    inputs: {allowed: s}\n' "$world" "$trees" > shapes.grove.yaml
printf '%s\n  p:\n    type: points_file\n    params: {path: pipe.csv}\n%s\n    inputs: {obstacles: p}\n' "$world" "$trees" > points.grove.yaml
printf '%s\n  g:\n    type: group\n    params: {graph: pipe.grove.yaml}\n' "$world" > group.grove.yaml
expect_pipe() {  # NAME ARGS...: exit 1, the pipe named, nothing read from it
  local name="$1"; shift
  total=$((total + 1))
  local err rc
  err=$(limited timeout 60 "$cli" "$@" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 1 ]; then fail "$name: exit $rc, not 1 (${err:0:200})"; return; fi
  if ! grep -q "it is a pipe, socket or device, not a regular file" <<< "$err"; then fail "$name: $err"; fi
}
for g in image_png image_raw shapes points group; do
  expect_pipe "a pipe as the $g input" eval "$g.grove.yaml" -o /dev/null
done
expect_pipe "a pipe as a merge part" merge part.json -o merged.json
[ -e merged.json ] && fail "merge wrote merged.json"

# --- a failed eval leaves its -o file alone ---------------------------------------------------
printf '%s\n  trees:\n    type: place_layer\n    params: {radius: 8}\n' "$world" > small.grove.yaml
if [ -w /dev/full ]; then
  total=$((total + 1))
  echo "the export before" > out.json
  err=$(limited timeout 60 "$cli" eval small.grove.yaml --png /dev/full -o out.json 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 1 ] || fail "--png /dev/full: exit $rc, not 1"
  [ "$(cat out.json)" = "the export before" ] || fail "--png /dev/full: out.json was replaced though eval failed ($err)"
fi

# --- Ctrl+C in a long streamed export ---------------------------------------------------------
# The handshake: the run has begun streaming once its spool files are open (they are unlinked at
# once, so they show only among the process's open files); then SIGINT.
interrupt() {  # NAME ARGS...: exit 130, the pre-filled out file as it was, nothing left beside it
  local name="$1"; shift
  total=$((total + 1))
  mkdir -p "run" && rm -rf run/* run/.[!.]* 2>/dev/null
  echo "the export before" > run/out
  "$cli" "$@" -o run/out 2> run.err &  # no address-space limit: cached chunks reserve more than they touch
  local pid=$!
  # a guard against a hang, not a measure (its sleep goes with it, so nothing holds the output)
  (trap 'kill "$nap" 2>/dev/null; exit 0' TERM; sleep 60 & nap=$!; wait "$nap" && kill -KILL "$pid" 2>/dev/null) >/dev/null 2>&1 &
  local guard=$!
  until ls -l "/proc/$pid/fd" 2>/dev/null | grep -q grove-spool; do
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.05
  done
  local streaming=0
  kill -0 "$pid" 2>/dev/null && streaming=1
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  local rc=$?
  kill "$guard" 2>/dev/null
  wait "$guard" 2>/dev/null
  if [ "$streaming" -ne 1 ]; then fail "$name: it ended before streaming (exit $rc: $(head -c 200 run.err))"; return; fi
  [ "$rc" -eq 130 ] || fail "$name: exit $rc after SIGINT, not 130 ($(head -c 200 run.err))"
  [ "$(cat run/out)" = "the export before" ] || fail "$name: the out file was replaced"
  local left
  left=$(ls -A run | grep -v '^out$')
  [ -z "$left" ] || fail "$name: left $left"
}
endless="$here/cli/endless.grove.yaml"
huge=(--region -2000000,-2000000,2000000,2000000 --max-points 9223372036854775807 --threads 2)
interrupt "Ctrl+C in a huge JSON region" eval "$endless" "${huge[@]}"
interrupt "Ctrl+C in a huge CSV region" eval "$endless" "${huge[@]}" --format csv

echo "$((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
