#!/usr/bin/env bash
# app/deploy/parallel.sh over ssh to hosts that share no folder with this one: an sshd started
# here on a free loopback port (its own config and host key in a temporary folder) and two users
# made here, each with a home of their own and grove-cli in it, are the two "hosts". A chunked
# world that reads four files, in 8 shards over both, is the single run's bytes; a shard failing
# once is retried; one failing for good writes nothing; nothing is left in either home. Needs
# root (users, sshd). Usage: check-ssh.sh GROVE_CLI
set -uo pipefail
cli="$(realpath "${1:?usage: check-ssh.sh GROVE_CLI}")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
die() { echo "check-ssh.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (it adds two users and starts an sshd)"
for c in /usr/sbin/sshd ssh ssh-keygen rsync parallel useradd userdel; do
  command -v "$c" > /dev/null || die "$c is missing: apt-get install openssh-server rsync parallel"
done

work="$(mktemp -d /tmp/grove-ssh-test-XXXXXX)"
chmod 755 "$work"
tag="$(basename "$work" | tr -dc 'a-zA-Z0-9' | tail -c 6 | tr 'A-Z' 'a-z')"
users=("grovea$tag" "groveb$tag")
made=() sshd_pid=""
cleanup() {
  for h in host0 host1; do ssh -F "$work/ssh_config" -O exit "$h" > /dev/null 2>&1; done
  [ -n "$sshd_pid" ] && kill "$sshd_pid" 2> /dev/null
  for u in "${made[@]}"; do
    for p in $(ps -o pid= -u "$u" 2> /dev/null); do kill -9 "$p" 2> /dev/null; done
    userdel "$u" 2> /dev/null
  done
  [ -n "${GROVE_TEST_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
passed=0 failed=0
check() { if eval "$2"; then echo "ok   $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }
wait_for() { local cap="$1"; shift; for _ in $(seq $((cap * 2))); do eval "$1" && return 0; sleep 0.5; done; return 1; }
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

# two users, each a home of its own with grove-cli in ~/bin (installed on the "host") and the key
ssh-keygen -q -t ed25519 -N '' -f "$work/id" -C grove-test || die "ssh-keygen failed"
mkdir "$work/homes"
# the hosts' grove-cli: the real one, but shard 3 fails on its first try (over both hosts) and a
# shard with a file marks/broken-K fails every time; marks/ran.log says which user ran which shard
mkdir -m 1777 "$work/marks"
install -m 666 /dev/null "$work/marks/ran.log"
cat > "$work/grove-cli" <<WRAP
#!/usr/bin/env bash
shard=""; prev=""
for a in "\$@"; do [ "\$prev" = --shard ] && shard="\${a%/*}"; prev="\$a"; done
if [ -n "\$shard" ] && [ -e "$work/marks/broken-\$shard" ]; then echo "test: shard \$shard is broken for good" >&2; exit 3; fi
if [ "\$shard" = 3 ] && mkdir "$work/marks/shard-3-failed-once" 2> /dev/null; then echo "test: shard 3 fails once" >&2; exit 3; fi
[ -n "\$shard" ] && echo "\$shard \$(id -un)" >> "$work/marks/ran.log"
exec "\$HOME/bin/grove-cli.real" "\$@"
WRAP
chmod 755 "$work/grove-cli"
for u in "${users[@]}"; do
  id "$u" > /dev/null 2>&1 && die "user $u exists already"
  useradd -M -d "$work/homes/$u" -s /bin/bash -p "*" "$u" || die "useradd $u failed"  # "*": no password, not locked
  made+=("$u")
  mkdir -p "$work/homes/$u/.ssh" "$work/homes/$u/bin"
  cp "$work/id.pub" "$work/homes/$u/.ssh/authorized_keys"
  cp "$cli" "$work/homes/$u/bin/grove-cli.real"
  cp "$work/grove-cli" "$work/homes/$u/bin/grove-cli"
  echo "PATH=$work/homes/$u/bin:/usr/local/bin:/usr/bin:/bin" > "$work/homes/$u/.ssh/environment"
  chown -R "$u:" "$work/homes/$u"
  chmod 700 "$work/homes/$u" "$work/homes/$u/.ssh"
done

mkdir -p /run/sshd  # sshd's privilege separation folder (Debian's package makes it at boot)
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key" || die "ssh-keygen failed"
cat > "$work/sshd_config" <<CONF
ListenAddress 127.0.0.1
Port $port
HostKey $work/host_key
PidFile $work/sshd.pid
AuthorizedKeysFile .ssh/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitUserEnvironment yes
AllowUsers ${users[*]}
MaxStartups 100
MaxSessions 100
CONF
/usr/sbin/sshd -D -e -f "$work/sshd_config" 2> "$work/sshd.log" &
sshd_pid=$!
{
  for i in 0 1; do
    printf 'Host host%s\n  HostName 127.0.0.1\n  Port %s\n  User %s\n' "$i" "$port" "${users[$i]}"
  done
  # one connection a host, shared by parallel's ssh and rsync calls (closed by cleanup)
  printf 'Host *\n  IdentityFile %s\n  IdentitiesOnly yes\n  BatchMode yes\n  StrictHostKeyChecking no\n  UserKnownHostsFile %s\n  LogLevel ERROR\n' \
    "$work/id" "$work/known_hosts"
  printf '  ControlMaster auto\n  ControlPath %s/cm-%%r\n  ControlPersist 120\n' "$work"
} > "$work/ssh_config"
ssh_cmd="ssh -F $work/ssh_config"
wait_for 30 '$ssh_cmd host0 true 2> /dev/null' || { cat "$work/sshd.log" >&2; die "no ssh login to ${users[0]} on 127.0.0.1:$port within 30 s"; }
check "the two hosts are two users with their own homes" \
  '[ "$($ssh_cmd host0 "echo \$HOME")" = "$work/homes/${users[0]}" ] && [ "$($ssh_cmd host1 "echo \$HOME")" = "$work/homes/${users[1]}" ]'

# the world: the valley preset made chunked (its heightmap, river, roads and houses in valley/), in
# a folder only root can read: the hosts see the graph and its files only if they are sent
mkdir -m 700 "$work/world"
mkdir "$work/out"
cp -r "$root/presets/valley" "$root/presets/valley.grove.yaml" "$work/world/"
sed -i 's/^  seed: 42$/  seed: 42\n  chunk: 128/' "$work/world/valley.grove.yaml"
grep -q 'chunk: 128' "$work/world/valley.grove.yaml" || die "could not make the valley chunked"
"$cli" eval "$work/world/valley.grove.yaml" --quiet -o "$work/single.json" || die "the single run failed"
check "the hosts cannot read the graph where it is" '! $ssh_cmd host0 "cat $work/world/valley.grove.yaml" > /dev/null 2>&1'
leftovers() { find "$work/homes" -mindepth 2 -not -path "*/.ssh*" -not -path "*/bin*" -not -path "*/.parallel" -not -path "*/.parallel/tmp"; }

export GROVE_CLI="$cli"
"$root/app/deploy/parallel.sh" --ssh "$ssh_cmd" --sshlogin 2/host0,2/host1 --retries 2 \
  "$work/world/valley.grove.yaml" 8 "$work/out/world.json" 2> "$work/run.err"
check "8 shards over two hosts: exit 0" '[ $? -eq 0 ] || { cat "$work/run.err"; false; }'
check "8 shards over two hosts: the single run's bytes" 'cmp -s "$work/single.json" "$work/out/world.json"'
check "both hosts ran shards" 'grep -q " ${users[0]}$" "$work/marks/ran.log" && grep -q " ${users[1]}$" "$work/marks/ran.log"'
check "shard 3 failed once and was retried" '[ -d "$work/marks/shard-3-failed-once" ] && [ "$(grep -c "^3 " "$work/marks/ran.log")" = 1 ]'
check "every shard ran once to the end" '[ "$(cut -d" " -f1 "$work/marks/ran.log" | sort -n | tr "\n" " ")" = "0 1 2 3 4 5 6 7 " ]'
check "nothing left beside the world" '[ "$(ls -A "$work/out")" = world.json ]'
check "nothing left in the hosts' homes" '[ -z "$(leftovers)" ] || { leftovers; false; }'

rm -f "$work/out/world.json"
touch "$work/marks/broken-2"
"$root/app/deploy/parallel.sh" --ssh "$ssh_cmd" --sshlogin 2/host0,2/host1 --retries 2 \
  "$work/world/valley.grove.yaml" 4 "$work/out/world.json" 2> "$work/broken.err"
rc=$?
check "a shard broken for good: exit $rc, not 0" '[ "$rc" -ne 0 ]'
check "a shard broken for good: its message is shown" 'grep -q "shard 2 is broken for good" "$work/broken.err"'
check "a shard broken for good: nothing written, no parts left" '[ -z "$(ls -A "$work/out")" ]'
check "a shard broken for good: nothing left in the hosts' homes" '[ -z "$(leftovers)" ] || { leftovers; false; }'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
