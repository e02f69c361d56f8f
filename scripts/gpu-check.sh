#!/usr/bin/env bash
# The GPU check, run on a machine with an NVIDIA GPU (the device): builds grb for sm_90, runs the
# whole test suite (the cuda cases run there), runs compute-sanitizer's four tools over the GPU
# test executables on small inputs, optionally a benchmark, and prints a one-screen summary last.
#
#   scripts/gpu-check.sh [--full] [--no-tests] [--no-sanitizer] [--bench]
#
# One device call is limited to 10 minutes, so the steps can be split over calls: --no-tests
# skips the test suite, GRB_SANITIZER_TOOLS picks the tools (default: all four), GRB_SANITIZE_ENGINES
# the engines of the engine tests (default: all) and
# GRB_SANITIZE_TESTS the test executables (default: the cuda, deferred-work, engine and validator
# tests),
# GRB_SANITIZE_CASES the SSSP engine test cases (doctest patterns, e.g. '*real*'),
# GRB_SANITIZE_EXCLUDE a pattern of jobs to leave out (see sanitize-jobs.txt). All four tools
# over every GPU test take about 25 minutes on the H100 machine's 16 cores: one tool per call.
#
# The cuda operation tests run thousands of tiny operations (each a few launches): by default
# they run with GRB_TEST_QUICK=1 (fewer shapes and densities); --full runs every shape.
#
# Logs go to $OUT (or ./gpu-check-logs); the exit status is nonzero when any step failed.
# GRB_BUILD_TARGETS builds only those targets (e.g. "test_sssp_engines grb_command" for a sanitizer
# call that needs no more). GRB_GPU_BUILD names the build folder (default build-gpu): use a fresh one on a machine that
# was kept warm, whose clock may make stale objects look newer than the sources copied in.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
logs="${OUT:-$root/gpu-check-logs}"
build="${GRB_GPU_BUILD:-$root/build-gpu}"
run_sanitizer=1
run_tests=1
run_bench=0
export GRB_TEST_QUICK="${GRB_TEST_QUICK:-1}"
for argument in "$@"; do
  case "$argument" in
    --full) export GRB_TEST_QUICK=0 ;;
    --no-tests) run_tests=0 ;;
    --no-sanitizer) run_sanitizer=0 ;;
    --bench) run_bench=1 ;;
    *) echo "usage: $0 [--full] [--no-tests] [--no-sanitizer] [--bench]" >&2; exit 2 ;;
  esac
done
mkdir -p "$logs"
export GRB_DATA_DIR="${GRB_DATA_DIR:-$root/tests/data}"
summary=()
status=0
note() { summary+=("$1"); }
fail() { summary+=("FAIL: $1"); status=1; }

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$logs/gpu.txt" 2>&1 \
  && note "gpu: $(head -1 "$logs/gpu.txt")" || note "gpu: nvidia-smi unavailable"

# ---- build
start=$(date +%s)
# GRB_COMMIT names the commit recorded with benchmark results (the device's copy has no .git).
if cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
     -DGRB_CUDA=ON ${GRB_COMMIT:+-DGRB_COMMIT="$GRB_COMMIT"} > "$logs/configure.log" 2>&1 &&
   cmake --build "$build" -j "$(nproc)" ${GRB_BUILD_TARGETS:+--target $GRB_BUILD_TARGETS} \
     > "$logs/build.log" 2>&1; then
  note "build: ok ($(( $(date +%s) - start )) s)"
else
  # Keep going with whatever did build (ninja -k 0), so one broken target hides nothing else.
  cmake --build "$build" -j "$(nproc)" -- -k 0 >> "$logs/build.log" 2>&1
  fail "build: $(grep -c 'FAILED:' "$logs/build.log") targets failed (see build.log)"
  grep -A3 'FAILED:' "$logs/build.log" | grep -E 'FAILED|error' | head -10
fi

# ---- tests: the doctest executables one by one (their counts go in the summary), then the
# rest of ctest (command-line and package tests).
for test in "$build"/tests/test_*; do
  (( run_tests )) || break
  [[ -x "$test" ]] || continue
  name=$(basename "$test")
  if "$test" > "$logs/$name.log" 2>&1; then verdict=ok; else verdict=FAILED; status=1; fi
  counts=$(grep -E '^\[doctest\] (test cases|assertions)' "$logs/$name.log" | tr -s ' ' | tr '\n' ' ')
  note "  $name ($verdict): $counts"
done
if (( ! run_tests )); then
  note "tests: skipped (--no-tests)"
elif (cd "$build" && ctest --output-on-failure -j 4 -E '^test_' > "$logs/ctest.log" 2>&1); then
  note "ctest (cli, consumer): $(grep -E 'tests passed' "$logs/ctest.log" | tail -1)"
else
  fail "ctest (cli, consumer): $(grep -E 'tests passed|tests failed' "$logs/ctest.log" | tail -1)"
  grep -E '^\s*[0-9]+ - |Failed|\*\*\*' "$logs/ctest.log" | head -20
fi

# ---- compute-sanitizer over the GPU tests, as parallel jobs (one process per tool and piece;
# GRB_SANITIZER_JOBS at a time, default: the number of cores): one sanitized process of a whole
# test binary takes up to 20 minutes under racecheck, so the binaries are split: the engine tests
# per engine (GRB_TEST_ENGINES), the long mxv and matrix-operation loops of test_cuda_operations
# in shards (GRB_TEST_SHARD), the linear-algebra BFS and SSSP engines per test case.
# - GRB_SANITIZER=1 shrinks the test graphs where a test supports it.
# - GRB_CUDA_GRAPHS=0: direction-optimized launches its level kernel from the host (the sanitizer
#   mishandles kernels first launched from a graph's while-node; see direction_optimized.cu).
# - The out-of-memory test provokes a failed cudaMallocAsync on purpose: memcheck would count it
#   as an API error, so sanitized runs leave it out.
# - racecheck reports hazards inside cuSPARSE's own csrmv kernel (library code; every hazard is
#   in a cusparse:: kernel): those are counted and shown, and fail nothing; any other does.
if (( run_sanitizer )); then
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  jobs_file="$logs/sanitize-jobs.txt"
  : > "$jobs_file"
  add_job() { echo "$*" >> "$jobs_file"; }  # tool test engines|all shard|- [doctest filters]
  cuda_engines=$("$build/apps/grb" engines 2>/dev/null |
                 awk 'BEGIN { s = 0 } /^$/ { s++ } $2 == "cuda" { print s, $1 }')
  # GRB_SANITIZE_ENGINES="a b" limits the engine-test jobs to those engines (default: all).
  engines_of() {
    awk -v s="$1" -v only=" ${GRB_SANITIZE_ENGINES:-} " \
      '$1 == s && (only == "  " || index(only, " " $2 " ")) { print $2 }' <<< "$cuda_engines"
  }
  sssp_cases=('*hand-made*' '*generated*' '*delta*' '*real*' '*table*,*reject*')
  [[ -n "${GRB_SANITIZE_CASES:-}" ]] && read -r -a sssp_cases <<< "$GRB_SANITIZE_CASES"
  for tool in ${GRB_SANITIZER_TOOLS:-memcheck racecheck synccheck initcheck}; do
    shards=3; [[ $tool == racecheck ]] && shards=6
    for name in ${GRB_SANITIZE_TESTS:-$(cd "$build/tests" && ls test_cuda_* test_deferred test_*_engines test_validate 2>/dev/null)}; do
      [[ -x "$build/tests/$name" ]] || continue
      case "$name" in
        test_cuda_operations)
          for (( k = 0; k < shards; ++k )); do
            add_job "$tool $name all $k/$shards -tc=*mxv*"
            (( k < shards / 2 )) && add_job "$tool $name all $k/$(( shards / 2 )) -tc=*matrix*operations*"
          done
          add_job "$tool $name all - -tce=*out-of-memory*,*mxv*,*matrix*operations*" ;;
        test_bfs_engines)
          # The linear-algebra BFS (a dozen launches per level) one test case per job.
          for e in $(engines_of 0); do
            if [[ $e == linalg ]]; then
              for cases in '*hand-made*' '*generated*' '*real*,*karate*,*table*,*reject*'; do
                add_job "$tool $name $e - -tc=$cases"
              done
            else add_job "$tool $name $e -"; fi
          done ;;
        test_sssp_engines)
          # The linear-algebra engines' cases in 3 shards each: some need 10 minutes whole.
          for e in $(engines_of 1); do
            shards_of_case=-; [[ $e == bellman-ford || $e == delta-stepping ]] && shards_of_case="0/3 1/3 2/3"
            for cases in "${sssp_cases[@]}"; do
              for shard in $shards_of_case; do add_job "$tool $name $e $shard -tc=$cases"; done
            done
          done ;;
        *) add_job "$tool $name all -" ;;
      esac
    done
  done
  # GRB_SANITIZE_EXCLUDE drops the jobs whose line matches it (grep -E), e.g. '\*mxv\*'.
  if [[ -n "${GRB_SANITIZE_EXCLUDE:-}" ]]; then
    grep -vE -- "$GRB_SANITIZE_EXCLUDE" "$jobs_file" > "$jobs_file.kept"; mv "$jobs_file.kept" "$jobs_file"
  fi
  sanitize_one() {
    read -r tool name engines shard filters <<< "$1"
    local log="$logs/sanitize-$(tr -c 'a-zA-Z0-9\n-' '_' <<< "$1").log" flags=() code
    [[ $tool == memcheck ]] && flags=(--leak-check full)
    [[ $engines == all ]] || export GRB_TEST_ENGINES=$engines
    [[ $shard == - ]] || export GRB_TEST_SHARD=$shard
    [[ -n "$filters" ]] || filters='-tce=*out-of-memory*'
    GRB_SANITIZER=1 GRB_CUDA_GRAPHS=0 timeout "${GRB_SANITIZER_TIMEOUT:-500}" "$sanitizer" \
      --tool "$tool" "${flags[@]}" --error-exitcode 9 "$build/tests/$name" "$filters" > "$log" 2>&1
    code=$?
    local races=$(grep -c 'Race reported between' "$log")
    local library=$(grep 'Race reported between' "$log" | grep -c 'cusparse::')
    if (( code == 9 && races > 0 && races == library )); then
      echo "ok $1: $races racecheck reports, all inside cuSPARSE kernels"
    elif (( code == 0 )); then echo "ok $1"
    elif (( code == 124 )); then echo "FAIL $1: timed out"
    else echo "FAIL $1: exit $code $(grep -oE '(ERROR|RACECHECK|LEAK) SUMMARY.*' "$log" | tr '\n' ' ')"; fi
  }
  export -f sanitize_one
  export sanitizer build logs
  xargs -P "${GRB_SANITIZER_JOBS:-$(nproc)}" -I{} bash -c 'sanitize_one "{}"' < "$jobs_file" \
    > "$logs/sanitize-summary.txt" 2>&1
  note "sanitizer: $(grep -c '^ok' "$logs/sanitize-summary.txt") of $(wc -l < "$jobs_file") jobs clean (sanitize-summary.txt)"
  grep -q 'cuSPARSE' "$logs/sanitize-summary.txt" &&
    note "sanitizer: racecheck hazards inside cuSPARSE's kernels in $(grep -c cuSPARSE "$logs/sanitize-summary.txt") jobs (library code)"
  while read -r line; do fail "sanitizer ${line#FAIL }"; done < <(grep '^FAIL' "$logs/sanitize-summary.txt")
fi

# ---- benchmark (optional): every engine on a Kronecker graph and a grid, every run validated.
# GRB_BENCH_ARGS overrides the graphs and sizes.
if (( run_bench )); then
  "$build/apps/grb" bench ${GRB_BENCH_ARGS:---graphs kron20,grid1000 --algorithms bfs,sssp,cc --roots 16} \
    --backend cuda --json "$logs/bench.jsonl" > "$logs/bench.txt" 2> "$logs/bench.log" \
    && note "bench: $(wc -l < "$logs/bench.jsonl") validated runs (bench.txt, bench.jsonl)" \
    || fail "bench: a run failed or did not validate (see bench.txt, bench.log)"
  cat "$logs/bench.txt"
fi

printf '%s\n' "===== gpu-check summary =====" "${summary[@]}"
exit $status
