#!/usr/bin/env bash
# Sets up and builds grb (scripts/setup.sh), then runs every test. The test graphs are read
# from $GRB_DATA_DIR, else tests/data in this checkout.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
# ctest shows a test's own output only when it fails, so say here which backends the tests run
# on (without a GPU the cuda cases are skipped; the test binaries print the same line).
"$GRB_BUILD_DIR/tests/test_matrix_vector" --no-run=true
ctest --preset "$GRB_PRESET" --output-on-failure --parallel "$(nproc)"
