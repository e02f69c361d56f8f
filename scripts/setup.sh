#!/usr/bin/env bash
# Prepares a Debian machine for grb and builds it: installs (apt-get) only the packages that are
# missing, then configures and builds with the cuda preset when nvcc is found, else the cpu one.
# Source it (as demo.sh and test.sh do) to get GRB_PRESET and GRB_BUILD_DIR.
set -euo pipefail

GRB_SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packages=(cmake ninja-build g++ doctest-dev libcli11-dev nlohmann-json3-dev libgraphblas-dev
          python3-matplotlib clang libclang-rt-dev openmpi-bin libopenmpi-dev openssh-client)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}" >&2
  as_root=()
  if [[ $(id -u) -ne 0 ]]; then as_root=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" < /dev/null
fi

# The CUDA toolkit installs nvcc outside PATH.
if ! command -v nvcc > /dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
GRB_PRESET=cpu
if command -v nvcc > /dev/null; then GRB_PRESET=cuda; fi
GRB_BUILD_DIR="$GRB_SOURCE_DIR/build/$GRB_PRESET"

cd "$GRB_SOURCE_DIR"
cmake --preset "$GRB_PRESET"
cmake --build --preset "$GRB_PRESET" --parallel "$(nproc)"
