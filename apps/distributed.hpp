// Distributed `grb bfs --kron SCALE ...` (include/grb/distributed), rank 0 printing:
//   mpirun -np P grb bfs ...                   P CPU ranks over MPI, one per process;
//   mpirun -np P grb bfs --backend cuda ...    P GPU ranks over NCCL, one per process (and GPU);
//   grb bfs --gpus G ...                       G GPU ranks over NCCL in this process, one a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

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
  /// GPU ranks: direction-optimized (bottom-up levels where they pay) or top-down (seed 004).
  std::string engine = "direction-optimized";
};

/// Runs the algorithm on the ranks of the launch (or options.gpus GPUs). BFS on a generated
/// Kronecker graph for now; anything else is an InvalidValue that says what runs distributed.
void run_distributed(const DistributedOptions& options);

namespace detail {
/// kron-S, for the report.
std::string graph_name(const DistributedOptions& options);
/// options.source, checked against the graph's n; `first_with_edge` otherwise.
Index choose_source(const DistributedOptions& options, Index n, Index first_with_edge);
/// The GPU ranks (apps/distributed_gpu.cpp): in threads of this process, or under mpirun.
void run_on_gpus(const DistributedOptions& options);
void run_on_gpu_ranks_under_mpi(const DistributedOptions& options);
}  // namespace detail

}  // namespace grb::app
