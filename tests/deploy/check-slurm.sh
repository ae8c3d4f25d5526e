#!/usr/bin/env bash
# app/deploy/slurm on a real one-machine Slurm cluster (Debian's slurm-wlm and munge: munged,
# slurmctld and slurmd on localhost, configured here in a temporary folder, free ports): a
# chunked world that reads four files, submitted as 8 shards and a merge, is the single run's
# bytes; shard 2 runs the Clang-built grove-cli ($GROVE_CLANG_CLI), the others the g++ one;
# shard 3 fails once and is requeued; a shard that keeps failing makes the merge fail naming it,
# with nothing written and no parts left. Needs root. Usage: check-slurm.sh GROVE_CLI
set -uo pipefail
cli="$(realpath "${1:?usage: check-slurm.sh GROVE_CLI}")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
die() { echo "check-slurm.sh: $*" >&2; exit 1; }
[ -n "${GROVE_CLANG_CLI:-}" ] || die "GROVE_CLANG_CLI is not set: it names a grove-cli built with Clang (tests/run.sh builds one)"
[ -x "$GROVE_CLANG_CLI" ] || die "GROVE_CLANG_CLI=$GROVE_CLANG_CLI is not an executable file"
[ "$(id -u)" -eq 0 ] || die "needs root (slurmd and munged run as root)"
for c in munged slurmctld slurmd sbatch squeue scontrol; do
  command -v "$c" > /dev/null || die "$c is missing: apt-get install slurm-wlm munge"
done
clang="$(realpath "$GROVE_CLANG_CLI")"

work="$(mktemp -d /tmp/grove-slurm-test-XXXXXX)"
chmod 755 "$work"
pids=()
# processes the test's slurmd started that outlive it (a job's slurmstepd): those with a file open in $work
strays() {
  local f
  for f in /proc/[0-9]*/fd/*; do
    case "$(readlink "$f" 2> /dev/null)" in "$work"/*) f="${f#/proc/}"; echo "${f%%/*}" ;; esac
  done | sort -u | grep -vx "$$"
}
cleanup() {
  if [ -n "${slurm_up:-}" ]; then  # cancel what is left, and let the steps end
    scancel --quiet --full --signal=KILL --partition=grove 2> /dev/null
    wait_for 20 '[ -z "$(squeue -h 2> /dev/null)" ]'
  fi
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
    kill -9 "$p" 2> /dev/null
  done
  for p in $(strays); do kill -9 "$p" 2> /dev/null; done
  [ -n "${GROVE_TEST_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
passed=0 failed=0
check() { if eval "$2"; then echo "ok   $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# polls a condition every half second up to $1 seconds
wait_for() { local cap="$1"; shift; for _ in $(seq $((cap * 2))); do eval "$1" && return 0; sleep 0.5; done; return 1; }
show_logs() { tail -n 20 "$work"/slurm/*.log "$work"/munge/out >&2 2> /dev/null; }

# munge: a key of its own, a socket in the work folder
mkdir -m 700 "$work/munge"
head -c 1024 /dev/urandom > "$work/munge/munge.key" && chmod 400 "$work/munge/munge.key"
munged -F -f --socket="$work/munge/sock" --key-file="$work/munge/munge.key" --pid-file="$work/munge/pid" \
  --seed-file="$work/munge/seed" --log-file="$work/munge/log" > "$work/munge/out" 2>&1 &
pids+=($!)
wait_for 30 '[ -S "$work/munge/sock" ]' || { show_logs; die "munged did not open its socket within 30 s"; }

# Slurm: one node (the config's CPUs, not the machine's: the shards are small), requeued jobs
# eligible after 10 s (cred_expire; 120 by default), the scheduler every 2 s
s="$work/slurm"
mkdir -p "$s/state" "$s/spool"
cat > "$s/slurm.conf" <<CONF
ClusterName=grovetest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$work/munge/sock,cred_expire=10
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=2
SlurmdParameters=config_overrides
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=600
KillWait=2
JobRequeue=1
NodeName=grovenode NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=grove Nodes=grovenode Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$s/slurm.conf" slurm_up=1
slurmctld -D -c -f "$SLURM_CONF" > "$s/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N grovenode -f "$SLURM_CONF" > "$s/slurmd.out" 2>&1 &
pids+=($!)
wait_for 60 '[ "$(sinfo -h -o %t 2> /dev/null)" = idle ]' || { show_logs; die "the Slurm node was not idle within 60 s"; }

# the world: the valley preset made chunked (its heightmap, river, roads and houses in valley/)
mkdir "$work/world" "$work/out"
cp -r "$root/presets/valley" "$root/presets/valley.grove.yaml" "$work/world/"
sed -i 's/^  seed: 42$/  seed: 42\n  chunk: 128/' "$work/world/valley.grove.yaml"
grep -q 'chunk: 128' "$work/world/valley.grove.yaml" || die "could not make the valley chunked"
"$cli" eval "$work/world/valley.grove.yaml" --quiet -o "$work/single.json" || die "the single run failed"

# the grove-cli the tasks run: shard 2 the Clang build, shard 3 fails on its first try, shard
# $GROVE_TEST_BROKEN_SHARD fails every time; each run is logged as "SHARD COMPILER"
cat > "$work/grove-cli" <<WRAP
#!/usr/bin/env bash
shard=""; prev=""
for a in "\$@"; do [ "\$prev" = --shard ] && shard="\${a%/*}"; prev="\$a"; done
if [ -n "\$shard" ] && [ "\$shard" = "\${GROVE_TEST_BROKEN_SHARD:-}" ]; then
  echo "\$shard broken" >> "$work/ran.log"; echo "test: shard \$shard is broken for good" >&2; exit 3
fi
if [ "\$shard" = 3 ] && mkdir "$work/shard-3-failed-once" 2> /dev/null; then
  echo "3 failed-once" >> "$work/ran.log"; echo "test: shard 3 fails on its first try" >&2; exit 3
fi
if [ "\$shard" = 2 ]; then echo "2 clang" >> "$work/ran.log"; exec "$clang" "\$@"; fi
[ -n "\$shard" ] && echo "\$shard gcc" >> "$work/ran.log"
exec "$cli" "\$@"
WRAP
chmod +x "$work/grove-cli"
check "GROVE_CLANG_CLI was built by Clang" 'readelf -p .comment "$clang" 2> /dev/null | grep -q "clang version"'

# bounded wait for a job (and what it depends on) to leave the queue
wait_job() { job="$1"; wait_for 150 '[ -z "$(squeue -h -j "$job" 2> /dev/null)" ] && scontrol show job "$job" > /dev/null'; }
state() { scontrol show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1; }

cd "$work/out"
merge="$(GROVE_CLI="$work/grove-cli" "$root/app/deploy/slurm/submit.sh" "$work/world/valley.grove.yaml" 8 "$work/out/world.json")"
check "submit.sh printed the merge job's id" '[[ "$merge" =~ ^[0-9]+$ ]]'
wait_job "$merge" || { show_logs; die "the merge job $merge was still queued after 150 s: $(squeue -h 2>&1)"; }
check "the merge job completed" '[ "$(state "$merge")" = COMPLETED ]'
check "8 shards merged by Slurm: the single run's bytes" 'cmp -s "$work/single.json" "$work/out/world.json"'
check "shard 3 failed once and ran again" '[ "$(grep -c "^3 " "$work/ran.log")" = 2 ] && grep -q "^3 gcc" "$work/ran.log"'
check "shard 2 ran the Clang build, the others the g++ build" \
  '[ "$(grep -c "^2 clang" "$work/ran.log")" = 1 ] && [ "$(grep -c " gcc$" "$work/ran.log")" = 7 ]'
check "nothing left beside the world" '[ "$(ls -A "$work/out")" = world.json ]'

rm -f "$work/out/world.json" "$work/ran.log"
merge="$(GROVE_CLI="$work/grove-cli" GROVE_TEST_BROKEN_SHARD=5 "$root/app/deploy/slurm/submit.sh" "$work/world/valley.grove.yaml" 8 "$work/out/world.json")"
wait_job "$merge" || { show_logs; die "the merge job $merge was still queued after 150 s: $(squeue -h 2>&1)"; }
check "a shard broken for good: the merge job failed" '[ "$(state "$merge")" = FAILED ]'
check "a shard broken for good: it ran 3 times" '[ "$(grep -c "^5 broken" "$work/ran.log")" = 3 ]'
check "a shard broken for good: nothing written" '[ ! -e "$work/out/world.json" ]'
check "a shard broken for good: no parts left" '[ -z "$(find "$work/out" -name "*part*")" ]'
check "a shard broken for good: the merge log names shard 5/8 and its error" \
  'grep -q "shard 5/8 failed on try 3 of 3" "$work"/out/.grove-slurm-*/logs/merge.log && grep -q "broken for good" "$work"/out/.grove-slurm-*/logs/merge.log'
cat "$work"/out/.grove-slurm-*/logs/merge.log
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
