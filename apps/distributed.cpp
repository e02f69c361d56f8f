#include "distributed.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grb/error.hpp"
#include "table.hpp"

#if GRB_WITH_MPI
#include "grb/distributed/bfs.hpp"
#include "grb/distributed/graph.hpp"
#endif

namespace grb::app {

bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(variable)) return true;
  return false;
}

#if GRB_WITH_MPI
namespace {

using Clock = std::chrono::steady_clock;

/// The input edges the search covered (each undirected edge once): Graph500's TEPS numerator.
double input_edges(const dist::Communicator& comm, const dist::Graph<bool>& graph,
                   const dist::BfsResult& result) {
  const Csr<bool>& csr = graph.local.csr();
  std::uint64_t entries = 0;
  for (Index i = 0; i < csr.nrows; ++i)
    if (result.level[i] >= 0) entries += csr.row_offsets[i + 1] - csr.row_offsets[i];
  return static_cast<double>(comm.sum(entries)) / 2;
}

/// The first vertex with an edge, over all ranks.
Index default_source(const dist::Communicator& comm, const dist::Graph<bool>& graph) {
  const Csr<bool>& csr = graph.local.csr();
  const Index n = graph.partition.vertices();
  Index mine = n;
  for (Index i = 0; i < csr.nrows && mine == n; ++i)
    if (csr.row_offsets[i + 1] > csr.row_offsets[i]) mine = graph.first() + i;
  const Index first = static_cast<Index>(n - comm.max(n - mine));
  if (first == n) throw InvalidValue("the graph has no edges: there is no source to search from");
  return first;
}

}  // namespace

void run_distributed(const DistributedOptions& options) {
  if (options.algorithm != Algorithm::bfs || options.graph.kron_scale == 0)
    throw InvalidValue(
        "under an MPI launcher, grb runs bfs on --kron graphs distributed (this version); run "
        "other commands and graphs without mpirun");
  static dist::Environment environment(nullptr, nullptr);
  const dist::Communicator comm = dist::Communicator::world();
  const bool printing = comm.rank() == 0;

  const auto start = Clock::now();
  const dist::Graph<bool> graph =
      dist::kronecker(comm, options.graph.kron_scale, options.graph.edge_factor, options.graph.seed);
  const double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  const Index n = graph.partition.vertices();
  Index source = 0;
  if (options.source) {
    if (*options.source >= n)
      throw InvalidValue("vertex " + std::to_string(*options.source) + " is not in kron-" +
                         std::to_string(options.graph.kron_scale) + " (its vertices are 0.." +
                         std::to_string(n - 1) + ")");
    source = static_cast<Index>(*options.source);
  } else {
    source = default_source(comm, graph);
  }
  const std::string name = "kron-" + std::to_string(options.graph.kron_scale);
  if (printing && !options.json)
    std::cout << "graph " << name << ": n " << grouped(n) << ", m " << grouped(graph.global_entries)
              << " (undirected), built on " << comm.size() << " rank(s) in " << fixed(load_ms, 1)
              << " ms\nsource " << source << "\n";

  dist::BfsResult result = dist::bfs(comm, graph, source);  // warm-up
  std::vector<double> times;
  for (int r = 0; r < options.runs; ++r) {
    const auto begin = Clock::now();
    result = dist::bfs(comm, graph, source);
    // Every rank leaves the last level's all-reduce together: rank 0's clock covers the search.
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - begin).count());
  }
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  const double edges = input_edges(comm, graph, result);
  std::optional<dist::Verdict> verdict;
  if (options.validate) verdict = dist::validate_bfs(comm, graph, source, result);
  std::uint64_t reached = 0;
  for (std::int32_t level : result.level) reached += level >= 0;
  reached = comm.sum(reached);
  std::uint64_t found = 0, sent = 0;
  for (const dist::BfsLevel& level : result.levels) found += level.pairs_found, sent += level.pairs_sent;

  if (printing) {
    const std::string validated = verdict ? (verdict->ok ? "yes" : "FAILED") : "-";
    if (options.json) {
      nlohmann::ordered_json levels = nlohmann::ordered_json::array();
      for (const dist::BfsLevel& level : result.levels)
        levels.push_back({{"frontier", level.frontier},
                          {"pairs_found", level.pairs_found},
                          {"pairs_sent", level.pairs_sent}});
      std::cout << nlohmann::ordered_json{{"graph", name},
                                          {"n", n},
                                          {"m", graph.global_entries},
                                          {"algorithm", "bfs"},
                                          {"engine", "distributed"},
                                          {"backend", "cpu"},
                                          {"ranks", comm.size()},
                                          {"source", source},
                                          {"runs", times.size()},
                                          {"ms", median},
                                          {"load_ms", load_ms},
                                          {"edges", edges},
                                          {"teps", edges / (median / 1e3)},
                                          {"validated", verdict ? nlohmann::ordered_json(verdict->ok)
                                                                : nlohmann::ordered_json(nullptr)},
                                          {"reached", reached},
                                          {"depth", result.levels.size() - 1},
                                          {"per_level", levels}}
                       .dump()
                << std::endl;
    } else {
      Table table({{"algorithm"}, {"backend"}, {"engine"}, {"ranks", Table::Align::right},
                   {"ms", Table::Align::right}, {"GTEPS", Table::Align::right}, {"validated"}});
      table.add({"bfs", "cpu", "distributed", std::to_string(comm.size()), fixed(median, 3),
                 fixed(edges / (median / 1e3) / 1e9, 4), validated});
      std::cout << "median of " << times.size() << " runs after one warm-up\n";
      table.print(std::cout);
      std::cout << "result: reached " << grouped(reached) << " of " << grouped(n)
                << " vertices, depth " << result.levels.size() - 1 << "\n"
                << "exchange: " << grouped(found) << " (vertex, parent) pairs for other ranks, "
                << grouped(sent) << " sent after sorting and deduplicating ("
                << grouped(sent * 2 * sizeof(Index)) << " bytes)\n";
    }
  }
  if (verdict && !verdict->ok)
    throw ValidationFailed("distributed bfs failed validation on rank " +
                           std::to_string(comm.rank()) + ": " + verdict->message);
}
#else
void run_distributed(const DistributedOptions&) {
  throw BackendUnavailable(
      "this grb was built without MPI (libopenmpi-dev): it cannot run under mpirun");
}
#endif

}  // namespace grb::app
