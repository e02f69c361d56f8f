# The `grb` command's contract, tested by running it: exit codes (0 success, 1 runtime error
# with one line on stderr, 2 usage error), --help everywhere, and results on real graphs with
# answers fixed by others (LAGraph, LDBC Graphalytics).
set(GRB_CLI_WORK ${CMAKE_CURRENT_BINARY_DIR}/cli)
file(MAKE_DIRECTORY ${GRB_CLI_WORK})
set(GRB_CLI_DATA ${PROJECT_SOURCE_DIR}/tests/data)

# grb_cli_test(NAME <status> [expect.cmake -D settings...] -- <grb arguments...>)
function(grb_cli_test name status)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "")
  list(FIND arg_UNPARSED_ARGUMENTS "--" separator)
  list(SUBLIST arg_UNPARSED_ARGUMENTS 0 ${separator} settings)
  math(EXPR first_argument "${separator} + 1")
  set(arguments)
  list(LENGTH arg_UNPARSED_ARGUMENTS count)
  if(first_argument LESS count)
    list(SUBLIST arg_UNPARSED_ARGUMENTS ${first_argument} -1 arguments)
  endif()
  list(TRANSFORM settings PREPEND "-D")
  add_test(NAME cli_${name}
    COMMAND ${CMAKE_COMMAND} -DEXIT=${status} -DDATA_DIR=${GRB_CLI_DATA} ${settings}
            -P ${CMAKE_CURRENT_LIST_DIR}/expect.cmake -- $<TARGET_FILE:grb_command> ${arguments}
    WORKING_DIRECTORY ${GRB_CLI_WORK})
endfunction()

# Inputs the command must refuse with a clear message.
file(WRITE ${GRB_CLI_WORK}/rectangular.mtx
  "%%MatrixMarket matrix coordinate pattern general\n3 4 2\n1 2\n3 4\n")
file(WRITE ${GRB_CLI_WORK}/negative.mtx
  "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.5\n2 3 -2\n")
file(WRITE ${GRB_CLI_WORK}/malformed.mtx
  "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.5\n2 x 2\n")
# LAGraph's known BFS levels on karate from vertex 30 (0-based), one `id level` line per vertex.
set(karate_levels 2 1 2 2 3 3 3 2 1 2 3 3 3 2 2 2 4 2 2 2 2 2 2 2 3 3 2 2 2 2 0 2 1 1)
set(karate_expected "")
set(vertex 0)
foreach(level ${karate_levels})
  string(APPEND karate_expected "${vertex} ${level}\n")
  math(EXPR vertex "${vertex} + 1")
endforeach()
file(WRITE ${GRB_CLI_WORK}/karate-bfs-30.expected "${karate_expected}")
# karate is connected (LAGraph): every vertex's canonical component label is vertex 0.
string(REGEX REPLACE " [0-9]+\n" " 0\n" karate_components "${karate_expected}")
file(WRITE ${GRB_CLI_WORK}/karate-cc.expected "${karate_components}")

# --help, on the command and on every subcommand.
grb_cli_test(help 0 STDOUT=Subcommands: -- --help)
foreach(command bfs sssp cc info convert engines demo)
  grb_cli_test(help_${command} 0 STDOUT=Usage: -- ${command} --help)
endforeach()
grb_cli_test(version 0 STDOUT=^grb -- --version)

# Usage errors: exit 2.
grb_cli_test(no_subcommand 2 -- )
grb_cli_test(unknown_subcommand 2 -- frobnicate)
grb_cli_test(unknown_option 2 -- bfs --kron 4 --frobnicate)
grb_cli_test(no_graph 2 -- bfs)
grb_cli_test(two_graphs 2 -- bfs --kron 4 --grid 4)
grb_cli_test(bad_backend 2 -- bfs --kron 4 --backend gpu)
grb_cli_test(scale_out_of_range 2 -- bfs --kron 99)
grb_cli_test(runs_not_a_number 2 -- sssp --kron 4 --runs many)
grb_cli_test(sssp_delta_not_positive 2 -- sssp --kron 4 --engine delta-stepping --delta 0)
grb_cli_test(convert_bad_extension 2 -- convert @DATA@/lagraph/karate.mtx karate.txt)
grb_cli_test(info_without_file 2 -- info)

# Runtime errors: exit 1, one line naming what and where.
grb_cli_test(missing_file 1 "STDERR=no-such-graph\\.mtx" -- bfs --graph no-such-graph.mtx)
grb_cli_test(info_missing_file 1 "STDERR=no-such-graph\\.mtx" -- info no-such-graph.mtx)
grb_cli_test(source_not_a_vertex 1 "STDERR=vertex 34 is not in karate" --
             bfs --graph @DATA@/lagraph/karate.mtx --source 34)
grb_cli_test(ldbc_source_not_a_vertex 1 "STDERR=vertex 0 is not in" --
             bfs --graph @DATA@/ldbc/example-directed.properties --source 0)
grb_cli_test(non_square 1 "STDERR=rectangular\\.mtx.*3 x 4.*square" --
             bfs --graph rectangular.mtx)
grb_cli_test(malformed_file 1 "STDERR=malformed\\.mtx:4" -- cc --graph malformed.mtx)
grb_cli_test(negative_weight 1 "STDERR=negative" -- sssp --graph negative.mtx --source 0)
grb_cli_test(unknown_engine 1 "STDERR=no-such-engine" -- bfs --kron 4 --engine no-such-engine)
grb_cli_test(sssp_unknown_engine 1 "STDERR=no SSSP engine 'linalg'.*bellman-ford" --
             sssp --kron 4 --engine linalg)

# Results on real graphs, validated and compared with answers fixed by others.
grb_cli_test(bfs_karate 0 OUTPUT=karate-bfs.out EXPECTED=karate-bfs-30.expected
             "STDOUT=cpu +linalg.* yes" --
             bfs --graph @DATA@/lagraph/karate.mtx --source 30 --validate --output karate-bfs.out)
grb_cli_test(cc_karate 0 OUTPUT=karate-cc.out EXPECTED=karate-cc.expected --
             cc --graph @DATA@/lagraph/karate.mtx --validate --output karate-cc.out)
grb_cli_test(sssp_berlin 0 "STDOUT=sssp +cpu.* yes" NOT_STDOUT=FAILED --
             sssp --graph @DATA@/road/berlin-center.mtx --source 1 --validate --runs 1)
grb_cli_test(bfs_ldbc_directed 0 OUTPUT=example-directed-bfs.out
             EXPECTED=@DATA@/ldbc/example-directed-BFS UNREACHABLE=9223372036854775807 SORT_LINES=ON --
             bfs --graph @DATA@/ldbc/example-directed.properties --validate
             --output example-directed-bfs.out)
grb_cli_test(bfs_ldbc_undirected 0 OUTPUT=test-bfs-undirected.out
             EXPECTED=@DATA@/ldbc/test-bfs-undirected-BFS UNREACHABLE=9223372036854775807 SORT_LINES=ON --
             bfs --graph @DATA@/ldbc/test-bfs-undirected.properties --validate
             --output test-bfs-undirected.out)
grb_cli_test(cc_ldbc_directed 0 "STDOUT=cc +cpu.* yes" --
             cc --graph @DATA@/ldbc/test-wcc-directed.properties --validate)
grb_cli_test(info_karate 0 "STDOUT=vertices \\(n\\) +34\n.*stored edges \\(m\\) +156\n" --
             info @DATA@/lagraph/karate.mtx)
grb_cli_test(engines 0 "STDOUT=linalg +cpu" -- engines)
grb_cli_test(json 0 "STDOUT=^{[^\n]*\"algorithm\":\"bfs\"[^\n]*\"validated\":true[^\n]*}\n"
             NOT_STDOUT=FAILED -- bfs --kron 8 --backend cpu --validate --json --runs 1)
# The memory a run held: the process's resident peak (never 0 on Linux) and the device's.
grb_cli_test(json_memory 0
             "STDOUT=\"validated\":true,\"peak_host_bytes\":[1-9][0-9]*,\"peak_device_bytes\":[0-9]+"
             -- bfs --kron 8 --backend cpu --validate --json --runs 1)
# BFS keeps a generated graph as its pattern: no weights.
grb_cli_test(bfs_pattern 0 "STDOUT=graph kron-10: n 1,024, m [0-9,]+ \\(undirected\\), loaded"
             -- bfs --kron 10 --backend cpu --runs 1)
grb_cli_test(grid_sssp 0 "STDOUT=sssp +cpu.* yes" -- sssp --grid 20 --validate --runs 1)
grb_cli_test(sssp_delta_stepping_berlin 0 "STDOUT=sssp +cpu +delta-stepping.* yes" --
             sssp --graph @DATA@/road/berlin-center.mtx --source 1 --engine delta-stepping
             --backend cpu --validate --runs 1)
grb_cli_test(sssp_delta_stepping_grid_delta 0 "STDOUT=sssp +cpu +delta-stepping.* yes" --
             sssp --grid 20 --engine delta-stepping --delta 7.5 --backend cpu --validate --runs 1)
grb_cli_test(engines_sssp 0 "STDOUT=single-source shortest paths.*delta-stepping +cpu" -- engines)
grb_cli_test(demo 0 "STDOUT=bfs +cpu +linalg.*sssp +cpu.*cc +cpu" NOT_STDOUT=FAILED --
             demo --scale 8 --runs 1)

# A converted graph reads back the same: karate -> .grb -> the same BFS levels.
grb_cli_test(convert_karate 0 "STDOUT=wrote karate\\.grb: n 34, m 156" --
             convert @DATA@/lagraph/karate.mtx karate.grb)
grb_cli_test(bfs_converted 0 OUTPUT=karate-grb-bfs.out EXPECTED=karate-bfs-30.expected --
             bfs --graph karate.grb --source 30 --validate --output karate-grb-bfs.out)
set_tests_properties(cli_convert_karate PROPERTIES FIXTURES_SETUP karate_grb)
set_tests_properties(cli_bfs_converted PROPERTIES FIXTURES_REQUIRED karate_grb)

# grb graph500: the whole procedure on the cpu, every search validated, the specification's
# output block on stdout; a misspelt engine fails before the long steps.
grb_cli_test(help_graph500 0 STDOUT=Usage: -- graph500 --help)
grb_cli_test(graph500_cpu 0
             "STDOUT=SCALE: 10\nedgefactor: 16\nNBFS: 8\n.*bfs  harmonic_mean_TEPS: [0-9].*sssp harmonic_mean_TEPS: [0-9].*validated_on: host\nvalidation: passed"
             -- graph500 --scale 10 --roots 8 --backend cpu)
grb_cli_test(graph500_bad_engine 1 "STDERR=no BFS engine 'nonesuch'" --
             graph500 --scale 4 --backend cpu --bfs-engine nonesuch)
grb_cli_test(graph500_no_scale 2 -- graph500)
grb_cli_test(graph500_device_validation_on_cpu 1 "STDERR=--validation device needs the cuda backend"
             -- graph500 --scale 4 --backend cpu --validation device)

# grb bench: every run validated; a table per graph and engine; a named engine or algorithm that
# does not exist is an error, not an empty benchmark.
grb_cli_test(help_bench 0 STDOUT=Usage: -- bench --help)
grb_cli_test(bench_quick 0 "STDOUT=kron-10 +bfs +linalg +cpu +4 .*grid-48 +cc +fastsv +cpu +1 "
             NOT_STDOUT=FAILED -- bench --quick --backend cpu)
grb_cli_test(bench_engines 0 "STDOUT=kron-8 +sssp +bellman-ford +cpu +2 " NOT_STDOUT=fastsv --
             bench --kron 8 --algorithms sssp --engines bellman-ford --backend cpu --roots 2 --runs 1)
# Every engine on every backend built and present (on the device: the cuda engines too, their BFS
# and SSSP runs checked by the device validators).
grb_cli_test(bench_every_backend 0 "STDOUT=kron-8 +bfs +linalg +cpu +2 " NOT_STDOUT=FAILED --
             bench --kron 8 --roots 2 --runs 1 --backend all)
grb_cli_test(bench_no_graph 1 "STDERR=no graph" -- bench)
grb_cli_test(bench_unknown_engine 2 "STDERR=no-such-engine" --
             bench --kron 4 --engines linalg,no-such-engine --backend cpu)
grb_cli_test(bench_unknown_algorithm 2 -- bench --kron 4 --algorithms pagerank)

# The road and partitioning formats: detected by name (or forced with --format), shown by info;
# DIMACS .gr written by convert and read back; a file read as the wrong format says so (the
# regex has "." for the message's ";", which would split a CMake list).
grb_cli_test(info_metis 0 "STDOUT=format +metis \\(METIS / DIMACS10 \\.graph file, detected\\).*vertices \\(n\\) +34\n.*stored edges \\(m\\) +156\n.*directed +no"
             -- info @DATA@/metis/karate.graph)
grb_cli_test(info_dimacs 0 "STDOUT=format +dimacs .*vertices \\(n\\) +14\n.*self loops +[1-9]"
             -- info @DATA@/dimacs/gap-4.gr)
grb_cli_test(info_tntp 0 "STDOUT=format +tntp .*weights +the free_flow_time column.*vertices \\(n\\) +24\n.*stored edges \\(m\\) +76\n"
             -- info @DATA@/tntp/SiouxFalls_net.tntp --tntp-weight time)
grb_cli_test(tntp_weight_unknown 2 -- info @DATA@/tntp/SiouxFalls_net.tntp --tntp-weight capacity)
grb_cli_test(format_wrong 1
             "STDERR=karate\\.graph:2: .*\\(read as an edge list. if it is another format, pass --format mtx\\|edges\\|ldbc\\|binary\\|dimacs\\|metis\\|tntp\\)"
             -- info @DATA@/metis/karate.graph --format edges)
grb_cli_test(convert_metis_to_gr 0 "STDOUT=wrote karate-metis\\.gr: n 34, m 156" --
             convert @DATA@/metis/karate.graph karate-metis.gr)
grb_cli_test(bfs_converted_gr 0 OUTPUT=karate-gr-bfs.out EXPECTED=karate-bfs-30.expected --
             bfs --graph karate-metis.gr --source 30 --validate --output karate-gr-bfs.out)
set_tests_properties(cli_convert_metis_to_gr PROPERTIES FIXTURES_SETUP karate_gr)
set_tests_properties(cli_bfs_converted_gr PROPERTIES FIXTURES_REQUIRED karate_gr)
grb_cli_test(convert_real_weights_to_gr 1 "STDERR=DIMACS \\.gr weights are integers.*0\\.1" --
             convert @DATA@/metis/jazz2double.graph jazz2double.gr)
# --trace-steps: only light-heavy records steps; any other engine says so and writes nothing.
grb_cli_test(sssp_trace_steps_untraced 0 "STDERR=engine bellman-ford recorded no steps" --
             sssp --kron 6 --backend cpu --runs 1 --trace-steps steps.tsv)
grb_cli_test(sssp_tntp 0 "STDOUT=SiouxFalls" --
             sssp --graph @DATA@/tntp/SiouxFalls_net.tntp --source 0 --validate)
include(${CMAKE_CURRENT_LIST_DIR}/bench.cmake)

# What a run found, under the table and in --json; cc needs no source, so a graph without edges
# is fine for it.
file(WRITE ${GRB_CLI_WORK}/no-edges.mtx "%%MatrixMarket matrix coordinate pattern general\n5 5 0\n")
grb_cli_test(cc_no_edges 0 "STDOUT=result: 5 components, the largest 1 of 5 vertices" --
             cc --graph no-edges.mtx --validate)
grb_cli_test(bfs_no_edges 1 "STDERR=no edges" -- bfs --graph no-edges.mtx)
grb_cli_test(bfs_result 0 "STDOUT=result: reached 34 of 34 vertices, depth 4" --
             bfs --graph @DATA@/lagraph/karate.mtx --source 30 --validate)
grb_cli_test(cc_result_json 0 "STDOUT=\"components\":3,\"largest_component\":" --
             cc --graph @DATA@/lagraph/LFAT5.mtx --symmetrize --json --backend cpu --validate)
grb_cli_test(sssp_result 0 "STDOUT=result: reached [0-9,]+ of 12,981 vertices, largest distance" --
             sssp --graph @DATA@/road/berlin-center.mtx --source 1 --backend cpu)
# Control bytes from a file never reach the terminal raw.
string(ASCII 27 escape)
file(WRITE ${GRB_CLI_WORK}/escape.txt "1 2\n3 ${escape}[31mred\n")
grb_cli_test(escaped_message 1 "STDERR=\\\\x1b.31mred" -- bfs --graph escape.txt)

# Integer lengths 1..64 on a Kronecker graph: the graph says so, and the largest distance is an
# integer (Graph500's lengths are below 1).
grb_cli_test(sssp_kron_integer_lengths 0 "STDOUT=kron-6-int.*auto.*yes.*largest distance [0-9]+\n" --
             sssp --kron 6 --kron-lengths integer --engine auto --validate)
grb_cli_test(kron_lengths_unknown 2 -- sssp --kron 4 --kron-lengths gaussian)
