// A distributed graph on the GPU ranks of a DeviceCommunicator: rank r's block of rows
// (grb/distributed/partition.hpp) as a CSR pattern on its own GPU, with global column ids.
#pragma once

#include <cstdint>

#include "grb/array.hpp"
#include "grb/distributed/device_communicator.hpp"
#include "grb/distributed/partition.hpp"
#include "grb/types.hpp"

namespace grb::dist {

struct DeviceGraph {
  BlockPartition partition{0, 1};
  int rank = 0;
  grb::detail::Array<Offset> row_offsets;  // count(rank) + 1 entries, on the rank's GPU
  grb::detail::Array<Index> col_indices;   // global ids, ascending within a row
  /// Edges stored on every rank together (each undirected edge twice).
  std::uint64_t global_entries = 0;

  Index first() const { return partition.first(rank); }
  Index rows() const { return partition.count(rank); }
  Offset local_entries() const { return col_indices.size(); }
  /// A host copy of this rank's rows (for the validator and the tests).
  Graph<bool> to_host() const;
};

/// Graph500 kernel 1 on the GPUs: the graph of dist::kronecker<bool> (and of
/// generate::kronecker_pattern), built without any rank or host holding it whole. Each rank
/// draws its share of the edge numbers on its GPU, sorts both directions of each by row, sends
/// each block of rows to its owner (one all-to-all over NCCL), and sorts and deduplicates what
/// it receives. Device memory at the peak, per input edge of the rank's share: about 48 bytes.
DeviceGraph kronecker_on_devices(const DeviceCommunicator& comm, int scale, int edge_factor = 16,
                                 std::uint64_t seed = 1);

/// The first vertex with an edge, over every rank (collective); vertices() where there is none.
Index first_vertex_with_edge(const DeviceCommunicator& comm, const DeviceGraph& graph);

/// This rank's share of a host-built distributed graph, copied to its GPU.
DeviceGraph to_device(const Graph<bool>& graph);

}  // namespace grb::dist
