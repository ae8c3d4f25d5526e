#!/usr/bin/env bash
# Sets up and builds Grove, then runs every test under CTest (Qt Test suites, golden checks
# against the seed JavaScript, grove-cli end to end, the bad-input suite and the fuzz corpus),
# then the suites labelled `locale` again under a German locale (a decimal comma), then the same
# core, nodes, grove-cli and non-editor suites again under AddressSanitizer,
# UndefinedBehaviorSanitizer and LeakSanitizer. GROVE_SANITIZE_STAGE=0 skips that last stage.
# Before the tests, grove-cli alone is built twice more, with Clang and with g++ -O0, for
# presets_same_bytes_every_build and deploy_slurm (GROVE_CLANG_CLI, GROVE_O0_CLI);
# GROVE_COMPILERS_STAGE=0 skips it. Warnings are errors in the first build (GROVE_WERROR).
# Two more stages, off by default:
#   GROVE_EDITOR_SANITIZE=1  the sanitizer stage builds the editor too and runs its suites
#   GROVE_TSAN_STAGE=1       a ThreadSanitizer build runs the threaded suites (chunks, the preview
#                            controller, exports, the C API's threads)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GROVE_BUILD_DIR:-$root/build}"
# the manual (docs/): Sphinx, MyST and the furo theme from Debian, before CMake looks for sphinx-build
docs_packages=(python3-sphinx python3-myst-parser furo)
missing_docs=()
for p in "${docs_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing_docs+=("$p")
done
if [ ${#missing_docs[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing_docs[@]}" > /dev/null
fi
"$root/app/setup.sh" -DGROVE_BUILD_APP=ON -DGROVE_BUILD_TESTS=ON -DGROVE_WERROR=ON
# app/deploy's schedulers, started by deploy_slurm and deploy_ssh on this machine (they run as root):
# Slurm and munge, an sshd, rsync for GNU parallel's transfers
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null || [ ! -x /usr/sbin/sshd ] || ! command -v rsync > /dev/null; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends \
    slurm-wlm munge openssh-server rsync > /dev/null
fi
# the engine exports' independent readers (glTF-Validator, glTF-Transform), pinned by the lockfile
if [ ! -d "$root/tests/engines/node_modules/gltf-validator" ]; then
  if ! command -v npm > /dev/null; then  # Debian's nodejs comes without it; NodeSource's has it
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm > /dev/null
  fi
  npm ci --prefix "$root/tests/engines" --no-audit --no-fund --loglevel=error
fi
# app/deploy/k8s's manifests against the Kubernetes API's schema (kubernetes-models), pinned by the lockfile
if [ ! -d "$root/tests/deploy/k8s-schema/node_modules/kubernetes-models" ]; then
  npm ci --prefix "$root/tests/deploy/k8s-schema" --no-audit --no-fund --loglevel=error
fi
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
# the locale pass's German locale (a decimal comma), generated as a designer's system has it
if ! locale -a 2>/dev/null | grep -qx 'de_DE.utf8'; then
  dpkg-query -W -f='${Status}' locales 2>/dev/null | grep -q "install ok installed" \
    || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends locales > /dev/null
  $sudo sed -i 's/^# *de_DE.UTF-8 UTF-8/de_DE.UTF-8 UTF-8/' /etc/locale.gen
  $sudo locale-gen > /dev/null
fi

# grove-cli alone from two more builds, whose exports must be the main build's bytes: Debian's
# Clang, and g++ without optimisation (no library, editor, tests or benchmarks)
if [ "${GROVE_COMPILERS_STAGE:-1}" != "0" ]; then
  command -v clang++ > /dev/null || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang > /dev/null
  launcher=(); command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache) && export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  minimal=(-DGROVE_BUILD_APP=OFF -DGROVE_BUILD_TESTS=OFF -DGROVE_BUILD_BENCH=OFF -DGROVE_BUILD_CAPI=OFF "${launcher[@]}")
  echo "grove: building grove-cli with Clang and with g++ -O0"
  cli_build() {  # DIR CC CXX CMAKE_ARGS...: configure and build grove-cli, the log shown on failure
    local dir="$1" cc="$2" cxx="$3"; shift 3
    mkdir -p "$dir"
    { CC="$cc" CXX="$cxx" cmake -S "$root" -B "$dir" "${minimal[@]}" "$@" \
        && cmake --build "$dir" -j "$(nproc)" --target grove-cli; } > "$dir/build.log" 2>&1 \
      || { cat "$dir/build.log"; exit 1; }
  }
  cli_build "$build-clang" clang clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cli_build "$build-O0" gcc g++ -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O0
  export GROVE_CLANG_CLI="$build-clang/app/grove-cli" GROVE_O0_CLI="$build-O0/app/grove-cli"
fi

(cd "$build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)" "$@")
# the core, CLI and editor suites that read and write numbers, as a designer in Germany runs them:
# every category German (numbers with a decimal comma) but the C library's messages, which the
# suites' expected errors quote in English ("No such file or directory")
echo "grove: the locale suites again under LANG=de_DE.UTF-8"
(cd "$build" && env -u LC_ALL LANG=de_DE.UTF-8 LC_MESSAGES=C QT_QPA_PLATFORM=offscreen \
   ctest --output-on-failure -j "$(nproc)" -L locale "$@")

if [ "${GROVE_SANITIZE_STAGE:-1}" != "0" ]; then
  echo "grove: building and testing again with ASan + UBSan + LSan"
  editor=OFF
  [ "${GROVE_EDITOR_SANITIZE:-0}" != "0" ] && editor=ON  # the editor's suites too (same build: core once)
  # (warnings are the main build's business: GCC's instrumented builds warn falsely, e.g. -Wstringop-overflow)
  GROVE_BUILD_DIR="$build-sanitize" "$root/app/setup.sh" -DGROVE_SANITIZE=ON -DGROVE_BUILD_APP=$editor -DGROVE_BUILD_TESTS=ON \
    -DGROVE_BUILD_BENCH=OFF
  # the oracle check compares data, not code, and the schedulers' and compilers' runs compare
  # bytes across builds: once is enough
  (cd "$build-sanitize" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
     LSAN_OPTIONS="suppressions=$root/tests/lsan-editor.supp" \
     QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)" \
       -E '^(oracle_goldens_current|deploy_slurm|deploy_ssh|presets_same_bytes_every_build|presets_pinned.*|docs_.*)$' "$@")
fi

if [ "${GROVE_TSAN_STAGE:-0}" != "0" ]; then
  echo "grove: building the threaded suites with ThreadSanitizer"
  GROVE_BUILD_DIR="$build-tsan" "$root/app/setup.sh" -DGROVE_SANITIZE=thread -DGROVE_BUILD_APP=ON -DGROVE_BUILD_TESTS=ON \
    -DGROVE_BUILD_BENCH=OFF
  (cd "$build-tsan" && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/tests/tsan.supp" \
     QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)" \
     -R '^(tst_chunks|tst_cli_chunks|tst_preview_controller|tst_preview_chunks|tst_export|capi_c|capi_ctypes)$' "$@")
fi
