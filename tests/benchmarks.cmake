# grb bench's own check, on small graphs: every engine of every algorithm on every backend this
# build has (on the device, every cuda engine as well), with the delta sweep, every run
# validated; a run that fails validation makes grb bench exit 1 after its table.
if(TARGET grb_command)
  add_test(NAME bench_every_engine
    COMMAND ${CMAKE_COMMAND} -DEXIT=0
            "-DSTDOUT=kron-8 +bfs +linalg +cpu +3 .*kron-8 +sssp .*kron-8 +cc .*kron-8 +tc .*grid-12 +bfs +linalg +cpu +3 .*grid-12 +tc "
            -DNOT_STDOUT=FAILED -P ${CMAKE_CURRENT_LIST_DIR}/cli/expect.cmake --
            $<TARGET_FILE:grb_command> bench --graphs kron8,grid12 --engines all --backend all
            --roots 3 --runs 1 --delta-factors 0.5,2
            --json ${CMAKE_CURRENT_BINARY_DIR}/bench_every_engine.jsonl)
endif()
