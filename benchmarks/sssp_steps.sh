#!/usr/bin/env bash
# Where light-heavy's time goes, step by step: `grb sssp --engine light-heavy --trace-steps` on
# the Kronecker graphs (Graph500 lengths and integer lengths 1..64), every run validated. For
# each graph it keeps the step file of the last run (one line a step: kind, work, microseconds)
# and prints the run's time, the sum by kind and the largest steps; docs/sssp.md quotes them.
#
#   benchmarks/sssp_steps.sh [BUILD] [--graphs "kron20 kron22"] [--runs N] [--largest N]
#
# BUILD: a build folder with apps/grb (default build-gpu, as scripts/gpu-check.sh makes).
# Files go to $OUT (or ./sssp-steps-logs): steps-GRAPH.tsv and sssp-GRAPH.txt.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-gpu"
graphs="kron20 kron22"
runs=5
largest=4
while (($#)); do
  case "$1" in
    --graphs) graphs="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --largest) largest="$2"; shift 2 ;;
    -h|--help) sed -n 2,10p "$0"; exit 0 ;;
    -*) echo "sssp_steps: unknown option $1" >&2; exit 2 ;;
    *) build="$1"; shift ;;
  esac
done
grb="$build/apps/grb"
[[ -x "$grb" ]] || { echo "sssp_steps: no $grb (build first: scripts/gpu-check.sh)" >&2; exit 2; }
logs="${OUT:-$root/sssp-steps-logs}"
mkdir -p "$logs"

status=0
for graph in $graphs; do
  [[ "$graph" =~ ^kron([0-9]+)$ ]] || { echo "sssp_steps: $graph is not kronN" >&2; exit 2; }
  scale="${BASH_REMATCH[1]}"
  for lengths in graph500 integer; do
    name="$graph$([[ $lengths == integer ]] && echo -int)"
    if ! "$grb" sssp --kron "$scale" --kron-lengths "$lengths" --engine light-heavy --backend cuda \
         --runs "$runs" --validate --trace-steps "$logs/steps-$name.tsv" > "$logs/sssp-$name.txt" 2>&1; then
      echo "$name: FAILED: $(tail -2 "$logs/sssp-$name.txt" | tr '\n' ' ')"
      status=1
      continue
    fi
    echo "$name: run $(awk '$3 == "light-heavy" {print $5}' "$logs/sssp-$name.txt") ms (median of $runs," \
         "validated); $(grep 'steps of' "$logs/sssp-$name.txt" | sed 's/.*): //')"
    echo "  largest steps (step, kind, items, spread edges, start us, us):"
    tail -n +2 "$logs/steps-$name.tsv" | sort -t$'\t' -k6 -g -r | head -n "$largest" | sed 's/^/    /'
  done
done
exit $status
