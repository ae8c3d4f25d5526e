#!/usr/bin/env bash
# Every preset's exports, in every format, against the digests pinned in presets.sha256: a change
# of bytes fails here until the pins are updated in the same commit.
#   check-pins.sh GROVE_CLI            compare (exit 1 and the changed files when any differ)
#   check-pins.sh GROVE_CLI --update   rewrite presets.sha256 from this grove-cli's exports
# GROVE_SIMD=avx512|avx2|sse2 forces a vector path (exit 77, a skip, when the CPU lacks it).
set -euo pipefail
cli="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
pins="$here/presets.sha256"
if [ "${GROVE_SIMD:-}" = avx2 ] && ! grep -qw avx2 /proc/cpuinfo; then
  echo "check-pins: this CPU has no AVX2"; exit 77
fi
if [ "${GROVE_SIMD:-}" = avx512 ] && ! grep -qw avx512f /proc/cpuinfo; then
  echo "check-pins: this CPU has no AVX-512"; exit 77
fi
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
"$here/export-presets.sh" "$cli" "$tmp/out"
(cd "$tmp/out" && LC_ALL=C sha256sum -- * | LC_ALL=C sort -k2) > "$tmp/now.sha256"
if [ "${2:-}" = --update ]; then
  cp "$tmp/now.sha256" "$pins"
  echo "check-pins: wrote $(wc -l < "$pins") digests to $pins"
  exit 0
fi
if ! diff -u "$pins" "$tmp/now.sha256" > "$tmp/diff"; then
  echo "check-pins: exports differ from tests/pins/presets.sha256 (${GROVE_SIMD:+GROVE_SIMD=$GROVE_SIMD, }$cli):"
  grep '^[-+][0-9a-f]' "$tmp/diff" || true
  echo "If the change is meant, update the pins in the same commit: tests/pins/check-pins.sh $cli --update"
  exit 1
fi
echo "check-pins: $(wc -l < "$pins") exports match their pins${GROVE_SIMD:+ (GROVE_SIMD=$GROVE_SIMD)}"
