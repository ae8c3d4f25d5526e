#!/usr/bin/env bash
# Evaluates a chunked graph as N shards with GNU parallel (this machine's cores, or several hosts
# with --sshlogin), then merges the parts into OUT: the same bytes as one `grove-cli eval`.
#
# usage: app/deploy/parallel.sh [PARALLEL_OPTION...] GRAPH N OUT [-- EVAL_OPTION...]
#   PARALLEL_OPTION  passed to GNU parallel: -j 4, --sshlogin 8/host1,8/host2, --sshloginfile FILE
#   EVAL_OPTION      passed to every shard's grove-cli eval: --region x0,y0,x1,y1, --threads 1, --seed 7
# GROVE_CLI names the grove-cli to run (default: build/app/grove-cli, else grove-cli on PATH).
# With --sshlogin, each host runs the same grove-cli path and must see GRAPH (and its input
# files) and OUT's folder at the same paths: a shared file system (NFS). The parts go into a
# hidden folder beside OUT, removed at the end; nothing is written to OUT unless every shard and
# the merge succeed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
usage() { sed -n '5,7p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 2; }

cli="${GROVE_CLI:-}"
if [ -z "$cli" ]; then
  if [ -x "$root/build/app/grove-cli" ]; then cli="$root/build/app/grove-cli"; else cli="$(command -v grove-cli || true)"; fi
fi
[ -n "$cli" ] || { echo "parallel.sh: no grove-cli: build it (app/setup.sh) or set GROVE_CLI" >&2; exit 2; }
command -v parallel > /dev/null || { echo "parallel.sh: GNU parallel is missing (apt-get install parallel)" >&2; exit 2; }

popts=()
while [ $# -gt 0 ] && [[ "$1" == -* ]]; do
  case "$1" in
    -j|--jobs|-S|--sshlogin|--slf|--sshloginfile|--workdir|--wd|--retries|--timeout)
      [ $# -ge 2 ] || usage; popts+=("$1" "$2"); shift 2 ;;
    --) break ;;
    *) popts+=("$1"); shift ;;
  esac
done
[ $# -ge 3 ] || usage
graph="$1" n="$2" out="$3"
shift 3
if [ $# -gt 0 ]; then [ "$1" = "--" ] || usage; shift; fi
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "parallel.sh: N must be a whole number of at least 1, got '$n'" >&2; exit 2; }
[ -f "$graph" ] || { echo "parallel.sh: no graph $graph" >&2; exit 2; }

# absolute paths: remote hosts start in their home folder
graph="$(realpath "$graph")"
outdir="$(cd "$(dirname "$out")" && pwd)"
out="$outdir/$(basename "$out")"
cli="$(realpath "$cli")"
parts="$(mktemp -d "$outdir/.grove-parts-XXXXXX")"
trap 'rm -rf "$parts"' EXIT

# shards 0 to N-1; --halt stops the others at the first failure; -q quotes every argument
seq 0 $((n - 1)) | parallel -q --halt now,fail=1 "${popts[@]}" \
  "$cli" eval "$graph" --shard "{}/$n" --quiet -o "$parts/part-{}.json" "$@"
"$cli" merge "$parts"/part-*.json -o "$out"
