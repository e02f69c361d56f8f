#include "distributed.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "distributed_report.hpp"
#include "grb/distributed/relabelling.hpp"
#include "grb/error.hpp"
#include "grb/io.hpp"

#if GRB_WITH_MPI
#include "distributed/fastsv.hpp"
#include "distributed/linear_algebra.hpp"
#include "grb/distributed/bfs.hpp"
#include "grb/distributed/graph.hpp"
#include "grb/distributed/read_graph.hpp"
#endif

namespace grb::app {

bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(variable)) return true;
  return false;
}

namespace distributed_parts {

std::string graph_name(const DistributedOptions& options) {
  if (options.graph.kron_scale > 0) return "kron-" + std::to_string(options.graph.kron_scale);
  return std::filesystem::path(options.graph.file).filename().string();
}

Index choose_source(const DistributedOptions& options, Index n, Index first_with_edge) {
  if (options.source) {
    if (*options.source >= n)
      throw InvalidValue("vertex " + std::to_string(*options.source) + " is not in " +
                         graph_name(options) + " (its vertices are 0.." + std::to_string(n - 1) +
                         ")");
    const Index source = static_cast<Index>(*options.source);
    return options.relabel ? dist::Relabelling(n, options.graph.seed).label(source) : source;
  }
  if (first_with_edge >= n)
    throw InvalidValue("the graph has no edges: there is no source to search from");
  return first_with_edge;
}

std::optional<std::uint64_t> relabel_seed(const DistributedOptions& options) {
  return options.relabel ? std::optional<std::uint64_t>(options.graph.seed) : std::nullopt;
}

Index file_vertex(const DistributedOptions& options, Index n, Index v) {
  return options.relabel ? dist::Relabelling(n, options.graph.seed).original(v) : v;
}

std::string engine_of(const DistributedOptions& options, const std::vector<std::string>& known) {
  if (options.engine.empty()) return known.front();
  if (std::find(known.begin(), known.end(), options.engine) != known.end()) return options.engine;
  std::string names;
  for (const std::string& name : known) names += (names.empty() ? "" : ", ") + name;
  throw InvalidValue("--engine " + options.engine + ": distributed " +
                     std::string(to_string(options.algorithm)) + " runs " + names);
}

}  // namespace distributed_parts

#if GRB_WITH_MPI
namespace {

using Clock = std::chrono::steady_clock;

/// The graph, generated or read from a Matrix Market file by every rank at once.
template <class T>
dist::Graph<T> load(const dist::Communicator& comm, const DistributedOptions& options) {
  if (options.graph.kron_scale > 0)
    return dist::kronecker<T>(comm, options.graph.kron_scale, options.graph.edge_factor,
                              options.graph.seed);
  return dist::read_matrix_market<T>(comm, options.graph.file,
                                     distributed_parts::relabel_seed(options));
}

/// The input edges the search covered (each undirected edge once): Graph500's TEPS numerator.
double input_edges(const dist::Communicator& comm, const dist::Graph<bool>& graph,
                   const dist::BfsResult& result) {
  const Csr<bool>& csr = graph.local.csr();
  std::uint64_t entries = 0;
  for (Index i = 0; i < csr.nrows; ++i)
    if (result.level[i] >= 0) entries += csr.row_offsets[i + 1] - csr.row_offsets[i];
  return static_cast<double>(comm.sum(entries)) / 2;
}

/// The first vertex with an edge, over all ranks (n where there is none).
template <class T>
Index first_with_edge(const dist::Communicator& comm, const dist::Graph<T>& graph) {
  const Csr<T>& csr = graph.local.csr();
  const Index n = graph.partition.vertices();
  Index mine = n;
  for (Index i = 0; i < csr.nrows && mine == n; ++i)
    if (csr.row_offsets[i + 1] > csr.row_offsets[i]) mine = graph.first() + i;
  return static_cast<Index>(n - comm.max(n - mine));
}

/// A rank's part of a result as one value a vertex (`absent` where it has none).
template <class T>
std::vector<T> dense(const grb::Vector<T>& local, T absent) {
  std::vector<T> values;
  local.extract_dense(values, absent);
  return values;
}

/// The linear-algebra BFS's vectors as the hand-written engine's result; its levels count the
/// vertices found at each depth (it sends no pairs of its own: the vxm's exchange does).
dist::BfsResult as_bfs_result(const dist::Communicator& comm, const dist::LinearAlgebraBfs& bfs) {
  dist::BfsResult result{dense(bfs.level, std::int32_t{-1}), dense(bfs.parent, no_index), {}};
  std::int32_t deepest = -1;
  for (std::int32_t level : result.level) deepest = std::max(deepest, level);
  const auto levels = static_cast<std::size_t>(comm.max(std::uint64_t(deepest + 1)));
  std::vector<std::uint64_t> found(levels, 0);
  for (std::int32_t level : result.level)
    if (level >= 0) ++found[level];
  found = comm.sum(found);
  for (std::uint64_t count : found) result.levels.push_back({.frontier = count});
  return result;
}

void run_bfs_on_cpu_ranks(const DistributedOptions& options) {
  const std::string engine = distributed_parts::engine_of(options, {"top-down", "linalg"});
  static dist::Environment environment(nullptr, nullptr);
  const dist::Communicator comm = dist::Communicator::world();
  const bool printing = comm.rank() == 0;

  DistributedReport report;
  report.graph = distributed_parts::graph_name(options);
  report.backend = "cpu";
  report.algorithm = "bfs";
  report.engine = "distributed-" + engine;
  report.ranks = comm.size();
  report.pairs_counted = engine != "linalg";
  const auto start = Clock::now();
  const dist::Graph<bool> graph = load<bool>(comm, options);
  report.load_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  report.n = graph.partition.vertices();
  report.m = graph.global_entries;
  report.source = distributed_parts::choose_source(options, report.n, first_with_edge(comm, graph));
  report.source_in_file = distributed_parts::file_vertex(options, report.n, report.source);
  if (printing) print_graph_line(report, options.json);

  const auto search = [&] {
    return engine == "linalg"
               ? as_bfs_result(comm, dist::bfs_linear_algebra(comm, graph, report.source))
               : dist::bfs(comm, graph, report.source);
  };
  dist::BfsResult result = search();  // warm-up
  for (int r = 0; r < options.runs; ++r) {
    const auto begin = Clock::now();
    result = search();
    // Every rank leaves the last level's all-reduce together: rank 0's clock covers the search.
    report.times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - begin).count());
  }
  std::sort(report.times.begin(), report.times.end());
  report.edges = input_edges(comm, graph, result);
  std::optional<dist::Verdict> verdict;
  if (options.validate) {
    verdict = dist::validate_bfs(comm, graph, report.source, result);
    report.validated = verdict->ok;
  }
  for (std::int32_t level : result.level) report.reached += level >= 0;
  report.reached = comm.sum(report.reached);
  report.levels = result.levels;
  if (printing) print_report(report, options.json);
  if (verdict && !verdict->ok)
    throw ValidationFailed("distributed bfs failed validation on rank " +
                           std::to_string(comm.rank()) + ": " + verdict->message);
}

/// grb sssp (Bellman-Ford over min.plus) and grb cc (FastSV, or label propagation over
/// min.first) on CPU ranks: the linear-algebra algorithms of algorithms/distributed, timed and
/// validated.
void run_linear_algebra_on_cpu_ranks(const DistributedOptions& options) {
  const bool sssp = options.algorithm == Algorithm::sssp;
  const std::string engine = distributed_parts::engine_of(
      options, sssp ? std::vector<std::string>{"bellman-ford"}
                    : std::vector<std::string>{"fastsv", "label-propagation"});
  static dist::Environment environment(nullptr, nullptr);
  const dist::Communicator comm = dist::Communicator::world();
  const bool printing = comm.rank() == 0;
  DistributedReport report;
  report.graph = distributed_parts::graph_name(options);
  report.algorithm = sssp ? "sssp" : "cc";
  report.backend = "cpu";
  report.engine = "distributed-" + engine;
  report.ranks = comm.size();
  const auto start = Clock::now();
  // SSSP reads the Graph500 weights; CC only the pattern.
  std::optional<dist::Graph<double>> weighted;
  std::optional<dist::Graph<bool>> pattern;
  if (sssp)
    weighted = load<double>(comm, options);
  else
    pattern = load<bool>(comm, options);
  report.load_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  report.n = sssp ? weighted->partition.vertices() : pattern->partition.vertices();
  report.m = sssp ? weighted->global_entries : pattern->global_entries;
  if (sssp) {
    report.source =
        distributed_parts::choose_source(options, report.n, first_with_edge(comm, *weighted));
    report.source_in_file = distributed_parts::file_vertex(options, report.n, report.source);
  }
  if (printing) print_graph_line(report, options.json);

  std::vector<double> distance;
  std::vector<Index> label;
  for (int r = -1; r < options.runs; ++r) {  // one warm-up
    const auto begin = Clock::now();
    if (sssp)
      distance = dense(dist::sssp_bellman_ford(comm, *weighted, report.source),
                       std::numeric_limits<double>::infinity());
    else
      label = dense(engine == "fastsv" ? dist::components_fastsv(comm, *pattern)
                                       : dist::components_label_propagation(comm, *pattern),
                    no_index);
    if (r >= 0)
      report.times.push_back(
          std::chrono::duration<double, std::milli>(Clock::now() - begin).count());
  }
  std::sort(report.times.begin(), report.times.end());
  std::optional<dist::Verdict> verdict;
  if (sssp) {
    const Csr<double>& csr = weighted->local.csr();
    std::uint64_t entries = 0, reached = 0;
    double farthest = 0;
    for (Index i = 0; i < csr.nrows; ++i)
      if (std::isfinite(distance[i])) {
        ++reached;
        entries += csr.row_offsets[i + 1] - csr.row_offsets[i];
        farthest = std::max(farthest, distance[i]);
      }
    report.edges = static_cast<double>(comm.sum(entries)) / 2;
    report.reached = comm.sum(reached);
    report.farthest = comm.max_real(farthest);
    if (options.validate) verdict = dist::validate_sssp(comm, *weighted, report.source, distance);
  } else {
    std::uint64_t roots = 0;
    for (Index i = 0; i < label.size(); ++i) roots += label[i] == pattern->first() + i;
    report.components = comm.sum(roots);
    report.edges = static_cast<double>(report.m) / 2;
    if (options.validate) verdict = dist::validate_components(comm, *pattern, label);
  }
  if (verdict) report.validated = verdict->ok;
  if (printing) print_report(report, options.json);
  if (verdict && !verdict->ok)
    throw ValidationFailed("distributed " + report.algorithm + " failed validation on rank " +
                           std::to_string(comm.rank()) + ": " + verdict->message);
}

}  // namespace
#endif

void run_distributed(const DistributedOptions& options) {
  if (options.relabel && options.graph.kron_scale > 0)
    throw InvalidValue("--relabel: a Kronecker graph's vertices are randomly labelled already");
  if (options.graph.kron_scale == 0) {
    const bool matrix_market = options.graph.format == "mtx" ||
                               (options.graph.format == "auto" && !options.graph.file.empty() &&
                                io::detect_format(options.graph.file) == io::Format::matrix_market);
    if (!matrix_market)
      throw InvalidValue(
          "distributed, grb reads Matrix Market files and generates --kron graphs (this "
          "version): convert the graph with `grb convert IN OUT.mtx`, or run without mpirun and "
          "--gpus");
  }
  if (options.algorithm != Algorithm::bfs && (options.gpus > 0 || options.cuda))
    throw InvalidValue("on GPU ranks, grb runs bfs (this version); " +
                       std::string(to_string(options.algorithm)) +
                       " runs on CPU ranks: mpirun -np P grb " +
                       std::string(to_string(options.algorithm)) + " --kron S");
  if (options.gpus > 0) {
    if (launched_by_mpi())
      throw InvalidValue(
          "--gpus runs GPU ranks in one process: under mpirun, use --backend cuda "
          "(one rank per GPU) instead");
    return distributed_parts::run_on_gpus(options);
  }
  if (options.cuda) return distributed_parts::run_on_gpu_ranks_under_mpi(options);
#if GRB_WITH_MPI
  if (options.algorithm == Algorithm::bfs)
    run_bfs_on_cpu_ranks(options);
  else
    run_linear_algebra_on_cpu_ranks(options);
#else
  throw BackendUnavailable(
      "this grb was built without MPI (libopenmpi-dev): it cannot run under mpirun");
#endif
}

}  // namespace grb::app
