// Distributed `grb bfs --kron SCALE ...` (include/grb/distributed), rank 0 printing:
//   mpirun -np P grb bfs ...                   P CPU ranks over MPI, one per process;
//   mpirun -np P grb bfs --backend cuda ...    P GPU ranks over NCCL, one per process (and GPU);
//   grb bfs --gpus G ...                       G GPU ranks over NCCL in this process, one a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph_input.hpp"
#include "runner.hpp"

namespace grb::app {

/// Whether this process was started by an MPI launcher (mpirun, mpiexec, srun): the launchers'
/// own environment variables say so.
bool launched_by_mpi();

struct DistributedOptions {
  Algorithm algorithm = Algorithm::bfs;
  GraphSpec graph;
  std::optional<std::uint64_t> source;
  int runs = 3;
  bool validate = false;
  bool json = false;
  bool cuda = false;  // under mpirun: GPU ranks rather than CPU ranks
  int gpus = 0;       // > 0: that many GPU ranks in this process, without a launcher
  bool relabel = false;  // files: vertices relabelled at random (graph.seed) for balance
  /// --engine as given (empty: the default). BFS on GPU ranks: direction-optimized (the
  /// default) or top-down (seed 004); on CPU ranks: top-down. SSSP: bellman-ford. CC:
  /// label-propagation.
  std::string engine;
};

/// Runs the algorithm on the ranks of the launch (or options.gpus GPUs), on a generated Kronecker
/// graph: BFS on CPU or GPU ranks, SSSP and CC on CPU ranks (this version); anything else is an
/// InvalidValue that says what runs distributed.
void run_distributed(const DistributedOptions& options);

namespace distributed_parts {
/// kron-S, for the report.
std::string graph_name(const DistributedOptions& options);
/// options.source (in the file's ids), checked against the graph's n and relabelled where the
/// graph is; `first_with_edge` otherwise (a vertex of the graph).
Index choose_source(const DistributedOptions& options, Index n, Index first_with_edge);
/// The relabelling seed of a file read with --relabel (none otherwise).
std::optional<std::uint64_t> relabel_seed(const DistributedOptions& options);
/// A vertex of the graph as the file names it (the same id without --relabel).
Index file_vertex(const DistributedOptions& options, Index n, Index v);
/// options.engine, or `fallback` when none was given; InvalidValue unless it is one of `known`.
std::string engine_of(const DistributedOptions& options, const std::vector<std::string>& known);
/// The GPU ranks (apps/distributed_gpu.cpp): in threads of this process, or under mpirun.
void run_on_gpus(const DistributedOptions& options);
void run_on_gpu_ranks_under_mpi(const DistributedOptions& options);
}  // namespace distributed_parts

}  // namespace grb::app
