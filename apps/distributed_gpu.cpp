// Distributed `grb bfs` on GPU ranks over NCCL: one rank per GPU, in threads of this process
// (--gpus) or one per process under mpirun (--backend cuda). See distributed.hpp.
#include <algorithm>
#include <chrono>

#include "distributed.hpp"
#include "distributed_report.hpp"
#include "grb/error.hpp"

#if GRB_WITH_NCCL
#include "grb/deferred.hpp"
#include "grb/distributed/device_bfs.hpp"
#include "grb/distributed/device_graph.hpp"
#include "grb/distributed/read_graph.hpp"
#if GRB_WITH_MPI
#include "grb/distributed/connect_devices.hpp"
#endif
#endif

namespace grb::app::distributed_parts {

#if GRB_WITH_NCCL
namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

/// One rank's part: builds the graph on the GPUs (Graph500 kernel 1, timed), searches, validates;
/// rank 0 prints. Every collective below is made by every rank, in the same order.
void run_gpu_rank(const dist::DeviceCommunicator& comm, const DistributedOptions& options) {
  const bool printing = comm.rank() == 0;
  DistributedReport report;
  report.graph = graph_name(options);
  report.backend = "cuda";
  const std::string engine = engine_of(options, {"direction-optimized", "top-down"});
  report.engine = "distributed-" + engine;
  report.ranks = comm.size();
  comm.sum(0);  // the ranks start the clock together
  const auto start = Clock::now();
  // Generated on the GPUs, or read by every rank from its part of the file and copied over.
  const dist::DeviceGraph graph =
      options.graph.kron_scale > 0
          ? dist::kronecker_on_devices(comm, options.graph.kron_scale, options.graph.edge_factor,
                                       options.graph.seed)
          : dist::to_device(
                dist::read_matrix_market<bool>(comm, options.graph.file, relabel_seed(options)));
  comm.sum(0);  // ... and stop it once every rank has its rows
  report.load_ms = elapsed_ms(start);
  report.n = graph.partition.vertices();
  report.m = graph.global_entries;
  report.source = choose_source(options, report.n, dist::first_vertex_with_edge(comm, graph));
  report.source_in_file = file_vertex(options, report.n, report.source);
  if (printing) print_graph_line(report, options.json);

  dist::DeviceBfs bfs(comm, graph, {.direction_optimizing = engine == "direction-optimized"});
  bfs.run(report.source);  // warm-up
  for (int r = 0; r < options.runs; ++r) {
    const auto begin = Clock::now();
    report.levels = bfs.run(report.source);  // ends with an all-reduce that every rank leaves
    report.times.push_back(elapsed_ms(begin));
  }
  std::sort(report.times.begin(), report.times.end());
  report.edges = static_cast<double>(bfs.reached_entries()) / 2;
  report.reached = bfs.reached();
  std::optional<dist::Verdict> verdict;
  if (options.validate) {
    verdict = dist::validate_bfs(comm, graph.to_host(), report.source, bfs.result());
    report.validated = verdict->ok;
  }
  if (printing) print_report(report, options.json);
  if (verdict && !verdict->ok)
    throw ValidationFailed("distributed bfs failed validation on rank " +
                           std::to_string(comm.rank()) + ": " + verdict->message);
}

}  // namespace

void run_on_gpus(const DistributedOptions& options) {
  engine_of(options, {"direction-optimized", "top-down"});
  dist::run_on_devices(options.gpus,
                       [&](dist::DeviceCommunicator& comm) { run_gpu_rank(comm, options); });
}

void run_on_gpu_ranks_under_mpi(const DistributedOptions& options) {
#if GRB_WITH_MPI
  engine_of(options, {"direction-optimized", "top-down"});
  static dist::Environment environment(nullptr, nullptr);
  dist::DeviceCommunicator comm = dist::connect_devices(dist::Communicator::world());
  ContextScope scope(comm.context());
  try {
    run_gpu_rank(comm, options);
    comm.context().wait();
  } catch (...) {
    comm.abort();  // the other ranks' collectives end with an error rather than wait forever
    throw;
  }
#else
  (void)options;
  throw BackendUnavailable(
      "this grb was built without MPI (libopenmpi-dev): it cannot run "
      "under mpirun; `grb bfs --gpus G` runs G GPU ranks without it");
#endif
}

#else
void run_on_gpus(const DistributedOptions&) {
  throw BackendUnavailable(
      "this grb was built without CUDA and NCCL: it has no GPU ranks (--gpus)");
}
void run_on_gpu_ranks_under_mpi(const DistributedOptions&) {
  throw BackendUnavailable(
      "this grb was built without CUDA and NCCL: under mpirun it runs CPU ranks only (leave out "
      "--backend cuda)");
}
#endif

}  // namespace grb::app::distributed_parts
