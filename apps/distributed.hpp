// `mpirun -np P grb bfs --kron SCALE ...`: the algorithm commands under an MPI launcher run on
// the distributed layer (include/grb/distributed), one CPU rank per process. Rank 0 prints.
#pragma once

#include <cstdint>
#include <optional>

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
};

/// Runs the algorithm on the ranks of the launch. BFS on a generated Kronecker graph for now;
/// anything else is an InvalidValue that says what runs distributed.
void run_distributed(const DistributedOptions& options);

}  // namespace grb::app
