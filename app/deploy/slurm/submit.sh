#!/usr/bin/env bash
# Submits a chunked graph to Slurm as N shards: a job array (task K evaluates shard K/N) and a
# merge job that runs once every task has ended (--dependency=afterany) and joins the parts
# into OUT: the same bytes as one `grove-cli eval`. Prints the merge job's id.
#
# usage: app/deploy/slurm/submit.sh [SBATCH_OPTION...] GRAPH N OUT [-- EVAL_OPTION...]
#   SBATCH_OPTION  given to both sbatch calls: --partition=p, --time=1:00:00, --cpus-per-task=2
#   EVAL_OPTION    given to every shard's grove-cli eval: --region x0,y0,x1,y1, --threads 2
# GROVE_CLI names grove-cli (the same path on every node); GROVE_SHARD_TRIES how many times a
# failing shard runs (default 3; the task asks Slurm to requeue it). The graph and every file
# it reads (grove-cli inputs) are packed at submission into a run folder beside OUT, which the
# nodes must see (the submit folder, as any Slurm job's output); each task unpacks them into its
# node's $TMPDIR, so every shard reads the same inputs even if they change meanwhile.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() { sed -n '6,8p' "${BASH_SOURCE[0]}" | sed 's/^# //' >&2; exit 2; }
source "$here/../grove-cli.sh" submit.sh
command -v sbatch > /dev/null || { echo "submit.sh: sbatch is missing (Slurm's client commands)" >&2; exit 2; }

sopts=()
while [ $# -gt 0 ] && [[ "$1" == -* ]] && [ "$1" != "--" ]; do sopts+=("$1"); shift; done
[ $# -ge 3 ] || usage
graph="$1" n="$2" out="$3"
shift 3
if [ $# -gt 0 ]; then [ "$1" = "--" ] || usage; shift; fi
[[ "$n" =~ ^[1-9][0-9]{0,4}$ ]] || { echo "submit.sh: N must be a whole number from 1 to 99999, got '$n'" >&2; exit 2; }
tries="${GROVE_SHARD_TRIES:-3}"
[[ "$tries" =~ ^[1-9][0-9]?$ ]] || { echo "submit.sh: GROVE_SHARD_TRIES must be a whole number from 1 to 99, got '$tries'" >&2; exit 2; }
[ -f "$graph" ] || { echo "submit.sh: no graph $graph" >&2; exit 2; }
outdir="$(cd "$(dirname "$out")" && pwd)"
out="$outdir/$(basename "$out")"

run="$(mktemp -d "$outdir/.grove-slurm-XXXXXX")"
mkdir "$run/parts" "$run/failed" "$run/logs"
"$cli" inputs "$graph" > "$run/inputs.txt" || { rm -rf "$run"; exit 1; }
# absolute paths without their leading /: unpacked under the task's scratch folder as they are here
sed 's|^/||' "$run/inputs.txt" | tar -C / -cf "$run/inputs.tar" --verbatim-files-from -T -
graph="$(head -n 1 "$run/inputs.txt")"

array="$(sbatch --parsable --requeue --array="0-$((n - 1))" --job-name=grove-shards "${sopts[@]}" \
  --output="$run/logs/shard-%a.log" "$here/shard.sh" "$run" "$n" "$tries" "$cli" "$graph" "$@")"
array="${array%%;*}"
merge="$(sbatch --parsable --dependency="afterany:$array" --job-name=grove-merge "${sopts[@]}" \
  --output="$run/logs/merge.log" "$here/merge.sh" "$run" "$n" "$cli" "$out")"
merge="${merge%%;*}"
echo "submit.sh: shards: job array $array (0-$((n - 1))); merge: job $merge, writes $out; run folder $run" >&2
echo "$merge"
