#!/usr/bin/env bash
# app/deploy end to end: parallel.sh runs 4 shards with GNU parallel and merges them into the same
# bytes as one grove-cli eval (whole world, and a region with eval options passed through); a
# failing shard leaves nothing; the Kubernetes manifests pass check_k8s.py, and a manifest whose
# completions do not match its --shard N fails it; they pass the Kubernetes API's schema. Usage: check-deploy.sh GROVE_CLI
set -uo pipefail
cli="$(realpath "${1:?usage: check-deploy.sh GROVE_CLI}")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
graph="$root/tests/data/chunks/small.grove.yaml"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() { if eval "$2"; then echo "ok   $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }

export GROVE_CLI="$cli"
"$cli" eval "$graph" -o "$work/single.json"
"$root/app/deploy/parallel.sh" "$graph" 4 "$work/world.json"
check "parallel.sh, 4 shards: the single run's bytes" 'cmp -s "$work/single.json" "$work/world.json"'
"$cli" eval "$graph" --region 0,0,700,333.5 -o "$work/single-region.json"
"$root/app/deploy/parallel.sh" -j 2 "$graph" 4 "$work/region.json" -- --region 0,0,700,333.5 --threads 1
check "parallel.sh -j 2 ... -- --region --threads 1: the single run's bytes" 'cmp -s "$work/single-region.json" "$work/region.json"'
"$root/app/deploy/parallel.sh" "$graph" 4 "$work/bad.json" -- --region 0,0,5000,1 2> "$work/bad.err"
rc=$?
check "a failing shard: exit $rc, not 0" '[ "$rc" -ne 0 ]'
check "a failing shard: nothing written, no parts left" '[ "$(ls -A "$work" | grep -v -e single -e world.json -e region.json -e bad.err)" = "" ]'
check "a failing shard: its message is shown" 'grep -q "reaches outside the world" "$work/bad.err"'

# grove-cli inputs: what a graph reads, for sending it to hosts that share nothing
"$cli" inputs "$root/presets/valley.grove.yaml" > "$work/inputs.txt"
check "inputs: the valley and its four files, absolute" \
  '[ "$(sed "s|^$root/presets/||" "$work/inputs.txt" | tr "\n" " ")" = "valley.grove.yaml valley/heightmap.png valley/houses.csv valley/river.png valley/roads.tmj " ]'
check "inputs: a graph's group files" \
  '"$cli" inputs "$root/presets/island_groups.grove.yaml" | grep -qx "$root/presets/groups/shoreline.grove.yaml"'
mkdir "$work/lone" && cp "$root/presets/valley.grove.yaml" "$work/lone/"
"$cli" inputs "$work/lone/valley.grove.yaml" > "$work/lone.out" 2> "$work/lone.err"
rc=$?
check "inputs: a missing file is exit 1 naming it, nothing listed" \
  '[ "$rc" = 1 ] && [ ! -s "$work/lone.out" ] && grep -q "valley/houses.csv, which is not a file that exists" "$work/lone.err"'
rm -rf "$work/lone" "$work/lone.out" "$work/lone.err" "$work/inputs.txt"

py=/usr/bin/python3
[ -x "$py" ] || py=python3
check "the Kubernetes manifests pass check_k8s.py" '"$py" "$here/check_k8s.py" "$root/app/deploy/k8s" > "$work/k8s.log"'
cat "$work/k8s.log"
mkdir "$work/k8s-bad"
sed 's/completions: 8/completions: 7/' "$root/app/deploy/k8s/grove-shards.yaml" > "$work/k8s-bad/grove-shards.yaml"
cp "$root/app/deploy/k8s/grove-merge.yaml" "$work/k8s-bad/"
check "completions 7 with --shard .../8 fails check_k8s.py" '! "$py" "$here/check_k8s.py" "$work/k8s-bad" > /dev/null'
sed 's/claimName: grove-data/claimName: elsewhere/' "$root/app/deploy/k8s/grove-merge.yaml" > "$work/k8s-bad/grove-merge.yaml"
cp "$root/app/deploy/k8s/grove-shards.yaml" "$work/k8s-bad/"
check "a merge without the parts' claim fails check_k8s.py" '! "$py" "$here/check_k8s.py" "$work/k8s-bad" > /dev/null'
# the Kubernetes API's own schema (kubernetes-models, installed by tests/run.sh: npm ci)
schema="$here/k8s-schema"
if [ -d "$schema/node_modules/kubernetes-models" ]; then
  check "the Kubernetes manifests (Indexed Job, merge Job, claim) pass the API schema" \
    'node "$schema/check_schema.mjs" "$root"/app/deploy/k8s/*.yaml > "$work/schema.log"'
  cat "$work/schema.log"
  sed 's/completionMode: Indexed/completionMode: Indexd/' "$root/app/deploy/k8s/grove-shards.yaml" > "$work/k8s-bad/grove-shards.yaml"
  check "a misspelt completionMode fails the API schema" '! node "$schema/check_schema.mjs" "$work/k8s-bad/grove-shards.yaml" > /dev/null'
else
  check "kubernetes-models is installed (npm ci --prefix tests/deploy/k8s-schema)" false
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
