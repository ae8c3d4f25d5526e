#!/usr/bin/env bash
# cmake --install into a temporary prefix, then a C program built against the installed grove.h
# and libgrove.so alone. Usage: check-install.sh BUILD_DIR C_COMPILER SOURCE [extra compiler flags]
set -euo pipefail
build="$1"; cc="$2"; src="$3"; shift 3
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > /dev/null
test -f "$prefix/include/grove.h" || { echo "no include/grove.h installed"; exit 1; }
libdir="$(dirname "$(ls "$prefix"/lib*/libgrove.so)")"
"$cc" -std=c11 -Wall -Wextra -Werror -pedantic "$@" "$src" -I"$prefix/include" -L"$libdir" -lgrove \
  -Wl,-rpath,"$libdir" -o "$prefix/use"
"$prefix/use"
