# grb bench (included by tests/cli/tests.cmake, whose grb_cli_test it uses). Every item of every
# comma-separated list is checked as the command line is parsed: a graph, scale, algorithm or
# engine that does not exist is a usage error (exit 2) naming the item and the choices, never a
# benchmark that silently leaves it out. A missing file is a runtime error (exit 1), found
# before anything is measured.
grb_cli_test(bench_unknown_graph 2 "STDERR=unknown graph 'kron22x'.*kronSCALE.*berlin" --
             bench --graphs kron8,kron22x)
grb_cli_test(bench_graph_scale_out_of_range 2 "STDERR=kron40.*out of range \\(1\\.\\.31\\)" --
             bench --graphs grid8,kron40)
grb_cli_test(bench_graph_side_out_of_range 2 "STDERR=grid0.*out of range" --
             bench --graphs grid0)
grb_cli_test(bench_kron_out_of_range 2 "STDERR=--kron.*99" -- bench --kron 8,99)
grb_cli_test(bench_unknown_engine_in_list 2
             "STDERR=unknown engine 'no-such-engine'.*linalg.*grb engines" --
             bench --kron 4 --engines linalg,no-such-engine)
grb_cli_test(bench_unknown_algorithm_in_list 2
             "STDERR=unknown algorithm 'pagerank'.*bfs, sssp, cc or tc" --
             bench --kron 4 --algorithms bfs,pagerank)
grb_cli_test(bench_empty_list_item 2 "STDERR=--algorithms: an empty item in 'bfs,,cc'" --
             bench --kron 4 --algorithms bfs,,cc)
grb_cli_test(bench_engine_of_another_algorithm 2 "STDERR=no tc engine.*tc has: linalg" --
             bench --kron 4 --algorithms tc --engines delta-stepping --backend cpu)
grb_cli_test(bench_delta_factor_not_positive 2 "STDERR=--delta-factors" --
             bench --kron 4 --algorithms sssp --delta-factors 2,0)
grb_cli_test(bench_delta_factors_without_sssp 2 "STDERR=--delta-factors.*sssp" --
             bench --kron 4 --algorithms bfs --delta-factors 2)
grb_cli_test(bench_missing_file 1 "STDERR=no-such-graph\\.mtx: no such file" --
             bench --graphs kron4,no-such-graph.mtx --backend cpu)

# Runs: every run validated (exit 1 otherwise), a table row per graph, algorithm and engine.
grb_cli_test(bench_three_algorithms 0
             "STDOUT=kron-6 +bfs +linalg .*kron-6 +sssp .*kron-6 +cc .*grid-5 +bfs .*grid-5 +cc "
             "NOT_STDOUT=FAILED|kron-10|grid-48| tc " --
             bench --kron 6 --grid 5 --algorithms bfs,sssp,cc --quick)
grb_cli_test(bench_graph_list 0 "STDOUT=kron-7 +bfs +linalg +cpu +2 .*grid-9 +bfs +linalg +cpu +2 "
             NOT_STDOUT=FAILED -- bench --graphs kron7,grid9 --algorithms bfs --backend cpu
             --roots 2 --runs 1)
grb_cli_test(bench_berlin 0 "STDOUT=berlin-center +sssp +bellman-ford +cpu +2 " NOT_STDOUT=FAILED --
             bench --graphs berlin --algorithms sssp --engines bellman-ford --backend cpu --roots 2
             --runs 1)
grb_cli_test(bench_file 0 "STDOUT=karate +tc +linalg +cpu +1 " NOT_STDOUT=FAILED --
             bench --graphs @DATA@/lagraph/karate.mtx --algorithms tc,cc --backend cpu)
grb_cli_test(bench_warm_delta_sweep 0
             "STDOUT=kron-6 +sssp +delta-stepping +cpu .*kron-6 +sssp +delta-stepping@0\\.5x +cpu .*delta-stepping@4x"
             NOT_STDOUT=FAILED -- bench --kron 6 --algorithms sssp --backend cpu --roots 3 --runs 2
             --warm --seconds 10 --delta-factors 0.5,4 --json bench-warm-delta.jsonl)
