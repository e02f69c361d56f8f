// `grb graph500` distributed: under mpirun on CPU ranks (or GPU ranks with --backend cuda), or
// on G GPU ranks of one process with --gpus G. Kernel 1 is the distributed construction (each
// rank draws its share of the edges and sends them to their owners), timed with the generation
// it includes; kernel 2 is the distributed BFS from every search key, each search validated by
// the distributed Graph500 validator. This version runs no SSSP kernel distributed.
#pragma once

#include <cstdint>
#include <string>

namespace grb::app {

struct DistributedGraph500Options {
  int scale = 0;
  int edge_factor = 16;
  int roots = 64;
  std::uint64_t seed = 1;
  bool cuda = false;  // under mpirun: GPU ranks
  int gpus = 0;       // > 0: GPU ranks in this process
  std::string json;   // also write the results here
};

void run_distributed_graph500(const DistributedGraph500Options& options);

}  // namespace grb::app
