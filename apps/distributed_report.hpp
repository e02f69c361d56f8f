// What a distributed `grb bfs|sssp|cc` prints (rank 0 only): the table or one JSON object, the same
// for CPU ranks over MPI and GPU ranks over NCCL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "grb/distributed/bfs_result.hpp"
#include "grb/types.hpp"

namespace grb::app {

struct DistributedReport {
  std::string algorithm = "bfs";  // bfs, sssp or cc
  std::string graph;              // kron-S
  Index n = 0;
  std::uint64_t m = 0;  // stored entries over all ranks (each undirected edge twice)
  std::string backend;  // cpu or cuda
  std::string engine;   // distributed-ENGINE
  int ranks = 1;
  Index source = 0;           // the graph's vertex the searches start from
  Index source_in_file = 0;   // the same vertex as the file names it (differs with --relabel)
  std::vector<double> times;  // ms, one a timed run, sorted
  double load_ms = 0;         // the distributed construction (Graph500 kernel 1)
  double edges = 0;           // input edges covered (TEPS numerator; cc: every edge)
  std::optional<bool> validated;
  std::uint64_t reached = 0;
  std::vector<dist::BfsLevel> levels;  // bfs
  /// bfs: the levels count the pairs exchanged (the linear-algebra BFS's vxm does not report
  /// them: its levels hold the frontiers only).
  bool pairs_counted = true;
  double farthest = 0;                 // sssp: the largest finite distance
  std::uint64_t components = 0;        // cc
};

/// The graph line, printed before the searches (nothing with --json).
void print_graph_line(const DistributedReport& report, bool json);
/// The results: a table and the exchange's totals, or one JSON object with --json.
void print_report(const DistributedReport& report, bool json);

}  // namespace grb::app
