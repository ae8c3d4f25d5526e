#!/usr/bin/env bash
# The layering check fails, naming the file, the line and the rule, on a tree that breaks each rule once
# (tests/layering/broken, plus a 601-line file made here), and passes once the breaks are gone.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
py="${PYTHON:-python3}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cp -r "$here/broken" "$tmp/tree"
for i in $(seq 601); do echo "// line $i"; done > "$tmp/tree/tests/tst_long.cpp"
set +e; "$py" "$here/check-layering.py" "$tmp/tree" > "$tmp/out"; rc=$?; set -e
cat "$tmp/out"
[ "$rc" = 1 ] || { echo "FAIL: exit $rc, expected 1"; exit 1; }
expect() { grep -qF -- "$1" "$tmp/out" || { echo "FAIL: no line with: $1"; exit 1; }; }
expect 'core/low/Low.cpp:2: [subsystem-uses] includes "core/high/High.h": core/low may use nothing'
expect 'core/low/Low.cpp:3: [qt-in-core] includes <QString>'
expect 'core/low/Low.cpp:4: [core-full-path] includes "Low.h"'
expect 'core/low/Low.cpp:5: [core-upward] includes "app/cli/Tool.h"'
expect 'app/cli/Tool.cpp:1: [shipped-tests] includes "tests/Helper.h"'
expect 'nodes/SomeNode.cpp:1: [nodes-upward] includes "app/editor/panel/Panel.h"'
expect 'app/editor/common/Style.h:2: [subsystem-uses] includes "panel/Panel.h": app/editor/common may use nothing'
expect 'tests/tst_long.cpp:601: [file-size] 601 lines'
n=$(grep -c '^[a-z].*: \[' "$tmp/out")
[ "$n" = 8 ] || { echo "FAIL: $n broken rules reported, expected exactly the 8 above (allowed includes were flagged)"; exit 1; }
# mended, the same tree passes
sed -i '2,5d' "$tmp/tree/core/low/Low.cpp"; sed -i '1d' "$tmp/tree/app/cli/Tool.cpp" "$tmp/tree/nodes/SomeNode.cpp"
sed -i '2d' "$tmp/tree/app/editor/common/Style.h"; sed -i '600,$d' "$tmp/tree/tests/tst_long.cpp"
"$py" "$here/check-layering.py" "$tmp/tree" || { echo "FAIL: the mended tree still fails"; exit 1; }
echo "check-broken: every rule caught at its line, and the mended tree passes"
