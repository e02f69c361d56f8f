// `grb graph500` on distributed ranks: see distributed_graph500.hpp.
#include "distributed_graph500.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "distributed.hpp"
#include "graph500_statistics.hpp"
#include "grb/error.hpp"

#if GRB_WITH_MPI
#include "distributed/linear_algebra.hpp"
#include "grb/distributed/bfs.hpp"
#include "grb/distributed/graph.hpp"
#include "grb/distributed/validate.hpp"
#endif
#if GRB_WITH_NCCL
#include "grb/deferred.hpp"
#include "grb/distributed/device_bfs.hpp"
#include "grb/distributed/device_graph.hpp"
#if GRB_WITH_MPI
#include "grb/distributed/connect_devices.hpp"
#endif
#endif

namespace grb::app {
namespace {

using Clock = std::chrono::steady_clock;

[[maybe_unused]] double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// What the block reports.
struct Run {
  std::string backend, engine, sssp_engine;  // sssp_engine empty: no kernel 3
  int ranks = 1, processes = 1;
  double construction_seconds = 0;
  std::uint64_t stored_entries = 0;
  Searches bfs, sssp;
};

/// The search keys: `roots` distinct vertices of degree >= 1, drawn at random from the seed. The
/// ranks draw the same candidates, a batch at a time; the owners say which have edges (one
/// all-reduce a batch). Fewer keys only where fewer such vertices exist (after 32 n draws).
template <class Comm, class Degree>
[[maybe_unused]] std::vector<Index> draw_keys(const Comm& comm,
                                              const dist::BlockPartition& partition, int roots,
                                              std::uint64_t seed, Degree degree) {
  const Index n = partition.vertices();
  std::mt19937_64 random(seed ^ 0x6772617068353030ULL);  // "graph500": keys apart from edges
  std::uniform_int_distribution<Index> pick(0, n - 1);
  const std::size_t batch = 4 * std::size_t(roots);
  std::vector<Index> keys;
  std::unordered_set<Index> chosen;
  const Index first = partition.first(comm.rank());
  for (std::uint64_t drawn = 0; keys.size() < std::size_t(roots) && drawn < 32 * std::uint64_t(n);
       drawn += batch) {
    std::vector<Index> candidates(batch);
    std::vector<std::uint64_t> has_edges(batch, 0);
    for (std::size_t k = 0; k < batch; ++k) {
      candidates[k] = pick(random);
      if (partition.owner(candidates[k]) == comm.rank())
        has_edges[k] = degree(candidates[k] - first) > 0;
    }
    has_edges = comm.sum(has_edges);
    for (std::size_t k = 0; k < batch && keys.size() < std::size_t(roots); ++k)
      if (has_edges[k] && chosen.insert(candidates[k]).second) keys.push_back(candidates[k]);
  }
  if (keys.empty()) throw InvalidValue("graph500: the graph has no edges to search from");
  return keys;
}

void progress(const std::string& line) { std::cerr << "graph500: " << line << std::endl; }

/// Rank 0: the specification's output block, and the JSON file.
[[maybe_unused]] void report(const DistributedGraph500Options& options, const Run& run) {
  const std::uint64_t input_edges = std::uint64_t(options.edge_factor) << options.scale;
  std::cout.precision(9);
  std::cout << "SCALE: " << options.scale << "\n"
            << "edgefactor: " << options.edge_factor << "\n"
            << "NBFS: " << run.bfs.seconds.size() << "\n"
            << "num_mpi_processes: " << run.processes << "\n"
            << "ranks: " << run.ranks << "\n"
            << "construction_time: " << run.construction_seconds << "\n"
            << "construction_includes_generation: 1\n";
  print_block(std::cout, "bfs  ", run.bfs);
  std::cout << "NSSSP: " << run.sssp.seconds.size() << "\n";
  if (!run.sssp.seconds.empty()) print_block(std::cout, "sssp ", run.sssp);
  std::cout << "input_edges: " << input_edges << "\n"
            << "stored_entries: " << run.stored_entries << "\n"
            << "nedge_counts: graph edges in the component (parallel edges and self loops "
               "dropped)\n"
            << "backend: " << run.backend << "\n"
            << "bfs_engine: " << run.engine << "\n"
            << "sssp_engine: " << (run.sssp_engine.empty() ? "none" : run.sssp_engine) << "\n"
            << "commit: " << GRB_COMMIT << "\n"
            << "validation: passed\n"
            << std::flush;
  if (options.json.empty()) return;
  nlohmann::json record{{"SCALE", options.scale},
                        {"edgefactor", options.edge_factor},
                        {"seed", options.seed},
                        {"NBFS", run.bfs.seconds.size()},
                        {"num_mpi_processes", run.processes},
                        {"ranks", run.ranks},
                        {"construction_time", run.construction_seconds},
                        {"construction_includes_generation", true},
                        {"input_edges", input_edges},
                        {"stored_entries", run.stored_entries},
                        {"bfs", to_json(run.bfs)},
                        {"NSSSP", run.sssp.seconds.size()},
                        {"backend", run.backend},
                        {"bfs_engine", run.engine},
                        {"sssp_engine", run.sssp_engine},
                        {"commit", GRB_COMMIT},
                        {"validated", true}};
  if (!run.sssp.seconds.empty()) record["sssp"] = to_json(run.sssp);
  std::ofstream out(options.json, std::ios::binary);
  if (!out) throw IoError(options.json + ": cannot open for writing");
  out << record.dump() << "\n";
  out.close();
  if (!out) throw IoError(options.json + ": write failed");
}

/// The searches of one kernel ("bfs", "sssp"), each timed and then validated: `search(key)` runs
/// one and returns its verdict and the edges in its component (collective).
template <class Search>
[[maybe_unused]] void run_searches(bool printing, const std::string& kernel,
                                   const std::vector<Index>& keys, Search search,
                                   Searches& record) {
  for (std::size_t k = 0; k < keys.size(); ++k) {
    double seconds = 0, validate_seconds = 0, edges = 0;
    const dist::Verdict verdict = search(keys[k], seconds, validate_seconds, edges);
    if (!verdict.ok)
      throw ValidationFailed("graph500: " + kernel + " " + std::to_string(k) + " (root " +
                             std::to_string(keys[k]) + ") failed validation: " + verdict.message);
    record.add(seconds, edges, validate_seconds);
    if (printing)
      progress(kernel + " " + std::to_string(k + 1) + "/" + std::to_string(keys.size()) +
               ": root " + std::to_string(keys[k]) + ", " + std::to_string(seconds * 1e3) +
               " ms, " + std::to_string(edges / seconds / 1e9) + " GTEPS, validated");
  }
}

#if GRB_WITH_MPI
/// Kernel 1 builds the weighted graph (Graph500's weights, uniform in [0, 1)); kernel 2 runs the
/// BFS on its rows (no pattern copy: the BFS and its validator read no values); kernel 3 the
/// Bellman-Ford over min.plus (linear_algebra.hpp) from the same keys, validated by
/// dist::validate_sssp where the data lives.
void on_cpu_ranks(const DistributedGraph500Options& options) {
  static dist::Environment environment(nullptr, nullptr);
  const dist::Communicator comm = dist::Communicator::world();
  const bool printing = comm.rank() == 0;
  Run run;
  run.backend = "cpu";
  run.engine = "distributed-top-down";
  run.sssp_engine = "distributed-bellman-ford";
  run.ranks = run.processes = comm.size();
  const auto start = Clock::now();
  const dist::Graph<double> weighted =
      dist::kronecker<double>(comm, options.scale, options.edge_factor, options.seed);
  run.construction_seconds = seconds_since(start);  // ends with an all-reduce every rank leaves
  run.stored_entries = weighted.global_entries;
  const dist::Graph<double>& graph = weighted;
  const Csr<double>& csr = graph.local.csr();
  const auto component_edges = [&](const auto& reached) {
    std::uint64_t entries = 0;
    for (Index i = 0; i < csr.nrows; ++i)
      if (reached(i)) entries += csr.row_offsets[i + 1] - csr.row_offsets[i];
    return double(comm.sum(entries)) / 2;
  };
  const std::vector<Index> keys =
      draw_keys(comm, graph.partition, options.roots, options.seed,
                [&](Index i) { return csr.row_offsets[i + 1] - csr.row_offsets[i]; });
  run_searches(
      printing, "bfs", keys,
      [&](Index key, double& seconds, double& validate_seconds, double& edges) {
        const auto begin = Clock::now();
        const dist::BfsResult result = dist::bfs(comm, graph, key);
        seconds = seconds_since(begin);
        const auto validation = Clock::now();
        const dist::Verdict verdict = dist::validate_bfs(comm, graph, key, result);
        validate_seconds = seconds_since(validation);
        edges = component_edges([&](Index i) { return result.level[i] >= 0; });
        return verdict;
      },
      run.bfs);
  run_searches(
      printing, "sssp", keys,
      [&](Index key, double& seconds, double& validate_seconds, double& edges) {
        const auto begin = Clock::now();
        const grb::Vector<double> found = dist::sssp_bellman_ford(comm, weighted, key);
        seconds = seconds_since(begin);  // ends with the last round's all-reduce
        std::vector<double> distance;
        found.extract_dense(distance, std::numeric_limits<double>::infinity());
        const auto validation = Clock::now();
        const dist::Verdict verdict = dist::validate_sssp(comm, weighted, key, distance);
        validate_seconds = seconds_since(validation);
        edges = component_edges([&](Index i) { return std::isfinite(distance[i]); });
        return verdict;
      },
      run.sssp);
  if (printing) report(options, run);
}
#endif

#if GRB_WITH_NCCL
void on_gpu_rank(const dist::DeviceCommunicator& comm, const DistributedGraph500Options& options,
                 int processes) {
  Run run;
  run.backend = "cuda";
  run.engine = "distributed-direction-optimized";
  run.ranks = comm.size();
  run.processes = processes;
  comm.sum(0);  // the ranks start the clock together
  const auto start = Clock::now();
  const dist::DeviceGraph graph =
      dist::kronecker_on_devices(comm, options.scale, options.edge_factor, options.seed);
  comm.sum(0);  // ... and stop it once every rank has its rows
  run.construction_seconds = seconds_since(start);
  run.stored_entries = graph.global_entries;
  const dist::Graph<bool> host = graph.to_host();  // the keys' degrees and the validator's rows
  const Csr<bool>& csr = host.local.csr();
  const std::vector<Index> keys =
      draw_keys(comm, graph.partition, options.roots, options.seed,
                [&](Index i) { return csr.row_offsets[i + 1] - csr.row_offsets[i]; });
  dist::DeviceBfs bfs(comm, graph);
  bfs.run(keys.front());  // one untimed search: the buffers' first use
  run_searches(
      comm.rank() == 0, "bfs", keys,
      [&](Index key, double& seconds, double& validate_seconds, double& edges) {
        const auto begin = Clock::now();
        bfs.run(key);  // ends with an all-reduce every rank leaves
        seconds = seconds_since(begin);
        const auto validation = Clock::now();
        const dist::Verdict verdict = dist::validate_bfs(comm, host, key, bfs.result());
        validate_seconds = seconds_since(validation);
        edges = double(bfs.reached_entries()) / 2;
        return verdict;
      },
      run.bfs);
  if (comm.rank() == 0) report(options, run);
}
#endif

}  // namespace

void run_distributed_graph500(const DistributedGraph500Options& options) {
  if (options.gpus > 0 && launched_by_mpi())
    throw InvalidValue("--gpus runs GPU ranks in one process: under mpirun, use --backend cuda");
#if GRB_WITH_NCCL
  if (options.gpus > 0)
    return dist::run_on_devices(
        options.gpus, [&](dist::DeviceCommunicator& comm) { on_gpu_rank(comm, options, 1); });
#if GRB_WITH_MPI
  if (options.cuda) {
    static dist::Environment environment(nullptr, nullptr);
    const dist::Communicator world = dist::Communicator::world();
    dist::DeviceCommunicator comm = dist::connect_devices(world);
    ContextScope scope(comm.context());
    try {
      on_gpu_rank(comm, options, world.size());
      comm.context().wait();
    } catch (...) {
      comm.abort();  // the other ranks' collectives end with an error rather than wait forever
      throw;
    }
    return;
  }
#endif
#endif
  if (options.gpus > 0 || options.cuda)
    throw BackendUnavailable("this grb was built without CUDA, NCCL or MPI: it has no GPU ranks");
#if GRB_WITH_MPI
  on_cpu_ranks(options);
#else
  throw BackendUnavailable(
      "this grb was built without MPI (libopenmpi-dev): it cannot run "
      "under mpirun");
#endif
}

}  // namespace grb::app
