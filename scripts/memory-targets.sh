#!/usr/bin/env bash
# The memory targets, on the device: each run's peaks of host memory (the process's resident
# set) and device memory, as `grb` reports them (`--json`: peak_host_bytes, peak_device_bytes),
# beside the graph's own size. One line per run, then the JSON lines in $OUT/memory.jsonl.
#
#   scripts/memory-targets.sh [BUILD] [RUN...]
#
# BUILD: a build folder with apps/grb (default build-gpu, as gpu-check.sh makes). RUN: kronS
# (`grb bfs --kron S --engine direction-optimized --backend cuda --validate --runs 1`) or
# graph500S (`grb graph500 --scale S --roots 8`); default: kron22 kron24 kron26. A call of the
# device is 10 minutes at most: kron27 takes about 3 and kron28 about 6, so give them alone.
# GRB_MEMORY_BACKEND and GRB_MEMORY_ENGINE change the BFS's backend and engine (e.g. cpu and
# linalg, to try the script on a machine without a GPU).
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-gpu}"
[[ $# -gt 0 ]] && shift
runs=("$@")
((${#runs[@]} > 0)) || runs=(kron22 kron24 kron26)
logs="${OUT:-$root/memory-logs}"
mkdir -p "$logs"
grb="$build/apps/grb"
[[ -x "$grb" ]] || { echo "memory-targets: no $grb (build first: scripts/gpu-check.sh)" >&2; exit 2; }

status=0
for run in "${runs[@]}"; do
  case "$run" in
    kron*) command=("$grb" bfs --kron "${run#kron}" --engine "${GRB_MEMORY_ENGINE:-direction-optimized}"
                    --backend "${GRB_MEMORY_BACKEND:-cuda}" --validate --runs 1 --json) ;;
    graph500*) command=("$grb" graph500 --scale "${run#graph500}" --roots 8
                        --json "$logs/$run.json") ;;
    *) echo "memory-targets: unknown run $run (kronS or graph500S)" >&2; exit 2 ;;
  esac
  start=$(date +%s)
  if "${command[@]}" > "$logs/$run.out" 2> "$logs/$run.err"; then
    if [[ $run == kron* ]]; then
      tail -1 "$logs/$run.out" >> "$logs/memory.jsonl"
      python3 - "$logs/$run.out" "$run" "$(( $(date +%s) - start ))" <<'PY'
import json, sys
record = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
n, m = record["n"], record["m"]
csr = 8 * (n + 1) + 4 * m  # the pattern's offsets and column ids, as the device holds them
host_csr = csr + m          # and its values, a byte an entry, as the host holds them
print(f'{sys.argv[2]}: n {n:,}, m {m:,}, CSR {csr / 2**30:.2f} GiB; host peak '
      f'{record["load_peak_host_bytes"] / 2**30:.2f} GiB building it '
      f'({record["load_peak_host_bytes"] / host_csr:.2f}x the host CSR), '
      f'{record["peak_host_bytes"] / 2**30:.2f} GiB searching; device peak '
      f'{record["peak_device_bytes"] / 2**30:.2f} GiB ({record["peak_device_bytes"] / csr:.2f}x the '
      f'CSR); bfs {record["ms"]:.3f} ms, validated {record["validated"]}; {sys.argv[3]} s')
PY
    else
      echo "$run: $(grep -E 'peak_device_memory:|bfs_harmonic_mean_TEPS' "$logs/$run.out" | tr '\n' ' ')"
    fi
  else
    echo "$run: FAILED (exit $?): $(tail -1 "$logs/$run.err")"
    status=1
  fi
done
exit $status
