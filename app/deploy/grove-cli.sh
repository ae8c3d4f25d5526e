# Sourced by the deploy scripts: finds grove-cli (GROVE_CLI, else this repository's build, else
# PATH) into $cli as an absolute path, or stops with a message naming the script ($1).
_grove_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="${GROVE_CLI:-}"
if [ -z "$cli" ]; then
  if [ -x "$_grove_root/build/app/grove-cli" ]; then cli="$_grove_root/build/app/grove-cli"; else cli="$(command -v grove-cli || true)"; fi
fi
[ -n "$cli" ] && [ -x "$cli" ] || { echo "$1: no grove-cli: build it (app/setup.sh) or set GROVE_CLI (now '${GROVE_CLI:-}')" >&2; exit 2; }
cli="$(realpath "$cli")"
