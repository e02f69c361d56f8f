#!/usr/bin/env bash
# Distributed BFS on GPU ranks against the best single-GPU engine, in the same run, every search
# validated: for each Kronecker scale, `grb bfs --kron S --gpus G` for each G, the same under
# mpirun (one process a GPU, when mpirun is there), and `grb bfs --kron S --engine
# direction-optimized --backend cuda` on one GPU. The GPU ranks run direction-optimized, and
# top-down (seed paper 004's algorithm) for comparison. JSON lines go to $OUT/distributed_bfs.jsonl
# (or ./distributed-bfs-logs), a table to stdout.
#
#   benchmarks/distributed_bfs.sh [BUILD] [--scales "20 22 24"] [--gpus "1 2"] [--runs N]
#                                 [--no-mpirun] [--no-top-down]
#
# BUILD: a build folder with apps/grb (default build-gpu, as scripts/gpu-check.sh makes).
set -uo pipefail
export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on shared machines

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-gpu"
scales="20 22 24"
gpus=""
runs=5
mpirun_runs=1
top_down=1
while (($#)); do
  case "$1" in
    --scales) scales="$2"; shift 2 ;;
    --gpus) gpus="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --no-mpirun) mpirun_runs=0; shift ;;
    --no-top-down) top_down=0; shift ;;
    -h|--help) sed -n 2,14p "$0"; exit 0 ;;
    -*) echo "distributed_bfs: unknown option $1" >&2; exit 2 ;;
    *) build="$1"; shift ;;
  esac
done
grb="$build/apps/grb"
[[ -x "$grb" ]] || { echo "distributed_bfs: no $grb (build first: scripts/gpu-check.sh)" >&2; exit 2; }
if [[ -z "$gpus" ]]; then
  count=$(nvidia-smi -L 2>/dev/null | wc -l)
  ((count > 0)) || { echo "distributed_bfs: no GPU here" >&2; exit 2; }
  gpus=$(seq -s ' ' 1 "$count")
fi
logs="${OUT:-$root/distributed-bfs-logs}"
mkdir -p "$logs"
results="$logs/distributed_bfs.jsonl"
: > "$results"

status=0
run() {  # label, command...
  local label="$1"; shift
  if "$@" --validate --runs "$runs" --json > "$logs/$label.out" 2> "$logs/$label.err"; then
    tail -1 "$logs/$label.out" | python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); r["label"]=sys.argv[1]; print(json.dumps(r))' "$label" >> "$results"
  else
    echo "$label: FAILED: $(tail -2 "$logs/$label.err" | tr '\n' ' ')"
    status=1
  fi
}
mpi=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -x NCCL_NVLS_ENABLE --bind-to none)
for scale in $scales; do
  run "kron$scale-1gpu-direction-optimized" "$grb" bfs --kron "$scale" --engine direction-optimized --backend cuda
  for g in $gpus; do
    run "kron$scale-gpus$g" "$grb" bfs --kron "$scale" --gpus "$g"
    ((top_down)) && run "kron$scale-gpus$g-top-down" "$grb" bfs --kron "$scale" --gpus "$g" --engine top-down
    ((mpirun_runs)) && command -v mpirun > /dev/null &&
      run "kron$scale-mpirun$g" "${mpi[@]}" -np "$g" "$grb" bfs --kron "$scale" --backend cuda
  done
done

python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
print(f'{"run":36} {"ranks":>5} {"ms":>9} {"GTEPS":>8} {"kernel 1 ms":>11} {"pairs sent":>14} {"pulled":>6} validated')
for r in rows:
    print(f'{r["label"]:36} {r.get("ranks", 1):>5} {r["ms"]:>9.3f} {r["teps"] / 1e9:>8.2f} '
          f'{r.get("load_ms", 0):>11.1f} {r.get("pairs_sent", 0):>14,} '
          f'{sum(l.get("bottom_up", False) for l in r.get("per_level", [])):>6} {r["validated"]}')
PY
exit $status
