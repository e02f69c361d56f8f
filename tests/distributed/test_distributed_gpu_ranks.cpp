// GPU ranks under mpirun (one per process, connect_devices): each MPI rank takes the GPU of its
// rank on the host, and NCCL's id travels over MPI. The construction and the BFS are checked
// against the CPU ranks' own graph and a textbook BFS. Skipped, visibly, on every rank when a
// host has fewer GPUs than ranks (CI has none).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <grb/distributed/bfs.hpp>
#include <grb/distributed/connect_devices.hpp>
#include <grb/distributed/device_bfs.hpp>
#include <grb/distributed/device_graph.hpp>
#include <grb/generate.hpp>
#include <vector>

#include "engine_tests.hpp"

namespace {

using grb::Index;
using grb::dist::Communicator;

bool skip_without_gpus(const Communicator& comm) {
  if (comm.all(comm.local_rank() < grb::dist::visible_devices())) return false;
  if (comm.rank() == 0) MESSAGE("fewer GPUs than ranks on a host: the GPU-rank cases are SKIPPED");
  return true;
}

}  // namespace

TEST_CASE("GPU ranks under MPI: kernel 1 on the GPUs equals the CPU ranks' graph; BFS is valid") {
  const Communicator world = Communicator::world();
  if (skip_without_gpus(world)) return;
  const grb::dist::DeviceCommunicator comm = grb::dist::connect_devices(world);
  grb::ContextScope scope(comm.context());
  CHECK(comm.rank() == world.rank());
  CHECK(comm.size() == world.size());
  const grb::dist::DeviceGraph graph = grb::dist::kronecker_on_devices(comm, 11, 16, 5);
  const grb::dist::Graph<bool> host = graph.to_host();
  const grb::dist::Graph<bool> cpu = grb::dist::kronecker(world, 11, 16, 5);
  const grb::Csr<bool>& a = host.local.csr();
  const grb::Csr<bool>& b = cpu.local.csr();
  const bool same = a.nrows == b.nrows && a.nvals() == b.nvals() &&
                    std::equal(a.row_offsets.begin(), a.row_offsets.end(), b.row_offsets.begin()) &&
                    std::equal(a.col_indices.begin(), a.col_indices.end(), b.col_indices.begin());
  CHECK(world.all(same));

  const grb::Matrix<bool> whole = grb::generate::kronecker_pattern(11, 16, {.seed = 5});
  grb::dist::DeviceBfs bfs(comm, graph);
  for (Index source : {Index{0}, Index{777}, Index{2047}}) {
    INFO("source " << source);
    bfs.run(source);
    const grb::dist::BfsResult result = bfs.result();
    const std::vector<std::int32_t> expected = grb::test::textbook_levels(whole, source);
    CHECK(world.all(
        std::equal(result.level.begin(), result.level.end(), expected.begin() + graph.first())));
    const grb::dist::Verdict verdict = grb::dist::validate_bfs(world, host, source, result);
    INFO(verdict.message);
    CHECK(verdict.ok);
  }
}
