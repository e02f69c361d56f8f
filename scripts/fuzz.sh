#!/usr/bin/env bash
# Builds the libFuzzer targets of the graph readers (fuzz/, CMake option GRB_FUZZ: clang,
# -fsanitize=fuzzer,address,undefined, cpu only) in build/fuzz and runs each one over its seed
# corpus, one at a time, for a bounded time or number of executions.
#
#   scripts/fuzz.sh [--seconds N | --runs N] [--keep-going] [--build-only] [TARGET...]
#
# TARGET names a fuzz/fuzz_*.cpp (with or without the fuzz_ prefix); default: all of them.
# --seconds N (default 60) or --runs N bound each target. --keep-going runs libFuzzer in fork
# mode with one worker (-fork=1, still one fuzzing process at a time), which records every crash,
# leak, timeout and out-of-memory and goes on, instead of stopping at the first.
# Environment: GRB_FUZZ_BUILD_DIR (default build/fuzz), GRB_FUZZ_ARGS (more libFuzzer flags),
# CC / CXX (default clang / clang++), GRB_FUZZ_JOBS (build parallelism, default 1).
#
# The seed corpus (fuzz/corpus/TARGET) is copied to BUILD/corpus-work/TARGET, which collects the
# new inputs; the tree stays clean. Crash inputs go to BUILD/findings/TARGET/. Prints one line per
# target: executions, seconds, exec/s, and "ok" or "FINDING: <crash file>". Exits 1 when any
# target had a finding.
set -euo pipefail

source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${GRB_FUZZ_BUILD_DIR:-$source_dir/build/fuzz}"
seconds=60
runs=""
keep_going=0
build_only=0
targets=()
while (($# > 0)); do
  case "$1" in
    --seconds) seconds="$2"; runs=""; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --keep-going) keep_going=1; shift ;;
    --build-only) build_only=1; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("fuzz_${1#fuzz_}"); shift ;;
  esac
done
if ((${#targets[@]} == 0)); then
  for source in "$source_dir"/fuzz/fuzz_*.cpp; do targets+=("$(basename "$source" .cpp)"); done
fi
for target in "${targets[@]}"; do
  [[ -f "$source_dir/fuzz/$target.cpp" ]] || { echo "fuzz.sh: no fuzz/$target.cpp" >&2; exit 2; }
done

mkdir -p "$(dirname "$build_dir")"
export CC="${CC:-clang}" CXX="${CXX:-clang++}"
generator=()
if [[ ! -f "$build_dir/CMakeCache.txt" ]] && command -v ninja > /dev/null; then generator=(-G Ninja); fi
cmake -S "$source_dir" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGRB_FUZZ=ON -DGRB_CUDA=OFF -DGRB_BUILD_TESTS=OFF -DGRB_BUILD_APPS=OFF > "$build_dir.configure.log" 2>&1 ||
  { cat "$build_dir.configure.log" >&2; exit 2; }
rm -f "$build_dir.configure.log"
cmake --build "$build_dir" --parallel "${GRB_FUZZ_JOBS:-1}" --target "${targets[@]}"
((build_only)) && exit 0

# halt_on_error: a UBSan report is a crash (the targets are also built with
# -fno-sanitize-recover); detect_leaks stays on (a leak is a finding too).
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
status=0
for target in "${targets[@]}"; do
  corpus="$build_dir/corpus-work/$target"
  findings="$build_dir/findings/$target"
  log="$build_dir/logs/$target.log"
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  if [[ -d "$source_dir/fuzz/corpus/$target" ]]; then cp -n "$source_dir/fuzz/corpus/$target"/* "$corpus"/ 2>/dev/null || true; fi
  args=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=30 -print_final_stats=1
        -artifact_prefix="$findings/")
  [[ -f "$source_dir/fuzz/$target.dict" ]] && args+=(-dict="$source_dir/fuzz/$target.dict")
  if [[ -n "$runs" ]]; then args+=(-runs="$runs"); else args+=(-max_total_time="$seconds"); fi
  if ((keep_going)); then args+=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1); fi
  # A slow unit (libFuzzer's slow-unit-*: one run over 10 s) is kept, and named, but is not a
  # finding: a hang is a timeout (-timeout) and fails the run. On a loaded machine a niced
  # fuzzer's slow units are mostly time spent waiting for a core.
  crashes() { find "$findings" -type f ! -name 'slow-unit-*' | wc -l; }
  before=$(crashes)
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$build_dir/fuzz/$target" "${args[@]}" ${GRB_FUZZ_ARGS:-} "$corpus" > "$log" 2>&1 && rc=0 || rc=$?
  elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')
  # Executions: the final stats (plain mode), else the last status line (fork mode counts runs
  # in its "#N" lines).
  execs=$(awk '/stat::number_of_executed_units:/ { n = $2 } END { print n }' "$log")
  if [[ -z "$execs" ]]; then execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#'); fi
  execs=${execs:-0}
  rate=$(awk -v n="$execs" -v t="$elapsed" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }')
  new_findings=$(find "$findings" -type f ! -name 'slow-unit-*' -newermt "@${start%.*}" | sort)
  slow_units=$(find "$findings" -type f -name 'slow-unit-*' -newermt "@${start%.*}" | wc -l)
  if [[ $rc -eq 0 && $(crashes) -eq $before ]]; then
    result=ok
    ((slow_units > 0)) && result+=" ($slow_units slow units kept in $findings)"
  else
    status=1
    result="FINDING: ${new_findings:-exit status $rc, see $log}"
    result=${result//$'\n'/ }
  fi
  printf '%-30s %12s execs %6ss %8s exec/s  %s\n' "$target" "$execs" "$elapsed" "$rate" "$result"
done
exit $status
