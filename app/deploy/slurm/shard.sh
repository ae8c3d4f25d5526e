#!/usr/bin/env bash
# One task of submit.sh's job array: shard $SLURM_ARRAY_TASK_ID of N, evaluated on a copy of the
# inputs in the node's scratch folder; the part goes to RUN/parts/ (renamed into place whole).
# A failure is written to RUN/failed/shard-K; while tries are left (TRIES)
# the task asks Slurm to run it again (scontrol requeue; Slurm waits AuthInfo's cred_expire,
# 120 s by default, before it does).
# usage (by sbatch): shard.sh RUN N TRIES GROVE_CLI GRAPH [EVAL_OPTION...]
set -uo pipefail
run="$1" n="$2" tries="$3" cli="$4" graph="$5"
shift 5
k="${SLURM_ARRAY_TASK_ID:?shard.sh runs as a task of the job array submit.sh makes}"
try=$((${SLURM_RESTART_COUNT:-0} + 1))
scratch="$(mktemp -d "${TMPDIR:-/tmp}/grove-shard-XXXXXX")" || exit 1
trap 'rm -rf "$scratch"' EXIT
tar -C "$scratch" -xf "$run/inputs.tar" \
  && "$cli" eval "$scratch$graph" --shard "$k/$n" --quiet -o "$scratch/part.json" "$@" 2> "$scratch/err" \
  && cp "$scratch/part.json" "$run/parts/.part-$k.json.tmp" && mv "$run/parts/.part-$k.json.tmp" "$run/parts/part-$k.json"
rc=$?
if [ "$rc" -eq 0 ]; then
  rm -f "$run/failed/shard-$k"
  exit 0
fi
cat "$scratch/err" >&2 2> /dev/null
{ echo "shard $k/$n failed on try $try of $tries on $(hostname) (exit $rc):"; tail -n 5 "$scratch/err" 2> /dev/null; } > "$run/failed/shard-$k"
if [ "$try" -lt "$tries" ]; then
  echo "shard.sh: shard $k/$n failed on try $try of $tries: requeued" >&2
  scontrol requeue "$SLURM_JOB_ID" || echo "shard.sh: scontrol requeue $SLURM_JOB_ID failed" >&2
fi
exit "$rc"
