#!/usr/bin/env bash
# Builds the cpu backend and the test suite with AddressSanitizer + UndefinedBehaviorSanitizer
# (build/asan: RelWithDebInfo, -fsanitize=address,undefined -fno-omit-frame-pointer, GRB_CUDA=OFF)
# and runs ctest there. Any sanitizer report fails the test that raised it.
#
#   scripts/sanitize.sh [--build-only] [CTEST ARGS...]      e.g. scripts/sanitize.sh -R test_io
#
# Environment: CXX (default: c++, i.e. g++ on Debian; clang++ works too), GRB_SANITIZE_JOBS (build
# and ctest parallelism, default: the number of cores), GRB_SANITIZE_BUILD_DIR (default
# build/asan), GRB_DATA_DIR (the test graphs, default tests/data), GRB_SANITIZE_TARGETS (build
# only these targets, e.g. "test_io test_io_errors", and run only the tests among them).
# The sanitizer flags go in through CXXFLAGS / LDFLAGS, so that the projects the tests configure
# themselves (tests/consumer, built against the installed grb) are instrumented the same way.
set -euo pipefail

source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${GRB_SANITIZE_BUILD_DIR:-$source_dir/build/asan}"
jobs="${GRB_SANITIZE_JOBS:-$(nproc)}"
build_only=0
if [[ "${1:-}" == "--build-only" ]]; then build_only=1; shift; fi

sanitizers="-fsanitize=address,undefined -fno-omit-frame-pointer"
export CXXFLAGS="${CXXFLAGS:+$CXXFLAGS }$sanitizers"
export LDFLAGS="${LDFLAGS:+$LDFLAGS }-fsanitize=address,undefined"
export CXX="${CXX:-c++}"
generator=()
if [[ ! -f "$build_dir/CMakeCache.txt" ]] && command -v ninja > /dev/null; then generator=(-G Ninja); fi
cmake -S "$source_dir" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGRB_CUDA=OFF -DGRB_BUILD_TESTS=ON -DGRB_BUILD_APPS=ON
targets=()
read -r -a tests <<< "${GRB_SANITIZE_TARGETS:-}"
if ((${#tests[@]} > 0)); then targets=(--target "${tests[@]}"); fi
cmake --build "$build_dir" --parallel "$jobs" "${targets[@]}"
((build_only)) && exit 0
if ((${#tests[@]} > 0)); then
  pattern=$(IFS='|'; echo "${tests[*]}")
  set -- -R "^($pattern)\$" "$@"
fi

# halt_on_error: the first UBSan report ends the test with a failure (ASan always does).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
cd "$build_dir"
ctest --output-on-failure --parallel "$jobs" "$@"
