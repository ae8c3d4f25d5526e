#!/usr/bin/env bash
# Evaluates a chunked graph as N shards with GNU parallel (this machine's cores, or several hosts
# with --sshlogin), then merges the parts into OUT: the same bytes as one `grove-cli eval`.
#
# usage: app/deploy/parallel.sh [PARALLEL_OPTION...] GRAPH N OUT [-- EVAL_OPTION...]
#   PARALLEL_OPTION  passed to GNU parallel: -j 4, --sshlogin 8/host1,8/host2, --sshloginfile FILE,
#                    --retries 3, --ssh 'ssh -F my_config'
#   EVAL_OPTION      passed to every shard's grove-cli eval: --region x0,y0,x1,y1, --threads 1, --seed 7
# GROVE_CLI names the grove-cli to run here (default: build/app/grove-cli, else grove-cli on PATH).
# With --sshlogin/--sshloginfile the hosts share nothing with this one: each runs GROVE_REMOTE_CLI
# (default: grove-cli on its PATH); the graph and every file it reads (grove-cli inputs) go to each
# host once (rsync, as --basefile) into a folder of the login's home, each shard's part comes back
# (--return) and every file sent or made there is removed at the end (--cleanup). The parts go into
# a hidden folder beside OUT, removed at the end; nothing is written to OUT unless every shard (with
# its --retries) and the merge succeed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() { sed -n '5,8p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 2; }
source "$here/grove-cli.sh" parallel.sh
command -v parallel > /dev/null || { echo "parallel.sh: GNU parallel is missing (apt-get install parallel)" >&2; exit 2; }

popts=()
remote=0
while [ $# -gt 0 ] && [[ "$1" == -* ]]; do
  case "$1" in
    -S|--sshlogin|--slf|--sshloginfile)
      [ $# -ge 2 ] || usage; popts+=("$1" "$2"); remote=1; shift 2 ;;
    --sshlogin=*|--slf=*|--sshloginfile=*) popts+=("$1"); remote=1; shift ;;
    -j|--jobs|--workdir|--wd|--retries|--timeout|--ssh)
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

graph="$(realpath "$graph")"
outdir="$(cd "$(dirname "$out")" && pwd)"
out="$outdir/$(basename "$out")"
parts="$(mktemp -d "$outdir/.grove-parts-XXXXXX")"
trap 'rm -rf "$parts"' EXIT

# shards 0 to N-1; --halt stops the others at the first failure (after its retries); -q quotes every argument
if [ "$remote" = 0 ]; then
  seq 0 $((n - 1)) | parallel -q --halt now,fail=1 "${popts[@]}" \
    "$cli" eval "$graph" --shard "{}/$n" --quiet -o "$parts/part-{}.json" "$@"
else
  # /./ makes rsync put a file under the remote folder by its whole path: /a/b.png as FOLDER/a/b.png,
  # so the graph finds its files by the same relative paths as here
  send=()
  while IFS= read -r f; do send+=(--basefile "/.$f"); done < <("$cli" inputs "$graph" || echo "//failed")
  [ "${send[-1]}" != "/.//failed" ] || exit 1
  wd="$(basename "$parts")"
  # a run stopped by a failing shard leaves the files sent: remove the hosts' folder in any case
  trap 'parallel --nonall "${popts[@]}" rm -rf "$wd" > /dev/null 2>&1; rm -rf "$parts"' EXIT
  seq 0 $((n - 1)) | parallel -q --halt now,fail=1 --workdir "$wd" "${send[@]}" \
    --return "$parts/./part-{}.json" --cleanup "${popts[@]}" \
    "${GROVE_REMOTE_CLI:-grove-cli}" eval ".$graph" --shard "{}/$n" --quiet -o "part-{}.json" "$@"
fi
"$cli" merge "$parts"/part-*.json -o "$out"
