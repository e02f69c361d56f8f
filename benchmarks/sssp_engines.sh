#!/usr/bin/env bash
# The SSSP engines' table of docs/sssp.md: every cuda SSSP engine of `grb engines` (the
# linear-algebra ones capped by --seconds of roots) on the benchmark graphs, 4 random roots of
# degree > 0 each, every run validated, through `grb bench`. Kronecker graphs run twice: with
# Graph500's lengths (uniform in [0, 1)) and with integer lengths 1..64 (--kron-lengths
# integer). JSON lines go to $OUT (or ./sssp-engines-logs), one file per graph family; the
# bench tables to stdout, and the work-efficiency column (edges relaxed per stored entry) with
# them.
#
#   benchmarks/sssp_engines.sh [BUILD] [--graphs "grid1000 grid2000 kron20 kron22 kron24 berlin"]
#                              [--roots N] [--seconds S] [--engines LIST]
#
# BUILD: a build folder with apps/grb (default build-gpu, as scripts/gpu-check.sh makes).
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-gpu"
graphs="grid1000 grid2000 kron20 kron22 kron24 berlin"
roots=4
seconds=2
engines=all
while (($#)); do
  case "$1" in
    --graphs) graphs="$2"; shift 2 ;;
    --roots) roots="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --engines) engines="$2"; shift 2 ;;
    -h|--help) sed -n 2,13p "$0"; exit 0 ;;
    -*) echo "sssp_engines: unknown option $1" >&2; exit 2 ;;
    *) build="$1"; shift ;;
  esac
done
grb="$build/apps/grb"
[[ -x "$grb" ]] || { echo "sssp_engines: no $grb (build first: scripts/gpu-check.sh)" >&2; exit 2; }
logs="${OUT:-$root/sssp-engines-logs}"
mkdir -p "$logs"
export GRB_DATA_DIR="${GRB_DATA_DIR:-$root/tests/data}"

status=0
bench() {  # label, bench arguments...
  local label="$1"; shift
  echo "== $label"
  if ! "$grb" bench "$@" --algorithms sssp --engines "$engines" --backend cuda --roots "$roots" \
       --runs 1 --seconds "$seconds" --json "$logs/sssp-$label.jsonl" 2> "$logs/sssp-$label.err"; then
    echo "$label: FAILED: $(tail -2 "$logs/sssp-$label.err" | tr '\n' ' ')"
    status=1
  fi
}
for graph in $graphs; do
  bench "$graph" --graphs "$graph"
  [[ "$graph" == kron* ]] && bench "$graph-int" --graphs "$graph" --kron-lengths integer
done
exit $status
