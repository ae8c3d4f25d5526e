#!/usr/bin/env bash
# submit.sh's merge job, started once every shard task has ended: joins RUN/parts into OUT
# (grove-cli merge writes it whole or not at all) and removes RUN. A shard without its part makes
# it fail naming the shard and its last error; then the parts are removed, nothing is written,
# and the logs stay in RUN/logs.
# usage (by sbatch): merge.sh RUN N GROVE_CLI OUT
set -uo pipefail
run="$1" n="$2" cli="$3" out="$4"
missing=0
for ((k = 0; k < n; ++k)); do
  [ -f "$run/parts/part-$k.json" ] && continue
  missing=$((missing + 1))
  if [ -f "$run/failed/shard-$k" ]; then sed 's/^/merge.sh: /' "$run/failed/shard-$k" >&2
  else echo "merge.sh: shard $k/$n left no part and no error (cancelled or killed?)" >&2; fi
done
if [ "$missing" -gt 0 ]; then
  rm -rf "$run/parts"
  echo "merge.sh: $missing of $n shards failed; nothing written to $out; logs in $run/logs" >&2
  exit 1
fi
if ! "$cli" merge "$run"/parts/part-*.json -o "$out"; then
  rm -rf "$run/parts"
  echo "merge.sh: nothing written to $out; logs in $run/logs" >&2
  exit 1
fi
rm -rf "$run"
