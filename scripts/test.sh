#!/usr/bin/env bash
# Sets up and builds grb (scripts/setup.sh), then runs every test, then every graph reader's
# fuzzer for a short while. The test graphs are read from $GRB_DATA_DIR, else tests/data in
# this checkout.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# ctest shows a test's own output only when it fails, so say here which backends the tests run
# on (without a GPU the cuda cases are skipped; the test binaries print the same line).
"$GRB_BUILD_DIR/tests/test_matrix_vector" --no-run=true
ctest --preset "$GRB_PRESET" --output-on-failure --parallel "$(nproc)"
# Every graph reader under libFuzzer (clang, ASan, UBSan) for a bounded time from its seed corpus:
# GRB_FUZZ_SECONDS per target (0 skips). scripts/fuzz.sh runs them longer.
if (( ${GRB_FUZZ_SECONDS:-15} > 0 )); then
  GRB_FUZZ_JOBS="$(nproc)" "$GRB_SOURCE_DIR/scripts/fuzz.sh" --seconds "${GRB_FUZZ_SECONDS:-15}"
fi
