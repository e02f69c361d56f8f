#!/usr/bin/env bash
# Sets up and builds grb (scripts/setup.sh), then runs `grb demo`: BFS, SSSP and CC on a
# Graph500 Kronecker graph on every available backend, validated, as one table.
# Arguments go to `grb demo` (e.g. --scale 20).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
"$GRB_BUILD_DIR/apps/grb" demo "$@"
