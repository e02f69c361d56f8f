// What a distributed `grb bfs` prints (rank 0 only): the table or one JSON object, the same for
// CPU ranks over MPI and GPU ranks over NCCL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "grb/distributed/bfs_result.hpp"
#include "grb/types.hpp"

namespace grb::app {

struct DistributedReport {
  std::string graph;  // kron-S
  Index n = 0;
  std::uint64_t m = 0;  // stored entries over all ranks (each undirected edge twice)
  std::string backend;  // cpu or cuda
  std::string engine;   // distributed (CPU ranks) or distributed-gpu
  int ranks = 1;
  Index source = 0;
  std::vector<double> times;  // ms, one a timed run, sorted
  double load_ms = 0;         // the distributed construction (Graph500 kernel 1)
  double edges = 0;           // input edges the search covered (the TEPS numerator)
  std::optional<bool> validated;
  std::uint64_t reached = 0;
  std::vector<dist::BfsLevel> levels;
};

/// The graph line, printed before the searches (nothing with --json).
void print_graph_line(const DistributedReport& report, bool json);
/// The results: a table and the exchange's totals, or one JSON object with --json.
void print_report(const DistributedReport& report, bool json);

}  // namespace grb::app
