#!/usr/bin/env bash
# Before and after a change, on the device: builds the `grb` command of a baseline source tree
# (BASELINE, e.g. `git archive` of the commit before) and of this tree, runs `grb bench` with the
# same arguments on both, graph by graph, the baseline first each time, and compares the two
# (benchmarks/compare.py: median over roots of each root's median time; slower than 5% marked).
#
#   scripts/compare-speed.sh BASELINE [grb bench arguments...]
#
# Default bench arguments: --graphs kron20,kron22,kron24,grid1000,grid2000 --algorithms bfs
# --roots 64 --backend cuda. GRB_SPEED_BUILD names the build folder of this tree (default
# build-speed; gpu-check.sh's build-gpu serves); GRB_SPEED_AFTER_FIRST=1 runs this tree first
# on each graph (the order a host- or clock-bound engine may feel). Logs and JSON lines go to $OUT (or
# ./compare-speed-logs). The exit status is compare.py's (1 when any engine is slower, or lost
# a root).
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
baseline="$(cd "${1:?usage: scripts/compare-speed.sh BASELINE [grb bench arguments...]}" && pwd)"
shift
logs="${OUT:-$root/compare-speed-logs}"
mkdir -p "$logs"
arguments=("$@")
((${#arguments[@]} > 0)) || arguments=(--algorithms bfs --roots 64 --backend cuda)
graphs="kron20,kron22,kron24,grid1000,grid2000"
rest=()
for ((k = 0; k < ${#arguments[@]}; ++k)); do
  if [[ ${arguments[k]} == --graphs ]]; then graphs=${arguments[k + 1]}; k=$((k + 1))
  else rest+=("${arguments[k]}"); fi
done
arguments=("${rest[@]}")

build() {  # source folder, build folder: configured once (a build folder of gpu-check.sh serves)
  if [[ ! -f "$2/CMakeCache.txt" ]]; then
    cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DGRB_CUDA=ON -DGRB_BUILD_TESTS=OFF > "$2.configure.log" 2>&1 || return 1
  fi
  cmake --build "$2" -j "$(nproc)" --target grb_command > "$2.build.log" 2>&1
}
after_build="${GRB_SPEED_BUILD:-$root/build-speed}"
start=$(date +%s)
build "$baseline" "$root/build-baseline" || { tail -20 "$root/build-baseline.build.log"; exit 2; }
build "$root" "$after_build" || { tail -20 "$after_build.build.log"; exit 2; }
echo "built both in $(( $(date +%s) - start )) s"

: > "$logs/before.jsonl"
: > "$logs/after.jsonl"
sides="before after"
[[ -n "${GRB_SPEED_AFTER_FIRST:-}" ]] && sides="after before"  # to see an order effect
for graph in ${graphs//,/ }; do
  for side in $sides; do
    folder="$root/build-baseline"; [[ $side == after ]] && folder="$after_build"
    "$folder/apps/grb" bench --graphs "$graph" "${arguments[@]}" --json "$logs/$side-$graph.jsonl" \
      >> "$logs/$side.txt" 2>> "$logs/$side.log" || echo "$side $graph: grb bench failed (see $side.log)"
    cat "$logs/$side-$graph.jsonl" >> "$logs/$side.jsonl"
  done
done
python3 "$root/benchmarks/compare.py" "$logs/before.jsonl" "$logs/after.jsonl" | tee "$logs/compare.txt"
