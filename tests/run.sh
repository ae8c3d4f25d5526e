#!/usr/bin/env bash
# Sets up and builds Grove, then runs every test, in stages whose times it reports at the end
# (and writes to <build>/stage-times.txt):
#   packages       what is missing: Debian packages, the npm readers, the German locale
#   build          everything, warnings as errors (GROVE_WERROR), into build/
#   compilers      grove-cli alone again with Clang (warnings as errors) and with g++ -O0, for
#                  presets_same_bytes_every_build and deploy_slurm (GROVE_CLANG_CLI, GROVE_O0_CLI)
#   tests          every test under CTest: the Qt Test suites, the goldens against the seed
#                  JavaScript, grove-cli end to end, bad input, the fuzz corpus, the manual
#   locale         the suites labelled `locale` again under a German locale (a decimal comma)
#   asan           core, nodes, grove-cli, libgrove, the editor and their suites again under
#                  AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer
#   tsan           the threaded suites (the preview's chunk prefetch, exports, libgrove's threads)
#                  under ThreadSanitizer
#   tidy           clang-tidy (.clang-tidy) on the Qt-free C++ (core, nodes, app/cli, capi, bench)
#                  changed since the commit in .ci/tidy-base
# Switches (1 on, 0 off): GROVE_COMPILERS_STAGE, GROVE_SANITIZE_STAGE (asan),
# GROVE_EDITOR_SANITIZE (the editor inside asan), GROVE_TSAN_STAGE, GROVE_TIDY_STAGE; all on.
# Extra arguments go to every ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GROVE_BUILD_DIR:-$root/build}"
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
apt_install() {  # PACKAGE...: the ones not installed yet, from Debian
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "grove: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends \
    "${missing[@]}" > /dev/null
}

# each stage's wall-clock seconds, reported when the script ends (passed or not)
stage_names=(); stage_secs=(); stage=""; stage_t0=0; run_t0=$(date +%s)
close_stage() {
  [ -n "$stage" ] || return 0
  stage_names+=("$stage"); stage_secs+=($(( $(date +%s) - stage_t0 ))); stage=""
}
begin_stage() { close_stage; stage="$1"; stage_t0=$(date +%s); echo "grove: [$1] $2"; }
report_stages() {
  local rc=$? i
  close_stage
  mkdir -p "$build"
  {
    echo "grove: stage times in seconds ($([ $rc -eq 0 ] && echo passed || echo "FAILED, exit $rc"))"
    for i in "${!stage_names[@]}"; do printf '  %-10s %6d\n' "${stage_names[$i]}" "${stage_secs[$i]}"; done
    printf '  %-10s %6d\n' total $(( $(date +%s) - run_t0 ))
    # a full disk fails a link with "No space left on device": say how much was left, and where
    echo "grove: $(df -h --output=avail "$build" | tail -1 | tr -d ' ') free on the disk of $build"
  } | tee "$build/stage-times.txt"
}
trap report_stages EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
enabled() { [ "${!1:-1}" != "0" ]; }  # a stage switch, on unless set to 0

# a build of everything with its sanitizer builds takes 3.4 GB (docs/contributing.md, "Disk")
echo "grove: $(df -h --output=avail "$root" | tail -1 | tr -d ' ') free on the disk of $root"
begin_stage packages "what is missing (Debian packages, npm readers, the German locale)"
# the manual (docs/): Sphinx, MyST and the furo theme, before CMake looks for sphinx-build
apt_install python3-sphinx python3-myst-parser furo
# the Python package's tests (tests/python: numpy arrays, an offline pip install into a venv),
# before CMake picks their interpreter
apt_install python3-numpy python3-pip python3-venv
# the Blender add-on's test (tests/blender: a headless Blender 3.4 on the system python3 and numpy),
# before CMake looks for blender; about 140 packages, 3 minutes to install here
apt_install blender
# the Unity package's C# binding (tests/mono: mcs compiles it with its test, mono runs it on libgrove),
# before CMake looks for mcs and mono
apt_install mono-devel
GROVE_SETUP_PACKAGES_ONLY=1 "$root/app/setup.sh"
# app/deploy's schedulers, started by deploy_slurm and deploy_ssh on this machine (they run as root):
# Slurm and munge, an sshd, rsync for GNU parallel's transfers
apt_install slurm-wlm munge openssh-server rsync
# Clang for the compilers stage and the sanitizer builds (its runtimes: libclang-rt-14-dev)
{ enabled GROVE_COMPILERS_STAGE || enabled GROVE_SANITIZE_STAGE || enabled GROVE_TSAN_STAGE; } && apt_install clang
{ enabled GROVE_SANITIZE_STAGE || enabled GROVE_TSAN_STAGE; } && apt_install libclang-rt-14-dev
enabled GROVE_TIDY_STAGE && apt_install clang-tidy
# the engine exports' independent readers (glTF-Validator, glTF-Transform), pinned by the lockfile
if [ ! -d "$root/tests/engines/node_modules/gltf-validator" ]; then
  command -v npm > /dev/null || apt_install npm  # Debian's nodejs comes without it; NodeSource's has it
  npm ci --prefix "$root/tests/engines" --no-audit --no-fund --loglevel=error
fi
# app/deploy/k8s's manifests against the Kubernetes API's schema (kubernetes-models), pinned by the lockfile
if [ ! -d "$root/tests/deploy/k8s-schema/node_modules/kubernetes-models" ]; then
  npm ci --prefix "$root/tests/deploy/k8s-schema" --no-audit --no-fund --loglevel=error
fi
# the locale pass's German locale (a decimal comma), generated as a designer's system has it
if ! locale -a 2>/dev/null | grep -qx 'de_DE.utf8'; then
  apt_install locales
  $sudo sed -i 's/^# *de_DE.UTF-8 UTF-8/de_DE.UTF-8 UTF-8/' /etc/locale.gen
  $sudo locale-gen > /dev/null
fi

begin_stage build "everything, warnings as errors"
"$root/app/setup.sh" -DGROVE_BUILD_APP=ON -DGROVE_BUILD_TESTS=ON -DGROVE_WERROR=ON

# grove-cli alone from two more builds, whose exports must be the main build's bytes: Debian's
# Clang, and g++ without optimisation (no library, editor, tests or benchmarks)
if enabled GROVE_COMPILERS_STAGE; then
  begin_stage compilers "grove-cli with Clang (warnings as errors) and with g++ -O0"
  minimal=(-DGROVE_BUILD_APP=OFF -DGROVE_BUILD_TESTS=OFF -DGROVE_BUILD_BENCH=OFF -DGROVE_BUILD_CAPI=OFF)
  cli_build() {  # DIR CC CXX CMAKE_ARGS...: grove-cli alone, the log shown on failure
    local dir="$1" cc="$2" cxx="$3"; shift 3
    mkdir -p "$dir"
    CC="$cc" CXX="$cxx" GROVE_BUILD_DIR="$dir" GROVE_BUILD_TARGETS=grove-cli "$root/app/setup.sh" "${minimal[@]}" "$@" \
      > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
  }
  cli_build "$build-clang" clang clang++ -DGROVE_WERROR=ON
  cli_build "$build-O0" gcc g++ -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O0
  export GROVE_CLANG_CLI="$build-clang/app/grove-cli" GROVE_O0_CLI="$build-O0/app/grove-cli"
fi

begin_stage tests "every test"
(cd "$build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)" "$@")

# the core, CLI and editor suites that read and write numbers, as a designer in Germany runs them:
# every category German (numbers with a decimal comma) but the C library's messages, which the
# suites' expected errors quote in English ("No such file or directory")
begin_stage locale "the locale suites again under LANG=de_DE.UTF-8"
(cd "$build" && env -u LC_ALL LANG=de_DE.UTF-8 LC_MESSAGES=C QT_QPA_PLATFORM=offscreen \
   ctest --output-on-failure -j "$(nproc)" -L locale "$@")

# The sanitizer builds use Clang with line tables only (-g1): GCC's instrumented -O2 -g build of a
# core source took 4x Clang's (40 s against 9), and the sanitizers' stacks still name lines. -O2,
# not -O1: at -O1 the chunk suites ran past Qt Test's 5 minutes a function under ASan. Qt Test's
# limit is raised for these builds all the same (tests/CMakeLists.txt, for GROVE_SANITIZE).
# instrumented code runs several times slower: waits for a long preview run get five times longer
sanitized_env=(GROVE_TEST_PATIENCE=5)
sanitizer_build() {  # DIR CMAKE_ARGS...: a sanitizer build into DIR (targets: GROVE_BUILD_TARGETS)
  local dir="$1"; shift
  CC=clang CXX=clang++ GROVE_BUILD_DIR="$dir" "$root/app/setup.sh" -DGROVE_BUILD_TESTS=ON -DGROVE_BUILD_BENCH=OFF \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "$@"
}

if enabled GROVE_SANITIZE_STAGE; then
  editor=ON; enabled GROVE_EDITOR_SANITIZE || editor=OFF
  begin_stage asan "build with ASan + UBSan + LSan (editor: $editor)"
  # warnings are the main build's and the Clang grove-cli's business
  sanitizer_build "$build-sanitize" -DGROVE_SANITIZE=ON -DGROVE_BUILD_APP=$editor
  # the oracle check compares data, not code, and the schedulers', compilers' and manual's runs
  # compare bytes across builds or start daemons: once is enough. tst_cli_chunks runs grove-cli
  # end to end over a hundred times on chunked worlds (448 s under ASan on 2 cores, 45 s without):
  # the chunk code it drives runs here in tst_chunks, tst_export and libgrove's tests.
  # vector_exits reads the main build's machine code: ASan's checks call out of the kernels.
  (cd "$build-sanitize" && env "${sanitized_env[@]}" ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
     LSAN_OPTIONS="suppressions=$root/tests/lsan-editor.supp" \
     QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)" \
       -E '^(oracle_goldens_current|deploy_slurm|deploy_ssh|presets_same_bytes_every_build|presets_pinned.*|docs_.*|bench_.*|tst_cli_chunks|vector_exits.*)$' "$@")
fi

if enabled GROVE_TSAN_STAGE; then
  begin_stage tsan "the threaded suites under ThreadSanitizer"
  # Chunks are placed on threads by the preview's prefetch (tst_preview_chunks), exports
  # (tst_export), libgrove's calls from many threads (capi_c), its streaming sessions' workers
  # beside the caller's updates (capi_session), and chunks placed on threads among an endless
  # filtered layer's kept points (tst_endless_refinements). Too slow under TSan: tst_chunks
  # (past 10 minutes), tst_preview_controller (its millions of points outwait its 60 s bounds),
  # tst_cli_chunks (grove-cli end to end). Python with Clang's TSan runtime preloaded crashes at
  # start, so libgrove's threads are the C test's.
  threaded=(tst_preview_chunks tst_export capi_test session_test tst_endless_refinements)
  threaded_tests=(tst_preview_chunks tst_export capi_c capi_session tst_endless_refinements)
  GROVE_BUILD_TARGETS="${threaded[*]}" sanitizer_build "$build-tsan" -DGROVE_SANITIZE=thread -DGROVE_BUILD_APP=ON
  (cd "$build-tsan" && env "${sanitized_env[@]}" TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/tests/tsan.supp" \
     QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$(nproc)" \
     -R "^($(IFS='|'; echo "${threaded_tests[*]}"))\$" "$@")
fi

if enabled GROVE_TIDY_STAGE; then
  # .ci/tidy-base names the base of the newest landing: a landing checks what it changed (and
  # moves the base); tests/tidy-changed.sh --all checks everything
  begin_stage tidy "clang-tidy on the Qt-free C++ changed since .ci/tidy-base"
  "$root/tests/tidy-changed.sh" "$(cat "$root/.ci/tidy-base")" "$build-tidy"
fi
