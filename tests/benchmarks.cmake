# The benchmarks' own checks, on a small graph, where they are built: every run validated (a
# failed one makes the benchmark exit 1). On the device this runs every cuda engine as well.
if(TARGET bfs_engines)
  add_test(NAME bench_bfs_engines
    COMMAND ${CMAKE_COMMAND} -DEXIT=0 "-DSTDOUT=kron8 +linalg +cpu .*grid12 +linalg +cpu "
            -DNOT_STDOUT=FAILED -P ${CMAKE_CURRENT_LIST_DIR}/cli/expect.cmake --
            $<TARGET_FILE:bfs_engines> --scale 8 --grid 12 --roots 3 --cpu --json
            ${CMAKE_CURRENT_BINARY_DIR}/bench_bfs_engines.jsonl)
endif()
